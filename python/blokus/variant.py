"""Variants: the built-in ones and user-defined ones, all described by the same spec.

>>> v = Variant("duo")
>>> v.id, v.num_colors, v.num_players, v.num_placements
('duo', 2, 2, 13729)
>>> variants()[:3]
['classic', 'classic_2', 'classic_3']
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from os import PathLike
from typing import Any, Union

import numpy as np

from blokus import _arguments, _blokus
from blokus.errors import InvalidArgumentError, InvalidTypeError, InvalidVariantError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on old Pythons only
    import tomli as tomllib

#: Anything that names a variant: a built-in id, a :class:`Variant`, or a spec mapping.
VariantLike = Union[str, "Variant", Mapping[str, Any]]


@dataclass(frozen=True)
class Piece:
    """A piece of a variant's set: its name (Pentobi's), size and how many copies a colour has.

    >>> p = Variant("junior").piece("I3")
    >>> p.name, p.size, p.copies
    ('I3', 3, 2)
    """

    index: int
    name: str
    size: int
    copies: int
    orientations: int
    cells: tuple[tuple[int, int, int], ...]

    def __str__(self) -> str:
        return self.name


class Variant:
    """A game variant: board, colours, players, piece set and scoring.

    ``Variant("duo")`` gives a built-in; ``Variant({...})`` validates a spec (the same form the
    built-ins are written in, see :meth:`spec`); :meth:`from_file` reads a spec from TOML or JSON.
    Bad specs raise :class:`~blokus.errors.InvalidVariantError` naming the field at fault.

    >>> v = Variant("classic_3")
    >>> v.sgf_name, v.colors, v.players
    ('Blokus Three-Player', ('Blue', 'Yellow', 'Red', 'Green'), ((0,), (1,), (2,)))
    >>> Variant({"id": "tiny", "board": {"geometry": "square", "width": 5, "height": 5},
    ...          "colors": ["Blue", "Red"], "players": [[0], [1]], "start_points": [["a1"], ["e5"]],
    ...          "pieces": {"only": ["1", "2", "I3"]}}).num_placements
    95
    """

    __slots__ = (
        "_builtin",
        "_cell_index",
        "_moves",
        "_num_cells",
        "_num_colors",
        "_num_placements",
        "_spec",
        "_tables",
        "color_letters",
        "pieces",
    )

    def __init__(self, spec: str | Mapping[str, Any]) -> None:
        #: Every placement as a Move, built on first use by the board (moves are immutable).
        self._moves: list[Any] | None = None
        if isinstance(spec, str):
            self._tables = _blokus.TablesCore.builtin(spec)
            text = _blokus.builtin_variant_spec(spec)
            assert text is not None
            self._spec: dict[str, Any] = json.loads(text)
            self._builtin = True
        elif isinstance(spec, Mapping):
            text = json.dumps(_plain(spec), sort_keys=True, allow_nan=False)
            self._tables = _tables_from_json(text)
            self._spec = json.loads(text)
            self._builtin = False
        else:
            raise InvalidTypeError(f"a variant is an id or a spec mapping, not {type(spec).__name__}", "spec")
        #: Sizes the API checks arguments against, asked of the tables once.
        self._num_placements: int = self._tables.num_placements
        self._num_cells: int = self._tables.num_cells
        self._num_colors: int = len(self._tables.colors)
        self.pieces: tuple[Piece, ...] = tuple(
            Piece(i, name, len(cells), copies, orientations, tuple(cells))
            for i, (name, cells, copies, orientations) in enumerate(self._tables.pieces())
        )
        self._cell_index: dict[str, int] | None = None
        #: One letter per colour, as position strings (small) and text pictures (capitals)
        #: write colours: the initials of the colour names when they are distinct letters,
        #: else ``a``, ``b``, ...
        self.color_letters: tuple[str, ...] = tuple(self._tables.color_letters())

    @classmethod
    def from_file(cls, path: str | PathLike[str]) -> Variant:
        """Reads a spec from a ``.toml`` or ``.json`` file.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "mini.toml")
        >>> with open(path, "w") as f:
        ...     _ = f.write('''id = "mini"
        ... colors = ["Purple", "Orange"]
        ... players = [[0], [1]]
        ... start_points = [["c6"], ["f3"]]
        ... board = { geometry = "square", width = 8, height = 8 }
        ... pieces = { only = ["1", "2", "V3", "O"] }
        ... ''')
        >>> v = Variant.from_file(path)
        >>> v.id, v.start_points()
        ('mini', [['c6'], ['f3']])
        """
        name = str(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise InvalidVariantError(f"{name}: cannot read: {e.strerror}") from None
        try:
            spec = tomllib.loads(data.decode("utf-8")) if name.endswith(".toml") else json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise InvalidVariantError(f"{name}: {str(e)[:200]}") from None
        except RecursionError:
            raise InvalidVariantError(f"{name}: nested too deeply to be a variant spec") from None
        if not isinstance(spec, dict):
            raise InvalidVariantError(f"{name}: a variant spec is a table/object at the top level")
        return cls(spec)

    @property
    def spec(self) -> dict[str, Any]:
        """The spec this variant was built from (a copy)."""
        copy: dict[str, Any] = json.loads(json.dumps(self._spec))
        return copy

    @property
    def id(self) -> str:
        """The variant's id (``"duo"``)."""
        return self._tables.id

    @property
    def name(self) -> str:
        """The variant's name for people (``"Duo"``)."""
        return self._tables.name

    @property
    def sgf_name(self) -> str | None:
        """The ``GM[...]`` value of SGF files, if Pentobi knows the variant."""
        return self._tables.sgf_name

    @property
    def geometry(self) -> str:
        """The board's geometry: ``"square"``, ``"triangle"`` or ``"cube"``."""
        return self._tables.geometry

    @property
    def colors(self) -> tuple[str, ...]:
        """The colours' names, in colour order."""
        return tuple(self._tables.colors)

    @property
    def num_colors(self) -> int:
        """The number of colours."""
        return self._num_colors

    @property
    def players(self) -> tuple[tuple[int, ...], ...]:
        """For each player, the colours it plays (shared colours are not listed)."""
        return tuple(tuple(cs) for cs in self._tables.players)

    @property
    def num_players(self) -> int:
        """The number of players."""
        return len(self._tables.players)

    @property
    def shared_colors(self) -> tuple[int, ...]:
        """Colours the players take turns to play (the fourth colour of ``classic_3``)."""
        return tuple(self._tables.shared_colors)

    @property
    def scoring(self) -> str:
        """Default scoring: ``"advanced"`` (cells plus bonuses) or ``"basic"`` (minus cells left)."""
        return self._tables.scoring

    @property
    def num_placements(self) -> int:
        """Number of placements: the size of the move-id (action) space."""
        return self._num_placements

    @property
    def num_cells(self) -> int:
        """The number of cells of the board (cubes' places in Blokus 3D)."""
        return self._num_cells

    @property
    def max_plies(self) -> int:
        """The most moves a game can have: every colour places every piece."""
        return self.num_colors * sum(p.copies for p in self.pieces)

    @property
    def is_builtin(self) -> bool:
        """Whether the variant is one of the built-ins (:func:`variants`)."""
        return self._builtin

    def cell_name(self, cell: int) -> str:
        """The name of cell number ``cell`` (``"e10"``).

        >>> Variant("duo").cell_name(130), Variant("3d_tower").cell_name(16)
        ('e10', 'a1@2')
        """
        return self._tables.cell_name(_arguments.in_range(cell, "cell", 0, self._num_cells - 1))

    def cell_coords(self) -> list[tuple[int, int, int]]:
        """``(x, y, z)`` of every cell by number; ``y`` 0 is the bottom row.

        >>> Variant("duo").cell_coords()[130]
        (4, 9, 0)
        """
        return self._tables.cell_coords()

    def cell_index(self, name: str) -> int | None:
        """The number of the cell with this name, or ``None``.

        >>> Variant("duo").cell_index("e10"), Variant("duo").cell_index("z99")
        (130, None)
        """
        if not isinstance(name, str):
            raise InvalidTypeError(f"a cell name is a str, not {type(name).__name__}", "name")
        if self._cell_index is None:
            self._cell_index = {self.cell_name(i): i for i in range(self.num_cells)}
        return self._cell_index.get(name.lower())

    def rows(self) -> list[list[int]]:
        """The cell numbers as the board is drawn: row by row from the top row down, each row
        left to right (a Trigon row holds only its triangles; in Blokus 3D the columns of the
        ground layer).

        >>> Variant("trigon_3").rows()[0][:3]
        [367, 368, 369]
        """
        return self._tables.rows()

    def points_up(self) -> list[bool] | None:
        """On triangle boards, whether each cell (by number) points up; ``None`` elsewhere.

        >>> Variant("trigon").points_up()[:4], Variant("duo").points_up()
        ([False, True, False, True], None)
        """
        return self._tables.cells_point_up()

    def cells_text(self, cells: Iterable[int]) -> str:
        """Cells (by number) as canonical move text: sorted by level, row, then column.

        >>> Variant("duo").cells_text([131, 130])
        'e10,f10'
        """
        numbers = [_arguments.in_range(c, "cell", 0, self._num_cells - 1) for c in cells]
        return self._tables.cells_text(numbers)

    def column_limits(self) -> list[tuple[int, int, int]] | None:
        """Blokus 3D: ``(x, y, limit)`` of every column of the structure, in column order (the
        order of the ground layer's cells); ``None`` on flat boards.

        >>> Variant("3d_tower").column_limits()[:3], Variant("duo").column_limits()
        ([(0, 0, 8), (1, 0, 8), (2, 0, 8)], None)
        """
        return self._tables.column_limits()

    def start_cells(self) -> list[list[int]]:
        """Start points of each colour, by cell number.

        >>> Variant("duo").start_cells()
        [[130], [65]]
        """
        return self._tables.start_points()

    def start_points(self) -> list[list[str]]:
        """Start points of each colour, by name.

        >>> Variant("duo").start_points()
        [['e10'], ['j5']]
        """
        return [[self.cell_name(c) for c in cs] for cs in self._tables.start_points()]

    def color(self, color: object) -> int:
        """``color`` as a colour of this variant (an integer from 0); else
        :class:`~blokus.errors.InvalidArgumentError`.

        >>> Variant("duo").color(1)
        1
        >>> Variant("duo").color(2)
        Traceback (most recent call last):
        ...
        blokus.errors.InvalidArgumentError: duo has no colour 2 (colours are 0..1)
        """
        c = _arguments.integer(color, "color")
        if not 0 <= c < self._num_colors:
            raise InvalidArgumentError(
                f"{self.id} has no colour {_arguments.shown(c)} (colours are 0..{self._num_colors - 1})", "color"
            )
        return c

    def piece(self, name: str) -> Piece:
        """The piece with this name.

        >>> Variant("classic").piece("X")
        Piece(index=18, name='X', size=5, copies=1, orientations=1, cells=((1, 2, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0), (1, 0, 0)))
        """
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(f"no piece {_arguments.shown(name)} in {self.id}")

    def __eq__(self, other: object) -> bool:
        """Variants are equal when their specs are: two variants built from one spec are, even
        if their tables were built apart."""
        return self is other or (isinstance(other, Variant) and self._spec == other._spec)

    def __hash__(self) -> int:
        return hash(json.dumps(self._spec, sort_keys=True))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by id (a built-in) or by spec; the tables are built again on the other side.
        if self._builtin:
            return (variant, (self.id,))
        return (Variant, (self._spec,))

    def __copy__(self) -> Variant:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Variant:
        return self  # immutable

    def __repr__(self) -> str:
        if self._builtin:
            return f"Variant({self.id!r})"
        return f"Variant({self._spec!r})"


#: How deeply a spec may nest (the deepest of the built-ins nests 3 levels).
MAX_SPEC_DEPTH = 16
#: The longest list a spec may hold: the holes of the largest board (64 x 64 squares).
MAX_SPEC_LIST = 64 * 64


def _plain(spec: Mapping[str, Any]) -> dict[str, Any]:
    """``spec`` as plain JSON data, checked without recursion (so however deep, it is an
    :class:`~blokus.errors.InvalidVariantError`, not a ``RecursionError``): tables with str
    keys, lists, strings, bools, ``None``, integers of at most 64 bits and finite floats. The
    error names the field at fault."""
    root: dict[str, Any] = {}
    # (value, its path, the container to put it in, the key there), depth first.
    todo: list[tuple[Any, str, Any, Any, int]] = [(spec, "", None, None, 0)]
    while todo:
        value, path, parent, key, depth = todo.pop()
        where = path or "variant spec"
        if depth > MAX_SPEC_DEPTH:
            raise InvalidVariantError(f"{where}: nested more than {MAX_SPEC_DEPTH} levels deep", path or None)
        out: Any
        if isinstance(value, Mapping):
            out = {}
            for k, v in value.items():
                if not isinstance(k, str) or not _is_text(k):
                    what = type(k).__name__ if not isinstance(k, str) else "a str with a lone surrogate"
                    raise InvalidVariantError(f"{where}: field names are str, not {what}", path or None)
                name = k if len(k) <= 30 else k[:27] + "..."  # a path for messages: short
                todo.append((v, f"{path}.{name}" if path else name, out, k, depth + 1))
        elif isinstance(value, (list, tuple)):
            if len(value) > MAX_SPEC_LIST:
                raise InvalidVariantError(
                    f"{where}: {len(value)} items; no list of a spec has more than {MAX_SPEC_LIST}", path or None
                )
            if all(type(v) is str and _is_text(v) for v in value):
                out = list(value)  # the common case, without a step per item
            else:
                out = [None] * len(value)
                todo.extend((v, f"{path}[{i}]", out, i, depth + 1) for i, v in enumerate(value))
        elif value is None:
            out = value
        elif isinstance(value, str):
            if not _is_text(value):
                raise InvalidVariantError(f"{where}: a lone surrogate is not a character", path or None)
            out = value
        elif isinstance(value, (bool, np.bool_)):
            out = bool(value)
        elif isinstance(value, (int, np.integer)):
            out = int(value)
            if out.bit_length() > 64:
                raise InvalidVariantError(f"{where}: {_arguments.shown(out)} is out of range", path or None)
        elif isinstance(value, (float, np.floating)):
            value = float(value)
            if not math.isfinite(value):
                raise InvalidVariantError(f"{where}: {value} is not a finite number", path or None)
            out = value
        else:
            raise InvalidVariantError(
                f"{where}: {type(value).__name__} is not plain data (tables, lists, strings, numbers)", path or None
            )
        if parent is None:
            root = out
        else:
            parent[key] = out
    return root


def _is_text(text: str) -> bool:
    """Whether ``text`` is Unicode text (holds no lone surrogate), as JSON needs."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@functools.lru_cache(maxsize=64)
def _tables_from_json(text: str) -> _blokus.TablesCore:
    # Keyed by the canonical spec text; equality of variants and boards compares specs, so a
    # variant built again after its tables left the cache is still equal to the first.
    return _blokus.TablesCore.from_json(text)


@functools.cache
def _builtin(id: str) -> Variant:
    return Variant(id)


def variant(spec: VariantLike) -> Variant:
    """The :class:`Variant` for an id, a spec or a variant (built-ins are shared).

    >>> variant("duo") is variant("duo"), variant(variant("duo")).id
    (True, 'duo')
    """
    if isinstance(spec, Variant):
        return spec
    if isinstance(spec, str):
        return _builtin(spec)  # an unknown id raises, so only the built-ins are cached
    return Variant(spec)


def variants() -> list[str]:
    """The ids of the built-in variants.

    >>> ids = variants()
    >>> ids[:5], "3d_tower" in ids
    (['classic', 'classic_2', 'classic_3', 'duo', 'junior'], True)
    """
    return list(_blokus.builtin_variant_ids())
