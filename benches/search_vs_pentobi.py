"""Search speed side by side: simulations a second of our MCTS and of Pentobi's, one thread each,
on the same positions, in one run, alternating.

For each variant the positions are the empty board and the positions after 12 and 24 moves of a
game between two seeded greedy bots (the same for every run). On each position, for each
round: Pentobi's search (``reg_genmove`` at ``--level``, one thread, no book) runs, and its own
``Sim/s`` line is read from its standard error; then ours (``MctsBot(threads=1)``, its defaults)
searches the same position for as long as Pentobi's search took, and its simulations are
counted. The table gives the medians over the rounds and their ratio (ours / Pentobi's).

    python benches/search_vs_pentobi.py                          # duo, classic_2, trigon_2
    python benches/search_vs_pentobi.py --variants duo --rounds 5 --level 8 --markdown out.md

Needs ``pentobi-gtp`` on the path (or ``--pentobi PATH``); run it on a quiet machine, since both
searches are timed by the wall clock. Pentobi's source is not needed: only its program.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import blokus
from blokus import Board
from blokus.bench import KEPT
from blokus.bots import GreedyBot, MctsBot
from blokus.gtp import Engine, GtpBot

SIMS_PER_SECOND = re.compile(r"Sim/s (\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class Measured:
    variant: str
    plies: int
    seconds: float
    ours: float
    pentobi: float

    @property
    def ratio(self) -> float:
        return self.ours / self.pentobi if self.pentobi > 0 else float("nan")


def position(variant: str, plies: int, seed: int = 1) -> Board:
    """The board after ``plies`` moves of two seeded greedy bots (fewer if the game ends)."""
    board = Board(variant)
    bots = [GreedyBot(seed=seed), GreedyBot(seed=seed + 1)]
    while board.ply < plies and not board.is_game_over():
        assert board.player is not None
        board.push(bots[board.player % 2].choose(board))
    return board


def pentobi_search(engine: Engine, bot: GtpBot, board: Board) -> tuple[float, float]:
    """Pentobi's simulations a second (its own figure) and the search's wall-clock seconds."""
    bot._sync(board)
    assert board.turn is not None
    seen = engine.stderr.count("Sim/s")
    start = time.perf_counter()
    engine.reg_genmove(board.turn, timeout=600)
    seconds = time.perf_counter() - start
    deadline = time.monotonic() + 2
    while engine.stderr.count("Sim/s") <= seen and time.monotonic() < deadline:
        time.sleep(0.01)  # the statistics reach its stderr around the answer
    rates = SIMS_PER_SECOND.findall(engine.stderr)
    if engine.stderr.count("Sim/s") <= seen or not rates:
        raise SystemExit("pentobi-gtp printed no 'Sim/s' line (run it without --quiet)")
    return float(rates[-1]), seconds


def our_search(board: Board, seconds: float, seed: int) -> float:
    """Our simulations a second, searching ``board`` for ``seconds`` on one thread."""
    bot = MctsBot(seconds=seconds, threads=1, seed=seed)
    start = time.perf_counter()
    analysis = bot.analyse(board)
    elapsed = time.perf_counter() - start
    return sum(m.visits for m in analysis.moves) / elapsed


def measure(pentobi: str, variant: str, plies: int, level: int, rounds: int) -> Measured:
    board = position(variant, plies)
    command = [pentobi, "--nobook", "--noresign", "--threads", "1", "--game", variant, "--level", str(level)]
    ours, theirs, times = [], [], []
    with Engine.popen(command, variant=variant, timeout=600) as engine:
        bot = GtpBot(engine)
        for r in range(rounds):
            rate, seconds = pentobi_search(engine, bot, board)
            theirs.append(rate)
            times.append(seconds)
            ours.append(our_search(board, seconds, seed=r + 1))
    return Measured(variant, board.ply, statistics.median(times), statistics.median(ours), statistics.median(theirs))


HEADING = "## Search speed beside Pentobi"


def table(rows: list[Measured], level: int, rounds: int) -> str:
    lines = [
        HEADING,
        "",
        "Written by `python benches/search_vs_pentobi.py --markdown docs/BENCHMARKS.md` (needs"
        " `pentobi-gtp`). Simulations a second, one thread each: ours (`MctsBot` defaults) searching"
        f" as long as `pentobi-gtp --nobook --threads 1 --level {level}` did, Pentobi's from its own"
        f" `Sim/s` line; medians of {rounds} alternating rounds (blokus {blokus.__version__},"
        f" {time.strftime('%Y-%m-%d')}). The positions: the empty board and the positions after 12"
        " and 24 moves of two seeded greedy bots.",
        "",
        "| position | seconds | ours, sims/s | Pentobi, sims/s | ratio |",
        "|---|---:|---:|---:|---:|",
    ]
    for m in rows:
        where = "empty" if m.plies == 0 else f"after {m.plies} plies"
        lines.append(f"| {m.variant}, {where} | {m.seconds:.2f} | {m.ours:,.0f} | {m.pentobi:,.0f} | {m.ratio:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", nargs="+", default=["duo", "classic_2", "trigon_2"])
    ap.add_argument("--plies", type=int, nargs="+", default=[0, 12, 24])
    ap.add_argument("--level", type=int, default=7, help="Pentobi's level (its searches' length)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pentobi", default="pentobi-gtp")
    ap.add_argument("--markdown", default=None, help="also write the table to this file")
    args = ap.parse_args()
    if shutil.which(args.pentobi) is None:
        print(f"{args.pentobi} is not on the path (give --pentobi PATH)", file=sys.stderr)
        return 2
    rows = []
    for variant in args.variants:
        for plies in args.plies:
            rows.append(measure(args.pentobi, variant, plies, args.level, args.rounds))
            print(table(rows[-1:], args.level, args.rounds).splitlines()[-1], flush=True)
    text = table(rows, args.level, args.rounds)
    print("\n" + text)
    if args.markdown:
        write_section(Path(args.markdown), text)
    return 0


def write_section(path: Path, section: str) -> None:
    """Puts ``section`` into a benchmark page among the sections that ``blokus bench
    --markdown`` keeps, in place of the one it had."""
    page = path.read_text(encoding="utf-8") if path.exists() else ""
    if KEPT not in page:
        page = page.rstrip("\n") + "\n\n" + KEPT + "\n"
    head, tail = page.split(KEPT, 1)
    start = tail.find(HEADING)
    if start >= 0:
        end = tail.find("\n## ", start + len(HEADING))
        tail = tail[:start] + (tail[end + 1 :] if end >= 0 else "")
    others = tail.strip("\n")
    path.write_text(head + KEPT + "\n\n" + (others + "\n\n" if others else "") + section, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
