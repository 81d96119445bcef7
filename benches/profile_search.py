"""One search of the default MctsBot, to profile: the position after PLIES moves of two seeded
greedy bots, searched for SECONDS on one thread (the same positions as search_vs_pentobi.py).

    perf record -e cpu-clock -F 999 -o search.data python benches/profile_search.py duo 0 8
    perf report -i search.data --no-children --sort symbol --stdio | head -40

CONTRIBUTING.md ("Where a search's time goes") gives the shares it found.
"""

from __future__ import annotations

import argparse

from blokus.bots import MctsBot
from search_vs_pentobi import position


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant")
    ap.add_argument("plies", type=int)
    ap.add_argument("seconds", type=float)
    args = ap.parse_args()
    analysis = MctsBot(seconds=args.seconds, seed=1).analyse(position(args.variant, args.plies))
    print(f"{args.variant} after {args.plies} plies: {sum(m.visits for m in analysis.moves)} simulations")


if __name__ == "__main__":
    main()
