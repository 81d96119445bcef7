"""Exceptions raised by blokus. All derive from :class:`BlokusError`, a ``ValueError``; an
argument of the wrong type is also a ``TypeError`` (:class:`InvalidTypeError`).

They are defined here once; the Rust core raises these very classes. Where a caller would
branch on what went wrong, the exception says it in fields (``reason`` and ``cell`` of an
illegal move, ``index`` of the bad item of move text, ``field`` of a variant spec, ``line``
and ``column`` of a record), so no caller needs to parse a message. Errors pickle with their
fields (matches and pools send them between processes).

>>> import blokus
>>> try:
...     blokus.Board("duo").push("e10,f11")
... except BlokusError as e:
...     print(type(e).__name__, isinstance(e, ValueError))
InvalidMoveError True
"""

from __future__ import annotations


class BlokusError(ValueError):
    """Base class of every error raised for bad input to blokus.

    >>> import blokus
    >>> issubclass(blokus.IllegalMoveError, BlokusError), issubclass(BlokusError, ValueError)
    (True, True)
    >>> blokus.Board("nine_men_morris")
    Traceback (most recent call last):
    ...
    blokus.errors.UnknownVariantError: unknown variant "nine_men_morris" (known: classic, classic_2, classic_3, duo, junior, trigon, trigon_2, trigon_3, 3d_tower, 3d_tower_3 and 14 more: blokus.variants())
    """

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
    parameter, where one is at fault.

    >>> import blokus
    >>> try:
    ...     blokus.selfplay("duo", games=1, threads=0)
    ... except InvalidArgumentError as e:
    ...     print(e.argument, "|", e)
    threads | threads must be 1 to 256, not 0
    """

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        #: The name of the parameter at fault, if one is.
        self.argument = argument


class InvalidTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong type: a float or a bool where an integer is asked for, an
    array of floats for placement ids. Also a ``TypeError``.

    >>> import blokus
    >>> blokus.Board("duo").push(130.0)
    Traceback (most recent call last):
    ...
    blokus.errors.InvalidTypeError: a move is a Move, move text or a placement id, not float
    """


class BusyError(BlokusError, RuntimeError):
    """The object is in use by another thread (a :class:`~blokus.rl.BatchEnv` that another
    thread is stepping). Give each thread its own object; see "Threads" in the README.

    >>> err = BusyError("this BatchEnv is being stepped by another thread")
    >>> isinstance(err, RuntimeError), isinstance(err, ValueError)
    (True, True)
    """


class InvalidMoveError(BlokusError):
    """Move text or a move id that names no placement of the variant (bad cell, no such piece).

    ``text`` is the move text as given (``None`` for an id), ``index`` the 0-based index of
    its comma-separated item at fault, where one is (``"e10,x9"`` -> 1), and ``reason`` what
    is wrong with it, in words that do not repeat the text.

    >>> import blokus
    >>> try:
    ...     blokus.Board("duo").parse_move("e10,x9")
    ... except InvalidMoveError as e:
    ...     print(e.text, e.index, e.reason, sep=" | ")
    e10,x9 | 1 | item 2 (x9) is not a cell of this board
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

    >>> import blokus
    >>> b = blokus.Board("duo", ["e10", "j5"])
    >>> try:
    ...     b.push("d10,d9")
    ... except IllegalMoveError as e:
    ...     print(e.reason, e.cell, e.move, e.color)
    own_edge d10 d9,d10 0
    >>> b.ply
    2
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

    >>> import blokus
    >>> try:
    ...     blokus.Board.from_bpn("duo 14/14/14/14/14/14/14/14/14/14/14/14/14/14 x -")
    ... except InvalidPositionError as e:
    ...     print(e.position, "|", e)
    46 | invalid BPN at character 47: expected the colour to move (p Purple, o Orange) or '-' when the game is over, found 'x'
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
    """A variant id that is not built in.

    >>> import blokus
    >>> blokus.Variant("octagon")
    Traceback (most recent call last):
    ...
    blokus.errors.UnknownVariantError: unknown variant "octagon" (known: classic, classic_2, classic_3, duo, junior, trigon, trigon_2, trigon_3, 3d_tower, 3d_tower_3 and 14 more: blokus.variants())
    """


class InvalidVariantError(BlokusError):
    """A variant spec that cannot describe a game. ``field`` is the path of the field at fault
    (``board.holes[3]``, ``bonus.all_placed``), ``None`` when the spec as a whole is (not a
    table, not plain data); the message starts with it.

    >>> import blokus
    >>> try:
    ...     blokus.Variant({"id": "v", "board": {"geometry": "square", "width": 5, "height": 5},
    ...                     "colors": ["Blue"], "players": [[0]], "start_points": [["h9"]], "pieces": {}})
    ... except InvalidVariantError as e:
    ...     print(e.field, "|", e)
    start_points[0] | start_points[0]: h9 is off the board
    """

    #: The path of the field at fault, if one is.
    field: str | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class SgfError(BlokusError):
    """A malformed SGF file; carries the line and column where reading failed.

    >>> from blokus import sgf
    >>> try:
    ...     sgf.loads("(;GM[Blokus Duo]\\n;B e10)")
    ... except SgfError as e:
    ...     print(e.line, e.column, "|", e)
    2 4 | line 2, column 4: expected '[' to start a value of B, found 'e'
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}: " if line is not None and column is not None else ""
        super().__init__(where + message)
        self.line = line
        self.column = column


class GameOverError(BlokusError):
    """A move was asked for in a finished game (no colour can move).

    >>> import blokus
    >>> from blokus import bots
    >>> b = blokus.Board("duo")
    >>> while not b.is_game_over():
    ...     b.push(next(iter(b.legal_moves)))
    >>> bots.RandomBot(seed=1).choose(b)
    Traceback (most recent call last):
    ...
    blokus.errors.GameOverError: the game is over (duo, 26 moves: B+39); no move to choose
    """


class InvalidBotSpecError(BlokusError):
    """A bot spec (``random``, ``greedy:seed=3``, ``gtp:COMMAND``) that names no bot, or gives
    it an option it does not take.

    >>> from blokus import bots
    >>> bots.from_spec("greedy:speed=3")
    Traceback (most recent call last):
    ...
    blokus.errors.InvalidBotSpecError: bot 'greedy' has no option 'speed' (its options: seed)
    """


class MissingDependencyError(BlokusError, ImportError):
    """An optional dependency is not installed (Ray for :mod:`blokus.distributed`); the
    message says which extra to install (``pip install 'blokus[ray]'``). It is an
    ``ImportError`` too, so code that guards an optional import catches it.

    >>> err = MissingDependencyError("blokus.distributed runs on Ray, which is not installed")
    >>> isinstance(err, ImportError), isinstance(err, BlokusError)
    (True, True)
    """


# The most characters of an engine's standard error an :class:`EngineError` keeps (the last).
_STDERR_KEPT = 10_000


def _cut(text: str, limit: int) -> str:
    """``text``, or its start and end with how much was left out between them."""
    if len(text) <= limit:
        return text
    return f"{text[: limit // 2]}... ({len(text) - limit} characters left out) ...{text[-(limit // 2) :]}"


class EngineError(BlokusError):
    """An engine (a GTP program, or a bot playing a match) failed.

    ``engine`` names the engine, ``command`` is the GTP command being answered (``None`` when
    the failure is not tied to one), ``stderr`` the last lines the engine wrote to its error
    stream (empty if none or unknown).

    >>> err = EngineError("no answer", "pentobi-gtp", "genmove b", "loading book\\nout of memory\\n")
    >>> str(err)
    "pentobi-gtp: 'genmove b': no answer; its stderr ends: loading book | out of memory"
    >>> err.engine, err.command
    ('pentobi-gtp', 'genmove b')
    """

    def __init__(self, message: str, engine: str = "", command: str | None = None, stderr: str = "") -> None:
        # An engine writes what it likes: each part is cut to a few hundred characters, so
        # that a message stays readable (and a match's results small) however much it wrote.
        parts = [
            f"{_cut(engine, 100)}: " if engine else "",
            f"{_cut(command, 200)!r}: " if command else "",
            _cut(message, 1000),
        ]
        if stderr:
            tail = [_cut(line, 200) for line in stderr[-10_000:].rstrip("\n").splitlines()[-5:]]
            parts.append("; its stderr ends: " + " | ".join(tail))
        super().__init__("".join(parts))
        self.engine = engine
        self.command = command
        self.stderr = stderr[-_STDERR_KEPT:]


class EngineTerminatedError(EngineError):
    """The engine exited (or could not be started) before it answered.

    >>> import sys
    >>> from blokus import gtp
    >>> gtp.Engine.popen([sys.executable, "-c", "pass"], name="quitter").name()
    Traceback (most recent call last):
    ...
    blokus.errors.EngineTerminatedError: quitter: 'name': the engine exited (code 0) before it answered
    """


class EngineTimeoutError(EngineError):
    """The engine did not answer within its timeout; it is stopped, since a late answer would be
    taken for the answer to the next command.

    >>> import sys
    >>> from blokus import gtp
    >>> engine = gtp.Engine.popen([sys.executable, "-c", "import time; time.sleep(30)"], name="sleeper")
    >>> engine.send("name", timeout=0.2)
    Traceback (most recent call last):
    ...
    blokus.errors.EngineTimeoutError: sleeper: 'name': no answer within 0.2 s; the engine was stopped
    >>> engine.alive
    False
    """


class EngineProtocolError(EngineError):
    """The engine answered something that is not a GTP response, or not the answer the command
    asks for (a move that names no placement, a number that is not one).

    >>> import sys
    >>> from blokus import gtp
    >>> engine = gtp.Engine.popen([sys.executable, "-c", "input(); print('hello'); print()"], name="chatty")
    >>> engine.name()
    Traceback (most recent call last):
    ...
    blokus.errors.EngineProtocolError: chatty: 'name': answered 'hello', which is not a GTP response
    """


class EngineIllegalMoveError(EngineProtocolError):
    """The engine answered a move that is not legal in the position (or passed while its colour
    had a move). ``move`` is the text it answered.

    >>> err = EngineIllegalMoveError("answered e10, which is not legal here", "weak", "genmove b", move="e10")
    >>> err.move, isinstance(err, EngineProtocolError)
    ('e10', True)
    """

    def __init__(
        self, message: str, engine: str = "", command: str | None = None, stderr: str = "", move: str = ""
    ) -> None:
        super().__init__(message, engine, command, stderr)
        self.move = move


class EngineRefusedError(EngineError):
    """The engine refused a command (a ``? ...`` answer); ``text`` is what it said.

    >>> import sys
    >>> from blokus import gtp
    >>> with gtp.Engine.popen([sys.executable, "-m", "blokus", "gtp"], name="blokus") as engine:
    ...     engine.send("fly")
    Traceback (most recent call last):
    ...
    blokus.errors.EngineRefusedError: blokus: 'fly': refused: unknown command (fly)
    """

    def __init__(self, text: str, engine: str = "", command: str | None = None, stderr: str = "") -> None:
        super().__init__(f"refused: {text}", engine, command, stderr)
        self.text = text


class EngineResignedError(EngineError):
    """The engine resigned (``genmove`` answered ``resign``) instead of moving.

    >>> err = EngineResignedError("resigned", "pentobi-gtp", "genmove w")
    >>> str(err), isinstance(err, EngineError)
    ("pentobi-gtp: 'genmove w': resigned", True)
    """


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
