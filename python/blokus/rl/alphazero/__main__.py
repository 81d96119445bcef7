"""``python -m blokus.rl.alphazero``: trains a network by self-play (see :mod:`blokus.rl.alphazero`).

>>> main(["--help"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
SystemExit: 0
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blokus import _arguments


def main(argv: list[str] | None = None) -> int:
    """Parses the command line and trains; the exit status.

    >>> main(["--minutes", "-1", "--out", "x"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    parser = argparse.ArgumentParser(
        prog="python -m blokus.rl.alphazero",
        description="AlphaZero self-play training: checkpoints and metrics.jsonl in --out; "
        "run again with the same --out to resume from its last checkpoint (a resumed run keeps "
        "its own variant and settings: only --minutes and --quiet apply).",
    )
    parser.add_argument("--variant", default="duo", help="a variant id or spec (default: duo; ignored when resuming)")
    parser.add_argument(
        "--minutes", type=float, required=True, help="minutes to train (the last iteration is finished)"
    )
    parser.add_argument("--out", type=Path, required=True, help="the run's folder")
    parser.add_argument("--seed", type=int, default=0, help="seed of a new run (default 0)")
    parser.add_argument("--simulations", type=int, help="search simulations a self-play move (default 32)")
    parser.add_argument("--games", type=int, help="self-play games an iteration, all in flight (default 32)")
    parser.add_argument("--reuse", type=float, help="times each new position is drawn for training (default 16)")
    parser.add_argument("--learning-rate", type=float, help="Adam's step size (default 0.003)")
    parser.add_argument("--filters", type=int, help="channels of the network (new runs; default 32)")
    parser.add_argument("--blocks", type=int, help="residual blocks of the network (new runs; default 1)")
    parser.add_argument(
        "--sequential",
        action="store_true",
        help="train after each iteration's games, not on a thread beside them (new runs)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar or lines")
    args = parser.parse_args(argv)
    if not 0 < args.minutes <= 10**6:
        parser.error(f"--minutes must be above 0, not {args.minutes}")
    try:
        import jax  # noqa: F401
    except ImportError:
        parser.error("training needs JAX and optax: pip install 'blokus[learn]'")
    from .network import NetConfig
    from .trainer import TrainConfig, Trainer

    try:
        config = TrainConfig()
        changes = {k: getattr(args, k) for k in ("simulations", "games") if getattr(args, k) is not None}
        for key, value in changes.items():
            _arguments.in_range(value, f"--{key}", 1, 100_000)
        if args.reuse is not None:
            changes["reuse"] = _arguments.number(args.reuse, "--reuse", 0, 1000)
        if args.sequential:
            changes["overlap"] = False
        if args.learning_rate is not None:
            changes["learning_rate"] = _arguments.number(args.learning_rate, "--learning-rate", 0, 1)
        network = NetConfig(
            filters=args.filters or config.network.filters,
            blocks=args.blocks if args.blocks is not None else config.network.blocks,
        )
        config = TrainConfig(**{**config.__dict__, **changes, "network": network})
        trainer = Trainer(args.variant, args.out, config, seed=args.seed, quiet=args.quiet)
    except KeyError as e:
        parser.error(f"{args.out} holds a network but not a training run's state (no {e} in network.json)")
    except (ValueError, TypeError, OSError) as e:
        parser.error(str(e))
    if not args.quiet:
        resumed = f", resumed at iteration {trainer.iterations}" if trainer.iterations else ""
        print(f"training {trainer.encoding.variant.id} into {args.out}{resumed}", file=sys.stderr)
    trainer.run(args.minutes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
