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


class GameOverError(BlokusError):
    """A move was asked for in a finished game (no colour can move)."""


class InvalidBotSpecError(BlokusError):
    """A bot spec (``random``, ``greedy:seed=3``, ``gtp:COMMAND``) that names no bot, or gives
    it an option it does not take."""


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

    def __reduce__(self) -> tuple[object, ...]:
        # Errors cross process boundaries (matches play in worker processes): keep the fields.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[EngineError], args: tuple[object, ...], fields: dict[str, object]) -> EngineError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(fields)
    return error


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
    "EngineError",
    "EngineIllegalMoveError",
    "EngineProtocolError",
    "EngineRefusedError",
    "EngineResignedError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBotSpecError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "SgfError",
    "UnknownVariantError",
]
