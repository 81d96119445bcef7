"""What the evaluator path costs: simulations a second of the search with a trivial evaluator
(priors all alike, every value 0.5: no network at all) against the playout search, one thread,
on the same positions, in one run.

The evaluated search is timed two ways: one game whose search gathers ``batch`` leaves a call
(``MctsBot(evaluator=..., batch_size=batch)``), and ``games`` games in flight whose leaves
share one call (:func:`blokus.bots.analyse_together`, what self-play does), so that a call
serves about ``games x leaves`` positions. The positions: the empty board and the board
after 12 plies of a game between seeded greedy bots.

    python benches/evaluator_overhead.py                      # duo
    python benches/evaluator_overhead.py --variant classic_2 --seconds 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from blokus import Board
from blokus.bots import GreedyBot, MctsBot, analyse_together
from blokus.rl.alphazero.selfplay import SEARCH_OPTIONS


def trivial(columns: int) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    def evaluate(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return masks.astype(np.float32), np.full((len(obs), columns), 0.5, np.float32)

    return evaluate


def position(variant: str, plies: int) -> Board:
    board, greedy = Board(variant), GreedyBot(seed=1)
    for _ in range(plies):
        board.push(greedy.choose(board))
    return board


def playout_rate(board: Board, seconds: float) -> float:
    bot = MctsBot(seconds=seconds, threads=1, seed=1)
    started = time.perf_counter()
    analysis = bot.analyse(board)
    return sum(m.visits for m in analysis.moves) / (time.perf_counter() - started)


def single_rate(board: Board, seconds: float, batch: int) -> float:
    players = board.variant.num_players
    evaluate = trivial(players)
    bot = MctsBot(seconds=seconds, seed=1, evaluator=evaluate, batch_size=batch)
    started = time.perf_counter()
    analysis = bot.analyse(board)
    return sum(m.visits for m in analysis.moves) / (time.perf_counter() - started)


def batched_rate(board: Board, seconds: float, games: int, leaves: int) -> float:
    evaluate = trivial(board.variant.num_players)
    bots = [MctsBot(seconds=seconds, seed=k, batch_size=leaves, **SEARCH_OPTIONS) for k in range(games)]
    started = time.perf_counter()
    analyses = analyse_together(bots, [board] * games, lambda obs, masks, colors, searches: evaluate(obs, masks))
    return sum(m.visits for a in analyses for m in a.moves) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", type=int, default=32)
    args = parser.parse_args()
    print(f"| {args.variant} position | search | leaves a call | sims/s | vs playouts |")
    print("|---|---|---:|---:|---:|")
    for plies in (0, 12):
        board = position(args.variant, plies)
        base = playout_rate(board, args.seconds)
        name = "empty" if plies == 0 else f"after {plies} plies"
        print(f"| {name} | playouts | - | {base:,.0f} | 1.00 |")
        for batch in (8, 64):
            rate = single_rate(board, args.seconds, batch)
            print(f"| {name} | evaluator, one game | {batch} | {rate:,.0f} | {rate / base:.2f} |")
        for leaves in (1, 4):
            rate = batched_rate(board, args.seconds, args.games, leaves)
            size = args.games * leaves
            print(f"| {name} | evaluator, {args.games} games | ~{size} | {rate:,.0f} | {rate / base:.2f} |")


if __name__ == "__main__":
    main()
