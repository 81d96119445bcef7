"""Variants: the built-in ones and user-defined ones, all described by the same spec."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from os import PathLike
from typing import Any, Union

from blokus import _blokus
from blokus.errors import InvalidVariantError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on old Pythons only
    import tomli as tomllib

#: Anything that names a variant: a built-in id, a :class:`Variant`, or a spec mapping.
VariantLike = Union[str, "Variant", Mapping[str, Any]]


@dataclass(frozen=True)
class Piece:
    """A piece of a variant's set: its name (Pentobi's), size and how many copies a colour has."""

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
    """

    __slots__ = ("_builtin", "_cell_index", "_moves", "_spec", "_tables", "color_letters", "pieces")

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
            try:
                text = json.dumps(dict(spec), sort_keys=True)
            except (TypeError, ValueError) as e:
                raise InvalidVariantError(f"variant spec is not plain data: {e}") from None
            self._tables = _tables_from_json(text)
            self._spec = json.loads(text)
            self._builtin = False
        else:
            raise TypeError(f"a variant is an id or a spec mapping, not {type(spec).__name__}")
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
        """Reads a spec from a ``.toml`` or ``.json`` file."""
        name = str(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise InvalidVariantError(f"{name}: cannot read: {e.strerror}") from None
        try:
            spec = tomllib.loads(data.decode("utf-8")) if name.endswith(".toml") else json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise InvalidVariantError(f"{name}: {e}") from None
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
        return self._tables.id

    @property
    def name(self) -> str:
        return self._tables.name

    @property
    def sgf_name(self) -> str | None:
        """The ``GM[...]`` value of SGF files, if Pentobi knows the variant."""
        return self._tables.sgf_name

    @property
    def geometry(self) -> str:
        return self._tables.geometry

    @property
    def colors(self) -> tuple[str, ...]:
        return tuple(self._tables.colors)

    @property
    def num_colors(self) -> int:
        return len(self._tables.colors)

    @property
    def players(self) -> tuple[tuple[int, ...], ...]:
        """For each player, the colours it plays (shared colours are not listed)."""
        return tuple(tuple(cs) for cs in self._tables.players)

    @property
    def num_players(self) -> int:
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
        return self._tables.num_placements

    @property
    def num_cells(self) -> int:
        return self._tables.num_cells

    @property
    def is_builtin(self) -> bool:
        return self._builtin

    def cell_name(self, cell: int) -> str:
        """The name of cell number ``cell`` (``"e10"``)."""
        return self._tables.cell_name(cell)

    def cell_coords(self) -> list[tuple[int, int, int]]:
        """``(x, y, z)`` of every cell by number; ``y`` 0 is the bottom row."""
        return self._tables.cell_coords()

    def cell_index(self, name: str) -> int | None:
        """The number of the cell with this name, or ``None``."""
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
        """On triangle boards, whether each cell (by number) points up; ``None`` elsewhere."""
        return self._tables.cells_point_up()

    def cells_text(self, cells: Iterable[int]) -> str:
        """Cells (by number) as canonical move text: sorted by level, row, then column.

        >>> Variant("duo").cells_text([131, 130])
        'e10,f10'
        """
        return self._tables.cells_text(list(cells))

    def column_limits(self) -> list[tuple[int, int, int]] | None:
        """Blokus 3D: ``(x, y, limit)`` of every column of the structure, in column order (the
        order of the ground layer's cells); ``None`` on flat boards."""
        return self._tables.column_limits()

    def start_cells(self) -> list[list[int]]:
        """Start points of each colour, by cell number."""
        return self._tables.start_points()

    def start_points(self) -> list[list[str]]:
        """Start points of each colour, by name."""
        return [[self.cell_name(c) for c in cs] for cs in self._tables.start_points()]

    def piece(self, name: str) -> Piece:
        """The piece with this name."""
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(name)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Variant) and self._spec == other._spec)

    def __hash__(self) -> int:
        return hash(json.dumps(self._spec, sort_keys=True))

    def __repr__(self) -> str:
        if self._builtin:
            return f"Variant({self.id!r})"
        return f"Variant({self._spec!r})"


@functools.lru_cache(maxsize=64)
def _tables_from_json(text: str) -> _blokus.TablesCore:
    return _blokus.TablesCore.from_json(text)


@functools.cache
def _builtin(id: str) -> Variant:
    return Variant(id)


def variant(spec: VariantLike) -> Variant:
    """The :class:`Variant` for an id, a spec or a variant (built-ins are shared)."""
    if isinstance(spec, Variant):
        return spec
    if isinstance(spec, str):
        return _builtin(spec)
    return Variant(spec)


def variants() -> list[str]:
    """The ids of the built-in variants."""
    return list(_blokus.builtin_variant_ids())
