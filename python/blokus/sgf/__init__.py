"""Game records in Pentobi's SGF format (``.blksgf``): read, edit and write game trees.

A file holds a tree of nodes: the root names the game (``GM[Blokus Duo]``) and carries the
headers (players, date, event, result); each later node usually holds one move, ``B[...]``/``W[...]``
with two colours or ``1[...]``..``4[...]`` otherwise, whose value is the move text (cells
separated by commas). The first child of a node continues the main line; the others are
variations. Setup properties (``AB``/``AW``/``A1``..``A4`` add pieces, ``AE`` removes them, ``PL``
sets the colour to move) may appear in any node.

>>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12];W[J5])")
>>> [str(n.move) for n in game.mainline()]
['e10,d11,e11,f11,e12', 'j5']
>>> game.end().board().turn
0
>>> print(dumps(game), end="")
(;GM[Blokus Duo]CA[UTF-8]
;B[e10,d11,e11,f11,e12]
;W[j5])

Reading accepts what Pentobi reads: cells in any order and case, the property ids of old
Pentobi versions (``BLUE``, ``YELLOW``, ``RED``, ``GREEN``; ``1``/``2`` in two-colour games), moves
written as one value per cell (``B[e10][e11]``), and files in Latin-1 without a ``CA``
property (bytes are decoded by the root's ``CA``, else as UTF-8 if they are valid UTF-8, else as
Latin-1). Moves and setup values are rewritten canonically; every other property is kept as it
was, so unknown properties survive a round trip. Writing always produces UTF-8 with
``CA[UTF-8]``.

The SGF syntax itself (nodes, properties, escapes, character sets), which knows nothing of
Blokus, is :mod:`blokus.sgf.syntax`; this module gives the properties their Blokus meaning.

A malformed file raises :class:`~blokus.errors.SgfError` with the line and column and what was
expected there; so does a well-formed file with an illegal move, naming the move.

Blokus 3D (this library's extension; Pentobi has no 3D): ``GM[Blokus 3D Tower]`` (``Wall``,
``Steps``, ``Pyramid``; ``... Three-Player``, ``... Two-Player`` with two colours, ``...
Two-Player Four-Color`` with two players of two colours each, as Pentobi names Callisto and
GembloQ), moves and setups with a level per cube (``1[a1@1,b1@1,b1@2]``), and one more setup
property, ``XO``, the colours out of the game by move property id (``XO[2][4]``; ``XO[]`` for
none): a colour that once could not move stays out even when room opens later, which the
pieces alone do not tell. A setup node without ``XO`` keeps the colours that were out before it.

>>> game = loads("(;GM[Blokus 3D Tower Two-Player];B[a1@1,B1@1];W[b1@2,c1@1,c1@2])")
>>> game.end().board().heights()[-1].tolist()
[1, 2, 2, 0]
"""

from __future__ import annotations

import functools
import json
import operator
import os
from collections.abc import Callable, Iterator, Sequence
from os import PathLike
from typing import IO, TypeVar, Union

from blokus import _blokus
from blokus.board import Board, Move, MoveLike
from blokus.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidTypeError,
    SgfError,
)
from blokus.sgf import syntax
from blokus.variant import Variant, VariantLike, variant, variants

__all__ = ["Game", "Node", "dump", "dumps", "load", "load_all", "loads", "loads_all"]

#: Old Pentobi move property ids and the colour they stand for (with four colours; with two,
#: ``BLUE`` is the first colour and ``GREEN`` the second).
LEGACY_COLORS = {"BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}
SETUP_IDS = ("AB", "AW", "A1", "A2", "A3", "A4", "AE")
#: The setup property of Blokus 3D that lists the colours out of the game.
OUT = "XO"


def move_property(v: Variant, color: int) -> str:
    """The move property id of a colour: ``B``/``W`` with two colours, else ``1``..``4``."""
    if v.num_colors == 2:
        return "BW"[color]
    return str(color + 1)


def setup_property(v: Variant, color: int) -> str:
    """The setup property id that adds pieces of a colour: ``AB``/``AW`` or ``A1``..``A4``."""
    return "A" + move_property(v, color)


def _move_colors(v: Variant) -> dict[str, int]:
    """Every property id that holds a move in this variant, with its colour."""
    n = v.num_colors
    ids = {str(c + 1): c for c in range(n)}
    if n == 2:
        ids.update({"B": 0, "W": 1, "BLUE": 0, "GREEN": 1})
    else:
        ids.update({name: c for name, c in LEGACY_COLORS.items() if c < n})
    return ids


def _setup_colors(v: Variant) -> dict[str, int]:
    n = v.num_colors
    ids = {f"A{c + 1}": c for c in range(n)}
    if n == 2:
        ids.update({"AB": 0, "AW": 1})
    return ids


def _has_out(v: Variant) -> bool:
    """Whether setups say which colours are out (``XO``): in Blokus 3D, where being out is a
    fact of the game's history, not of the pieces."""
    return v.geometry == "cube"


def _player_colors(v: Variant) -> dict[str, int]:
    """Values of ``PL``: ``B``/``1`` the first colour, ``W``/``2`` the second, ``3``, ``4``."""
    ids = {str(c + 1): c for c in range(v.num_colors)}
    ids.update({"B": 0, "W": 1})
    return ids


class _VariantIds:
    """The property ids (and values) a variant gives meaning to, worked out once per game."""

    __slots__ = ("has_out", "meaningful", "moves", "players", "setup", "setups")

    def __init__(self, v: Variant) -> None:
        #: Every id that holds a move (current and legacy), with its colour.
        self.moves = _move_colors(v)
        #: Every id that adds pieces, with their colour.
        self.setups = _setup_colors(v)
        #: Values of PL and XO, with the colour they name.
        self.players = _player_colors(v)
        self.has_out = _has_out(v)
        #: Every id that makes a node a setup.
        self.setup = frozenset((*SETUP_IDS, "PL", *((OUT,) if self.has_out else ())))
        #: Every id that changes the board: the others (comments, headers) are passed over quickly.
        self.meaningful = self.setup | self.moves.keys()

    def has_setup(self, properties: dict[str, list[str]]) -> bool:
        return not self.setup.isdisjoint(properties)


class Node:
    """A node of a game tree: its properties (id -> values, in file order), its children (the
    first continues the main line), its parent, and the game it belongs to.

    Values are stored unescaped; the move and setup properties hold canonical move text.

    ``Node(parent, properties)`` makes a node in ``parent``'s game; it is in the tree once it
    is in ``parent.children`` (:meth:`add_variation` does both, and checks the move).

    Every node knows its game, so asking a node its move, colour or variant costs the same however
    deep it is. :meth:`board` replays the line from the root; to see the boards of many nodes,
    :meth:`mainline_boards` and :meth:`walk` play each move once.

    >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
    >>> node = game.children[0]
    >>> node.move, node.color, node.parent is game, len(node.children)
    (<Move e10,d11,e11,f11,e12 (X, id 11976)>, 0, True, 2)
    >>> node.properties
    {'B': ['e10,d11,e11,f11,e12']}
    """

    __slots__ = ("_game", "_parent", "children", "column", "line", "properties")

    def __init__(self, parent: Node | None = None, properties: dict[str, list[str]] | None = None) -> None:
        self.properties: dict[str, list[str]] = properties if properties is not None else {}
        self.children: list[Node] = []
        self._parent = parent
        self._game: Game | None = parent._game if parent is not None else None
        #: Where the node starts in the file it was read from (1-based), else ``None``.
        self.line: int | None = None
        self.column: int | None = None

    # --- the game this node belongs to ---

    @property
    def parent(self) -> Node | None:
        """The node this one follows; ``None`` for the root and for a node taken out of its tree.

        Setting it puts this node, and everything below it, in the parent's game (it does not add
        the node to the parent's children).
        """
        return self._parent

    @parent.setter
    def parent(self, parent: Node | None) -> None:
        if isinstance(self, Game):
            if parent is not None:
                raise InvalidArgumentError("a game is the root of its tree: it has no parent")
            return
        ancestor = parent
        while ancestor is not None:
            if ancestor is self:
                raise InvalidArgumentError("a node cannot follow itself: the parent is this node or below it")
            ancestor = ancestor._parent
        self._parent = parent
        game = parent._game if parent is not None else None
        below = [self]
        while below:
            node = below.pop()
            node._game = game
            below.extend(node.children)

    @property
    def game(self) -> Game:
        """The game this node belongs to, the root of its tree; ``ValueError`` for a node in no
        game (one made without a parent, or taken out of its tree)."""
        if self._game is None:
            raise InvalidArgumentError("this node is in no game: it has no parent, or was taken out of its tree")
        return self._game

    @property
    def variant(self) -> Variant:
        """The variant of the node's game."""
        return self.game._variant

    # --- properties ---

    def get(self, id: str, default: str | None = None) -> str | None:
        """The first value of a property, or ``default``.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> game.get("GM"), game.get("PB"), game.get("PB", "nobody")
        ('Blokus Duo', None, 'nobody')
        """
        values = self.properties.get(id)
        return values[0] if values else default

    def set(self, id: str, value: str | Sequence[str] | None) -> None:
        """Sets a property to one value or a list of values; ``None`` removes it.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> game.set("PB", "Ann")
        >>> game.set("C", ["first", "second"])
        >>> game.properties["C"], game.players
        (['first', 'second'], ['Ann', None])
        >>> game.set("C", None)
        >>> "C" in game.properties
        False
        """
        if not isinstance(id, str):
            raise InvalidTypeError(f"property ids are str, not {type(id).__name__}")
        if not syntax.is_property_id(id):
            raise InvalidArgumentError(f"property ids are letters and digits, not {syntax.excerpt(id)!r}")
        if value is None:
            self.properties.pop(id, None)
            return
        values = [value] if isinstance(value, str) else list(value)
        if not values:
            raise InvalidArgumentError(f"{id} needs a value: set it to None to remove it, or to '' for an empty one")
        for v in values:
            if not isinstance(v, str):
                raise InvalidTypeError(f"the values of {id} are str, not {type(v).__name__}")
        self.properties[id] = values

    @property
    def comment(self) -> str:
        """The comment (``C``), empty if none."""
        return self.get("C", "") or ""

    @comment.setter
    def comment(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidTypeError(f"a comment is str, not {type(text).__name__}")
        self.set("C", text or None)

    @property
    def color(self) -> int | None:
        """The colour that moves in this node, if it holds a move."""
        ids = self.game._ids.moves
        for id in self.properties:
            color = ids.get(id)
            if color is not None:
                return color
        return None

    @property
    def move(self) -> Move | None:
        """The move made in this node, if any."""
        game = self.game
        ids = game._ids.moves
        for id, values in self.properties.items():
            if id in ids:
                return _move_of(game._variant, ",".join(values), id)
        return None

    def has_setup(self) -> bool:
        """Whether the node adds or removes pieces, sets the colour to move or (Blokus 3D) the
        colours out.

        >>> game = loads("(;GM[Blokus Duo]AB[e10]PL[W];W[j5])")
        >>> game.has_setup(), game.children[0].has_setup()
        (True, False)
        """
        return self.game._ids.has_setup(self.properties)

    # --- navigation ---

    def is_mainline(self) -> bool:
        """Whether the node lies on the main line (every ancestor is a first child).

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> x = game.children[0]
        >>> x.children[0].is_mainline(), x.children[1].is_mainline()
        (True, False)
        """
        node = self
        while node._parent is not None:
            if node._parent.children[0] is not node:
                return False
            node = node._parent
        return True

    def mainline(self) -> Iterator[Node]:
        """The nodes after this one along first children.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> [str(n.move) for n in game.mainline()]
        ['e10,d11,e11,f11,e12', 'j5', 'f9']
        >>> [str(n.move) for n in game.children[0].mainline()]
        ['j5', 'f9']
        """
        node = self
        while node.children:
            node = node.children[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The moves of :meth:`mainline`.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> [str(m) for m in game.mainline_moves()]
        ['e10,d11,e11,f11,e12', 'j5', 'f9']
        """
        return [m for m in (n.move for n in self.mainline()) if m is not None]

    def end(self) -> Node:
        """The last node of the main line from here.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> str(game.end().move), game.end().ply()
        ('f9', 3)
        """
        node = self
        while node.children:
            node = node.children[0]
        return node

    def path(self) -> list[Node]:
        """The nodes from the root to this one.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> path = game.end().path()
        >>> path[0] is game, [str(n.move) for n in path[1:]]
        (True, ['e10,d11,e11,f11,e12', 'j5', 'f9'])
        """
        nodes = []
        node: Node | None = self
        while node is not None:
            nodes.append(node)
            node = node._parent
        return nodes[::-1]

    def ply(self) -> int:
        """Number of moves from the root to this node.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> game.ply(), game.children[0].children[1].ply()
        (0, 2)
        """
        return sum(1 for n in self.path() if n.color is not None)

    # --- boards ---

    def board(self) -> Board:
        """The position after this node. Moves since the last setup are on the move stack.

        It is worked out afresh from the root each time (so it is never stale, however the tree
        was edited), which costs as much as the node is deep; :meth:`mainline_boards` and
        :meth:`walk` give the boards of many nodes, playing each move once.

        Raises :class:`~blokus.errors.IllegalMoveError` or
        :class:`~blokus.errors.InvalidPositionError` if the tree was edited into something
        that cannot be played.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> b = game.children[0].children[1].board()
        >>> [str(m) for m in b.move_stack], b.turn
        (['e10,d11,e11,f11,e12', 'j5,j6'], 0)
        """
        game = self.game
        board = Board(game._variant)
        for node in self.path():
            board = _after(game, board, node)
        return board

    def mainline_boards(self) -> Iterator[tuple[Node, Board]]:
        """The nodes of :meth:`mainline`, each with the position after it: each move is played
        once, however long the line.

        Each board is the caller's to keep or change. A node is read when the walk reaches it, so
        edits to the nodes ahead are seen, but a node edited after it was passed does not change
        the boards after it (walk again for those).

        >>> game = loads("(;GM[Blokus Duo];B[e10];W[j5];C[a node without a move])")
        >>> [(node.color, board.ply) for node, board in game.mainline_boards()]
        [(0, 1), (1, 2), (None, 2)]
        """
        game = self.game
        board = self.board()
        node = self
        while node.children:
            node = node.children[0]
            board = _after(game, board, node)
            yield node, board.copy()

    def walk(self) -> Iterator[tuple[Node, Board]]:
        """This node and every node below it, depth first with the main line first (the order of
        the file), each with the position after it: each move is played once, as in
        :meth:`mainline_boards`, whose notes on boards and edits hold here too.

        >>> game = loads("(;GM[Blokus Duo];B[e10](;W[j5];B[f9,f8])(;W[j6,j5]))")
        >>> [str(board.peek()) for node, board in game.walk() if node.move is not None]
        ['e10', 'j5', 'f8,f9', 'j5,j6']
        """
        game = self.game
        before = self._parent.board() if self._parent is not None else Board(game._variant)
        for node, board in _replay(game, self, before, _after):
            yield node, board.copy()

    # --- editing ---

    def add_variation(self, move: MoveLike, comment: str = "") -> Node:
        """Adds a child that plays ``move`` (legal after this node) and returns it.

        ``move`` is a :class:`~blokus.Move`, move text, or a placement id: any integer, such as
        numpy's (not a bool). If it cannot be played here, the tree is left as it was.

        >>> game = Game("duo")
        >>> game.add_variation(game.board().parse_move("e10").id, comment="the centre")
        <Node B[e10]>
        """
        if not isinstance(comment, str):
            raise InvalidTypeError(f"a comment is str, not {type(comment).__name__}")
        board = self.board()
        v = self.game._variant
        m = _placement(v, move)
        turn = board.turn
        if turn is None:
            raise IllegalMoveError(f"illegal move {m}: the game is over")
        reason = board.why_illegal(m)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {m} for {v.colors[turn]}: {reason}")
        child = Node(self, {move_property(v, turn): [str(m)]})
        if comment:
            child.comment = comment
        self.children.append(child)
        return child

    def add_main_variation(self, move: MoveLike, comment: str = "") -> Node:
        """Like :meth:`add_variation`, but the new child becomes the main line.

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> x = game.children[0]
        >>> node = x.add_main_variation("i4,j4,j5", comment="a third try")
        >>> [str(n.move) for n in game.mainline()], node.comment
        (['e10,d11,e11,f11,e12', 'i4,j4,j5'], 'a third try')
        """
        child = self.add_variation(move, comment)
        self.children.insert(0, self.children.pop())
        return child

    def remove_variation(self, child: Node) -> None:
        """Removes a child and everything after it (which then belongs to no game).

        >>> game = loads("(;GM[Blokus Duo];B[e10,d11,e11,f11,e12](;W[j5];B[f9])(;W[j6,j5]))")
        >>> x = game.children[0]
        >>> x.remove_variation(x.children[1])
        >>> [str(c.move) for c in x.children]
        ['j5']
        """
        index = next((k for k, node in enumerate(self.children) if node is child), None)
        if index is None:
            raise InvalidArgumentError(f"{child!r} is not a child of this node")
        del self.children[index]
        child.parent = None

    def __reduce__(self) -> tuple[object, ...]:
        # A node of a game pickles as its place in the (pickled) game, so it comes back in an
        # equal tree; any other node as its subtree, in no game.
        game = self._game
        path = self._place() if game is not None else None
        if game is None or path is None:
            return (_rebuild_tree, (None, _flatten(self)))
        return (_node_at, (game, path))

    def _place(self) -> list[int] | None:
        """The child indices from the root down to this node; ``None`` if it is not in its
        parent's children."""
        path = []
        node = self
        while node._parent is not None:
            index = next((k for k, child in enumerate(node._parent.children) if child is node), None)
            if index is None:
                return None
            path.append(index)
            node = node._parent
        return path[::-1]

    def __repr__(self) -> str:
        if self._game is None:
            return "<Node in no game>"
        move = self._move_text()
        return f"<Node {move or 'without a move'}>"

    def _move_text(self) -> str | None:
        """``"B[e10,e11]"``-like text of the node's move, if any (not checked)."""
        ids = self.game._ids.moves
        for id, values in self.properties.items():
            if id in ids:
                return f"{id}[{syntax.excerpt(','.join(values))}]"
        return None


class Game(Node):
    """The root of a game tree: the variant and the headers.

    >>> game = Game("duo")
    >>> game.players = ["Ann", "Bob"]
    >>> node = game.add_variation("e10,d11,e11,f11,e12")
    >>> print(dumps(game), end="")
    (;GM[Blokus Duo]CA[UTF-8]PB[Ann]PW[Bob]
    ;B[e10,d11,e11,f11,e12])
    """

    __slots__ = ("_ids", "_variant")

    def __init__(self, variant_: VariantLike = "classic", properties: dict[str, list[str]] | None = None) -> None:
        v = variant(variant_)
        if v.sgf_name is None:
            raise SgfError(f"variant {syntax.excerpt(v.id)} has no SGF game name (set sgf_name in its spec)")
        props = {"GM": [v.sgf_name], "CA": ["UTF-8"]}
        if properties:
            props.update(properties)
        super().__init__(None, props)
        self._begin(v)

    def _begin(self, v: Variant) -> None:
        """Makes this node the root of a game of ``v``."""
        self._variant = v
        self._ids = _VariantIds(v)
        self._game = self

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """A game holding a board's moves (after its setup, if it started from one).

        >>> from blokus import Board
        >>> game = Game.from_board(Board("duo", ["e10", "j5"]))
        >>> game.variant.id, [str(m) for m in game.mainline_moves()]
        ('duo', ['e10', 'j5'])
        """
        v = board.variant
        game = cls(v)
        node: Node = game
        start = board._start()
        if start is not None:
            for c, moves in enumerate(start.placements()):
                if moves:
                    game.properties[setup_property(v, c)] = [str(m) for m in moves]
            if start.turn is not None:
                game.properties["PL"] = [move_property(v, start.turn)]
            if _has_out(v) and start.out:
                game.properties[OUT] = [move_property(v, c) for c in start.out]
        for move, color in zip(board.move_stack, board.move_colors()):
            child = Node(node, {move_property(v, color): [str(move)]})
            node.children.append(child)
            node = child
        if board.is_game_over():
            game.result = board.result()
        return game

    @property
    def variant(self) -> Variant:
        """The variant the game is played in."""
        return self._variant

    @property
    def game(self) -> Game:
        """The game itself: it is the root of its tree."""
        return self

    @property
    def players(self) -> list[str | None]:
        """Player names: ``PB``/``PW`` in two-player variants, else ``P1``..``P4``."""
        return [self.get(id) for id in self._player_ids()]

    @players.setter
    def players(self, names: Sequence[str | None]) -> None:
        ids = self._player_ids()
        if len(names) != len(ids):
            raise InvalidArgumentError(f"{self._variant.id} has {len(ids)} players, not {len(names)}")
        for name in names:
            if name is not None and not isinstance(name, str):
                raise InvalidTypeError(f"player names are str or None, not {type(name).__name__}")
        for id, name in zip(ids, names):
            self.set(id, name or None)

    def _player_ids(self) -> list[str]:
        n = self._variant.num_players
        return ["PB", "PW"] if n == 2 else [f"P{p + 1}" for p in range(n)]

    @property
    def event(self) -> str | None:
        """``EV``."""
        return self.get("EV")

    @event.setter
    def event(self, value: str | None) -> None:
        self.set("EV", value)

    @property
    def date(self) -> str | None:
        """``DT``, e.g. ``2024-05-01``."""
        return self.get("DT")

    @date.setter
    def date(self, value: str | None) -> None:
        self.set("DT", value)

    @property
    def round(self) -> str | None:
        """``RO``."""
        return self.get("RO")

    @round.setter
    def round(self, value: str | None) -> None:
        self.set("RO", value)

    @property
    def place(self) -> str | None:
        """``PC``."""
        return self.get("PC")

    @place.setter
    def place(self, value: str | None) -> None:
        self.set("PC", value)

    @property
    def name(self) -> str | None:
        """``GN``, the game's name."""
        return self.get("GN")

    @name.setter
    def name(self, value: str | None) -> None:
        self.set("GN", value)

    @property
    def result(self) -> str | None:
        """``RE``: Pentobi's result line (``B+3``, ``0``, ``64 66 66 61``) when we write it."""
        return self.get("RE")

    @result.setter
    def result(self, value: str | None) -> None:
        self.set("RE", value)

    def __repr__(self) -> str:
        return f"<Game {self._variant.id}, {len(list(self.mainline()))} nodes in the main line>"

    def __reduce__(self) -> tuple[object, ...]:
        # The tree as a flat list (pickling node by node would recurse as deep as the tree).
        return (_rebuild_tree, (self._variant, _flatten(self)))


#: A node for pickling: the index of its parent in the list (-1 for the first), its properties,
#: and where it was read.
_FlatNode = tuple[int, dict[str, list[str]], Union[int, None], Union[int, None]]


def _flatten(top: Node) -> list[_FlatNode]:
    """``top`` and the nodes below it, depth first, each after its parent."""
    flat: list[_FlatNode] = []
    stack: list[tuple[Node, int]] = [(top, -1)]
    while stack:
        node, parent = stack.pop()
        index = len(flat)
        flat.append((parent, {id: list(values) for id, values in node.properties.items()}, node.line, node.column))
        stack.extend((child, index) for child in reversed(node.children))
    return flat


def _rebuild_tree(v: Variant | None, flat: list[_FlatNode]) -> Node:
    """The tree :func:`_flatten` made: a :class:`Game` of ``v``, or (``v`` ``None``) a subtree
    in no game."""
    nodes: list[Node] = []
    for parent, properties, line, column in flat:
        if parent < 0:
            if v is not None:
                node: Node = Game.__new__(Game)
                Node.__init__(node, None, properties)
                node._begin(v)  # type: ignore[attr-defined]  # a Game
            else:
                node = Node(None, properties)
        else:
            node = Node(nodes[parent], properties)
            nodes[parent].children.append(node)
        node.line, node.column = line, column
        nodes.append(node)
    return nodes[0]


def _node_at(game: Game, path: list[int]) -> Node:
    node: Node = game
    for index in path:
        node = node.children[index]
    return node


# --- playing nodes on boards ---


def _after(game: Game, board: Board, node: Node) -> Board:
    """The board after a node, from the board before it (which it may change): the node's
    setup, then its move. Raises the engine's errors."""
    ids = game._ids
    properties = node.properties
    if ids.meaningful.isdisjoint(properties):
        return board
    v = game._variant
    if ids.has_setup(properties):
        board = _setup(game, board, properties)
    for id, values in properties.items():
        color = ids.moves.get(id)
        if color is None:
            continue
        move = _move_of(v, ",".join(values), id)
        if board.turn != color:
            if board.turn is None:
                raise IllegalMoveError(f"illegal move {move} for {v.colors[color]}: the game is over")
            raise IllegalMoveError(f"illegal move {move} for {v.colors[color]}: it is {v.colors[board.turn]}'s turn")
        board.push(move)
    return board


def _setup(game: Game, board: Board, properties: dict[str, list[str]]) -> Board:
    """A new board: ``board`` with a node's pieces added and removed, its colour to move and
    (Blokus 3D) its colours out."""
    v = game._variant
    ids = game._ids
    placements = [[m.id for m in moves] for moves in board.placements()]
    for id, values in properties.items():
        color = ids.setups.get(id)
        if color is not None:
            placements[color].extend(_move_of(v, text, id).id for text in values)
    for text in properties.get("AE", []):
        pid = _move_of(v, text, "AE").id
        owner = next((c for c, placed in enumerate(placements) if pid in placed), None)
        if owner is None:
            raise InvalidPositionError(f"AE[{syntax.excerpt(text)}]: no such piece is on the board")
        placements[owner].remove(pid)
    turn = board.turn if board.turn is not None else 0
    pl = properties.get("PL")
    if pl:
        if pl[0].upper() not in ids.players:
            numbers = ", ".join(str(c + 1) for c in range(v.num_colors))
            expected = f"B or W (or {numbers})" if v.num_colors == 2 else f"one of {numbers}"
            raise InvalidPositionError(f"PL[{syntax.excerpt(pl[0])}]: expected {expected}")
        turn = ids.players[pl[0].upper()]
    out: list[int] = []
    if ids.has_out:
        out = list(board.out)
        if OUT in properties:
            out = _out_colors(game, properties[OUT])
    return Board.from_setup(v, placements, turn, out)


def _out_colors(game: Game, values: list[str]) -> list[int]:
    """The colours an ``XO`` property lists (``XO[]`` lists none)."""
    colors = game._ids.players
    out: list[int] = []
    for value in values:
        if value == "" and len(values) == 1:
            break
        if value.upper() not in colors:
            n = game._variant.num_colors
            numbers = ", ".join(str(c + 1) for c in range(n))
            expected = f"B or W (or {numbers})" if n == 2 else f"one of {numbers}"
            raise InvalidPositionError(
                f"{OUT}[{syntax.excerpt(value)}]: expected the colours out, each {expected}, or XO[] for none"
            )
        out.append(colors[value.upper()])
    return out


_Step = Callable[[Game, Board, Node], Board]


def _replay(game: Game, start: Node, board: Board, step: _Step) -> Iterator[tuple[Node, Board]]:
    """``start`` and every node below it, depth first with the main line first, each with the
    board after it (``step`` works it out from the board before). ``board`` is the board before
    ``start``; it and the boards yielded are the walk's own, changed as it goes on.

    Each move is played once: a node's board goes on to its first child, and a copy to each
    other child. A node's children are read after it is yielded."""
    stack = [(start, board)]
    while stack:
        node, board = stack.pop()
        board = step(game, board, node)
        yield node, board
        children = node.children
        if len(children) > 1:
            stack.extend((child, board.copy()) for child in children[:0:-1])
        if children:
            stack.append((children[0], board))


# --- reading ---


class _GameBuilder:
    """Makes game trees of the nodes the syntax layer reads: the root's ``GM`` names the
    variant, and every move and setup value is checked and made canonical as it is read, so
    a value that names no placement is reported where it stands."""

    def __init__(self, variant_: VariantLike | None) -> None:
        self.variant = variant(variant_) if variant_ is not None else None

    def node(self, parent: Node | None, properties: dict[str, list[str]], source: syntax.NodeSource) -> Node:
        if parent is None:
            game = Game.__new__(Game)
            Node.__init__(game, None, properties)
            game._begin(self.variant_of(properties, source))
            game.properties = _canonical(game, properties, source)
            node: Node = game
        else:
            node = Node(parent, _canonical(parent.game, properties, source))
            parent.children.append(node)
        node.line, node.column = source.where()
        return node

    def variant_of(self, root: dict[str, list[str]], source: syntax.NodeSource) -> Variant:
        """The variant a root's ``GM`` names (or the one asked for, if it names that)."""
        values = root.get("GM")
        if not values:
            raise source.error("the root node has no GM property: expected GM[Blokus Duo] or another game name")
        gm = values[0]
        if self.variant is not None:
            if self.variant.sgf_name is None:
                raise source.error(
                    f"variant {syntax.excerpt(self.variant.id)} has no SGF game name (set sgf_name in its spec),"
                    f" so no file is one of its games: found GM[{syntax.excerpt(gm)}]",
                    "GM",
                )
            if self.variant.sgf_name != gm:
                raise source.error(
                    f"expected GM[{self.variant.sgf_name}] for variant {syntax.excerpt(self.variant.id)},"
                    f" found GM[{syntax.excerpt(gm)}]",
                    "GM",
                )
            return self.variant
        names = _game_names()
        if gm not in names:
            raise source.error(f"unknown game GM[{syntax.excerpt(gm)}]: expected one of {_some(list(names))}", "GM")
        return variant(names[gm])


@functools.cache
def _game_names() -> dict[str, str]:
    """The ``GM`` value of every built-in variant, with its id: read from their specs, so only
    the variant of a file has its placement tables built."""
    names = {}
    for vid in variants():
        spec = _blokus.builtin_variant_spec(vid)
        name = json.loads(spec).get("sgf_name") if spec is not None else None
        if name:
            names[name] = vid
    return names


def _checked_after(game: Game, board: Board, node: Node) -> Board:
    """:func:`_after` for a tree being read: a move or setup that cannot be played is an
    :class:`~blokus.errors.SgfError` at its node."""
    try:
        return _after(game, board, node)
    except (IllegalMoveError, InvalidMoveError, InvalidPositionError) as e:
        line, column = node.line, node.column
        assert line is not None and column is not None
        if node.color is not None and not isinstance(e, InvalidPositionError):
            raise SgfError(f"move {node.ply()} ({node._move_text()}): {e}", line, column) from None
        raise SgfError(f"setup: {e}", line, column) from None


def _canonical(game: Game, properties: dict[str, list[str]], source: syntax.NodeSource) -> dict[str, list[str]]:
    """The properties of a node with the move and setup properties written canonically
    (current ids, one value per move, canonical move text); checks there is at most one move."""
    ids = game._ids
    if ids.meaningful.isdisjoint(properties):
        return properties
    v = game._variant
    moves = [id for id in properties if id in ids.moves]
    if len(moves) > 1:
        raise source.error(f"a node holds one move, but this one has {' and '.join(moves)}", moves[1])
    props: dict[str, list[str]] = {}
    for id, values in properties.items():
        if id in ids.moves:
            try:
                move = _move_of(v, ",".join(values), id)
            except InvalidMoveError as e:
                raise source.error(str(e), id) from None
            new_id = move_property(v, ids.moves[id])
            if new_id in properties and new_id != id:
                raise source.error(f"a node holds one move, but this one has {id} and {new_id}", id)
            props[new_id] = [str(move)]
        elif id == OUT and ids.has_out:
            if all(value.upper() in ids.players for value in values):
                props[id] = [move_property(v, ids.players[value.upper()]) for value in values]
            else:
                props[id] = values
        elif id in ids.setups or id == "AE":
            canonical = []
            for text in values:
                try:
                    canonical.append(str(_move_of(v, text, id)))
                except InvalidMoveError as e:
                    raise source.error(str(e), id) from None
            new_id = id if id == "AE" else setup_property(v, ids.setups[id])
            if new_id in props:
                props[new_id].extend(canonical)
            else:
                props[new_id] = canonical
        else:
            props[id] = values
    return props


def _some(names: list[str], limit: int = 100) -> str:
    """Names for a message, as many as fit in about ``limit`` characters."""
    shown: list[str] = []
    for name in names:
        if shown and sum(len(n) + 2 for n in shown) + len(name) > limit:
            return ", ".join(shown) + f" (and {len(names) - len(shown)} more: the sgf_name of each built-in variant)"
        shown.append(name)
    return ", ".join(shown)


# --- moves ---


def _move_of(v: Variant, text: str, id: str | None = None) -> Move:
    """The move that move text names (the value of property ``id``, if given); else
    :class:`~blokus.errors.InvalidMoveError` saying why, quoting the text briefly."""
    try:
        return Move.from_text(v, text)
    except InvalidMoveError as e:
        reason = syntax.excerpt(e.reason or str(e), 160)
        index = e.index
    shown = syntax.excerpt(text)
    message = f"{id}[{shown}]: {reason}" if id is not None else f'invalid move "{shown}": {reason}'
    raise InvalidMoveError(message, text, index, reason)


def _placement(v: Variant, move: object) -> Move:
    """The move a :class:`~blokus.Move`, move text or placement id (any integer but a bool)
    names."""
    if isinstance(move, Move):
        if move.variant != v:
            raise InvalidMoveError(f"move {move} belongs to {move.variant.id}, not {v.id}")
        return move
    if isinstance(move, str):
        return _move_of(v, move)
    if isinstance(move, bool):
        raise InvalidTypeError("a move is a Move, move text or a placement id, not bool")
    try:
        id = operator.index(move)  # type: ignore[arg-type]  # refused below if it is no integer
    except TypeError:
        raise InvalidTypeError(f"a move is a Move, move text or a placement id, not {type(move).__name__}") from None
    if not 0 <= id < v.num_placements:
        shown = str(id) if id.bit_length() <= 64 else f"(a number of {id.bit_length()} bits)"
        raise InvalidMoveError(f"no placement {shown} in {v.id} (ids are 0..{v.num_placements - 1})")
    return Move(v, id)


def loads_all(text: str | bytes, variant: VariantLike | None = None) -> list[Game]:
    """Every game of an SGF collection. Bytes are decoded by the file's ``CA`` property.

    >>> games = loads_all("(;GM[Blokus Duo];B[e10])(;GM[Blokus];1[a20];2[t20])")
    >>> [(g.variant.id, g.end().ply()) for g in games]
    [('duo', 1), ('classic', 2)]
    """
    if isinstance(text, (bytes, bytearray)):
        text = syntax.decode(bytes(text))
    if not isinstance(text, str):
        raise InvalidTypeError(f"SGF text is str or bytes, not {type(text).__name__}")
    games = []
    for root in syntax.parse(text, _GameBuilder(variant)):
        assert isinstance(root, Game)  # the builder makes every root a Game
        # Every line is played, so a move that cannot be played is an error at its node.
        for _ in _replay(root, root, Board(root._variant), _checked_after):
            pass
        games.append(root)
    return games


def loads(text: str | bytes, variant: VariantLike | None = None) -> Game:
    """The first game of SGF text (or bytes, decoded by the file's ``CA`` property).

    ``variant`` is needed only for a variant that is not built in (its ``sgf_name`` must match
    the file's ``GM``).

    >>> game = loads(b"(;GM[Blokus Duo]CA[ISO-8859-1]PB[Jos\\xe9];B[e10])")
    >>> game.players, game.end().board().points()
    (['José', None], [1, 0])
    """
    return loads_all(text, variant)[0]


PathOrFile = Union[str, "PathLike[str]", IO[bytes], IO[str]]


#: The largest file :func:`load` and :func:`load_all` read, in bytes: a game record is a few
#: kilobytes, a file of ten thousand games a few dozen megabytes, and ``/dev/zero`` endless.
MAX_FILE_BYTES = 256 * 2**20


def _read(source: PathOrFile) -> str | bytes:
    if isinstance(source, (str, PathLike)):
        with open(source, "rb") as f:
            data: str | bytes = f.read(MAX_FILE_BYTES + 1)
    else:
        data = source.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise SgfError(f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB, the most a record may have")
    return data


_T = TypeVar("_T")


def _from_file(source: PathOrFile, read: Callable[[str | bytes], _T]) -> _T:
    """``read`` of the file's contents, an error in them named with the file's path."""
    try:
        return read(_read(source))
    except SgfError as e:
        if not isinstance(source, (str, PathLike)):
            raise
        named = SgfError(f"{os.fspath(source)}: {e}")
        named.line, named.column = e.line, e.column
        raise named from None


def load(source: PathOrFile, variant: VariantLike | None = None) -> Game:
    """The first game of a ``.blksgf`` file (a path or an open file).

    >>> import os, tempfile
    >>> from blokus import Board
    >>> path = os.path.join(tempfile.mkdtemp(), "game.blksgf")
    >>> dump(Board("junior", ["e10", "j5"]), path)
    >>> [str(m) for m in load(path).mainline_moves()]
    ['e10', 'j5']
    """
    return _from_file(source, lambda text: loads(text, variant))


def load_all(source: PathOrFile, variant: VariantLike | None = None) -> list[Game]:
    """Every game of a ``.blksgf`` file.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "games.blksgf")
    >>> with open(path, "w") as f:
    ...     _ = f.write("(;GM[Blokus Duo];B[e10])\\n(;GM[Blokus Duo];B[e10];W[j5])\\n")
    >>> [g.end().ply() for g in load_all(path)]
    [1, 2]
    """
    return _from_file(source, lambda text: loads_all(text, variant))


# --- writing ---


def dumps(game: Game | Board) -> str:
    """SGF text of a game tree, or of a board's moves (and setup): UTF-8, ``CA[UTF-8]``, one
    node per line, each variation opening on a new line.

    >>> from blokus import Board
    >>> print(dumps(Board("duo", ["e10,d11,e11,f11,e12", "j5"])), end="")
    (;GM[Blokus Duo]CA[UTF-8]
    ;B[e10,d11,e11,f11,e12]
    ;W[j5])
    """
    if isinstance(game, Board):
        game = Game.from_board(game)
    if not isinstance(game, Game):
        raise InvalidTypeError(f"dumps takes a Game or a Board, not {type(game).__name__}")
    # GM first and the character set we write, as Pentobi does.
    root = [(id, values) for id, values in game.properties.items() if id not in ("GM", "CA")]
    root.insert(0, ("CA", ["UTF-8"]))
    gm = game.properties.get("GM")
    if gm:
        root.insert(0, ("GM", gm))
    return syntax.write(game, root)


def dump(game: Game | Board, target: str | PathLike[str] | IO[str]) -> None:
    """Writes :func:`dumps` to a path (UTF-8) or an open text file.

    >>> import io
    >>> from blokus import Board
    >>> out = io.StringIO()
    >>> dump(Board("classic", ["a20"]), out)
    >>> out.getvalue().splitlines()[-1]
    ';1[a20])'
    """
    text = dumps(game)
    if isinstance(target, (str, PathLike)):
        with open(target, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    else:
        target.write(text)
