"""blokus: the fastest exact engine for the Blokus family of games.

>>> import blokus
>>> b = blokus.Board("duo")
>>> b.push("e10,d11,e11,f11,e12")
>>> len(b.legal_moves)
414
"""

from __future__ import annotations

from blokus import _blokus, bots, distributed, errors, gtp, sgf, svg
from blokus.board import Board, LegalMoves, Move, Outcome
from blokus.errors import (
    BlokusError,
    BusyError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidTypeError,
    InvalidVariantError,
    SgfError,
    UnknownVariantError,
)
from blokus.match import MatchResult, match
from blokus.selfplay import SelfplayResult, SelfplaySummary, selfplay
from blokus.variant import Piece, Variant, variants

#: The version of the package and of its Rust core (written once, in Cargo.toml).
__version__: str = _blokus.__version__


def cpu_level() -> str:
    """The CPU level the move generators run at, chosen when the extension loads: the best of
    ``x86-64``, ``x86-64-v2``, ``x86-64-v3``, ``x86-64-v4`` this CPU supports (the architecture's
    name off x86-64), or a lower one forced by the ``BLOKUS_CPU_LEVEL`` environment variable.

    >>> cpu_level() in _blokus.cpu_levels_supported()
    True
    """
    return _blokus.cpu_level()


__all__ = [
    "BlokusError",
    "Board",
    "BusyError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidTypeError",
    "InvalidVariantError",
    "LegalMoves",
    "MatchResult",
    "Move",
    "Outcome",
    "Piece",
    "SelfplayResult",
    "SelfplaySummary",
    "SgfError",
    "UnknownVariantError",
    "Variant",
    "bots",
    "cpu_level",
    "distributed",
    "errors",
    "gtp",
    "match",
    "selfplay",
    "sgf",
    "svg",
    "variants",
]
