"""Perft: move sequences counted to a depth, split by first move, and the perft suite shipped
with the package, for checking a move generator (this one or another engine's) against known
counts, as chess engines do.

The suite (``blokus/data/perft.json``, :data:`SUITE_PATH`) holds, for every built-in variant,
four positions: the empty board, an opening (about four moves per colour), a middle game and
an end (with one colour or more out); in ``classic_3`` the opening and middle game have the
shared colour to move. Each is given twice, as a BPN string and as the moves from the empty
board, with ``perft(1)`` .. ``perft(k)``, k chosen so that the deepest count takes seconds;
the counts up to ``reference_depth`` (2) were confirmed by the plain reference generator
(:func:`reference_perft`) as well as by the engine.

The file is JSON, one position per line of its ``positions`` list::

    {"format": "blokus-perft", "version": 1, "positions": [
    {"variant": "duo", "name": "empty", "bpn": "duo 14/14/.../14 p -", "moves": [],
     "counts": [414, 171396, ...], "reference_depth": 2},
    ...]}

``counts[d - 1]`` is ``perft(d)``: the number of sequences of ``d`` moves from the position,
each by the colour to move (colours without a move are skipped; a game that ends before ``d``
moves adds nothing). ``moves`` are Pentobi's move text (docs/RULES.md), played from the empty
board; ``bpn`` is the same position as a position string (see :meth:`blokus.Board.bpn`).

>>> suite = load_suite()
>>> p = next(p for p in suite if p.variant == "duo" and p.name == "empty")
>>> p.counts[:2]
[414, 171396]
>>> check(p, max_depth=2).ok
True
>>> b = Board("duo")
>>> d = divide(b, 2)
>>> len(d), sum(d.values()) == b.perft(2)
(414, True)
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from blokus import _arguments
from blokus.board import Board, Move

#: The suite shipped with the package.
SUITE_PATH = Path(__file__).resolve().parent / "data" / "perft.json"

#: The format name and version written in the suite's file.
FORMAT = "blokus-perft"
VERSION = 1


@dataclass(frozen=True)
class PerftPosition:
    """A position of the suite with its perft counts (``counts[d - 1]`` is ``perft(d)``).

    >>> p = PerftPosition("duo", "empty", Board("duo").bpn(), [], [414, 171396])
    >>> p.board().perft(1) == p.counts[0]
    True
    """

    variant: str
    name: str
    bpn: str
    moves: list[str]
    counts: list[int]
    #: Counts up to this depth were confirmed by the reference generator too.
    reference_depth: int = 0

    def board(self) -> Board:
        """The position, played from the empty board by :attr:`moves`.

        >>> p = PerftPosition("duo", "x", "duo 14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14/14/14 o -",
        ...                   ["e10,d11,e11,f11,e12"], [])
        >>> p.board().bpn() == p.bpn
        True
        """
        return Board(self.variant, self.moves)

    def to_json(self) -> dict[str, object]:
        """The position as one entry of a suite file's ``positions`` list.

        >>> PerftPosition("duo", "empty", Board("duo").bpn(), [], [414]).to_json()
        {'variant': 'duo', 'name': 'empty', 'bpn': 'duo 14/14/14/14/14/14/14/14/14/14/14/14/14/14 p -', 'moves': [], 'counts': [414], 'reference_depth': 0}
        """
        return {
            "variant": self.variant,
            "name": self.name,
            "bpn": self.bpn,
            "moves": self.moves,
            "counts": self.counts,
            "reference_depth": self.reference_depth,
        }


def load_suite(path: str | Path | None = None) -> list[PerftPosition]:
    """The positions of a suite file (the shipped one by default).

    A file that is not a suite raises :class:`ValueError` saying what is wrong.

    >>> suite = load_suite()
    >>> sorted({p.name for p in suite})
    ['empty', 'end', 'middle', 'opening']
    >>> {p.variant for p in suite} >= {"classic", "duo", "trigon", "3d_tower"}
    True
    """
    p = Path(path) if path is not None else SUITE_PATH
    data = json.loads(p.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'{p}: not a perft suite (no "format": {FORMAT!r})')
    if data.get("version") != VERSION:
        raise ValueError(f"{p}: perft suite version {data.get('version')!r}; this library reads {VERSION}")
    out = []
    for i, e in enumerate(data.get("positions", [])):
        try:
            out.append(
                PerftPosition(
                    variant=str(e["variant"]),
                    name=str(e["name"]),
                    bpn=str(e["bpn"]),
                    moves=[str(m) for m in e["moves"]],
                    counts=[int(n) for n in e["counts"]],
                    reference_depth=int(e.get("reference_depth", 0)),
                )
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{p}: position {i}: {err!r}") from None
    return out


def dump_suite(positions: Iterable[PerftPosition], path: str | Path) -> None:
    """Writes a suite file: one position per line, so that changes read well in a diff.

    >>> import tempfile, os
    >>> p = PerftPosition("duo", "empty", Board("duo").bpn(), [], [414, 171396], reference_depth=2)
    >>> path = os.path.join(tempfile.mkdtemp(), "suite.json")
    >>> dump_suite([p], path)
    >>> load_suite(path) == [p]
    True
    """
    lines = [json.dumps(p.to_json(), separators=(", ", ": ")) for p in positions]
    text = f'{{"format": "{FORMAT}", "version": {VERSION}, "positions": [\n' + ",\n".join(lines) + "\n]}\n"
    Path(path).write_text(text, encoding="utf-8")


def divide(board: Board, depth: int) -> dict[Move, int]:
    """Perft split by first move: each legal move with the number of sequences of ``depth``
    moves that start with it (``perft(depth - 1)`` after it), in placement-id order; the
    counts add up to ``board.perft(depth)``. Runs in Rust without the GIL.

    >>> d = divide(Board("duo", ["e10,d11,e11,f11,e12"]), 1)
    >>> set(d.values())
    {1}
    """
    v = board.variant
    depth = _arguments.perft_depth(v, depth, low=1)
    return {Move(v, i): n for i, n in board._core.perft_divide(depth)}


def reference_perft(board: Board, depth: int) -> int:
    """Perft by the plain reference generator of the core alone (its legal moves and its turn
    order, from docs/RULES.md): slow, for confirming small depths.

    >>> reference_perft(Board("junior"), 2) == Board("junior").perft(2)
    True
    """
    return board._core.reference_perft(_arguments.perft_depth(board.variant, depth))


@dataclass
class Checked:
    """What :func:`check` found for a position: per depth ``(depth, expected, got, seconds)``.

    >>> p = PerftPosition("duo", "empty", Board("duo").bpn(), [], [414, 171396])
    >>> c = check(p)
    >>> c.ok, [(d, expected, got) for d, expected, got, _ in c.depths]
    (True, [(1, 414, 414), (2, 171396, 171396)])
    """

    position: PerftPosition
    depths: list[tuple[int, int, int, float]] = field(default_factory=list)
    #: Set when the moves do not give the suite's BPN (the position itself is wrong).
    bpn_mismatch: str | None = None

    @property
    def ok(self) -> bool:
        """Whether every count matched and the moves gave the position's BPN."""
        return self.bpn_mismatch is None and all(e == g for _, e, g, _ in self.depths)

    @property
    def nodes(self) -> int:
        """The nodes counted, over every depth checked."""
        return sum(g for _, _, g, _ in self.depths)

    @property
    def seconds(self) -> float:
        """The time the counts took, over every depth checked."""
        return sum(s for _, _, _, s in self.depths)


def check(position: PerftPosition, max_depth: int | None = None) -> Checked:
    """Counts ``perft(d)`` of ``position`` for every depth of the suite (up to ``max_depth``)
    and compares; also checks that its moves give its BPN.

    >>> p = PerftPosition("duo", "wrong", "duo 14/14/14/14/14/14/14/14/14/14/14/14/14/14 p -", [], [414, 5])
    >>> r = check(p)
    >>> r.ok, [(d, e, g) for d, e, g, _ in r.depths]
    (False, [(1, 414, 414), (2, 5, 171396)])
    """
    board = position.board()
    result = Checked(position)
    if board.bpn() != position.bpn:
        result.bpn_mismatch = board.bpn()
    for depth, expected in enumerate(position.counts, start=1):
        if max_depth is not None and depth > max_depth:
            break
        t0 = time.perf_counter()
        got = board.perft(depth)
        result.depths.append((depth, expected, got, time.perf_counter() - t0))
    return result


def check_suite(
    positions: Iterable[PerftPosition], variants: Iterable[str] | None = None, max_depth: int | None = None
) -> Iterator[Checked]:
    """:func:`check` of every position (of the given variants only, if named).

    >>> results = list(check_suite(load_suite(), variants=["junior"], max_depth=1))
    >>> len(results), all(c.ok for c in results)
    (4, True)
    """
    wanted = set(variants) if variants is not None else None
    for p in positions:
        if wanted is None or p.variant in wanted:
            yield check(p, max_depth)


__all__ = [
    "FORMAT",
    "SUITE_PATH",
    "VERSION",
    "Checked",
    "PerftPosition",
    "check",
    "check_suite",
    "divide",
    "dump_suite",
    "load_suite",
    "reference_perft",
]
