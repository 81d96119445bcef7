"""The MCTS bot's strength table: matches against Pentobi's levels at equal time per move, and
Blokus 3D against greedy bots, through the match runner (``blokus.match``), seats rotated.

At equal time (``equal_time=0``) the bot gets, for each move, the mean time per move Pentobi
has spent so far in the same match. Each row prints the bot's score (place in [0, 1], a draw
half) with its 95% interval over rounds, or its share of first places for games of more
players, next to the goal of issue #34; a row is met when its interval's midpoint reaches the goal.

    python benches/strength.py                       # every row, the issue's numbers of games
    python benches/strength.py --jobs 2 --markdown docs/STRENGTH.md   # the strength page
    python benches/strength.py --rows duo-l1 duo-l3 --games 20 --jobs 2 --markdown out.md
    python benches/strength.py --rows duo-l3 --bot mcts:seconds=0.05,max_children=24   # a tuning

Needs ``pentobi-gtp`` on the path (or ``--pentobi PATH``) for every row but Blokus 3D. The games
are kept under ``--out`` (one folder per row; ``--resume`` goes on with them).
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from blokus.match import MatchResult, match


@dataclass(frozen=True)
class Row:
    name: str
    variant: str
    #: Pentobi's level, or None for the greedy opponents.
    level: int | None
    games: int
    #: "score" (two players) or "first" (the share of first places).
    measure: str
    goal: float


#: The goals of issue #34 (the default rows).
ROWS = [
    Row("duo-l6", "duo", 6, 100, "score", 0.55),
    Row("duo-l7", "duo", 7, 100, "score", 0.40),
    Row("classic_2-l5", "classic_2", 5, 100, "score", 0.55),
    Row("trigon_2-l5", "trigon_2", 5, 50, "score", 0.50),
    Row("classic-3xl5", "classic", 5, 100, "first", 0.25),
    Row("trigon-3xl3", "trigon", 3, 50, "first", 0.30),
    Row("3d_tower-3xgreedy", "3d_tower", None, 100, "first", 0.95),
]
#: Rows of the earlier goals (issue #19), which ``--rows`` can still name.
EARLIER = [
    Row("duo-l1", "duo", 1, 100, "score", 0.90),
    Row("duo-l3", "duo", 3, 100, "score", 0.60),
    Row("duo-l5", "duo", 5, 100, "score", 0.50),
    Row("classic_2-l1", "classic_2", 1, 100, "score", 0.90),
    Row("classic_2-l3", "classic_2", 3, 100, "score", 0.60),
    Row("classic-3xl3", "classic", 3, 100, "first", 0.40),
    Row("trigon_2-l3", "trigon_2", 3, 50, "score", 0.50),
]


def engines(row: Row, pentobi: str, bot: str) -> list[str]:
    if row.level is None:
        return [bot, "greedy"]
    return [bot, f"{pentobi} --nobook --quiet --game {row.variant} --level {row.level}"]


def first_interval(firsts: list[float]) -> tuple[float, float, float]:
    """The share of first places with a 95% interval (normal approximation)."""
    n = len(firsts)
    p = sum(firsts) / n if n else math.nan
    half = 1.96 * math.sqrt(p * (1 - p) / n) if n else math.nan
    return p, max(0.0, p - half), min(1.0, p + half)


def figures(row: Row, r: MatchResult) -> tuple[float, float, float, float, float]:
    """(measure, low, high, our seconds per move, the opponent's) of a finished match."""
    ours, theirs = r.engine_stats()[0], r.engine_stats()[1]
    if row.measure == "score":
        value, low, high = ours.score.score, ours.score.low, ours.score.high
    else:
        value, low, high = first_interval([g.firsts[0] for g in r.records])
    return value, low, high, ours.seconds_per_move, theirs.seconds_per_move


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--rows", nargs="*", default=None, help=f"rows to play (default all): {' '.join(r.name for r in ROWS)}"
    )
    ap.add_argument("--games", type=int, default=None, help="games per row (default: the issue's)")
    ap.add_argument("--jobs", type=int, default=1, help="games at once (each game takes about one core)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pentobi", default="pentobi-gtp")
    ap.add_argument(
        "--bot",
        default="mcts:seconds=0.05",
        help="our engine; at equal time its seconds count only until Pentobi has moved (keep them small:"
        " a first move of a match may come before)",
    )
    ap.add_argument("--bot-3d", default="mcts:seconds=0.2", help="our engine against the greedy bots (no clock)")
    ap.add_argument("--out", default="strength-games", help="folder for the games, one subfolder per row")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument(
        "--markdown", default=None, help="also write the page here (keeping the ## sections of a page already there)"
    )
    args = ap.parse_args()

    chosen = ROWS if args.rows is None else [r for r in ROWS + EARLIER if r.name in args.rows]
    unknown = set(args.rows or ()) - {r.name for r in ROWS + EARLIER}
    if unknown:
        ap.error(f"unknown rows: {' '.join(sorted(unknown))}")
    if any(r.level is not None for r in chosen) and shutil.which(args.pentobi) is None:
        ap.error(f"{args.pentobi} is not on the path")

    header = "| match | games | measure | result (95% interval) | goal | s/move ours / theirs | met |"
    lines = [header, "|---|---:|---|---|---:|---|---|"]
    print(header, flush=True)
    for row in chosen:
        games = args.games if args.games is not None else row.games
        start = time.perf_counter()
        r = match(
            engines(row, args.pentobi, args.bot_3d if row.level is None else args.bot),
            row.variant,
            games,
            seed=args.seed,
            jobs=args.jobs,
            out=Path(args.out) / row.name,
            resume=args.resume,
            equal_time=None if row.level is None else 0,
        )
        value, low, high, ours, theirs = figures(row, r)
        measure = "score" if row.measure == "score" else "first places"
        opponent = "greedy" if row.level is None else f"Pentobi level {row.level}"
        met = "yes" if (low + high) / 2 >= row.goal else "no"
        line = (
            f"| {row.variant} vs {opponent} | {len(r.records)} | {measure} | {value:.1%} ({low:.1%}-{high:.1%})"
            f" | {row.goal:.0%} | {ours:.3f} / {theirs:.3f} | {met} |"
        )
        lines.append(line)
        print(line, f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    if args.markdown:
        path = Path(args.markdown)
        path.write_text(page(lines, args, kept_sections(path)), encoding="utf-8")
    return 0


def kept_sections(path: Path) -> str:
    """The sections (``## ...``) of a strength page already at ``path``: the tuning runs,
    written by hand, which a new table keeps."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    at = text.find("\n## ")
    return "" if at < 0 else text[at + 1 :]


def page(lines: list[str], args: argparse.Namespace, sections: str = "") -> str:
    """The strength page: the table with what it was measured with and how to measure it
    again, then ``sections``."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False, cwd=Path(__file__).parent
    )
    version = subprocess.run([args.pentobi, "--version"], capture_output=True, text=True, check=False)
    intro = [
        "# Strength",
        "",
        "The default `MctsBot` (one thread) against `pentobi-gtp --nobook` at equal time per move: for"
        " each move our bot gets the mean time Pentobi has spent per move so far in the match (its"
        f" first move, before Pentobi has moved, `{args.bot}`); Blokus 3D against three greedy bots"
        f" (`{args.bot_3d}`). Scores are places (1 alone first, 0 alone last, a draw half) over rounds"
        " of rotated seats; four-player rows give the share of first places. A row is met when its"
        " 95% interval's midpoint reaches the goal.",
        "",
        f"Measured {time.strftime('%Y-%m-%d')} at commit `{commit.stdout.strip() or 'unknown'}` against"
        f" {version.stdout.strip() or 'pentobi-gtp'}, {args.jobs} game(s) at once, seed {args.seed}.",
        "",
    ]
    rerun = [
        "",
        "To measure again (needs `pentobi-gtp` on the path):",
        "",
        "```sh",
        f"python benches/strength.py --jobs {args.jobs} --seed {args.seed} --markdown docs/STRENGTH.md",
        "```",
        "",
    ]
    return "\n".join(intro + lines + rerun + ([sections] if sections else []))


if __name__ == "__main__":
    sys.exit(main())
