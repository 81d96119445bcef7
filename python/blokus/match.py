"""Matches between engines: seats rotated, openings varied, games in parallel, Elo and SPRT.

An engine is a bot (:mod:`blokus.bots`) or a spec: a built-in bot with options
(``greedy:seed=3``, ``mcts:seconds=0.1``) or a GTP engine's command line (``gtp:./mybot``,
``pentobi-gtp --nobook --level 1``). Specs play in parallel worker processes, each starting its
own engines once; bot objects play one game at a time in this process.

>>> r = match(["random", "greedy"], "duo", games=4, seed=1, jobs=1)
>>> len(r.records), r.engines
(4, ('random', 'greedy'))
>>> print(r.summary().splitlines()[0])
duo: 4 games of 4 (2 rounds), seed 1

**Seats.** With as many engines as players, each plays one player, and the seating turns by one
every game. With two engines and more players, the first plays one player, turning through the
seats, and the second all the others (engine against three copies of another in classic). With
as many engines as colours in a game of teams (``classic_2``), each plays one colour. The
games of one seating cycle share an opening: a *round*.

**Openings.** Each round starts from a few moves (``opening_plies``, one per colour unless
told) chosen greedily at random from the match's seed, or from the lines of an opening file
(moves separated by ``;`` or spaces, ``#`` comments).

**Seeds.** Bots with a ``seed`` attribute get one per game, from the match's seed and the
game's number: a game plays the same whichever worker plays it, and a resumed match goes on as
it would have.

**Failures.** An engine that fails (exits, hangs past its timeout, answers garbage or an
illegal move, resigns) forfeits the game: it is last, the others share the first place; the
record says why, a GTP engine is started again for the next game, and the match goes on.

**Files** (``out``): ``games/NNNN.blksgf`` per game; ``results.jsonl``, one record per game,
from which an interrupted match resumes (``resume=True``); ``results.dat``, the table of
Pentobi's ``twogtp`` (``Game Result Length PlayerB CpuB CpuW Fast``: the first engine's score,
the moves, the seat it took, CPU seconds of the first engine and of the others, the opening's
moves), which ``twogtp -analyze`` reads; and ``match.json``, the match's settings.

**Equal time** (``equal_time=i``): engine ``i`` gets, for each move, the mean time per move the
other engines have spent so far in the match (its own setting until they have moved).

**Scores and Elo** are in :mod:`blokus.elo`: each engine's mean score (place in [0, 1], a draw
half) over rounds with a 95% interval, its mean points, its share of first places and its mean
place; Elo when there are two distinct engines, and an SPRT (``sprt=(elo0, elo1)``) that stops
the match once decided.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import multiprocessing
import multiprocessing.util
import os
import queue
import re
import shutil
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Union

from blokus import _arguments, sgf
from blokus import elo as stats
from blokus.board import Board, Move
from blokus.bots import MAX_SECONDS, MIN_SECONDS, Bot, GreedyBot, from_spec, gtp_command, is_gtp_spec
from blokus.errors import BlokusError, EngineError, EngineTerminatedError, InvalidBotSpecError
from blokus.gtp import GtpBot
from blokus.variant import Variant, VariantLike, variant

#: An engine of a match: a bot, or a spec that names one.
EngineLike = Union[str, Bot]

#: Default seconds an engine has to answer a GTP command.
TIMEOUT = 60.0
#: Below this many rounds the summary says its interval is not to be relied on (the normal
#: approximation, and even the exact bound at 0% or 100%, say little with a handful of games).
FIRM_ROUNDS = 20


@dataclass(frozen=True)
class GameRecord:
    """One game of a match. Tuples ``per engine`` follow the match's list of engines (0 for an
    engine that did not play); ``seats`` gives the engine of each player (each colour if
    ``by_color``).

    >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
    >>> g = r.records[0]
    >>> g.game, g.round, g.seats, g.result, g.scores_by_engine
    (0, 0, (0, 1), 'B+16', (1.0, 0.0))
    >>> g.opening, g.plies, g.moves, g.forfeit
    (('e9,d10,e10,f10,e11', 'k4,j5,k5,l5,k6'), 31, (16, 13), None)
    """

    game: int
    round: int
    seats: tuple[int, ...]
    by_color: bool
    opening: tuple[str, ...]
    #: Moves played, the opening's included.
    plies: int
    #: Points per colour and score per player at the end (or at the forfeit).
    points: tuple[int, ...]
    scores: tuple[int, ...]
    #: The result line (``B+3``, ``64 66 66 61``), or who forfeited (``W+F``).
    result: str
    #: Per engine: score (place, 1 first .. 0 last), place (1 = first), share of the first
    #: place, points, moves made, seconds thinking, CPU seconds.
    scores_by_engine: tuple[float, ...]
    places: tuple[float, ...]
    firsts: tuple[float, ...]
    points_by_engine: tuple[float, ...]
    moves: tuple[int, ...]
    seconds: tuple[float, ...]
    cpu: tuple[float, ...]
    #: The engine that forfeited, and why.
    forfeit: int | None = None
    error: str | None = None
    #: The game's file (relative to the match's folder).
    sgf: str | None = None

    def to_json(self) -> str:
        """The record as one line of JSON (a line of ``results.jsonl``).

        >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
        >>> line = r.records[0].to_json()
        >>> line.startswith('{"game":0,'), GameRecord.from_json(line) == r.records[0]
        (True, True)
        """
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """The record a line of ``results.jsonl`` holds.

        >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
        >>> record = GameRecord.from_json(r.records[1].to_json())
        >>> record == r.records[1], record.seats
        (True, (1, 0))
        """
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"a game record is a JSON object, not {type(data).__name__}")
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is dataclasses.MISSING:
                    raise ValueError(f"a game record has a {f.name!r}")
                continue
            value = data[f.name]
            values[f.name] = tuple(value) if isinstance(value, list) else value
            if not _RECORD_KINDS[f.name](values[f.name]):
                raise ValueError(f"a game record's {f.name!r} cannot be {_shown(value)}")
        return cls(**values)


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _real(x: object) -> bool:
    return (isinstance(x, float) or _whole(x)) and math.isfinite(x)  # type: ignore[arg-type]


def _tuple_of(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda x: isinstance(x, tuple) and all(test(e) for e in x)


def _or_none(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda x: x is None or test(x)


def _text(x: object) -> bool:
    return isinstance(x, str)


#: What each field of a :class:`GameRecord` read back from a file may hold.
_RECORD_KINDS: dict[str, Callable[[object], bool]] = {
    "game": _whole,
    "round": _whole,
    "seats": _tuple_of(_whole),
    "by_color": lambda x: isinstance(x, bool),
    "opening": _tuple_of(_text),
    "plies": _whole,
    "points": _tuple_of(_whole),
    "scores": _tuple_of(_whole),
    "result": _text,
    "scores_by_engine": _tuple_of(_real),
    "places": _tuple_of(_real),
    "firsts": _tuple_of(_real),
    "points_by_engine": _tuple_of(_real),
    "moves": _tuple_of(_whole),
    "seconds": _tuple_of(_real),
    "cpu": _tuple_of(_real),
    "forfeit": _or_none(_whole),
    "error": _or_none(_text),
    "sgf": _or_none(_text),
}


def _shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class EngineStats:
    """An engine's figures over a match.

    >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
    >>> greedy, rand = r.engine_stats()
    >>> greedy.name, greedy.games, greedy.score.score, greedy.forfeits
    ('greedy', 4, 1.0, 0)
    """

    name: str
    games: int
    #: Mean score (place in [0, 1]) with its 95% interval, over rounds.
    score: stats.Estimate
    points: float
    first: float
    place: float
    forfeits: int
    seconds_per_move: float


@dataclass
class MatchResult:
    """The games of a match so far, and what they say.

    >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
    >>> r.variant.id, r.engines, r.planned, len(r.records), r.stopped
    ('duo', ('greedy', 'random'), 4, 4, None)
    """

    variant: Variant
    engines: tuple[str, ...]
    #: Games the match was to play.
    planned: int
    records: list[GameRecord]
    #: Per engine, the engine it is the same as (its group, for Elo).
    groups: tuple[int, ...]
    #: ``(elo0, elo1, alpha, beta)`` if an SPRT runs.
    sprt_bounds: tuple[float, float, float, float] | None = None
    seed: int = 0
    #: Why the match stopped early (``"sprt: H1"``), if it did.
    stopped: str | None = None

    def _rounds(self) -> list[list[GameRecord]]:
        rounds: dict[int, list[GameRecord]] = {}
        for r in self.records:
            rounds.setdefault(r.round, []).append(r)
        return [rounds[k] for k in sorted(rounds)]

    def samples(self, engines: Sequence[int]) -> list[float]:
        """Mean score of these engines (together) in each round they played.

        >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
        >>> r.samples([0]), r.samples([1])
        ([1.0, 1.0], [0.0, 0.0])
        """
        out = []
        for games in self._rounds():
            values = [self._group_score(r, engines) for r in games if any(e in r.seats for e in engines)]
            if values:
                out.append(sum(values) / len(values))
        return out

    @staticmethod
    def _group_score(r: GameRecord, engines: Sequence[int]) -> float:
        seats = [i for i, e in enumerate(r.seats) if e in engines]
        per_seat = [r.scores_by_engine[r.seats[i]] for i in seats]
        return sum(per_seat) / len(per_seat)

    def engine_stats(self) -> list[EngineStats]:
        """Each engine's figures.

        >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
        >>> [(s.name, s.score.score, s.first, s.place) for s in r.engine_stats()]
        [('greedy', 1.0, 1.0, 1.0), ('random', 0.0, 0.0, 2.0)]
        """
        out = []
        for e, name in enumerate(self.engines):
            games = [r for r in self.records if e in r.seats]
            n = len(games)
            moves = sum(r.moves[e] for r in games)
            seconds = sum(r.seconds[e] for r in games)
            out.append(
                EngineStats(
                    name,
                    n,
                    stats.estimate(self.samples([e])),
                    sum(r.points_by_engine[e] for r in games) / n if n else math.nan,
                    sum(r.firsts[e] for r in games) / n if n else math.nan,
                    sum(r.places[e] for r in games) / n if n else math.nan,
                    sum(1 for r in games if r.forfeit == e),
                    seconds / moves if moves else math.nan,
                )
            )
        return out

    def _sides(self) -> tuple[list[int], list[int]] | None:
        distinct = sorted(set(self.groups))
        if len(distinct) != 2:
            return None
        a = [e for e, g in enumerate(self.groups) if g == distinct[0]]
        b = [e for e, g in enumerate(self.groups) if g == distinct[1]]
        return a, b

    def elo(self) -> stats.Estimate | None:
        """The first engine's score against the other with its interval (``.elo``,
        ``.elo_low``, ``.elo_high``), if the match has two distinct engines.

        >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
        >>> e = r.elo()
        >>> e.score, e.n, e.elo
        (1.0, 2, inf)
        """
        sides = self._sides()
        return None if sides is None else stats.estimate(self.samples(sides[0]))

    def sprt(self) -> stats.Sprt | None:
        """The SPRT so far, if one runs.

        >>> r = match(["greedy", "random"], "duo", games=20, seed=1, jobs=1, sprt=(0, 200))
        >>> t = r.sprt()
        >>> t.elo0, t.elo1, t.llr > t.lower
        (0, 200, True)
        >>> match(["greedy", "random"], "duo", games=2, jobs=1).sprt() is None
        True
        """
        sides = self._sides()
        if self.sprt_bounds is None or sides is None:
            return None
        elo0, elo1, alpha, beta = self.sprt_bounds
        return stats.sprt(self.samples(sides[0]), elo0, elo1, alpha, beta)

    def summary(self) -> str:
        """The results as a table and a few lines, for people.

        >>> r = match(["greedy", "random"], "duo", games=4, seed=1, jobs=1)
        >>> lines = r.summary().splitlines()
        >>> print(lines[0])
        duo: 4 games of 4 (2 rounds), seed 1
        >>> print(lines[-1])
        Elo greedy vs random: at least -290.5 (95%; every round won), score 1.000 over 2 rounds; too few rounds for a firm interval (fewer than 20)
        """
        n_rounds = len(self._rounds())
        lines = [
            f"{self.variant.id}: {len(self.records)} games of {self.planned} ({n_rounds} rounds), seed {self.seed}"
        ]
        if self.stopped:
            lines[0] += f"; stopped early ({self.stopped})"
        width = max([6, *(len(name) for name in self.engines)])
        lines.append(
            f"{'engine':<{width}} {'games':>5} {'score':>6} {'95% interval':>13} {'first':>6} {'points':>7}"
            f" {'place':>5} {'forfeits':>8} {'s/move':>7}"
        )
        for s in self.engine_stats():
            interval = f"{s.score.low:.3f}-{s.score.high:.3f}" if s.score.n > 1 else "-"
            lines.append(
                f"{s.name:<{width}} {s.games:>5} {s.score.score:>6.3f} {interval:>13} {s.first:>6.1%}"
                f" {s.points:>7.1f} {s.place:>5.2f} {s.forfeits:>8} {s.seconds_per_move:>7.3f}"
            )
        sides = self._sides()
        e = self.elo()
        if sides is not None and e is not None and e.n:
            a = " + ".join(dict.fromkeys(self.engines[i] for i in sides[0]))
            b = " + ".join(dict.fromkeys(self.engines[i] for i in sides[1]))
            few = f"; too few rounds for a firm interval (fewer than {FIRM_ROUNDS})" if e.n < FIRM_ROUNDS else ""
            lines.append(f"Elo {a} vs {b}: {_elo_text(e)}, score {e.score:.3f} over {e.n} rounds{few}")
        t = self.sprt()
        if t is not None:
            verdict = {"H1": f"H1 accepted (elo >= {t.elo1:g})", "H0": f"H0 accepted (elo <= {t.elo0:g})"}
            lines.append(
                f"SPRT elo0={t.elo0:g} elo1={t.elo1:g}: LLR {t.llr:.2f} (bounds {t.lower:.2f}, {t.upper:.2f}): "
                + verdict.get(t.decision or "", "undecided")
            )
        for r in self.records:
            if r.forfeit is not None:
                lines.append(f"game {r.game}: {self.engines[r.forfeit]} forfeited: {r.error}")
        return "\n".join(lines)


def _elo_text(e: stats.Estimate) -> str:
    """An Elo difference and its interval for people: an end at a score of 0 or 1 (an
    infinite Elo) is left out, and a score of 0 or 1 itself is given as the bound it is."""
    fe = stats.format_elo
    if e.score == 1:
        return f"at least {fe(e.elo_low)} (95%; every round won)"
    if e.score == 0:
        return f"at most {fe(e.elo_high)} (95%; every round lost)"
    if e.low <= 0 and e.high >= 1:
        interval = "any"
    elif e.low <= 0:
        interval = f"at most {fe(e.elo_high)}"
    elif e.high >= 1:
        interval = f"at least {fe(e.elo_low)}"
    else:
        interval = f"{fe(e.elo_low)} to {fe(e.elo_high)}"
    return f"{fe(e.elo)} (95%: {interval})"


# --- seating, openings, seeds ---


def seatings(v: Variant, n_engines: int) -> tuple[bool, list[tuple[int, ...]]]:
    """Whether engines sit at colours rather than players, and the engine of each seat for
    each game of a round.

    >>> seatings(variant("duo"), 2)
    (False, [(0, 1), (1, 0)])
    >>> seatings(variant("classic"), 2)[1][:2]
    [(0, 1, 1, 1), (1, 0, 1, 1)]
    """
    p, c = v.num_players, v.num_colors
    if n_engines == p:
        return False, [tuple((s - r) % p for s in range(p)) for r in range(p)]
    if n_engines == 2 and p > 2:
        return False, [tuple(0 if s == r else 1 for s in range(p)) for r in range(p)]
    if n_engines == c and c != p and not v.shared_colors:
        return True, [tuple((s - r) % c for s in range(c)) for r in range(c)]
    choices = sorted({p, c if not v.shared_colors else p} | ({2} if p > 2 else set()))
    raise BlokusError(
        f"{v.id} has {p} players and {c} colours: a match there has {' or '.join(map(str, choices))} engines, not {n_engines}"
    )


def _derive(seed: int, *parts: object) -> int:
    """A seed below 2**31 (what GTP engines take) from the match's seed and a name."""
    text = "/".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") % (2**31)


def read_openings(path: str | os.PathLike[str], v: Variant) -> list[tuple[str, ...]]:
    """The openings of a file: one a line, moves separated by ``;`` or spaces, ``#`` comments;
    each checked to be legal from the empty board.

    >>> import os, tempfile
    >>> from blokus.variant import variant
    >>> path = os.path.join(tempfile.mkdtemp(), "openings.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("# two openings\\ne10;j5\\ne10,e9 j5,j6\\n")
    >>> read_openings(path, variant("duo"))
    [('e10', 'j5'), ('e9,e10', 'j5,j6')]
    """
    name = os.fspath(path)
    openings = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            moves = tuple(m for m in re.split(r"[;\s]+", text) if m)
            board = Board(v)
            for m in moves:
                try:
                    board.push(m)
                except BlokusError as e:
                    raise BlokusError(f"{name}, line {number}: {e}") from None
            openings.append(tuple(str(m) for m in board.move_stack))
    if not openings:
        raise BlokusError(f"{name}: no openings in the file")
    return openings


def _opening(v: Variant, seed: int, round: int, plies: int, openings: list[tuple[str, ...]] | None) -> tuple[str, ...]:
    if openings is not None:
        return openings[round % len(openings)]
    board = Board(v)
    bot = GreedyBot(seed=_derive(seed, "opening", round))
    while board.ply < plies and not board.is_game_over():
        board.push(bot.choose(board))
    return tuple(str(m) for m in board.move_stack)


# --- playing a game (in this process or a worker) ---


@dataclass(frozen=True)
class _Job:
    game: int
    round: int
    seats: tuple[int, ...]
    by_color: bool
    opening: tuple[str, ...]
    seeds: tuple[int, ...]
    #: Equal time: the engine given time, and the other engines' seconds and moves so far.
    timed: int | None
    ref_seconds: float
    ref_moves: int
    #: The game's file in the match's folder, if one is written (by the process that runs the
    #: match: games played elsewhere send back its text).
    sgf_name: str | None
    labels: tuple[str, ...]


class _Engines:
    """The bots of a match in one process: built from their specs on first use, and built
    again when a GTP engine has stopped."""

    def __init__(self, engines: Sequence[EngineLike], timeout: float | None) -> None:
        self.specs = list(engines)
        self.timeout = timeout
        self.bots: list[Bot | None] = [e if not isinstance(e, str) else None for e in engines]

    def get(self, e: int) -> Bot:
        bot = self.bots[e]
        spec = self.specs[e]
        if isinstance(spec, str) and (bot is None or (isinstance(bot, GtpBot) and not bot.engine.alive)):
            if isinstance(bot, GtpBot):
                bot.close()
            bot = self.bots[e] = from_spec(spec, timeout=self.timeout)
        assert bot is not None
        return bot

    def close(self) -> None:
        for i, (bot, spec) in enumerate(zip(self.bots, self.specs)):
            if isinstance(bot, GtpBot) and isinstance(spec, str):
                bot.close()
                self.bots[i] = None

    def kill(self) -> None:
        """Kills the GTP engines at once (a worker being stopped: no time for ``quit``)."""
        for bot in self.bots:
            if isinstance(bot, GtpBot):
                bot.engine.kill()


def place_scores(scores: Sequence[float]) -> tuple[list[float], list[float], list[float]]:
    """Per player: score by place (1 alone first, 0 alone last, ties share), place (1 =
    first; ties share), and share of the first place.

    >>> place_scores([10, 30, 30, 5])
    ([0.333..., 0.833..., 0.833..., 0.0], [3.0, 1.5, 1.5, 4.0], [0.0, 0.5, 0.5, 0.0])
    """
    n = len(scores)
    ordered = sorted(scores)
    best = max(scores)
    winners = sum(1 for s in scores if s == best)
    results, places, firsts = [], [], []
    for s in scores:
        at = [j for j, t in enumerate(ordered) if t == s]
        results.append(sum(j / (n - 1) for j in at) / len(at) if n > 1 else 1.0)
        places.append(n - sum(at) / len(at))
        firsts.append(1 / winners if s == best else 0.0)
    return results, places, firsts


def _players_of(v: Variant, seats: tuple[int, ...], by_color: bool, e: int) -> list[int]:
    """The players engine ``e`` plays (by colour: the players owning its colours)."""
    if not by_color:
        return [p for p, s in enumerate(seats) if s == e]
    return sorted({p for p, colors in enumerate(v.players) for c in colors if seats[c] == e})


def _cpu_of(bot: Bot) -> float | None:
    """A GTP engine's own CPU seconds, if it tells."""
    if isinstance(bot, GtpBot) and bot.engine.alive and bot.engine.known_command("cputime"):
        return bot.engine.cputime()
    return None


class _Interrupted(Exception):
    """The match was interrupted (Ctrl-C reached the engines too): the game is not recorded."""


def _check_interrupted(error: BaseException, engines: _Engines, e: int) -> None:
    """An engine that Ctrl-C ended has not forfeited: the whole match is being interrupted."""
    bot = engines.bots[e]
    if isinstance(error, EngineTerminatedError) and isinstance(bot, GtpBot):
        code = bot.engine.process.returncode
        if code in (-signal.SIGINT, 128 + signal.SIGINT):
            raise _Interrupted(str(error))


#: A game played: its record, and the text of its game file if the job asked for one.
_Played = tuple[GameRecord, Union[str, None]]


def _play(job: _Job, v: Variant, engines: _Engines) -> _Played:
    n = len(engines.specs)
    playing = sorted(set(job.seats))
    moves, seconds, cpu = [0] * n, [0.0] * n, [0.0] * n
    gtp_cpu: dict[int, float] = {}
    board = Board(v, job.opening)
    forfeit: int | None = None
    error: str | None = None
    bots: dict[int, Bot] = {}

    def fail(e: int, why: str) -> None:
        nonlocal forfeit, error
        forfeit, error = e, why

    for e in playing:
        try:
            bot = bots[e] = engines.get(e)
            if hasattr(bot, "seed"):
                bot.seed = job.seeds[e]
            bot.reset()
            start = _cpu_of(bot)
            if start is not None:
                gtp_cpu[e] = start
        except (EngineError, BlokusError) as x:
            _check_interrupted(x, engines, e)
            fail(e, str(x))
            break
    ref_seconds, ref_moves = job.ref_seconds, job.ref_moves
    while forfeit is None and not board.is_game_over():
        color, player = board.turn, board.player
        assert color is not None and player is not None
        e = job.seats[color] if job.by_color else job.seats[player]
        bot = bots[e]
        # At least a bot's least (an opponent that takes no measurable time gives none).
        budget = max(ref_seconds / ref_moves, MIN_SECONDS) if job.timed == e and ref_moves else None
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            move = bot.choose(board.copy()) if budget is None else bot.choose(board.copy(), budget)
        except (EngineError, BlokusError) as x:
            _check_interrupted(x, engines, e)
            fail(e, str(x))
            break
        spent = time.perf_counter() - started
        cpu[e] += time.process_time() - cpu_started
        seconds[e] += spent
        moves[e] += 1
        if job.timed is not None and e != job.timed:
            ref_seconds += spent
            ref_moves += 1
        if not isinstance(move, Move) or not board.is_legal(move):
            why = board.why_illegal(move) if isinstance(move, Move) else f"not a Move: {move!r}"
            fail(e, f"{job.labels[e]} chose {move}, which is illegal here ({why})")
            break
        board.push(move)
    for e, start in gtp_cpu.items():
        try:
            end = _cpu_of(bots[e])
        except (EngineError, BlokusError):
            end = None
        if end is not None:
            cpu[e] = max(0.0, end - start)
    points, scores = board.points(), board.scores()
    if forfeit is None:
        result = board.result()
        by_place = place_scores(scores)
    else:
        losers = _players_of(v, job.seats, job.by_color, forfeit)
        by_place = place_scores([0 if p in losers else 1 for p in range(v.num_players)])
        if v.num_players == 2 and len(losers) == 1:
            result = "W+F" if losers[0] == 0 else "B+F"
        else:
            result = f"forfeit by {job.labels[forfeit]}"
    per: list[list[float]] = [[0.0] * n for _ in range(4)]
    for e in playing:
        ps = _players_of(v, job.seats, job.by_color, e)
        for k, values in enumerate((*by_place, [float(s) for s in scores])):
            per[k][e] = sum(values[p] for p in ps) / len(ps)
    text = _sgf_text(job, v, board, result, error) if job.sgf_name is not None else None
    record = GameRecord(
        game=job.game,
        round=job.round,
        seats=job.seats,
        by_color=job.by_color,
        opening=job.opening,
        plies=board.ply,
        points=tuple(points),
        scores=tuple(scores),
        result=result,
        scores_by_engine=tuple(per[0]),
        places=tuple(per[1]),
        firsts=tuple(per[2]),
        points_by_engine=tuple(per[3]),
        moves=tuple(moves),
        seconds=tuple(seconds),
        cpu=tuple(cpu),
        forfeit=forfeit,
        error=error,
        sgf=job.sgf_name if text is not None else None,
    )
    return record, text


def _sgf_text(job: _Job, v: Variant, board: Board, result: str, error: str | None) -> str | None:
    try:
        game = sgf.Game.from_board(board)
    except BlokusError:  # a variant without an SGF game name
        return None
    names = []
    for p in range(v.num_players):
        if job.by_color:
            names.append(" + ".join(dict.fromkeys(job.labels[job.seats[c]] for c in v.players[p])))
        else:
            names.append(job.labels[job.seats[p]])
    game.players = names
    game.name = f"game {job.game}"
    game.result = result
    notes = [f"round {job.round}; the first {len(job.opening)} moves are the opening"]
    if error is not None:
        notes.append(f"forfeit: {error}")
    game.comment = "\n".join(notes)
    return sgf.dumps(game)


# Worker processes keep their engines from game to game.
_WORKER: tuple[Variant, _Engines] | None = None


def _start_worker(variant_spec: str | dict[str, Any], specs: list[str], timeout: float | None) -> None:
    global _WORKER
    # Ctrl-C is the parent's business: it stops the workers itself, with SIGTERM, which must
    # stop their engines too (they run in process groups of their own, which no Ctrl-C
    # reaches, and a hung one would outlive the match).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    engines = _Engines(specs, timeout)

    def stop(signum: int, frame: object) -> None:
        engines.kill()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    _WORKER = (variant(variant_spec), engines)
    multiprocessing.util.Finalize(None, engines.close, exitpriority=10)


def _run_job(job: _Job) -> _Played:
    assert _WORKER is not None
    return _play(job, *_WORKER)


# --- the match ---


def _labels(engines: Sequence[EngineLike]) -> tuple[list[str], tuple[int, ...]]:
    """A name per engine (the spec, or the bot's name; repeats numbered) and its group."""
    keys: list[object] = []
    names: list[str] = []
    for e in engines:
        if isinstance(e, str):
            keys.append(" ".join(e.split()))
            names.append(" ".join(e.split()))
        else:
            keys.append(id(e))
            names.append(str(getattr(e, "name", type(e).__name__)))
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    if len(engines) == 2:
        groups: tuple[int, ...] = (0, 1)
    else:
        first: dict[object, int] = {}
        groups = tuple(first.setdefault(k, i) for i, k in enumerate(keys))
    return labels, groups


def _check_spec(spec: str) -> None:
    """Fails early on a spec that cannot work (an unknown bot, a bad option)."""
    if is_gtp_spec(spec):
        program = gtp_command(spec)[0]
        if shutil.which(program) is None:
            raise InvalidBotSpecError(
                f"GTP engine {spec!r}: no program {program!r} (not on the path, or not executable)"
            )
        return
    from_spec(spec)


def _results_dat(records: list[GameRecord], n_engines: int) -> str:
    lines = ["# Game\tResult\tLength\tPlayerB\tCpuB\tCpuW\tFast"]
    for r in sorted(records, key=lambda r: r.game):
        seat = r.seats.index(0) if 0 in r.seats else 0
        cpu_b = r.cpu[0]
        cpu_w = sum(r.cpu[1:n_engines])
        lines.append(
            f"{r.game}\t{r.scores_by_engine[0]:.4g}\t{r.plies}\t{seat}\t{cpu_b:.5g}\t{cpu_w:.5g}\t{len(r.opening)}"
        )
    return "\n".join(lines) + "\n"


def _variant_spec(v: Variant) -> str | dict[str, Any]:
    return v.id if v.is_builtin else v.spec


def match(
    engines: Sequence[EngineLike],
    variant_: VariantLike = "duo",
    games: int = 100,
    *,
    seed: int = 0,
    jobs: int | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    openings: str | os.PathLike[str] | None = None,
    opening_plies: int | None = None,
    sprt: tuple[float, float] | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    equal_time: int | None = None,
    timeout: float | None = TIMEOUT,
    progress: Callable[[MatchResult], object] | None = None,
    workers: StartWorkers | None = None,
    stop_on_forfeit: bool = False,
) -> MatchResult:
    """Plays a match and returns its results (see the module's documentation).

    ``jobs`` games are played at once (default: one per core; specs only, bot objects play
    one game at a time here; the workers are started afresh, so a script that plays games in
    parallel calls this under ``if __name__ == "__main__":``, as any use of multiprocessing); ``out`` is the folder for the games and the results, which
    ``resume=True`` goes on with; ``equal_time`` is the index of the engine that gets the
    others' mean time per move; ``timeout`` the time a GTP engine has to answer a command
    (``genmove`` gets at least that); ``progress`` is called with the results after each game;
    ``stop_on_forfeit`` stops the match after a game an engine forfeited (as cutechess-cli does
    without ``-recover``; by default the engine is started again and the match goes on).
    ``workers`` starts the workers that play games in parallel (:class:`Workers`; default:
    processes on this machine): given, every game is played there, even with one job, and the
    engines must be specs.

    >>> from blokus.bots import GreedyBot, RandomBot
    >>> r = match([GreedyBot(), RandomBot()], "junior", games=2, seed=5)
    >>> [g.seats for g in r.records], [g.result for g in r.records]
    ([(0, 1), (1, 0)], ['B+26', 'W+18'])
    """
    v = variant(variant_)
    games = _arguments.in_range(games, "games", 0, 10**9)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BlokusError(f"a seed is a whole number from 0 to 2**63 - 1, not {_arguments.shown(seed)}")
    if timeout is not None:
        timeout = _arguments.number(timeout, "timeout", 0, MAX_SECONDS)
    if out is not None and not os.fspath(out):
        raise BlokusError("out names no folder (an empty path)")
    if len(engines) < 2:
        raise BlokusError(f"a match needs at least two engines, not {len(engines)}")
    for e in engines:
        if isinstance(e, str):
            _check_spec(e)
        elif not isinstance(e, Bot):
            raise InvalidBotSpecError(f"an engine is a bot or a spec, not {type(e).__name__}")
    n_jobs = _arguments.in_range(jobs, "jobs", 1, 100_000) if jobs is not None else (os.cpu_count() or 1)
    by_color, cycle = seatings(v, len(engines))
    labels, groups = _labels(engines)
    if equal_time is not None and not 0 <= equal_time < len(engines):
        raise BlokusError(f"equal_time names engine {equal_time}, but engines are 0..{len(engines) - 1}")
    if opening_plies is not None and not 0 <= _arguments.integer(opening_plies, "opening_plies") <= v.max_plies:
        raise BlokusError(
            f"opening plies must be 0 to {v.max_plies} (a game of {v.id} has at most {v.max_plies} moves), "
            f"not {_arguments.shown(opening_plies)}"
        )
    plies = v.num_colors if opening_plies is None else opening_plies
    lines = read_openings(openings, v) if openings is not None else None
    result = MatchResult(v, tuple(labels), games, [], groups, None, seed)
    if sprt is not None:
        elo0, elo1 = sprt
        try:
            stats.sprt([], elo0, elo1, alpha, beta)  # checks the bounds
        except ValueError as e:
            raise BlokusError(str(e)) from None
        if result._sides() is None:
            raise BlokusError("an SPRT needs two distinct engines")
        result.sprt_bounds = (elo0, elo1, alpha, beta)

    folder = Path(out) if out is not None else None
    settings = {
        "engines": labels,
        "variant": _variant_spec(v),
        "seed": seed,
        "openings": os.fspath(openings) if openings is not None else None,
        "opening_plies": plies,
        "equal_time": equal_time,
    }
    done: dict[int, GameRecord] = {}
    if folder is not None:
        done = _prepare(folder, settings, resume)
        result.records.extend(sorted(done.values(), key=lambda r: r.game))

    stop_on_forfeit = _arguments.flag(stop_on_forfeit, "stop_on_forfeit")

    def stop_reason() -> str | None:
        if stop_on_forfeit:
            for r in result.records:
                if r.forfeit is not None:
                    return f"game {r.game} forfeited by {labels[r.forfeit]}"
        t = result.sprt()
        return f"sprt: {t.decision}" if t is not None and t.decision else None

    width = max(4, len(str(max(games - 1, 0))))
    todo = [g for g in range(games) if g not in done]
    ref = [0.0, 0]

    def job(g: int) -> _Job:
        r, turn = divmod(g, len(cycle))
        name = f"games/{g:0{width}d}.blksgf" if folder is not None and v.sgf_name is not None else None
        return _Job(
            game=g,
            round=r,
            seats=cycle[turn],
            by_color=by_color,
            opening=_opening(v, seed, r, plies, lines),
            seeds=tuple(_derive(seed, "bot", g, e) for e in range(len(engines))),
            timed=equal_time,
            ref_seconds=ref[0],
            ref_moves=int(ref[1]),
            sgf_name=name,
            labels=tuple(labels),
        )

    def record(r: GameRecord, text: str | None) -> None:
        if folder is not None and text is not None and r.sgf is not None:
            with open(folder / r.sgf, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        result.records.append(r)
        result.records.sort(key=lambda x: x.game)
        if equal_time is not None:
            ref[0] += sum(s for e, s in enumerate(r.seconds) if e != equal_time)
            ref[1] += sum(m for e, m in enumerate(r.moves) if e != equal_time)
        if folder is not None:
            with open(folder / "results.jsonl", "a", encoding="utf-8") as f:
                f.write(r.to_json() + "\n")
            (folder / "results.dat").write_text(_results_dat(result.records, len(engines)), encoding="utf-8")
        if progress is not None:
            progress(result)

    for r in result.records:  # a resumed match: the time spent so far counts
        if equal_time is not None:
            ref[0] += sum(s for e, s in enumerate(r.seconds) if e != equal_time)
            ref[1] += sum(m for e, m in enumerate(r.moves) if e != equal_time)
    result.stopped = stop_reason()
    if result.stopped is not None or not todo:
        return result
    specs_only = all(isinstance(e, str) for e in engines)
    n_jobs = min(n_jobs, len(todo))
    if workers is None and (n_jobs == 1 or not specs_only):
        local = _Engines(engines, timeout)
        try:
            for g in todo:
                try:
                    played = _play(job(g), v, local)
                except _Interrupted:
                    raise KeyboardInterrupt from None
                record(*played)
                result.stopped = stop_reason()
                if result.stopped is not None:
                    break
        finally:
            local.close()
        return result
    if not specs_only:
        raise InvalidBotSpecError("games played elsewhere need engines given as specs (strings), not bot objects")
    start = workers if workers is not None else _ProcessWorkers
    _run_parallel(
        result, todo, job, record, stop_reason, start(n_jobs, _variant_spec(v), [str(e) for e in engines], timeout)
    )
    return result


def _run_parallel(
    result: MatchResult,
    todo: list[int],
    job: Callable[[int], _Job],
    record: Callable[[GameRecord, str | None], None],
    stop_reason: Callable[[], str | None],
    workers: Workers,
) -> None:
    """Keeps every slot of ``workers`` busy with the next game until the games are done or the
    match stops; results are recorded here, in the order they come."""
    pending = list(reversed(todo))
    running = 0
    try:
        while pending and running < workers.slots:
            workers.submit(job(pending.pop()))
            running += 1
        while running:
            try:
                played = workers.next(0.5)
            except _Interrupted:
                raise KeyboardInterrupt from None
            if played is None:
                continue
            running -= 1
            record(*played)
            if result.stopped is None:
                result.stopped = stop_reason()
            if pending and result.stopped is None:
                workers.submit(job(pending.pop()))
                running += 1
    except BaseException:
        workers.terminate()
        raise
    workers.close()


class Workers(Protocol):
    """Where a match plays its games in parallel: ``slots`` games at once, each a job given to
    :meth:`submit` and played by :func:`_play` in a process that keeps its engines from game
    to game. Worker processes on this machine by default; :func:`blokus.distributed.match`
    gives Ray actors."""

    #: Games played at once (the match never submits more).
    slots: int

    def submit(self, job: _Job) -> None:
        """Starts a game on a free slot."""

    def next(self, timeout: float) -> _Played | None:
        """A game finished (raising what its game raised), or ``None`` after ``timeout`` seconds."""

    def close(self) -> None:
        """Stops the workers once their games are done."""

    def terminate(self) -> None:
        """Stops the workers now (the match failed or was interrupted)."""


#: Starts the workers of a match: ``(slots, variant spec, engine specs, GTP timeout)``.
StartWorkers = Callable[[int, Union[str, dict[str, Any]], list[str], Union[float, None]], Workers]


class _ProcessWorkers:
    """Worker processes on this machine (spawned: no state shared with the parent)."""

    def __init__(self, slots: int, variant_spec: str | dict[str, Any], specs: list[str], timeout: float | None) -> None:
        self.slots = slots
        self.finished: queue.Queue[_Played | BaseException] = queue.Queue()
        context = multiprocessing.get_context("spawn")
        self.pool = context.Pool(slots, initializer=_start_worker, initargs=(variant_spec, specs, timeout))

    def submit(self, job: _Job) -> None:
        self.pool.apply_async(_run_job, (job,), callback=self.finished.put, error_callback=self.finished.put)

    def next(self, timeout: float) -> _Played | None:
        try:
            item = self.finished.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self) -> None:
        self.pool.close()
        self.pool.join()

    def terminate(self) -> None:
        self.pool.terminate()
        self.pool.join()


def _prepare(folder: Path, settings: dict[str, Any], resume: bool) -> dict[int, GameRecord]:
    """Makes the match's folder, or reads the games of the match it holds (``resume``)."""
    path = folder / "match.json"
    if path.exists():
        if not resume:
            raise BlokusError(f"{folder} holds a match already: resume it (--resume) or choose another folder")
        try:
            held = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise BlokusError(f"{path}: cannot read: {e}") from None
        if not isinstance(held, dict):
            raise BlokusError(f"{path}: cannot read: a match's settings are a JSON object, not {type(held).__name__}")
        for key, value in settings.items():
            if held.get(key) != value:
                raise BlokusError(f"{folder} holds another match ({key}: {held.get(key)!r}, not {value!r})")
        records: dict[int, GameRecord] = {}
        results = folder / "results.jsonl"
        if results.exists():
            for line in results.read_text(encoding="utf-8").splitlines():
                try:
                    r = GameRecord.from_json(line)
                except (ValueError, TypeError):
                    continue  # a line cut short when the match was interrupted
                records[r.game] = r
        # Keep the good lines only, so that appending goes on from a clean end.
        results.write_text("".join(r.to_json() + "\n" for r in sorted(records.values(), key=lambda r: r.game)))
        return records
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "games").mkdir(exist_ok=True)
    path.write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
    return {}


__all__ = [
    "EngineLike",
    "EngineStats",
    "GameRecord",
    "MatchResult",
    "match",
    "place_scores",
    "read_openings",
    "seatings",
]
