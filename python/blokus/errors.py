"""Exceptions raised by blokus. All derive from :class:`BlokusError`; bad input also from ``ValueError``."""

from __future__ import annotations


class BlokusError(ValueError):
    """Base class of every error raised for bad input to blokus."""


class InvalidMoveError(BlokusError):
    """Move text or a move id that names no placement of the variant (bad cell, no such piece)."""


class IllegalMoveError(BlokusError):
    """A placement that is not legal in the position; the board is left unchanged."""


class InvalidPositionError(BlokusError):
    """A position (or position string) that cannot arise or cannot be read.

    For a position string, ``position`` is the 0-based index of the character where reading
    failed (it is also named, 1-based, in the message).
    """

    #: Index in the position string where reading failed, if the error comes from one.
    position: int | None = None
    #: For setups (set by the engine): the problem's short name (``overlap``, ``own_edge``,
    #: ``too_many_copies``, ``cannot_move``, ...), the colour it is about, and ``(colour, index)``
    #: of the placement at fault.
    kind: str | None = None
    color: int | None = None
    placement: tuple[int, int] | None = None

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class UnknownVariantError(BlokusError):
    """A variant id that is not built in."""


class InvalidVariantError(BlokusError):
    """A variant spec that cannot describe a game; the message says which field is wrong."""


class SgfError(BlokusError):
    """A malformed SGF file; carries the line and column where reading failed."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}: " if line is not None and column is not None else ""
        super().__init__(where + message)
        self.line = line
        self.column = column


__all__ = [
    "BlokusError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "SgfError",
    "UnknownVariantError",
]
