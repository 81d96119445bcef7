"""blokus: the fastest exact engine for the Blokus family of games.

>>> import blokus
>>> b = blokus.Board("duo")
>>> b.push("e10,d11,e11,f11,e12")
>>> len(b.legal_moves)
414
"""

from __future__ import annotations

from blokus import bots, errors, gtp, sgf, svg
from blokus.board import Board, LegalMoves, Move, Outcome
from blokus.errors import (
    BlokusError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidVariantError,
    SgfError,
    UnknownVariantError,
)
from blokus.match import MatchResult, match
from blokus.selfplay import SelfplayResult, selfplay
from blokus.variant import Piece, Variant, variants

__version__ = "0.1.0"

__all__ = [
    "BlokusError",
    "Board",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "LegalMoves",
    "MatchResult",
    "Move",
    "Outcome",
    "Piece",
    "SelfplayResult",
    "SgfError",
    "UnknownVariantError",
    "Variant",
    "bots",
    "errors",
    "gtp",
    "match",
    "selfplay",
    "sgf",
    "svg",
    "variants",
]
