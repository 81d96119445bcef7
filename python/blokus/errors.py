"""Exceptions raised by blokus. All derive from :class:`BlokusError`, a ``ValueError``; an
argument of the wrong type is also a ``TypeError`` (:class:`InvalidTypeError`).

They are defined here once; the Rust core raises these very classes. Where a caller would
branch on what went wrong, the exception says it in fields (``reason`` and ``cell`` of an
illegal move, ``index`` of the bad item of move text, ``field`` of a variant spec, ``line``
and ``column`` of a record), so no caller needs to parse a message. Errors pickle with their
fields (matches and pools send them between processes).
"""

from __future__ import annotations


class BlokusError(ValueError):
    """Base class of every error raised for bad input to blokus."""

    def __reduce__(self) -> tuple[object, ...]:
        # The fields are attributes, not arguments: keep them across processes.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[BlokusError], args: tuple[object, ...], fields: dict[str, object]) -> BlokusError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(fields)
    return error


class InvalidArgumentError(BlokusError):
    """An argument out of its range: a negative count or seed, ``threads=0``, a colour the
    variant does not have, an array of the wrong shape or dtype. ``argument`` names the
    parameter, where one is at fault."""

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        #: The name of the parameter at fault, if one is.
        self.argument = argument


class InvalidTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong type: a float or a bool where an integer is asked for, an
    array of floats for placement ids. Also a ``TypeError``."""


class BusyError(BlokusError, RuntimeError):
    """The object is in use by another thread (a :class:`~blokus.rl.BatchEnv` that another
    thread is stepping). Give each thread its own object; see "Threads" in the README."""


class InvalidMoveError(BlokusError):
    """Move text or a move id that names no placement of the variant (bad cell, no such piece).

    ``text`` is the move text as given (``None`` for an id), ``index`` the 0-based index of
    its comma-separated item at fault, where one is (``"e10,x9"`` -> 1), and ``reason`` what
    is wrong with it, in words that do not repeat the text.
    """

    #: The move text as given, if the error is about text.
    text: str | None = None
    #: The 0-based index of the item (a cell) at fault, if one is.
    index: int | None = None
    #: What is wrong, without the text (``"item 2 ("x9") is not a cell name like e10"``).
    reason: str | None = None

    def __init__(
        self, message: str, text: str | None = None, index: int | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.text = text
        self.index = index
        self.reason = reason


class IllegalMoveError(BlokusError):
    """A placement that is not legal in the position; the board is left unchanged.

    ``reason`` is the rule broken, by its short name (``overlap``, ``own_edge``,
    ``no_start_point``, ``no_corner_contact``, ``piece_used``, ``game_over``, ``unsupported``,
    ``no_face_contact``, ``first_not_touching``, ``first_off_ground``; a batch action that is
    no placement id: ``no_placement``), ``cell`` the cell it is broken at (``"e10"``) where
    there is one, ``move`` the move's canonical text and ``color`` the colour it was tried for.
    A batch step also sets ``game``, the index of the game at fault.
    """

    #: The rule broken, by its short name.
    reason: str | None = None
    #: The cell the rule is broken at, by name, where there is one.
    cell: str | None = None
    #: The move's canonical text.
    move: str | None = None
    #: The colour the move was tried for (``None`` once the game is over).
    color: int | None = None
    #: In a batch, the index of the game whose action is at fault.
    game: int | None = None

    def __init__(
        self,
        message: str,
        reason: str | None = None,
        cell: str | None = None,
        move: str | None = None,
        color: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.cell = cell
        self.move = move
        self.color = color


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
    """A variant spec that cannot describe a game. ``field`` is the path of the field at fault
    (``board.holes[3]``, ``bonus.all_placed``), ``None`` when the spec as a whole is (not a
    table, not plain data); the message starts with it."""

    #: The path of the field at fault, if one is.
    field: str | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class SgfError(BlokusError):
    """A malformed SGF file; carries the line and column where reading failed."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}: " if line is not None and column is not None else ""
        super().__init__(where + message)
        self.line = line
        self.column = column


class GameOverError(BlokusError):
    """A move was asked for in a finished game (no colour can move)."""


class InvalidBotSpecError(BlokusError):
    """A bot spec (``random``, ``greedy:seed=3``, ``gtp:COMMAND``) that names no bot, or gives
    it an option it does not take."""


class MissingDependencyError(BlokusError, ImportError):
    """An optional dependency is not installed (Ray for :mod:`blokus.distributed`); the
    message says which extra to install (``pip install 'blokus[ray]'``)."""


class EngineError(BlokusError):
    """An engine (a GTP program, or a bot playing a match) failed.

    ``engine`` names the engine, ``command`` is the GTP command being answered (``None`` when
    the failure is not tied to one), ``stderr`` the last lines the engine wrote to its error
    stream (empty if none or unknown).
    """

    def __init__(self, message: str, engine: str = "", command: str | None = None, stderr: str = "") -> None:
        parts = [f"{engine}: " if engine else "", f"{command!r}: " if command else "", message]
        if stderr:
            tail = stderr.rstrip("\n").splitlines()[-5:]
            parts.append("; its stderr ends: " + " | ".join(tail))
        super().__init__("".join(parts))
        self.engine = engine
        self.command = command
        self.stderr = stderr


class EngineTerminatedError(EngineError):
    """The engine exited (or could not be started) before it answered."""


class EngineTimeoutError(EngineError):
    """The engine did not answer within its timeout; it is stopped, since a late answer would be
    taken for the answer to the next command."""


class EngineProtocolError(EngineError):
    """The engine answered something that is not a GTP response, or not the answer the command
    asks for (a move that names no placement, a number that is not one)."""


class EngineIllegalMoveError(EngineProtocolError):
    """The engine answered a move that is not legal in the position (or passed while its colour
    had a move). ``move`` is the text it answered."""

    def __init__(
        self, message: str, engine: str = "", command: str | None = None, stderr: str = "", move: str = ""
    ) -> None:
        super().__init__(message, engine, command, stderr)
        self.move = move


class EngineRefusedError(EngineError):
    """The engine refused a command (a ``? ...`` answer); ``text`` is what it said."""

    def __init__(self, text: str, engine: str = "", command: str | None = None, stderr: str = "") -> None:
        super().__init__(f"refused: {text}", engine, command, stderr)
        self.text = text


class EngineResignedError(EngineError):
    """The engine resigned (``genmove`` answered ``resign``) instead of moving."""


__all__ = [
    "BlokusError",
    "BusyError",
    "EngineError",
    "EngineIllegalMoveError",
    "EngineProtocolError",
    "EngineRefusedError",
    "EngineResignedError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidBotSpecError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidTypeError",
    "InvalidVariantError",
    "MissingDependencyError",
    "SgfError",
    "UnknownVariantError",
]
