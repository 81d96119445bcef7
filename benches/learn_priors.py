"""Learns the weights of the search's move priors, from its own searches or from a teacher's moves.

The prior of a move is ``exp(weights . features)`` normalised over the legal moves (``Features``
in the Rust crate). A long search spreads its visits over the moves it finds worth trying; this
script plays games with such searches (their first moves at random among the best, for variety),
records the features of every legal move and the visits the search gave each, and fits the
weights that make the prior closest to the visit distribution (cross-entropy, Adam with a
little L2). With ``--teacher COMMAND`` (a GTP engine, e.g. Pentobi) the target is instead the
move the teacher chooses at every position of games it plays against the search (two opening
moves at random among the largest pieces, for variety; seats alternating). The weights it
prints go into ``SQUARES`` or ``TRIANGLES`` in ``rust/blokus-core/src/search/config.rs``.

    python benches/learn_priors.py duo --games 40 --simulations 3000
    python benches/learn_priors.py duo --games 300 \
        --teacher "pentobi-gtp --nobook --noresign --quiet --game duo --level 6"
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import numpy.typing as npt

import blokus
from blokus.bots import MctsBot


def _piece_of(v: blokus.Variant) -> npt.NDArray[np.int64]:
    """The piece (index) of every placement, by id."""
    return np.array([m.piece.index for m in (blokus.Move(v, i) for i in range(v.num_placements))])


def _inputs(
    board: blokus.Board, ids: npt.NDArray[np.uint32], piece_of: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """The features of each of `ids`, then one column per piece (for its weight)."""
    features = board._core.features(ids.tolist())
    pieces = np.zeros((len(ids), len(board.variant.pieces)), dtype=np.float32)
    pieces[np.arange(len(ids)), piece_of[ids]] = 1.0
    return np.hstack([features, pieces])


def record(
    variant: str,
    games: int,
    simulations: int,
    seed: int,
    weights: list[float] | None,
    pieces: dict[str, float] | None,
) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]]:
    """(features of every legal move and its piece, visit share of each) at every position of
    the games."""
    rng = random.Random(seed)
    samples = []
    tuning: dict[str, object] = {}
    if weights is not None:
        tuning["prior_weights"] = weights
    if pieces is not None:
        tuning["piece_weights"] = pieces
    piece_of = _piece_of(blokus.Variant(variant))
    for g in range(games):
        bot = MctsBot(simulations=simulations, seed=seed * 1000 + g, **tuning)  # type: ignore[arg-type]
        board = blokus.Board(variant)
        while not board.is_game_over():
            a = bot.analyse(board)
            ids = board.legal_moves.ids()
            visits = {m.move.id: m.visits for m in a.moves}
            target = np.array([visits.get(int(i), 0) for i in ids], dtype=np.float64)
            if len(ids) > 1 and target.sum() > 0:
                samples.append((_inputs(board, ids, piece_of), target / target.sum()))
            # Early on, a move drawn among the well visited ones, so that games differ.
            if board.ply < 2 * board.variant.num_colors:
                top = [m for m in a.moves if m.visits >= a.moves[0].visits / 4]
                board.push(rng.choice(top).move)
            else:
                board.push(a.best)
        print(f"  game {g + 1}/{games}: {board.ply} moves, {len(samples)} positions", flush=True)
    return samples


def record_teacher(
    variant: str, games: int, teacher: str, seed: int
) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]]:
    """(features of every legal move and its piece, 1 for the teacher's choice) at every
    position of games the teacher plays against a short search."""
    from blokus.gtp import Engine, GtpBot

    rng = random.Random(seed)
    v = blokus.Variant(variant)
    piece_of = _piece_of(v)
    largest = max(p.size for p in v.pieces)
    samples = []
    with GtpBot(Engine.popen(teacher.split()), seed=seed) as coach:
        for g in range(games):
            ours = MctsBot(seconds=0.02, seed=seed * 1000 + g)
            coach.reset()
            board = blokus.Board(variant)
            while not board.is_game_over():
                ids = board.legal_moves.ids()
                choice = coach.choose(board)
                if len(ids) > 1:
                    samples.append((_inputs(board, ids, piece_of), (ids == choice.id).astype(np.float64)))
                if board.ply < 2:
                    move = rng.choice([m for m in board.legal_moves if m.piece.size == largest])
                elif board.turn is not None and board.turn % 2 == g % 2:
                    move = choice
                else:
                    move = ours.choose(board)
                board.push(move)
            print(f"  game {g + 1}/{games}: {board.ply} moves, {len(samples)} positions", flush=True)
    return samples


def fit(
    samples: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]], steps: int = 2000
) -> npt.NDArray[np.float64]:
    """The weights minimising the cross-entropy of the softmax prior to the visit shares."""
    x = np.concatenate([f for f, _ in samples]).astype(np.float64)
    target = np.concatenate([t for _, t in samples])
    starts = np.cumsum([0] + [len(t) for _, t in samples[:-1]])
    which = np.repeat(np.arange(len(samples)), [len(t) for _, t in samples])
    n, k = len(samples), x.shape[1]
    w = np.zeros(k)
    m, v = np.zeros(k), np.zeros(k)
    lr, b1, b2, l2 = 0.05, 0.9, 0.999, 1e-3
    for step in range(1, steps + 1):
        logits = x @ w
        logits -= np.maximum.reduceat(logits, starts)[which]
        e = np.exp(logits)
        p = e / np.add.reduceat(e, starts)[which]
        grad = x.T @ (p - target) / n + l2 * w
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + 1e-8)
        if step % 500 == 0:
            loss = -float(target @ np.log(p + 1e-12)) / n
            print(f"  step {step}: cross-entropy {loss:.4f}", flush=True)
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", type=float, nargs="*", help="the search's prior weights while recording")
    parser.add_argument("--piece-weights", default=None, help="and its piece weights, as name=weight,...")
    parser.add_argument("--teacher", default=None, help="a GTP engine's command: learn its moves instead")
    args = parser.parse_args()
    start = time.time()
    pieces = None
    if args.piece_weights:
        pieces = {k: float(x) for k, x in (item.split("=") for item in args.piece_weights.split(","))}
    if args.teacher:
        samples = record_teacher(args.variant, args.games, args.teacher, args.seed)
    else:
        samples = record(args.variant, args.games, args.simulations, args.seed, args.weights, pieces)
    print(f"{len(samples)} positions in {time.time() - start:.0f} s; fitting", flush=True)
    w = fit(samples)
    k = len(w) - len(blokus.Variant(args.variant).pieces)
    print(f"{args.variant}: prior_weights = [{', '.join(f'{x:.3f}' for x in w[:k])}]")
    names = [p.name for p in blokus.Variant(args.variant).pieces]
    print(f"{args.variant}: piece_weights = {{{', '.join(f'{n!r}: {x:.3f}' for n, x in zip(names, w[k:]))}}}")


if __name__ == "__main__":
    main()
