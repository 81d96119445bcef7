"""``blokus gtp``: any bot served as a GTP engine that answers as Pentobi's ``pentobi-gtp`` does.

A controller (Pentobi's ``twogtp``, a contest server, ``blokus match``) writes one command a
line; an optional number before the command is echoed in the answer (``=12 ...``); blank lines
and comments (from ``#`` to the end of a line) are skipped; an answer is ``= text`` or
``? error`` and ends with an empty line. Colours, moves, game names, error texts and the format
of every answer are Pentobi's (see :mod:`blokus.gtp` for the colour tokens).

>>> from blokus.bots import GreedyBot
>>> server = GtpServer(GreedyBot(seed=1), "duo")
>>> server.handle("1 play b e10,d11,e11,f11,e12")
'=1 \\n\\n'
>>> server.handle("play b j5")
"? not b's turn (w is to play)\\n\\n"
>>> server.handle("# a comment") is None
True

One difference from Pentobi remains: Pentobi lets a controller play or ask a move for a colour
out of turn; this server answers ``genmove`` for a colour that has no move with ``pass`` and
``all_legal`` for any colour, but refuses ``play`` and ``genmove`` for a colour that can move and
is not to move (every controller asks the colours in turn).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import IO

from blokus import __version__, sgf
from blokus.board import Board, Move
from blokus.bots import MAX_SECONDS, MIN_SECONDS, Analysis, Bot
from blokus.errors import BlokusError
from blokus.gtp import color_token, parse_color, variant_of_game
from blokus.variant import Variant, VariantLike

#: The largest number of seconds (and of stones) the time commands take: a year. A clock of
#: 1e308 seconds would let a bot think without end.
MAX_TIME = 365 * 24 * 3600


#: The longest command line read: a move of Blokus 3D with its levels is under a hundred
#: bytes, a path to a game file a few thousand.
MAX_LINE_BYTES = 64 * 1024


def _id_of(raw: bytes) -> str:
    """The command number a line starts with, if any (the answer of a line refused whole)."""
    words = raw[:40].split(None, 1)
    return words[0].decode("ascii") if words and words[0].isdigit() and len(words) > 1 else ""


class _Failure(Exception):
    """A command failed; the message is the answer's text."""


def split_line(line: str) -> list[str]:
    """The words of a command line: split at spaces, ``"..."`` keeps spaces in one word.

    >>> split_line('loadsgf "my games/a.blksgf" 3')
    ['loadsgf', 'my games/a.blksgf', '3']
    """
    words: list[str] = []
    word: list[str] = []
    quoted = False
    started = False
    for c in line:
        if c == '"':
            quoted = not quoted
            started = True
        elif c.isspace() and not quoted:
            if started:
                words.append("".join(word))
            word, started = [], False
        else:
            word.append(c)
            started = True
    if started:
        words.append("".join(word))
    return words


def clean_line(raw: str) -> str:
    """A line as GTP reads it: control characters dropped, tabs as spaces, the comment cut.

    >>> clean_line("genmove\\tb # the first move")
    'genmove b'
    """
    text = "".join(c if c >= " " or c == "\t" else "" for c in raw).replace("\t", " ")
    return text.split("#", 1)[0].strip()


def response(ok: bool, id: str, text: str) -> str:
    """An answer in Pentobi's form: status, id, a space, the text; an empty line inside the text
    becomes a line with one space, so that the empty line after it ends the answer.

    >>> response(True, "", "a\\n\\nb")
    '= a\\n \\nb\\n\\n'
    """
    out = [("=" if ok else "?") + id + " "]
    previous_newline = False
    for c in text:
        if c == "\n" and previous_newline:
            out.append(" ")
        out.append(c)
        previous_newline = c == "\n"
    if not previous_newline:
        out.append("\n")
    out.append("\n")
    return "".join(out)


class _Clock:
    """The time a controller gives (``time_settings``, ``time_left``) and the budget per move."""

    def __init__(self) -> None:
        self.main = self.byo_yomi = 0.0
        self.stones = 0
        self.limited = False
        #: Per colour: seconds left and stones left in the period (0 while in main time).
        self.left: dict[int, tuple[float, int]] = {}

    def settings(self, main: float, byo_yomi: float, stones: int) -> None:
        self.main, self.byo_yomi, self.stones = main, byo_yomi, stones
        # GTP: byo-yomi time without stones means no limit; so does no time at all.
        self.limited = not (byo_yomi > 0 and stones == 0) and not (main == 0 and byo_yomi == 0)
        self.left = {}

    def set_left(self, color: int, seconds: float, stones: int) -> None:
        self.left[color] = (seconds, stones)

    def budget(self, color: int, pieces_left: int) -> float | None:
        """Seconds for this move, or ``None`` (no limit: the bot's own setting)."""
        if not self.limited:
            return None
        seconds, stones = self.left.get(color, (self.main, 0))
        if stones > 0:  # in byo-yomi: an equal share of the period
            share = 0.95 * seconds / stones
        else:
            # Main time: a share for each move the colour may still make (at most one per
            # piece; half of them is the usual), and byo-yomi after it.
            share = 0.95 * seconds / max(1.0, math.ceil(pieces_left / 2))
            if self.byo_yomi > 0 and self.stones > 0:
                share = max(share, 0.95 * self.byo_yomi / self.stones)
        # A move is made however little time is left (the controller decides what a late
        # move costs), and no move thinks for longer than a bot may.
        return min(max(share, MIN_SECONDS), MAX_SECONDS)

    def spent(self, color: int, seconds: float) -> None:
        if not self.limited:
            return
        left, stones = self.left.get(color, (self.main, 0))
        left -= seconds
        if stones > 0:
            stones -= 1
            if stones == 0:
                left, stones = self.byo_yomi, self.stones
        elif left <= 0 and self.stones > 0:
            left, stones = self.byo_yomi, self.stones
        self.left[color] = (max(0.0, left), stones)


Handler = Callable[[list[str], str], str]


class GtpServer:
    """Serves a bot over GTP: :meth:`handle` answers one line, :meth:`run` a whole session.

    >>> from blokus.bots import GreedyBot
    >>> server = GtpServer(GreedyBot(seed=1), "duo")
    >>> server.handle("name")
    '= blokus greedy\\n\\n'
    >>> server.handle("3 genmove b")
    '=3 f9,e10,f10,g10,f11\\n\\n'
    >>> server.board.move_stack
    [<Move f9,e10,f10,g10,f11 (X, id 11965)>]
    """

    def __init__(self, bot: Bot, variant_: VariantLike = "classic") -> None:
        self.bot = bot
        self.board = Board(variant_)
        #: The variant given at start (a user's variant can be set again with ``set_game``).
        self._home = self.board.variant
        self._analysis: tuple[Board, int, Analysis] | None = None
        self._clock = _Clock()
        self.quit = False
        self._commands: dict[str, Handler] = {
            "all_legal": self._all_legal,
            "clear_board": self._clear_board,
            "cputime": self._cputime,
            "final_score": self._final_score,
            "g": self._g,
            "genmove": self._genmove,
            "get_value": self._get_value,
            "known_command": self._known_command,
            "list_commands": self._list_commands,
            "loadsgf": self._loadsgf,
            "move_values": self._move_values,
            "name": self._name,
            "p": self._p,
            "play": self._play,
            "protocol_version": self._protocol_version,
            "quit": self._quit,
            "reg_genmove": self._reg_genmove,
            "savesgf": self._savesgf,
            "set_game": self._set_game,
            "set_random_seed": self._set_random_seed,
            "showboard": self._showboard,
            "time_left": self._time_left,
            "time_settings": self._time_settings,
            "undo": self._undo,
            "version": self._version,
        }

    @property
    def variant(self) -> Variant:
        """The variant the server's board plays (changed by ``set_game``)."""
        return self.board.variant

    # --- one line ---

    def handle(self, line: str) -> str | None:
        """The answer to one input line (``None`` for a blank line or a comment).

        >>> from blokus.bots import RandomBot
        >>> server = GtpServer(RandomBot(seed=1), "duo")
        >>> server.handle("play b e10")
        '= \\n\\n'
        >>> server.handle("final_score")
        '= B+1\\n\\n'
        >>> server.handle("undo"), server.handle("fly")
        ('= \\n\\n', '? unknown command (fly)\\n\\n')
        """
        words = split_line(clean_line(line))
        if not words:
            return None
        id = ""
        if len(words) >= 2 and words[0].isdigit():
            id, words = words[0], words[1:]
        name, args = words[0], words[1:]
        handler = self._commands.get(name)
        if handler is None:
            return response(False, id, f"unknown command ({name})")
        # Commands that take the rest of the line as one argument (a move, a game name).
        rest = clean_line(line).split(None, 2 if id else 1)
        tail = rest[-1] if len(rest) == (3 if id else 2) else ""
        try:
            return response(True, id, handler(args, tail))
        except (_Failure, BlokusError) as e:
            return response(False, id, str(e))
        except Exception as e:  # noqa: BLE001 - a bot's bug fails the command, not the engine
            traceback.print_exc(file=sys.stderr)
            return response(False, id, f"internal error: {type(e).__name__}: {e}")

    def run(self, input: IO[bytes], output: IO[bytes]) -> None:
        """Answers lines from ``input`` until ``quit`` or the end of the input.

        >>> import io
        >>> from blokus.bots import GreedyBot
        >>> out = io.BytesIO()
        >>> GtpServer(GreedyBot(seed=1), "junior").run(io.BytesIO(b"1 name\\n2 play b e10\\n3 final_score\\nquit\\n"), out)
        >>> out.getvalue()
        b'=1 blokus greedy\\n\\n=2 \\n\\n=3 B+1\\n\\n= \\n\\n'
        """
        while not self.quit:
            raw = input.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                # The rest of the line is read and dropped in pieces: memory stays bounded.
                while (more := input.readline(MAX_LINE_BYTES)) and not more.endswith(b"\n"):
                    pass
                answer: str | None = response(False, _id_of(raw), f"line too long (more than {MAX_LINE_BYTES} bytes)")
            else:
                answer = self.handle(raw.decode("utf-8", "replace"))
            if answer is not None:
                output.write(answer.encode("utf-8"))
                output.flush()

    # --- arguments ---

    @staticmethod
    def _count(args: list[str], n: int) -> None:
        if len(args) == n:
            return
        if n == 0:
            raise _Failure("no arguments allowed")
        if n == 1:
            raise _Failure("command needs one argument")
        raise _Failure(f"command needs {n} arguments")

    @staticmethod
    def _at_most(args: list[str], n: int) -> None:
        if len(args) > n:
            raise _Failure("command needs at most one argument" if n == 1 else f"command needs at most {n} arguments")

    @staticmethod
    def _arg(args: list[str], i: int) -> str:
        if i >= len(args):
            raise _Failure(f"missing argument {i + 1}")
        return args[i]

    def _color(self, args: list[str], i: int = 0) -> int:
        token = self._arg(args, i)
        color = parse_color(self.variant, token)
        if color is None:
            raise _Failure(f"invalid color argument '{token.lower()}'")
        return color

    def _color_only(self, args: list[str]) -> int:
        if len(args) > 1:
            raise _Failure("too many arguments")
        return self._color(args)

    @staticmethod
    def _number(
        args: list[str], i: int, kind: type[float | int] = float, low: float = 0, high: float = MAX_TIME
    ) -> float:
        text = GtpServer._arg(args, i)
        shown = text if len(text) <= 40 else text[:30] + "..."
        if len(text) > 400:  # int() of thousands of digits is slow, and no argument needs them
            raise _Failure(f"argument {i + 1} ('{shown}') has invalid type")
        try:
            value = kind(text)
        except ValueError:
            raise _Failure(f"argument {i + 1} ('{shown}') has invalid type") from None
        if not math.isfinite(value):
            raise _Failure(f"argument {i + 1} ('{shown}') has invalid type")
        if value < low:
            raise _Failure(f"argument {i + 1} must be greater or equal {low:g}")
        if value > high:
            raise _Failure(f"argument {i + 1} must be less or equal {high:g}")
        return value

    def _token(self, color: int) -> str:
        return color_token(self.variant, color)

    # --- positions ---

    def _can_move(self, color: int) -> bool:
        """Whether a colour has a legal move now, whether or not it is to move."""
        b = self.board
        if b.turn is None:
            return False
        if color == b.turn:
            return True
        return self._as_if_to_move(color) is not None

    def _as_if_to_move(self, color: int) -> Board | None:
        """The position with ``color`` to move (same pieces), or ``None`` if it cannot move."""
        b = self.board
        probe = Board.from_setup(b.variant, b._core.placements(), turn=color, out=b._core.out)
        return probe if probe.turn == color else None

    def _new_board(self, board: Board) -> None:
        self.board = board
        self._analysis = None

    # --- the commands ---

    def _protocol_version(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        return "2"

    def _name(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        return f"blokus {self.bot.name}"

    def _version(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        return __version__

    def _known_command(self, args: list[str], tail: str) -> str:
        return "true" if self._arg(args, 0) in self._commands else "false"

    def _list_commands(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        return "".join(f"{name}\n" for name in sorted(self._commands))

    def _quit(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        self.quit = True
        return ""

    def _set_game(self, args: list[str], tail: str) -> str:
        v = variant_of_game(tail, self._home if not self._home.is_builtin else None)
        if v is None:
            raise _Failure("invalid argument")
        self._new_board(Board(v))
        self.bot.reset()
        return ""

    def _clear_board(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        self._new_board(Board(self.variant))
        self.bot.reset()
        return ""

    def _play(self, args: list[str], tail: str) -> str:
        color = self._color(args, 0)
        text = tail.split(None, 1)[1].strip() if len(tail.split(None, 1)) == 2 else ""
        self._play_move(color, text)
        return ""

    def _p(self, args: list[str], tail: str) -> str:
        color = self.board.turn
        if color is None:
            raise _Failure("illegal move")
        self._play_move(color, tail.strip())
        return ""

    def _play_move(self, color: int, text: str) -> None:
        b = self.board
        if text.lower() == "null":
            raise _Failure("play pass not supported (anymore)")
        if not text:
            raise _Failure("missing argument 2")
        try:
            move = b.parse_move(text)
        except BlokusError:
            raise _Failure("invalid move") from None
        if color != b.turn:
            if not self._can_move(color):
                raise _Failure("illegal move")
            assert b.turn is not None
            raise _Failure(f"not {self._token(color)}'s turn ({self._token(b.turn)} is to play)")
        if not b.is_legal(move):
            reason = b.why_illegal(move) or ""
            if reason.startswith("piece"):
                raise _Failure("piece already played")
            raise _Failure("illegal move")
        b.push(move)
        self._analysis = None

    def _generate(self, color: int, play: bool) -> str:
        b = self.board
        if not self._can_move(color):
            if not play:
                raise _Failure("player failed to generate a move")
            return "pass"
        if color != b.turn:
            assert b.turn is not None
            raise _Failure(f"not {self._token(color)}'s turn ({self._token(b.turn)} is to play)")
        seconds = self._clock.budget(color, len(b.pieces_left(color)))
        started = time.monotonic()
        analysis = self.bot.analyse(b.copy()) if seconds is None else self.bot.analyse(b.copy(), seconds)
        self._clock.spent(color, time.monotonic() - started)
        move = analysis.best
        if not isinstance(move, Move) or not b.is_legal(move):
            raise _Failure(f"player generated illegal move: {move}")
        self._analysis = (b.copy(), color, analysis)
        if play:
            b.push(move)
        return str(move)

    def _genmove(self, args: list[str], tail: str) -> str:
        return self._generate(self._color_only(args), play=True)

    def _g(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        color = self.board.turn
        return "pass" if color is None else self._generate(color, play=True)

    def _reg_genmove(self, args: list[str], tail: str) -> str:
        return self._generate(self._color_only(args), play=False)

    def _all_legal(self, args: list[str], tail: str) -> str:
        color = self._color_only(args)
        b = self.board
        if b.turn is None:
            return ""
        board = b if color == b.turn else self._as_if_to_move(color)
        if board is None:
            return ""
        return "".join(f"{m}\n" for m in board.legal_moves)

    def _final_score(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        result = self.board.result()
        # Pentobi lists points with a space after each, the last one too.
        return result + " " if " " in result or self.variant.num_players > 2 else result

    def _undo(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        if self.board.ply == 0:
            raise _Failure("cannot undo")
        self.board.pop()
        self._analysis = None
        return ""

    def _showboard(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        return "\n" + str(self.board)

    def _loadsgf(self, args: list[str], tail: str) -> str:
        self._at_most(args, 2)
        path = self._arg(args, 0)
        number = int(self._number(args, 1, int, 1)) if len(args) == 2 else None
        try:
            game = sgf.load(path, None if self._home.is_builtin else self._home)
        except OSError as e:
            raise _Failure(f"Could not open '{path}'" + (f": {e.strerror}" if e.strerror else "")) from None
        board = game.end().board()
        if number is not None:
            while board.ply > number - 1:
                board.pop()
        self._new_board(board)
        self.bot.reset()
        return ""

    def _savesgf(self, args: list[str], tail: str) -> str:
        self._count(args, 1)
        try:
            sgf.dump(self.board, args[0])
        except OSError as e:
            raise _Failure(e.strerror or str(e)) from None
        return ""

    def _cputime(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        return f"{time.process_time():.6g}"

    def _set_random_seed(self, args: list[str], tail: str) -> str:
        self._count(args, 1)
        seed = int(self._number(args, 0, int, high=2**64 - 1))
        if hasattr(self.bot, "seed"):
            self.bot.seed = seed
        return ""

    def _time_settings(self, args: list[str], tail: str) -> str:
        self._count(args, 3)
        main, byo = self._number(args, 0), self._number(args, 1)
        stones = int(self._number(args, 2, int))
        self._clock.settings(main, byo, stones)
        return ""

    def _time_left(self, args: list[str], tail: str) -> str:
        self._count(args, 3)
        color = self._color(args, 0)
        seconds = self._number(args, 1)
        stones = int(self._number(args, 2, int))
        if not self._clock.limited:
            self._clock.settings(0, 0, 0)
            self._clock.limited = True
        self._clock.set_left(color, seconds, stones)
        return ""

    def _move_values(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        if self._analysis is None:
            return ""
        rows = sorted(self._analysis[2].moves, key=lambda r: (-r.visits, -r.value))
        return "".join(f"{r.visits} {r.visits:.1f} {r.value:.3f} [{r.move.piece.name}]{r.move}\n" for r in rows)

    def _get_value(self, args: list[str], tail: str) -> str:
        self._count(args, 0)
        if self._analysis is None:
            raise _Failure("no move generated yet")
        board, _, analysis = self._analysis
        player = board.player
        assert player is not None
        return f"{analysis.value[player]:.6g}"


def serve(
    bot: Bot, variant_: VariantLike = "classic", input: IO[bytes] | None = None, output: IO[bytes] | None = None
) -> None:
    """Serves ``bot`` over standard input and output (or the given binary streams) until
    ``quit`` or the end of the input.

    >>> import io
    >>> from blokus.bots import RandomBot
    >>> out = io.BytesIO()
    >>> serve(RandomBot(seed=1), "duo", io.BytesIO(b"set_game Blokus Junior\\nall_legal b\\n"), out)
    >>> answers = out.getvalue().decode().split("\\n\\n")
    >>> answers[0], answers[1].split()[0], len(answers[1].split()[1:])
    ('= ', '=', 189)
    """
    server = GtpServer(bot, variant_)
    stdin = input if input is not None else sys.stdin.buffer
    stdout = output if output is not None else sys.stdout.buffer
    try:
        server.run(stdin, stdout)
    except BrokenPipeError:  # the controller went away
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


__all__ = ["GtpServer", "clean_line", "response", "serve", "split_line"]
