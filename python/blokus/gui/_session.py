"""One game of the GUI: the board, the moves to redo, the seats and what the page is told.

A :class:`Session` is plain Python (no event loop): the server hands it each intent and sends
the messages it returns; engine and analysis work comes out as :class:`Job` objects that the
server runs in worker threads and gives back with :meth:`Session.finish`. Every position change
bumps :attr:`Session.generation`, so the answer of a job started before it is dropped.

>>> from blokus.gui import protocol
>>> s = Session(Config("duo", ["human", "human"]))
>>> [m["type"] for m in s.handle(protocol.Play("e10"))]
['state']
>>> s.handle(protocol.Play("e10"))[0]["reason"]
'overlap: e10 is already covered'
>>> s.board.ply
1
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blokus import sgf, svg
from blokus.board import Board, Move
from blokus.bots import Bot, from_spec, is_gtp_spec
from blokus.errors import BlokusError
from blokus.gui import protocol
from blokus.gui._geometry import board_geometry
from blokus.variant import Variant, VariantLike, variant, variants

#: The seat spec of a person.
HUMAN = "human"

#: A file name the page may save or open: a plain name in the folder, no path, no dot first.
_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9 _.,()+-]{0,95}\.blksgf")

#: The most bytes a game file opened from the page may have.
MAX_FILE = 4_000_000

Message = dict[str, Any]


@dataclass
class Config:
    """What ``blokus gui`` was started with: the variant, a spec per seat, the game opened,
    the folder files go to, the GTP command lines the page may seat, the analysis bot."""

    variant: VariantLike
    seats: list[str]
    game: sgf.Game | None = None
    folder: Path | None = None
    gtp_specs: frozenset[str] = frozenset()
    analysis: str = "mcts:seconds=1"
    #: Seconds between two engine moves when no person plays (so that a game can be watched).
    watch_delay: float = 0.4
    #: The name of the file opened, shown in the page.
    title: str = ""


@dataclass
class Seat:
    """A player's seat: a person or an engine (started when first needed)."""

    spec: str
    bot: Bot | None = None

    @property
    def human(self) -> bool:
        """Whether a person plays the seat."""
        return self.spec == HUMAN


@dataclass
class Job:
    """Work for a worker thread: ``run()`` returns a move (engine), an analysis or a hint."""

    kind: str
    generation: int
    run: Callable[[], Any]
    player: int | None = None
    ply: int = 0


def _close(bot: Bot | None) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        with contextlib.suppress(OSError, BlokusError):  # an engine already gone
            close()


@dataclass
class Session:
    """The game a page shows, driven by the intents of :mod:`blokus.gui.protocol`."""

    config: Config
    board: Board = field(init=False)
    future: list[Move] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    paused: bool = False
    analysing: bool = False
    generation: int = 0
    closed: bool = False
    _analysis_bot: Bot | None = None
    _engine_busy: bool = False
    _retired: list[Bot] = field(default_factory=list)
    #: The name of the game file opened (shown in the page).
    title: str = ""
    #: Of the game opened: its players' names, and the comments by ply of its line.
    names: list[str] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        v = variant(self.config.variant)
        if not is_gtp_spec(self.config.analysis):
            _close(from_spec(self.config.analysis))  # refused now rather than at the first hint
        self._set_seats(v, self.config.seats)
        if self.config.game is not None:
            self._load(self.config.game)
            self.title = self.config.title
            self.paused = any(not s.human for s in self.seats)
        else:
            self.board = Board(v)

    # --- seats and games ---

    def _check_spec(self, spec: str) -> str:
        spec = spec.strip()
        if spec in (HUMAN, "person", ""):
            return HUMAN
        if is_gtp_spec(spec) and spec not in self.config.gtp_specs:
            raise BlokusError(
                f"seat {spec!r}: the page may seat only built-in bots and the GTP engines given to blokus gui --seat"
            )
        if not is_gtp_spec(spec):
            _close(from_spec(spec))  # a bad spec is refused now, not when its turn comes
        return spec

    def _set_seats(self, v: Variant, specs: list[str]) -> None:
        n = v.num_players
        specs = list(specs) + [HUMAN] * (n - len(specs))
        if len(specs) > n:
            raise BlokusError(f"{v.id} has {n} players; {len(specs)} seats given")
        checked = [self._check_spec(s) for s in specs]
        old = self.seats
        self.seats = [Seat(s) for s in checked]
        # An engine seated again keeps its process (a GTP engine is slow to start).
        for seat in self.seats:
            for i, o in enumerate(old):
                if o.bot is not None and o.spec == seat.spec:
                    seat.bot, old[i] = o.bot, Seat(o.spec)
                    break
        self._retired.extend(o.bot for o in old if o.bot is not None)

    def _load(self, game: sgf.Game) -> None:
        v = game.variant
        if v.num_players != len(self.seats):
            self._set_seats(v, [])
        self.board = game.board()
        # The main line from the root; a setup further down ends the line there.
        test = self.board.copy()
        line: list[Move] = []
        self.comments = {test.ply: game.comment} if game.comment else {}
        for node in game.mainline():
            m = node.move
            if m is not None:
                if node.has_setup() or not test.is_legal(m):
                    break
                test.push(m)
                line.append(m)
            elif node.has_setup():
                break
            if node.comment:
                self.comments[test.ply] = "\n".join(filter(None, (self.comments.get(test.ply), node.comment)))
        self.future = line[::-1]
        self.names = [name or "" for name in game.players]

    def _changed(self) -> None:
        self.generation += 1

    # --- the page's intents ---

    def handle(self, intent: protocol.Intent) -> list[Message]:
        """The messages answering an intent; an intent that cannot be done gets an ``error``
        message and changes nothing.

        >>> from blokus.gui import protocol
        >>> s = Session(Config("duo", ["human", "human"]))
        >>> s.handle(protocol.Undo())[0]["message"]
        'no move to take back'
        """
        try:
            return self._handle(intent)
        except BlokusError as e:
            return [error(str(e), intent.type)]

    def _handle(self, intent: protocol.Intent) -> list[Message]:
        if isinstance(intent, protocol.Play):
            return self._play(intent.move)
        if isinstance(intent, protocol.Undo):
            return self._undo()
        if isinstance(intent, protocol.Redo):
            return self._redo()
        if isinstance(intent, protocol.Goto):
            return self._goto(intent.ply)
        if isinstance(intent, protocol.NewGame):
            return self._new(intent)
        if isinstance(intent, protocol.Seat):
            return self._seat(intent.player, intent.spec)
        if isinstance(intent, protocol.Pause):
            self.paused = intent.on
            return [self.state()]
        if isinstance(intent, protocol.Analyse):
            self.analysing = intent.on
            return [self.state()]
        if isinstance(intent, protocol.Hint):
            if self.board.is_game_over():
                raise BlokusError("the game is over: no move to hint")
            return []  # the server asks hint_job()
        if isinstance(intent, protocol.Save):
            return self._save(intent.name, intent.overwrite)
        if isinstance(intent, protocol.Files):
            return [{"type": "files", "names": self._files()}]
        if isinstance(intent, protocol.Open):
            return self._open(intent.name)
        if isinstance(intent, protocol.Export):
            return [self._export(intent.format, intent.view)]
        raise BlokusError(f"{intent.type}: not handled")  # pragma: no cover - every intent is

    def _play(self, move: int | str) -> list[Message]:
        b = self.board
        if b.is_game_over():
            raise BlokusError(f"the game is over ({b.result()}): no move to play")
        player = b.player
        assert player is not None
        if not self.seats[player].human:
            raise BlokusError(f"it is the engine's turn (player {player + 1}, {self.seats[player].spec})")
        try:
            m = b.parse_move(move) if isinstance(move, str) else Move(b.variant, move)
        except BlokusError as e:
            return [error(str(e), "play")]
        reason = b.why_illegal(m)
        if reason is not None:
            return [error(f"illegal move {m} for {b.variant.colors[b.turn or 0]}: {reason}", "play", reason, m)]
        self._push(m)
        return [self.state()]

    def _push(self, m: Move) -> None:
        if self.future and self.future[-1] == m:
            self.future.pop()
        else:
            self.future.clear()
            # The file's comments are of its line, which this move leaves.
            self.comments = {k: c for k, c in self.comments.items() if k <= self.board.ply}
        self.board.push(m)
        self._changed()

    def _people_play(self) -> bool:
        return any(s.human for s in self.seats)

    def _engine_to_move(self) -> bool:
        p = self.board.player
        return p is not None and not self.seats[p].human

    def _undo(self) -> list[Message]:
        if not self.board.move_stack:
            raise BlokusError("no move to take back")
        self.future.append(self.board.pop())
        if self._people_play():
            # Back to a person's turn: the engines' answers are taken back with their moves.
            while self._engine_to_move() and self.board.move_stack:
                self.future.append(self.board.pop())
        else:
            self.paused = True
        self._changed()
        return [self.state()]

    def _redo(self) -> list[Message]:
        if not self.future:
            raise BlokusError("no move to play again")
        self.board.push(self.future.pop())
        if self._people_play():
            while self._engine_to_move() and self.future:
                self.board.push(self.future.pop())
        else:
            self.paused = True
        self._changed()
        return [self.state()]

    def _goto(self, ply: int) -> list[Message]:
        start = self.board.ply - len(self.board.move_stack)
        end = self.board.ply + len(self.future)
        if not start <= ply <= end:
            raise BlokusError(f"goto {ply}: the line has plies {start} to {end}")
        while self.board.ply > ply:
            self.future.append(self.board.pop())
        while self.board.ply < ply:
            self.board.push(self.future.pop())
        if not all(s.human for s in self.seats):
            self.paused = True
        self._changed()
        return [self.state()]

    def _new(self, intent: protocol.NewGame) -> list[Message]:
        v = self.board.variant
        if intent.variant and intent.variant != v.id:
            own = variant(self.config.variant)
            if intent.variant == own.id:
                v = own  # the variant the GUI was started with, a user's own one too
            elif intent.variant in variants():
                v = variant(intent.variant)
            else:
                raise BlokusError(f"unknown variant {intent.variant!r} (built in: {', '.join(variants())})")
        specs = list(intent.seats) if intent.seats else [s.spec for s in self.seats]
        if v.num_players != len(self.seats) and not intent.seats:
            specs = [s.spec for s in self.seats][: v.num_players]
        self._set_seats(v, specs)
        changed = v != self.board.variant
        self.board = Board(v)
        self.future = []
        self.paused = False
        self.title = ""
        self.names, self.comments = [], {}
        # The engines are not reset here: one may be thinking in its thread, and each brings
        # itself to the position when asked for a move (a GTP engine by undo or a new game).
        self._changed()
        return [self.setup(), self.state()] if changed else [self.state()]

    def _seat(self, player: int, spec: str) -> list[Message]:
        if player >= len(self.seats):
            raise BlokusError(f"seat {player}: {self.board.variant.id} has players 0 to {len(self.seats) - 1}")
        checked = self._check_spec(spec)
        old = self.seats[player]
        if old.bot is not None and old.spec != checked:
            self._retired.append(old.bot)
        if old.spec != checked:
            self.seats[player] = Seat(checked)
        self._changed()
        return [self.state()]

    # --- files ---

    def _path(self, name: str) -> Path:
        folder = self.config.folder
        if folder is None:
            raise BlokusError("no folder for game files: start blokus gui with --open FILE or --folder DIR")
        if _FILE_NAME.fullmatch(name) is None or ".." in name:
            raise BlokusError(
                f"file name {name[:60]!r}: letters, digits, spaces and _.,()+- only, ending in .blksgf, no folder"
            )
        path = (folder / name).resolve()
        if path.parent != folder.resolve():
            raise BlokusError(f"file name {name[:60]!r}: outside the folder")
        return path

    def _files(self) -> list[str]:
        folder = self.config.folder
        if folder is None:
            return []
        try:
            names = sorted(p.name for p in folder.iterdir() if p.is_file() and _FILE_NAME.fullmatch(p.name))
        except OSError:
            return []
        return names[:500]

    def _line_board(self) -> Board:
        """The board with the moves to redo played: the whole line, as it is saved."""
        b = self.board.copy()
        for m in reversed(self.future):
            b.push(m)
        return b

    def _save(self, name: str, overwrite: bool) -> list[Message]:
        path = self._path(name)
        if path.exists() and not overwrite:
            raise BlokusError(f"{name} exists; save with overwrite to replace it")
        text = sgf.dumps(self._line_board())
        try:
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except OSError as e:
            raise BlokusError(f"{name}: {e.strerror or e}") from None
        return [{"type": "saved", "name": path.name}]

    def _open(self, name: str) -> list[Message]:
        path = self._path(name)
        try:
            if path.stat().st_size > MAX_FILE:
                raise BlokusError(f"{name}: larger than {MAX_FILE} bytes")
            own = variant(self.config.variant)
            game = sgf.load(path, None if own.is_builtin else own)
        except OSError as e:
            raise BlokusError(f"{name}: {e.strerror or e}") from None
        changed = game.variant != self.board.variant
        self._load(game)
        self.title = path.name
        self.paused = any(not s.human for s in self.seats)
        self._changed()
        return [self.setup(), self.state()] if changed else [self.state()]

    def _export(self, fmt: str, view: str) -> Message:
        b = self.board
        stem = (self.title.removesuffix(".blksgf") or b.variant.id) + f"-{b.ply}"
        if fmt == "blksgf":
            return {"type": "export", "format": fmt, "name": f"{stem}.blksgf", "text": sgf.dumps(self._line_board())}
        if view == "iso" and b.variant.geometry != "cube":
            view = "top"
        return {"type": "export", "format": fmt, "name": f"{stem}.svg", "text": svg.board(b, view=view)}

    # --- engines and analysis ---

    def engine_job(self) -> Job | None:
        """The engine move due now (an engine's turn, not paused, none running), if any.

        >>> s = Session(Config("duo", ["human", "greedy:seed=1"]))
        >>> s.engine_job() is None
        True
        """
        if self.closed or self.paused or self._engine_busy or self.board.is_game_over():
            return None
        player = self.board.player
        assert player is not None
        seat = self.seats[player]
        if seat.human:
            return None
        board = self.board.copy()
        self._engine_busy = True

        def run() -> Move:
            if seat.bot is None:
                seat.bot = from_spec(seat.spec)
            return seat.bot.choose(board)

        return Job("engine", self.generation, run, player, board.ply)

    def analysis_job(self, kind: str = "analysis") -> Job | None:
        """An analysis of the position (``kind`` ``"analysis"`` or ``"hint"``), if there is one to make."""
        if self.closed or self.board.is_game_over():
            return None
        board = self.board.copy()

        def run() -> Any:
            if self._analysis_bot is None:
                self._analysis_bot = from_spec(self.config.analysis)
            return self._analysis_bot.analyse(board)

        return Job(kind, self.generation, run, board.player, board.ply)

    def cancel(self, job: Job) -> None:
        """Drops a job that was not run."""
        if job.kind == "engine":
            self._engine_busy = False

    def finish(self, job: Job, result: Any = None, failure: BaseException | None = None) -> list[Message]:
        """The messages once a job is done (none if the position changed meanwhile)."""
        if job.kind == "engine":
            self._engine_busy = False
        if self.closed:
            return []
        if failure is not None:
            if job.kind == "engine" and job.player is not None and job.generation == self.generation:
                seat = self.seats[job.player]
                if seat.bot is not None:
                    self._retired.append(seat.bot)
                spec = seat.spec
                self.seats[job.player] = Seat(HUMAN)
                self.paused = True
                self._changed()
                return [
                    error(
                        f"the engine of player {job.player + 1} ({spec}) failed: {failure}; a person has the seat now",
                        "engine",
                    ),
                    self.state(),
                ]
            if job.generation != self.generation:
                return []  # an engine given up (its seat changed, the page moved on)
            return [error(f"{job.kind} failed: {failure}", job.kind)]
        if job.generation != self.generation:
            return []
        if job.kind == "engine":
            m: Move = result
            if self.board.why_illegal(m) is not None:
                return self.finish(job, failure=BlokusError(f"it played {m}: {self.board.why_illegal(m)}"))
            self._push(m)
            return [self.state()]
        a = result
        board = self.board
        moves = [
            {
                "id": r.move.id,
                "text": str(r.move),
                "cells": r.move.cell_indices(),
                "visits": r.visits,
                "value": round(r.value, 4),
            }
            for r in a.moves[:40]
        ]
        if job.kind == "hint":
            m = a.best
            return [
                {
                    "type": "hint",
                    "move": m.id,
                    "text": str(m),
                    "cells": m.cell_indices(),
                    "ply": job.ply,
                    "generation": job.generation,
                }
            ]
        pv = []
        line = board.copy()
        for m in a.pv[:30]:
            if line.why_illegal(m) is not None:
                break
            pv.append({"id": m.id, "text": str(m), "cells": m.cell_indices(), "color": line.turn})
            line.push(m)
        return [
            {
                "type": "analysis",
                "ply": job.ply,
                "generation": job.generation,
                "moves": moves,
                "value": [round(x, 4) for x in a.value],
                "pv": pv,
                "best": {"id": a.best.id, "text": str(a.best)},
            }
        ]

    def retired(self) -> list[Bot]:
        """Engines no seat uses any more, to be closed (off the event loop); the list is emptied."""
        out, self._retired = self._retired, []
        return out

    def close(self) -> None:
        """Ends every engine of the session (GTP engines' processes exit).

        >>> s = Session(Config("duo", ["human", "greedy"]))
        >>> s.close()
        >>> s.closed
        True
        """
        self.closed = True
        for seat in self.seats:
            _close(seat.bot)
        for bot in self.retired():
            _close(bot)
        _close(self._analysis_bot)

    # --- what the page is told ---

    def setup(self) -> Message:
        """The ``setup`` message: the variant, its drawing and placements, the seats."""
        v = self.board.variant
        return {
            "type": "setup",
            "variant": {
                "id": v.id,
                "name": v.name,
                "colors": list(v.colors),
                "fills": svg._fills(self.board, None),
                "players": [list(p) for p in v.players],
                "geometry": v.geometry,
            },
            "geometry": board_geometry(v),
            "variants": self._variant_ids(),
            "folder": self.config.folder is not None,
            "gtp": sorted(self.config.gtp_specs),
        }

    def _variant_ids(self) -> list[str]:
        """The variants the page may start: the built-ins, and the one the GUI started with."""
        ids = variants()
        own = variant(self.config.variant).id
        return ids if own in ids else [own, *ids]

    def state(self) -> Message:
        """The ``state`` message: the position, the line, whose turn, scores, seats."""
        b = self.board
        v = b.variant
        stack = b.move_stack
        colors = b.move_colors()
        start = b.ply - len(stack)
        line = [{"id": m.id, "text": str(m), "color": c, "cells": m.cell_indices()} for m, c in zip(stack, colors)]
        test = b.copy()
        for m in reversed(self.future):
            c = test.turn
            test.push(m)
            line.append({"id": m.id, "text": str(m), "color": c, "cells": m.cell_indices()})
        over = b.is_game_over()
        outcome = b.outcome()
        player = b.player
        thinking = (
            player if (not over and player is not None and not self.seats[player].human and not self.paused) else None
        )
        return {
            "type": "state",
            "generation": self.generation,
            "title": self.title,
            "names": self.names,
            "comment": self.comments.get(b.ply, "")[:4000],
            "start": start,
            "ply": b.ply,
            "line": line,
            "cells": b.cell_colors(),
            "turn": b.turn,
            "player": player,
            "legal": [] if over else b.legal_moves.ids().tolist(),
            "pieces_left": [[p.index for p in b.pieces_left(c)] for c in range(v.num_colors)],
            "points": b.points(),
            "scores": b.scores(),
            "out": list(b.out),
            "over": over,
            "result": b.result() if over else None,
            "winners": list(outcome.winners) if outcome is not None else [],
            "last": stack[-1].cell_indices() if stack else [],
            "seats": [{"spec": s.spec, "human": s.human} for s in self.seats],
            "thinking": thinking,
            "paused": self.paused,
            "analysing": self.analysing,
        }


def error(message: str, intent: str | None = None, reason: str | None = None, move: Move | None = None) -> Message:
    """An ``error`` message.

    >>> error("no move to take back", "undo")
    {'type': 'error', 'message': 'no move to take back', 'intent': 'undo'}
    """
    out: Message = {"type": "error", "message": message}
    if intent is not None:
        out["intent"] = intent
    if reason is not None:
        out["reason"] = reason
    if move is not None:
        out["move"] = {"id": move.id, "text": str(move), "cells": move.cell_indices()}
    return out
