"""Writes the perft suite shipped with the package (python/blokus/data/perft.json).

For every built-in variant a seeded uniformly random game is played, and four of its positions
are kept: the empty board, the opening (after four moves per colour, or a third of the way to
the end in short games), the middle game (halfway) and the end (the first position with one
colour or more out of the game); in ``classic_3`` the opening and the
middle game are the nearest positions with the shared colour to move. Each position gets
``perft(1)``, ``perft(2)``, ... until the next count would take more than ``--seconds`` (by the
last count's time and branching) or ``--max-depth`` is reached; depths up to 2 are confirmed
by the reference generator before anything is written (a disagreement stops the script).

    python benches/make_perft_suite.py [--seconds 8] [--variant duo ...] [--out FILE]

The positions depend only on the seed (``--seed``) and the rules; the counts on the rules.
Run it again only to add variants or positions: the suite pins the counts, and a change to
them is a change to the rules (or a bug).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from blokus import Board, variants
from blokus.perft import SUITE_PATH, PerftPosition, dump_suite, load_suite, reference_perft

#: Depths the reference generator confirms.
REFERENCE_DEPTH = 2
#: Plies an end position should have before the game is over.
END_PLIES = 5


@dataclass
class Ply:
    """A position of the game: its moves from the start, colour to move, colours out."""

    moves: list[str]
    turn: int | None
    out: tuple[int, ...]


def random_game(variant: str, seed: int) -> list[Ply]:
    """Every position of a uniformly random game (moves drawn from the sorted legal ids)."""
    rng = random.Random(seed)
    b = Board(variant)
    moves: list[str] = []
    plies = [Ply([], b.turn, b.out)]
    while not b.is_game_over():
        ids = sorted(int(i) for i in b.legal_moves.ids())
        b.push(rng.choice(ids))
        moves.append(str(b.move_stack[-1]))
        plies.append(Ply(list(moves), b.turn, b.out))
    return plies


def nearest(plies: list[Ply], target: int, good: object) -> Ply:
    """The position nearest to ply ``target`` for which ``good(ply)`` holds."""
    order = sorted(range(len(plies)), key=lambda i: (abs(i - target), i))
    for i in order:
        if good(plies[i]):  # type: ignore[operator]
            return plies[i]
    raise LookupError("no position fits")


def positions_of(variant: str, seed: int) -> list[tuple[str, Ply]]:
    """The four positions of the first seeded game (from ``seed`` on) that has them all, with
    an end position at least ``END_PLIES`` plies before the game is over (the best game of a
    hundred otherwise)."""
    b = Board(variant)
    nc = b.variant.num_colors
    shared = set(b.variant.shared_colors)
    best: tuple[int, list[tuple[str, Ply]]] | None = None
    for attempt in range(100):
        plies = random_game(variant, seed + attempt)
        playing = [p for p in plies if p.turn is not None]

        def live(p: Ply) -> bool:
            return p.turn is not None and (not shared or p.turn in shared)

        # The end: the first position with colours out (what follows is the end game), the
        # shared colour to move where there is one and it can be had.
        ends = [p for p in playing if p.out]
        if not ends:
            continue  # every colour ran out of moves at once: no end position with colours out
        end = next((p for p in ends[:nc] if p.turn in shared), ends[0])
        # The opening after four moves per colour and the middle halfway, unless the game is
        # too short for them to come in that order before the end (Blokus 3D): then a third
        # and two thirds of the way to the end.
        try:
            opening = nearest(plies, 4 * nc, live)
            middle = nearest(plies, len(plies) // 2, live)
            if not len(opening.moves) < len(middle.moves) < len(end.moves):
                opening = nearest(plies, len(end.moves) // 3, live)
                middle = nearest(plies, 2 * len(end.moves) // 3, live)
        except LookupError:
            continue
        if not 0 < len(opening.moves) < len(middle.moves) < len(end.moves):
            continue
        left = len(playing) - len(end.moves)
        found = [("empty", plies[0]), ("opening", opening), ("middle", middle), ("end", end)]
        if left >= END_PLIES:
            return found
        if best is None or left > best[0]:
            best = (left, found)
    if best is None:
        raise SystemExit(f"{variant}: no game of seeds {seed}..{seed + 99} has an end position with colours out")
    return best[1]


def counts_of(board: Board, seconds: float, max_depth: int) -> list[int]:
    counts: list[int] = []
    spent = 0.0
    for depth in range(1, max_depth + 1):
        t0 = time.perf_counter()
        n = board.perft(depth)
        spent = time.perf_counter() - t0
        counts.append(n)
        if n == 0:
            break
        branching = n / counts[-2] if len(counts) > 1 and counts[-2] else n
        if spent * max(branching, 1.0) > seconds:
            break
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=8.0, help="longest a deepest count may take (estimated)")
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--variant", action="append", help="only these variants (the others are kept from --out)")
    ap.add_argument("--out", default=str(SUITE_PATH))
    args = ap.parse_args(argv)

    chosen = args.variant or variants()
    kept = []
    if args.variant and Path(args.out).exists():
        kept = [p for p in load_suite(args.out) if p.variant not in chosen]
    made: list[PerftPosition] = []
    for vid in chosen:
        for name, ply in positions_of(vid, args.seed):
            board = Board(vid, ply.moves)
            counts = counts_of(board, args.seconds, args.max_depth)
            for depth in range(1, min(REFERENCE_DEPTH, len(counts)) + 1):
                ref = reference_perft(board, depth)
                if ref != counts[depth - 1]:
                    print(f"{vid} {name}: perft({depth}) {counts[depth - 1]} but the reference counts {ref}")
                    return 1
            p = PerftPosition(vid, name, board.bpn(), ply.moves, counts, min(REFERENCE_DEPTH, len(counts)))
            made.append(p)
            print(f"{vid:<16}{name:<8} ply {len(ply.moves):>3}  {counts}", flush=True)
    order = {v: i for i, v in enumerate(variants())}
    names = {"empty": 0, "opening": 1, "middle": 2, "end": 3}
    everything = sorted(kept + made, key=lambda p: (order.get(p.variant, len(order)), names.get(p.name, 9)))
    dump_suite(everything, args.out)
    print(f"wrote {len(everything)} positions to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
