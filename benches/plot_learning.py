"""The learning curve of an AlphaZero run: the score against the greedy bot and the losses by
minute of training, from the run's ``metrics.jsonl``, as a PNG (needs matplotlib).

    python benches/plot_learning.py runs/duo/metrics.jsonl --out docs/images/alphazero-duo.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("metrics", type=Path, nargs="+", help="metrics.jsonl of one run or more (one curve each)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--title", default="AlphaZero self-play, Duo, 2 CPU cores")
    parser.add_argument(
        "--by",
        choices=("minutes", "iterations"),
        default="minutes",
        help="the x axis (iterations: for a run that paused)",
    )
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (score, loss) = plt.subplots(1, 2, figsize=(10, 4))
    for path in args.metrics:
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        minutes = [x["total_seconds"] / 60 if args.by == "minutes" else x["iteration"] for x in lines]
        label = path.parent.name
        games = lines[0]["eval_games"]
        score.plot(minutes, [100 * x["score_vs_greedy"] for x in lines], marker="o", label=label)
        loss.plot(minutes, [x["loss_value"] for x in lines], label=f"{label}: value")
        loss.plot(minutes, [x["loss_policy"] / 4 for x in lines], linestyle="--", label=f"{label}: policy / 4")
    score.axhline(75, color="grey", linestyle=":", label="goal: 75%")
    xlabel = "minutes of training" if args.by == "minutes" else "iterations"
    score.set(xlabel=xlabel, ylabel=f"% score against greedy ({games} games, 64 sims)", ylim=(0, 100))
    loss.set(xlabel=xlabel, ylabel="training loss")
    score.legend()
    loss.legend()
    fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
