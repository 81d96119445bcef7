"""Engines that speak GTP in Pentobi's dialect: a client for any of them, and a bot over one.

:class:`Engine` starts a GTP program and has a method per command; :class:`GtpBot` follows the
bots' protocol (:mod:`blokus.bots`) over an engine, keeping the engine's position in step with
the board it is asked about. ``blokus gtp`` (:mod:`blokus.gtp_server`) is the other side: it
serves any bot to a controller.

>>> import sys
>>> from blokus import Board
>>> with Engine.popen([sys.executable, "-m", "blokus", "gtp", "--bot", "greedy:seed=1"]) as engine:
...     bot = GtpBot(engine)
...     b = Board("duo")
...     b.push(bot.choose(b))
...     print(engine.name(), len(engine.all_legal(b.turn)) == len(b.legal_moves))
blokus greedy True

Pentobi's engine has quirks this client knows: it will not start without ``--book FILE`` or
``--nobook`` (the error says so); ``reg_genmove`` answers an error, not ``pass``, when the colour
has no move (:meth:`Engine.reg_genmove` returns ``None``); it refuses ``play COLOR pass``
(:class:`GtpBot` never sends it); ``all_legal`` comes in no order (:meth:`Engine.all_legal`
sorts); a multi-player ``final_score`` ends with a space (stripped); ``clear_board`` keeps its
random generator going (:class:`GtpBot` reseeds when given a seed); and ``genmove`` may answer
``resign`` unless it was started with ``--noresign``
(:class:`~blokus.errors.EngineResignedError`).

Every failure is a :class:`~blokus.errors.EngineError` naming the engine and the command, with
the end of what the engine wrote to its error stream, which is read all along so that a chatty
engine never blocks: the engine exited (:class:`~blokus.errors.EngineTerminatedError`), did not
answer in time (:class:`~blokus.errors.EngineTimeoutError`; the engine is stopped), answered
something that is not GTP (:class:`~blokus.errors.EngineProtocolError`) or an illegal move
(:class:`~blokus.errors.EngineIllegalMoveError`), or refused a command
(:class:`~blokus.errors.EngineRefusedError`, with its text).
"""

from __future__ import annotations

import collections
import contextlib
import enum
import math
import os
import queue
import re
import shlex
import signal
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import IO, TYPE_CHECKING, Union

from blokus import _arguments, sgf
from blokus.board import Board, Move
from blokus.bots import MAX_SECONDS, MIN_SECONDS, Analysis, RootMove, _check_playing, _seconds
from blokus.errors import (
    EngineError,
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineRefusedError,
    EngineResignedError,
    EngineTerminatedError,
    EngineTimeoutError,
    InvalidMoveError,
)
from blokus.variant import Variant, VariantLike, variant, variants

if TYPE_CHECKING:
    from typing_extensions import Self

_as_variant = variant


class _Default(enum.Enum):
    """The marker of an argument left out (``timeout``: the engine's own)."""

    DEFAULT = 0


#: ``timeout=DEFAULT``: the engine's ``timeout``.
DEFAULT = _Default.DEFAULT

#: A colour as the client's methods take it: its number, or a GTP token (``"b"``, ``"2"``).
ColorLike = Union[int, str]

#: Pentobi's colour names for four colours, in colour order.
_FOUR_COLORS = ("blue", "yellow", "red", "green")


def color_token(v: Variant, color: int) -> str:
    """The token a controller sends for a colour, as Pentobi's ``twogtp`` does: ``b``/``w``
    with two colours, else ``1``..``4``.

    >>> color_token(variant("duo"), 1), color_token(variant("classic"), 3)
    ('w', '4')
    """
    if not 0 <= color < v.num_colors:
        raise ValueError(f"{v.id} has no colour {color} (colours are 0..{v.num_colors - 1})")
    return "bw"[color] if v.num_colors == 2 else str(color + 1)


def color_tokens(v: Variant) -> dict[str, int]:
    """Every token that names a colour, lower case, with its colour: Pentobi's (``b``,
    ``black``, ``blue``, ``w``, ``white``, ``green`` with two colours; ``1``..``4`` and
    ``blue``, ``yellow``, ``red``, ``green`` otherwise), then the variant's own colour names
    where they name no other colour.

    >>> sorted(color_tokens(variant("duo")).items())  # doctest: +NORMALIZE_WHITESPACE
    [('b', 0), ('black', 0), ('blue', 0), ('green', 1), ('orange', 1), ('purple', 0), ('w', 1), ('white', 1)]
    """
    n = v.num_colors
    if n == 2:
        tokens = {"b": 0, "black": 0, "blue": 0, "w": 1, "white": 1, "green": 1}
    else:
        tokens = {str(c + 1): c for c in range(n)}
        tokens.update({name: c for c, name in enumerate(_FOUR_COLORS[:n])})
    for c, name in enumerate(v.colors):
        tokens.setdefault(name.lower(), c)
    return tokens


def parse_color(v: Variant, token: str) -> int | None:
    """The colour a token names (any case), or ``None``.

    >>> parse_color(variant("duo"), "White"), parse_color(variant("trigon_3"), "4")
    (1, None)
    """
    return color_tokens(v).get(token.lower())


def game_name(v: Variant) -> str:
    """The name ``set_game`` takes for a variant: its SGF game name (Pentobi's, for the variants
    Pentobi has), or its id if it has none.

    >>> game_name(variant("classic_2")), game_name(variant("3d_tower"))
    ('Blokus Two-Player', 'Blokus 3D Tower')
    """
    return v.sgf_name or v.id


def variant_of_game(name: str, extra: Variant | None = None) -> Variant | None:
    """The variant a ``set_game`` argument names (an SGF game name or a variant id, any case),
    among the built-ins and ``extra``; ``None`` if none.

    >>> variant_of_game("blokus duo").id
    'duo'
    """
    key = " ".join(name.split()).lower()
    candidates = [variant(id) for id in variants()]
    if extra is not None:
        candidates.insert(0, extra)
    for v in candidates:
        if key in (game_name(v).lower(), v.id.lower()):
            return v
    return None


#: How many lines of an engine's stderr are kept, and how many characters of each.
STDERR_LINES = 200
STDERR_LINE_CHARS = 4096

#: The longest answer line, and the longest answer, an engine may send (an answer with every
#: legal move of a Classic or Trigon position is some hundreds of kilobytes): past either the
#: engine is out of step and is stopped.
MAX_LINE_BYTES = 2**20
MAX_ANSWER_BYTES = 64 * 2**20

#: Pentobi's answer to ``reg_genmove`` for a colour that has no move.
_NO_MOVE = "player failed to generate a move"

_RESPONSE = re.compile(r"([=?])(\d*)(?: (.*)|)\Z", re.S)


class Engine:
    """A GTP engine in a child process, spoken to over its standard input and output.

    Start one with :meth:`popen`; use it as a context manager, or call :meth:`close`. Every
    command waits at most ``timeout`` seconds for the answer (``None``: for ever; a method's own
    ``timeout`` argument overrides it). Commands go out numbered and the engine's echoed number
    is checked, so a stray answer is never taken for another command's.

    >>> import sys
    >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
    >>> engine = Engine.popen(command, variant="duo", timeout=30)
    >>> engine.name(), engine.alive
    ('blokus greedy', True)
    >>> engine.play("b", "e10,d11,e11,f11,e12")
    >>> engine.genmove("w").piece.size
    5
    >>> engine.final_score()
    '0'
    >>> engine.close()
    >>> engine.alive
    False
    """

    def __init__(self, process: subprocess.Popen[bytes], name: str, timeout: float | None) -> None:
        self.process = process
        #: The engine's name in error messages (the program's file name unless given).
        self.engine_name = name
        self.timeout = timeout
        #: The variant the engine plays, once known (``set_game``, or given to ``popen``).
        self.variant: Variant | None = None
        self._next_id = 1
        #: Answers as they come, each a list of its lines (None: the engine's output ended).
        self._answers: queue.Queue[list[str] | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._known: set[str] | None = None
        self._closed = False
        #: Whether the engine's output went past the bounds (the reader then stopped reading).
        self._flooded = False
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=self._read_stdout, args=(process.stdout,), daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, args=(process.stderr,), daemon=True)
        self._stderr_thread.start()

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        timeout: float | None = 60.0,
        name: str | None = None,
        variant: VariantLike | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> Engine:
        """Starts a GTP engine: ``command`` is the program and its arguments (a string is split
        as a shell would). ``variant`` tells the client which variant the engine starts in (for
        colour numbers and moves); :meth:`set_game` tells both.

        >>> import sys
        >>> Engine.popen([sys.executable, "-c", "pass"], name="nothing").name()
        Traceback (most recent call last):
        ...
        blokus.errors.EngineTerminatedError: nothing: 'name': the engine exited (code 0) before it answered
        """
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise ValueError("an engine's command line names at least the program")
        label = name or os.path.basename(args[0])
        timeout = _timeout(timeout)
        # Everything is checked before the process starts, so a bad argument leaves none behind.
        known = _as_variant(variant) if variant is not None else None
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=-1,  # buffered: readline reads blocks, not bytes (stdin is flushed)
                cwd=cwd,
                env=env,
                # A group of its own, so that stopping it stops what it started too (an engine
                # behind a shell script that did not exec it), and a Ctrl-C meant for us does
                # not kill it in the middle of an answer (we close it).
                start_new_session=os.name == "posix",
            )
        except OSError as e:
            raise EngineTerminatedError(f"cannot start {args[0]!r}: {e.strerror or e}", label) from None
        engine = cls(process, label, timeout)
        engine.variant = known
        return engine

    # --- the pipes ---

    def _read_stdout(self, stream: IO[bytes]) -> None:
        # Whole answers are handed over (an empty line ends one), not lines: an answer of
        # thousands of moves crosses between the threads once. The reader closes its pipe at
        # the end of the output: closing it from another thread would wait for a read that
        # may never end (a child of the engine's that holds the pipe open).
        lines: list[str] = []
        size = 0
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE_BYTES + 1), b""):
                if len(raw) > MAX_LINE_BYTES or size > MAX_ANSWER_BYTES:
                    self._flooded = True  # read no further: the output ends here
                    break
                size += len(raw)
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if line.strip():
                    lines.append(line)
                elif lines:
                    self._answers.put(lines)
                    lines, size = [], 0
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()
        self._answers.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE_BYTES), b""):
                line = raw.decode("utf-8", "replace")
                if len(line) > STDERR_LINE_CHARS:
                    line = line[:STDERR_LINE_CHARS] + " ...\n"
                self._stderr.append(line)
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    @property
    def stderr(self) -> str:
        """The last lines the engine wrote to its standard error."""
        return "".join(self._stderr)

    @property
    def alive(self) -> bool:
        """Whether the engine is running and still in step (not stopped after a failure)."""
        return not self._closed and self.process.poll() is None

    def _error(self, kind: type[EngineError], message: str, command: str | None) -> EngineError:
        return kind(message, self.engine_name, command, self._stderr_tail())

    def _stderr_tail(self) -> str:
        # Whatever the engine wrote just before it failed is the most useful part: give the
        # reader thread a moment to collect it once the process is gone.
        if self.process.poll() is not None:
            self._stderr_thread.join(timeout=0.5)
        return self.stderr

    def _stop(self) -> None:
        """Kills the process and what it started (it is out of step or hung) and closes its
        input; the reader threads close the output pipes when they end."""
        self._closed = True
        self._kill_group()
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a process that ignores SIGKILL
            self.process.wait(timeout=5)
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        # Everything the engine wrote to stderr is read before this returns.
        self._stderr_thread.join(timeout=1)

    def kill(self) -> None:
        """Kills the engine, and what it started, at once: no ``quit``, no wait for it (for a
        process that is being stopped itself).

        >>> import sys
        >>> engine = Engine.popen([sys.executable, "-c", "import time; time.sleep(60)"], name="sleeper")
        >>> engine.kill()
        >>> engine.process.wait(timeout=5) != 0, engine.alive
        (True, False)
        """
        self._closed = True
        self._kill_group()
        with contextlib.suppress(OSError):
            self.process.kill()

    def _kill_group(self) -> None:
        """Kills the engine's process group (its own, made by :meth:`popen`), which the
        engine's children are in unless they left it."""
        if os.name != "posix" or self.process.returncode is not None:
            return  # once reaped, the group's id may be another process's
        with contextlib.suppress(OSError):
            if os.getpgid(self.process.pid) == self.process.pid:
                os.killpg(self.process.pid, signal.SIGKILL)

    def _exited(self, command: str) -> EngineError:
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._closed = True
        how = f"the engine exited (code {code})" if code is not None else "the engine closed its output"
        hint = ""
        args = self.process.args if isinstance(self.process.args, list) else []
        program = os.path.basename(str(args[0])) if args else ""
        if program.startswith("pentobi") and not any(str(a) in ("--book", "--nobook") for a in args):
            hint = " (pentobi-gtp needs --book FILE or --nobook)"
        return self._error(EngineTerminatedError, f"{how} before it answered{hint}", command)

    def send(self, command: str, timeout: float | _Default | None = DEFAULT) -> str:
        """Sends one command line and returns the answer's text (without ``=`` and the
        number). Raises :class:`~blokus.errors.EngineRefusedError` for a ``?`` answer.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.send("protocol_version"), engine.send("showboard").count("\\n") > 14
        ('2', True)
        """
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line, not {command!r}")
        wait = self.timeout if isinstance(timeout, _Default) else _timeout(timeout)
        if self._closed:
            raise self._error(EngineTerminatedError, "the engine is not running (it was closed or stopped)", command)
        id = self._next_id
        self._next_id += 1
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(f"{id} {command}\n".encode())
            stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise self._exited(command) from None
        lines = self._next_answer(command, wait)
        found = _RESPONSE.match(lines[0])
        if found is None:
            self._stop()
            raise self._error(EngineProtocolError, f"answered {lines[0]!r}, which is not a GTP response", command)
        status, echoed, text = found.group(1), found.group(2), found.group(3) or ""
        if echoed and int(echoed) != id:
            self._stop()
            raise self._error(EngineProtocolError, f"answered command {echoed} when asked command {id}", command)
        body = "\n".join([text, *lines[1:]])
        if status == "?":
            raise EngineRefusedError(body.strip(), self.engine_name, command, self.stderr)
        return body

    def _next_answer(self, command: str, wait: float | None) -> list[str]:
        try:
            answer = self._answers.get(timeout=wait)
        except queue.Empty:
            self._stop()
            raise self._error(
                EngineTimeoutError, f"no answer within {wait:g} s; the engine was stopped", command
            ) from None
        if answer is None:
            self._answers.put(None)  # later reads see the end too
            if self._flooded:
                self._stop()
                raise self._error(
                    EngineProtocolError,
                    f"answered more than {MAX_ANSWER_BYTES // 2**20} MiB (or a line of more than "
                    f"{MAX_LINE_BYTES // 2**20} MiB); the engine was stopped",
                    command,
                )
            raise self._exited(command)
        return answer

    # --- helpers for arguments and answers ---

    def _variant(self, command: str) -> Variant:
        if self.variant is None:
            raise ValueError(
                f"{self.engine_name}: {command}: the client does not know the engine's variant "
                "(call set_game, or give popen a variant)"
            )
        return self.variant

    def _color(self, color: ColorLike, command: str) -> str:
        if isinstance(color, str):
            return color
        return color_token(self._variant(command), color)

    def _move(self, text: str, command: str) -> Move:
        v = self._variant(command)
        cells = re.sub(r"^\[[^\]]*\]", "", text.strip())  # move_values shows "[piece]cells"
        try:
            return Move.from_text(v, cells)
        except InvalidMoveError:
            raise self._error(EngineProtocolError, f"answered {text!r}, which is no move of {v.id}", command) from None

    def _number(self, text: str, command: str) -> float:
        try:
            x = float(text.split()[0])
        except (ValueError, IndexError):
            x = math.nan
        if not math.isfinite(x):
            raise self._error(EngineProtocolError, f"answered {text!r}, which is not a finite number", command)
        return x

    def _count(self, text: str, command: str) -> int:
        x = self._number(text, command)
        if not (x.is_integer() and 0 <= x < 2**63):
            raise self._error(EngineProtocolError, f"answered {text!r}, which is not a count", command)
        return int(x)

    # --- the commands ---

    def name(self) -> str:
        """``name``: the engine's name (``Pentobi``).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.name()
        'blokus greedy'
        """
        return self.send("name").strip()

    def version(self) -> str:
        """``version``.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.version() == __import__("blokus").__version__
        True
        """
        return self.send("version").strip()

    def protocol_version(self) -> int:
        """``protocol_version`` (Pentobi does not know it).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.protocol_version()
        2
        """
        return int(self._number(self.send("protocol_version"), "protocol_version"))

    def list_commands(self) -> list[str]:
        """``list_commands``.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     commands = engine.list_commands()
        >>> "genmove" in commands, "reg_genmove" in commands
        (True, True)
        """
        return [line.strip() for line in self.send("list_commands").splitlines() if line.strip()]

    def known_command(self, command: str) -> bool:
        """Whether the engine knows a command (asked once: from ``list_commands``).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.known_command("all_legal"), engine.known_command("fly")
        (True, False)
        """
        if self._known is None:
            self._known = set(self.list_commands())
        return command in self._known

    def set_game(self, variant_: VariantLike) -> None:
        """``set_game NAME``: the engine plays this variant from an empty board.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.set_game("junior")
        ...     engine.variant.id, len(engine.all_legal("b"))
        ('junior', 189)
        """
        v = variant(variant_)
        self.send(f"set_game {game_name(v)}")
        self.variant = v

    def clear_board(self) -> None:
        """``clear_board``: a new game in the same variant (Pentobi keeps its random numbers).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.play("b", "e10")
        ...     engine.clear_board()
        ...     len(engine.all_legal("b"))
        414
        """
        self.send("clear_board")

    def play(self, color: ColorLike, move: Move | str) -> None:
        """``play COLOR MOVE`` (there is no ``play COLOR pass``: Pentobi refuses it).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.play("b", "e10,d11,e11,f11,e12")
        ...     engine.play(1, "j5")
        ...     engine.final_score()
        'B+4'
        """
        command = "play"
        self.send(f"play {self._color(color, command)} {move}")

    def genmove(self, color: ColorLike, timeout: float | _Default | None = DEFAULT) -> Move | None:
        """``genmove COLOR``: the engine chooses and plays a move; ``None`` if it passes (the
        colour has no move). Raises :class:`~blokus.errors.EngineResignedError` if it
        resigns.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     move = engine.genmove("b")
        ...     engine.final_score()
        'B+5'
        >>> move.piece.size
        5
        >>> move in __import__("blokus").Board("duo").legal_moves
        True
        """
        command = f"genmove {self._color(color, 'genmove')}"
        answer = self.send(command, timeout).strip()
        if answer.lower() == "pass":
            return None
        if answer.lower() == "resign":
            raise EngineResignedError("resigned", self.engine_name, command, self.stderr)
        return self._move(answer, command)

    def reg_genmove(self, color: ColorLike, timeout: float | _Default | None = DEFAULT) -> Move | None:
        """``reg_genmove COLOR``: the move the engine would play, not played; ``None`` if the
        colour has no move (Pentobi says so with an error, which this turns into ``None``).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     move = engine.reg_genmove(0)
        ...     engine.final_score()
        '0'
        >>> move.piece.size
        5
        """
        command = f"reg_genmove {self._color(color, 'reg_genmove')}"
        try:
            answer = self.send(command, timeout).strip()
        except EngineRefusedError as e:
            if e.text == _NO_MOVE:
                return None
            raise
        if answer.lower() == "pass":
            return None
        return self._move(answer, command)

    def all_legal(self, color: ColorLike) -> list[Move]:
        """``all_legal COLOR``: the colour's legal moves, sorted by their text.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     moves = engine.all_legal("b")
        >>> len(moves), moves[0]
        (414, <Move a10,b10,c10,d10,e10 (I5, id 5787)>)
        """
        command = f"all_legal {self._color(color, 'all_legal')}"
        answer = self.send(command)
        moves = [self._move(line, command) for line in answer.splitlines() if line.strip()]
        return sorted(moves, key=str)

    def final_score(self) -> str:
        """``final_score``: ``B+3``, ``W+2``, ``0``, or every colour's points (``64 66 66 61``).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.play("b", "e10,d11,e11,f11,e12")
        ...     engine.final_score()
        'B+5'
        """
        return " ".join(self.send("final_score").split())

    def undo(self) -> None:
        """``undo``: takes back the last move.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.play("b", "e10")
        ...     engine.undo()
        ...     len(engine.all_legal("b"))
        414
        """
        self.send("undo")

    def showboard(self) -> str:
        """``showboard``: the engine's picture of the board.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.play("b", "e10")
        ...     print(engine.showboard().strip().splitlines()[4])
        10 . . . . P . . . . . . . . .
        """
        return self.send("showboard").strip("\n")

    def loadsgf(self, path: str | os.PathLike[str], move_number: int | None = None) -> None:
        """``loadsgf FILE [N]``: the position before move ``N`` of the file's main line (the end
        if not given). The engine reads the file itself, so the path is its, not ours.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> import os, tempfile
        >>> from blokus import Board, sgf
        >>> path = os.path.join(tempfile.mkdtemp(), "game.blksgf")
        >>> sgf.dump(Board("duo", ["e10,d11,e11,f11,e12", "j5", "f9"]), path)
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.loadsgf(path, 3)
        ...     engine.final_score()
        'B+4'
        """
        arg = _quote(os.fspath(path))
        self.send(f"loadsgf {arg}" if move_number is None else f"loadsgf {arg} {move_number}")

    def savesgf(self, path: str | os.PathLike[str]) -> None:
        """``savesgf FILE``.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> import os, tempfile
        >>> from blokus import sgf
        >>> path = os.path.join(tempfile.mkdtemp(), "game.blksgf")
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.play("b", "e10,d11,e11,f11,e12")
        ...     engine.savesgf(path)
        >>> [str(node.move) for node in sgf.load(path).mainline()]
        ['e10,d11,e11,f11,e12']
        """
        self.send(f"savesgf {_quote(os.fspath(path))}")

    def cputime(self) -> float:
        """``cputime``: seconds of CPU the engine has used.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.cputime() >= 0
        True
        """
        return self._number(self.send("cputime"), "cputime")

    def set_random_seed(self, seed: int) -> None:
        """``set_random_seed N``.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.set_random_seed(7)
        ...     first = engine.reg_genmove("b")
        ...     engine.set_random_seed(7)
        ...     first == engine.reg_genmove("b")
        True
        """
        self.send(f"set_random_seed {int(seed)}")

    def time_settings(self, main: float, byo_yomi: float, stones: int) -> None:
        """``time_settings MAIN BYO_YOMI STONES`` (seconds; 0 0 0: no limit).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.time_settings(60, 0, 0)
        ...     engine.genmove("b") is not None
        True
        """
        self.send(f"time_settings {_time_text(main)} {_time_text(byo_yomi)} {int(stones)}")

    def time_left(self, color: ColorLike, seconds: float, stones: int) -> None:
        """``time_left COLOR SECONDS STONES``.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     engine.time_settings(0, 5, 1)
        ...     engine.time_left("b", 5, 1)
        ...     engine.genmove("b") is not None
        True
        """
        self.send(f"time_left {self._color(color, 'time_left')} {_time_text(seconds)} {int(stones)}")

    def move_values(self) -> list[tuple[int, float, Move]]:
        """``move_values``: ``(visits, value, move)`` of each move the last search looked at.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "mcts:simulations=100,seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     move = engine.genmove("b")
        ...     values = engine.move_values()
        >>> visits, value, best = values[0]
        >>> best == move, visits > 0, 0 <= value <= 1
        (True, True, True)
        """
        command = "move_values"
        rows = []
        for line in self.send(command).splitlines():
            parts = line.split()
            if not parts:
                continue
            if len(parts) < 3:
                raise self._error(EngineProtocolError, f"answered {line!r}, not visits, value and a move", command)
            visits = self._count(parts[0], command)
            value = self._number(parts[-2], command)
            rows.append((visits, value, self._move(parts[-1], command)))
        return rows

    def get_value(self) -> float:
        """``get_value``: the last search's estimate, between 0 (loss) and 1 (win), for the
        colour of the last generated move.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "mcts:simulations=100,seed=1"]
        >>> with Engine.popen(command, variant="duo") as engine:
        ...     move = engine.genmove("b")
        ...     0 <= engine.get_value() <= 1
        True
        """
        return self._number(self.send("get_value"), "get_value")

    def quit(self) -> None:
        """``quit``; the engine exits.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> engine = Engine.popen(command, variant="duo")
        >>> engine.quit()
        >>> engine.alive
        False
        """
        try:
            self.send("quit", timeout=5.0)
        finally:
            self.close()

    def close(self) -> None:
        """Ends the engine: ``quit`` if it is still in step, then, if it has not exited after a
        moment, it is killed.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> engine = Engine.popen(command, variant="duo")
        >>> engine.close()
        >>> engine.alive, engine.process.poll() is not None
        (False, True)
        """
        if not self._closed and self.process.poll() is None:
            self._closed = True
            stdin = self.process.stdin
            try:
                if stdin is not None:
                    stdin.write(f"{self._next_id} quit\n".encode())
                    stdin.flush()
                    stdin.close()
            except (OSError, ValueError):
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)
        self._stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "running" if self.alive else "stopped"
        return f"<Engine {self.engine_name} (pid {self.process.pid}, {state})>"


def _timeout(value: object) -> float | None:
    """A time to wait for an answer: seconds above 0, or ``None`` for as long as it takes."""
    if value is None:
        return None
    return _arguments.number(value, "timeout", 0, MAX_SECONDS)


def _quote(text: str) -> str:
    return f'"{text}"' if any(c.isspace() for c in text) else text


def _time_text(value: float) -> str:
    """A time for GTP: whole seconds as integers (the standard), else three decimals."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}"


class GtpBot:
    """A bot that asks a GTP engine for its moves (:mod:`blokus.bots` protocol).

    Before each move the engine is brought to the board's position: the variant set if it
    differs, the moves played since the last call sent with ``play``, moves the board no
    longer has taken back with ``undo`` (or a new game if that is shorter), and a board that
    starts from a setup sent as a game file (``loadsgf``). ``seconds`` (per move) reaches engines
    that know ``time_settings``; others ignore it. A ``seed`` is sent with ``set_random_seed``
    at the next :meth:`reset` or move (Pentobi's ``clear_board`` keeps its random numbers going,
    so the match runner reseeds every game).

    >>> import sys
    >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
    >>> from blokus import Board
    >>> b = Board("duo")
    >>> with GtpBot(Engine.popen(command, variant="duo"), name="greedy over GTP") as bot:
    ...     b.push(bot.choose(b))
    ...     b.push("j5")
    ...     b.push(bot.choose(b))
    >>> b.ply, bot.name
    (3, 'greedy over GTP')
    """

    def __init__(self, engine: Engine, name: str | None = None, seed: int | None = None) -> None:
        self.engine = engine
        self.name = name or engine.engine_name
        self._seed = seed
        self._seed_due = seed is not None
        # What the engine holds: its variant, its start position (None: the empty board), and
        # the (colour, move) pairs played since, or None if unknown (after a failure).
        self._variant: Variant | None = None
        self._start: str | None = None
        self._moves: list[tuple[int, Move]] | None = []
        #: The time per move last asked for, and what was sent for it.
        self._given: tuple[float, float] | None = None
        self._time_control: bool | None = None

    @property
    def seed(self) -> int | None:
        """The engine's random seed; assigning one sends it (``set_random_seed``) before the
        next game or move."""
        return self._seed

    @seed.setter
    def seed(self, seed: int | None) -> None:
        self._seed = seed
        self._seed_due = seed is not None

    def reset(self) -> None:
        """A new game: the engine clears its board (and takes the seed, if one is due).

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> from blokus import Board
        >>> with GtpBot(Engine.popen(command, variant="duo"), seed=3) as bot:
        ...     first = bot.choose(Board("duo"))
        ...     bot.seed = 3
        ...     bot.reset()
        ...     first == bot.choose(Board("duo"))
        True
        """
        self._send_seed()
        if self._variant is not None:
            self.engine.clear_board()
            self._start, self._moves = None, []
        else:
            self._moves = None

    def _send_seed(self) -> None:
        if self._seed_due and self._seed is not None:
            self.engine.set_random_seed(self._seed)
            self._seed_due = False

    def _sync(self, board: Board) -> None:
        """Brings the engine to the board's position."""
        engine = self.engine
        self._send_seed()
        v = board.variant
        # Until this succeeds, what the engine holds is not known.
        done, self._moves = self._moves, None
        if self._variant != v or engine.variant != v:
            engine.set_game(v)
            self._variant, self._start, done = v, None, []
        start = board._start()
        key = None if start is None else start.bpn()
        if key != self._start or done is None:
            self._load(start)
            self._start, done = key, []
        target = list(zip(board.move_colors(), board.move_stack))
        common = 0
        while common < min(len(done), len(target)) and done[common] == target[common]:
            common += 1
        extra = len(done) - common
        # Taking back moves beats a new game while it sends fewer commands.
        if extra and extra <= common + 1 and engine.known_command("undo"):
            for _ in range(extra):
                engine.undo()
                done.pop()
        elif extra:
            self._load(start)
            done, common = [], 0
        for color, move in target[common:]:
            engine.play(color, move)
            done.append((color, move))
        self._moves = done

    def _load(self, start: Board | None) -> None:
        """Sets the engine to a start position: the empty board, or a setup sent as a file."""
        if start is None:
            self.engine.clear_board()
            return
        fd, path = tempfile.mkstemp(suffix=".blksgf", prefix="blokus-gtp-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(sgf.dumps(start))
            self.engine.loadsgf(path)
        finally:
            os.unlink(path)

    def _give_time(self, color: int, seconds: float) -> None:
        """Tells an engine with a clock that it has ``seconds`` for this move: byo-yomi of that
        length for one move, and that much left."""
        engine = self.engine
        if self._time_control is None:
            self._time_control = engine.known_command("time_settings") and engine.known_command("time_left")
        if not self._time_control:
            return
        if self._given is None or self._given[0] != seconds:
            # Written with three decimals: less than a few milliseconds would read as no time.
            sent = max(seconds, MIN_SECONDS)
            try:
                engine.time_settings(0, sent, 1)
            except EngineRefusedError:
                # The standard takes whole seconds only; an engine that insists gets those.
                sent = float(max(1, math.ceil(seconds)))
                engine.time_settings(0, sent, 1)
            self._given = (seconds, sent)
        engine.time_left(color, self._given[1], 1)

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        """The engine's move for the colour to move (``genmove``), checked against the board.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> from blokus import Board
        >>> b = Board("duo", ["e10,d11,e11,f11,e12"])
        >>> with GtpBot(Engine.popen(command, variant="duo")) as bot:
        ...     move = bot.choose(b)
        >>> move in b.legal_moves, b.ply
        (True, 1)
        """
        _check_playing(board)
        self._sync(board)
        color = board.turn
        assert color is not None
        timeout: float | _Default | None = DEFAULT
        if seconds is not None:
            seconds = _seconds(seconds)
            self._give_time(color, seconds)
            if self.engine.timeout is not None:
                timeout = max(self.engine.timeout, 2 * seconds + 10)
        done, self._moves = self._moves, None  # if genmove fails, the engine's position is not known
        command = f"genmove {color_token(board.variant, color)}"
        move = self.engine.genmove(color, timeout)
        if move is None:
            raise EngineIllegalMoveError(
                f"passed, but {board.variant.colors[color]} has {len(board.legal_moves)} legal moves",
                self.engine.engine_name,
                command,
                self.engine.stderr,
                "pass",
            )
        if not board.is_legal(move):
            raise EngineIllegalMoveError(
                f"answered {move}, which is illegal here ({board.why_illegal(move)})",
                self.engine.engine_name,
                command,
                self.engine.stderr,
                str(move),
            )
        assert done is not None
        done.append((color, move))
        self._moves = done
        return move

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        """:meth:`choose`, then what the engine says of its search (``move_values``,
        ``get_value``) where it knows those; the value of the other players is split evenly from
        the mover's (GTP gives one number).

        >>> import sys
        >>> from blokus import Board
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "mcts:simulations=100,seed=1"]
        >>> with GtpBot(Engine.popen(command, variant="duo")) as bot:
        ...     a = bot.analyse(Board("duo"))
        >>> a.best == a.moves[0].move, len(a.value)
        (True, 2)
        """
        best = self.choose(board, seconds)
        engine = self.engine
        n = board.variant.num_players
        mover = board.player
        assert mover is not None
        moves: list[RootMove] = []
        win = 1.0 / n
        if engine.known_command("get_value"):
            win = min(1.0, max(0.0, engine.get_value()))
        if engine.known_command("move_values"):
            moves = [RootMove(m, visits, value) for visits, value, m in engine.move_values()]
        if not any(r.move == best for r in moves):
            moves.insert(0, RootMove(best, 0, win))
        else:
            moves.sort(key=lambda r: r.move != best)
        value = tuple(win if p == mover else (1 - win) / (n - 1) for p in range(n))
        return Analysis(tuple(moves), value, (best,), best)

    def close(self) -> None:
        """Ends the engine.

        >>> import sys
        >>> command = [sys.executable, "-m", "blokus", "gtp", "--variant", "duo", "--bot", "greedy:seed=1"]
        >>> bot = GtpBot(Engine.popen(command, variant="duo"))
        >>> bot.close()
        >>> bot.engine.alive
        False
        """
        self.engine.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GtpBot {self.name} over {self.engine!r}>"


__all__ = [
    "DEFAULT",
    "STDERR_LINES",
    "ColorLike",
    "Engine",
    "GtpBot",
    "color_token",
    "color_tokens",
    "game_name",
    "parse_color",
    "variant_of_game",
]
