"""The messages between the page and the server of ``blokus gui``: JSON objects over one
WebSocket, each with a ``"type"``.

The page sends *intents* (what a person asked for), the classes here; :func:`parse` turns a
message into one of them or raises :class:`ProtocolError`, whose text the server sends back as
an ``error`` message, changing nothing. The server answers with the messages listed in
:data:`SERVER_MESSAGES` (documented in the guide, ``docs/guide/gui.md``).

>>> parse('{"type": "play", "move": "e10,d11,e11,f11,e12"}')
Play(move='e10,d11,e11,f11,e12')
>>> parse('{"type": "play", "move": [1, 2]}')
Traceback (most recent call last):
...
blokus.gui.protocol.ProtocolError: play: 'move' is a placement id or move text, not list
"""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Union

__all__ = [
    "INTENTS",
    "MAX_MESSAGE",
    "SERVER_MESSAGES",
    "Analyse",
    "Export",
    "Files",
    "Goto",
    "Hint",
    "Intent",
    "NewGame",
    "Open",
    "Pause",
    "Play",
    "ProtocolError",
    "Redo",
    "Save",
    "Seat",
    "Undo",
    "parse",
]

#: The longest message the server reads, in bytes (a move's text is under 200).
MAX_MESSAGE = 4096

#: The longest string a field may hold.
MAX_TEXT = 300

#: The highest ply :class:`Goto` takes (no game has more moves).
MAX_PLY = 10_000

#: The messages the server sends, by type, with the fields each has.
SERVER_MESSAGES = {
    "setup": "variant, geometry (cells, pieces and their orientations), seats, folder, specs",
    "state": "ply, line, moves, cells, turn, player, legal, pieces_left, points, scores, out, result, ...",
    "error": "message, intent (the type of the message refused), reason (an illegal move's rule)",
    "hint": "move, text, ply",
    "analysis": "ply, moves (id, text, visits, value), value per player, pv, best",
    "saved": "name",
    "files": "names",
    "export": "format, name, text",
}


class ProtocolError(ValueError):
    """A message that is no intent: its text says what was wrong.

    >>> str(ProtocolError("play: no 'move'"))
    "play: no 'move'"
    """


@dataclass(frozen=True)
class Play:
    """Play a move for the colour to move: a placement id or Pentobi move text.

    >>> parse('{"type": "play", "move": 11976}')
    Play(move=11976)
    """

    type: ClassVar[str] = "play"
    move: int | str


@dataclass(frozen=True)
class Undo:
    """Take back the last move (it can be played again with :class:`Redo`).

    >>> parse('{"type": "undo"}')
    Undo()
    """

    type: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Redo:
    """Play again the move last taken back.

    >>> parse('{"type": "redo"}')
    Redo()
    """

    type: ClassVar[str] = "redo"


@dataclass(frozen=True)
class Goto:
    """Go to the position after ``ply`` moves of the line (undoing or redoing): replay's slider.

    >>> parse('{"type": "goto", "ply": 12}')
    Goto(ply=12)
    """

    type: ClassVar[str] = "goto"
    ply: int


@dataclass(frozen=True)
class NewGame:
    """A new game: of ``variant`` (a built-in id; the one being played if empty), with ``seats``
    (one spec per player: ``"human"``, a built-in bot such as ``"mcts:seconds=1"``, or a GTP
    command line given to ``blokus gui --seat``; the seats as they are if empty).

    >>> parse('{"type": "new", "variant": "trigon", "seats": ["human", "greedy", "human", "random"]}')
    NewGame(variant='trigon', seats=('human', 'greedy', 'human', 'random'))
    """

    type: ClassVar[str] = "new"
    variant: str = ""
    seats: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seat:
    """Give player ``player``'s seat to ``spec`` (``"human"`` or an engine, as in :class:`NewGame`).

    >>> parse('{"type": "seat", "player": 1, "spec": "greedy"}')
    Seat(player=1, spec='greedy')
    """

    type: ClassVar[str] = "seat"
    player: int
    spec: str


@dataclass(frozen=True)
class Hint:
    """Ask the analysis bot for a move for the colour to move (answered by a ``hint`` message).

    >>> parse('{"type": "hint"}')
    Hint()
    """

    type: ClassVar[str] = "hint"


@dataclass(frozen=True)
class Analyse:
    """Turn the live analysis on or off: with it on, every position gets an ``analysis`` message.

    >>> parse('{"type": "analyse", "on": true}')
    Analyse(on=True)
    """

    type: ClassVar[str] = "analyse"
    on: bool


@dataclass(frozen=True)
class Pause:
    """Stop (or let go on) the engines: a paused game waits for people and for this message.

    >>> parse('{"type": "pause", "on": false}')
    Pause(on=False)
    """

    type: ClassVar[str] = "pause"
    on: bool


@dataclass(frozen=True)
class Save:
    """Save the game as ``name`` (a file name ending in ``.blksgf``, no folder) in the folder
    the server was started with; ``overwrite`` to replace a file of that name.

    >>> parse('{"type": "save", "name": "game 1.blksgf"}')
    Save(name='game 1.blksgf', overwrite=False)
    """

    type: ClassVar[str] = "save"
    name: str
    overwrite: bool = False


@dataclass(frozen=True)
class Files:
    """List the ``.blksgf`` files of the server's folder (answered by a ``files`` message).

    >>> parse('{"type": "files"}')
    Files()
    """

    type: ClassVar[str] = "files"


@dataclass(frozen=True)
class Open:
    """Open a ``.blksgf`` file of the server's folder, to replay it (its moves to redo).

    >>> parse('{"type": "open", "name": "match-001.blksgf"}')
    Open(name='match-001.blksgf')
    """

    type: ClassVar[str] = "open"
    name: str


@dataclass(frozen=True)
class Export:
    """The position as a picture (``"svg"``, drawn from ``view`` ``"top"`` or ``"iso"``) or the
    game as text (``"blksgf"``), sent back in an ``export`` message for the page to download.

    >>> parse('{"type": "export", "format": "svg", "view": "iso"}')
    Export(format='svg', view='iso')
    """

    type: ClassVar[str] = "export"
    format: str
    view: str = "top"


#: Every intent.
Intent = Union[Play, Undo, Redo, Goto, NewGame, Seat, Hint, Analyse, Pause, Save, Files, Open, Export]

#: The intents by their ``type``.
INTENTS: dict[str, type[Any]] = {
    cls.type: cls for cls in (Play, Undo, Redo, Goto, NewGame, Seat, Hint, Analyse, Pause, Save, Files, Open, Export)
}

#: The values some fields may take.
_CHOICES = {("export", "format"): ("svg", "blksgf"), ("export", "view"): ("top", "iso")}


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(kind: str, name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{kind}: {name!r} is a string, not {type(value).__name__}")
    if len(value) > MAX_TEXT:
        raise ProtocolError(f"{kind}: {name!r} is longer than {MAX_TEXT} characters")
    choices = _CHOICES.get((kind, name))
    if choices is not None and value not in choices:
        raise ProtocolError(f"{kind}: {name!r} is one of {', '.join(choices)}, not {_shown(value)}")
    return value


def _integer(kind: str, name: str, value: object, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{kind}: {name!r} is a whole number, not {type(value).__name__}")
    if not 0 <= value <= high:
        raise ProtocolError(f"{kind}: {name!r} is from 0 to {high}, not {_shown(value)}")
    return value


def _field(kind: str, name: str, value: object) -> object:
    if name == "move":
        if isinstance(value, int) and not isinstance(value, bool):
            return _integer(kind, name, value, 2**32)
        if isinstance(value, str):
            return _text(kind, name, value)
        raise ProtocolError(f"{kind}: 'move' is a placement id or move text, not {type(value).__name__}")
    if name in ("on", "overwrite"):
        if not isinstance(value, bool):
            raise ProtocolError(f"{kind}: {name!r} is true or false, not {type(value).__name__}")
        return value
    if name == "ply":
        return _integer(kind, name, value, MAX_PLY)
    if name == "player":
        return _integer(kind, name, value, 7)
    if name == "seats":
        if not isinstance(value, list) or len(value) > 8:
            raise ProtocolError(f"{kind}: 'seats' is a list of at most 8 specs")
        return tuple(_text(kind, "seats", v) for v in value)
    return _text(kind, name, value)


def parse(message: str | bytes) -> Intent:
    """The intent a message from the page names; :class:`ProtocolError` for anything else (too
    long, not JSON, not an object, an unknown type, a missing, unknown or ill-typed field).

    >>> parse('{"type": "goto", "ply": -1}')
    Traceback (most recent call last):
    ...
    blokus.gui.protocol.ProtocolError: goto: 'ply' is from 0 to 10000, not -1
    >>> parse('{"type": "undo", "extra": 1}')
    Traceback (most recent call last):
    ...
    blokus.gui.protocol.ProtocolError: undo: no field 'extra' (it has none)
    """
    size = len(message.encode("utf-8", "surrogatepass")) if isinstance(message, str) else len(message)
    if size > MAX_MESSAGE:
        raise ProtocolError(f"a message is at most {MAX_MESSAGE} bytes, not {size}")
    try:
        data = json.loads(message)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"a message is a JSON object ({str(e)[:80]})") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in INTENTS:
        raise ProtocolError(f"unknown message type {_shown(kind)} (known: {', '.join(INTENTS)})")
    cls = INTENTS[kind]
    known = {f.name: f for f in fields(cls)}
    for name in data:
        if name != "type" and name not in known:
            has = ", ".join(known) or "none"
            raise ProtocolError(f"{kind}: no field {_shown(name)} (it has {has})")
    values: dict[str, object] = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING:
                raise ProtocolError(f"{kind}: no {name!r}")
            continue
        values[name] = _field(kind, name, data[name])
    intent: Intent = cls(**values)
    return intent
