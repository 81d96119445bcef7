"""SGF records in Pentobi's format: Pentobi's own files replay exactly, our files round-trip,
legacy forms and setups are read, and broken files say where and what was expected."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import blokus
from blokus import Board, sgf
from blokus.errors import SgfError
from blokus.sgf import syntax
from conftest import conformance_files, conformance_games

FLAT_FILES = [p for p in conformance_files() if not p.name.startswith("3d_")]


def all_games() -> list[tuple[str, dict[str, Any]]]:
    return [(f"{p.name.split('.')[0]}-{n}", g) for p in FLAT_FILES for n, g in enumerate(conformance_games(p))]


GAMES = all_games()


# --- Pentobi's files ---


@pytest.mark.parametrize("path", FLAT_FILES, ids=lambda p: p.name.split(".")[0])
def test_pentobi_records_replay_their_games(path: Path) -> None:
    for n, game in enumerate(conformance_games(path)):
        where = f"{path.name} game {n}"
        record = sgf.loads(game["sgf"])
        assert record.variant.id == game["variant"], where
        board = record.end().board()
        expected = [board.parse_move(p["move"]) for p in game["plies"] if p["move"] is not None]
        assert board.move_stack == expected, where
        colors = [p["color"] for p in game["plies"] if p["move"] is not None]
        assert board.move_colors() == colors, where
        assert [n.color for n in record.mainline()] == colors, where
        assert board.is_game_over(), where
        assert board.points() == game["final"]["points"], where
        assert board.result() == game["final"]["final_score"], where


@pytest.mark.parametrize("path", FLAT_FILES, ids=lambda p: p.name.split(".")[0])
def test_our_records_round_trip(path: Path) -> None:
    for game in conformance_games(path):
        record = sgf.loads(game["sgf"])
        text = sgf.dumps(record)
        assert "CA[UTF-8]" in text.splitlines()[0]
        again = sgf.loads(text)
        assert sgf.dumps(again) == text
        board = record.end().board()
        from_board = sgf.loads(sgf.dumps(board))
        assert from_board.end().board().move_stack == board.move_stack
        assert from_board.result == board.result()


def test_the_first_lines_look_like_pentobis() -> None:
    b = Board("duo", ["e10,d11,e11,f11,e12", "j5"])
    assert sgf.dumps(b) == "(;GM[Blokus Duo]CA[UTF-8]\n;B[e10,d11,e11,f11,e12]\n;W[j5])\n"
    b = Board("classic_2", ["a20", "t20"])
    assert sgf.dumps(b) == "(;GM[Blokus Two-Player]CA[UTF-8]\n;1[a20]\n;2[t20])\n"


# --- the tree ---

TREE = """(;GM[Blokus Duo]PB[Ann]PW[Bob]DT[2024-05-01]EV[Club night]RO[3]PC[Basel]GN[Final]
C[A game \\] with a bracket
and two lines]XX[kept][twice]
;B[E12,d11,e11,f11,e10]C[the X]
(;W[j5];B[f9,f8])
(;W[j6,j5]C[a variation];B[d9])
(;W[i4,j4,j5]))"""


def test_tree_main_line_variations_comments_headers() -> None:
    game = sgf.loads(TREE)
    assert isinstance(game, sgf.Game)
    assert game.players == ["Ann", "Bob"]
    assert (game.date, game.event, game.round, game.place, game.name) == (
        "2024-05-01",
        "Club night",
        "3",
        "Basel",
        "Final",
    )
    assert game.comment == "A game ] with a bracket\nand two lines"
    assert game.properties["XX"] == ["kept", "twice"]
    first = game.children[0]
    assert str(first.move) == "e10,d11,e11,f11,e12" and first.comment == "the X"
    assert first.properties["B"] == ["e10,d11,e11,f11,e12"]
    assert [str(n.move) for n in first.children] == ["j5", "j5,j6", "i4,j4,j5"]
    assert [str(m) for m in game.mainline_moves()] == ["e10,d11,e11,f11,e12", "j5", "f8,f9"]
    assert str(game.end().move) == "f8,f9" and game.end().is_mainline()
    side = first.children[1].children[0]
    assert not side.is_mainline() and side.ply() == 3
    assert side.board().move_stack == [side.board().parse_move(t) for t in ["e10,d11,e11,f11,e12", "j5,j6", "d9"]]
    assert (first.line, first.column) == (4, 1)


def test_tree_round_trips_with_unknown_properties() -> None:
    game = sgf.loads(TREE)
    text = sgf.dumps(game)
    assert "XX[kept][twice]" in text
    assert "C[A game \\] with a bracket\nand two lines]" in text
    again = sgf.loads(text)
    assert sgf.dumps(again) == text
    assert again.properties == {**game.properties, "CA": ["UTF-8"]}
    assert text.count("(") == 4 and text.startswith("(;GM[Blokus Duo]CA[UTF-8]")


def test_building_a_tree() -> None:
    game = sgf.Game("trigon_3")
    game.players = ["A", "B", "C"]
    game.event = "test"
    node = game.add_variation("h6", comment="first")
    node.add_variation("p3")
    main = node.add_main_variation("x11")
    assert node.children[0] is main
    assert main.color == 1 and main.properties == {"2": ["x11"]}
    with pytest.raises(blokus.IllegalMoveError, match="no start point"):
        main.add_variation("p4")
    text = sgf.dumps(game)
    assert text.startswith("(;GM[Blokus Trigon Three-Player]CA[UTF-8]P1[A]P2[B]P3[C]EV[test]\n;1[h6]C[first]")
    assert sgf.loads(text).end().board().turn == 2
    node.remove_variation(main)
    assert [str(c.move) for c in node.children] == ["p3"]
    game.players = ["A", None, "C"]
    assert "P2" not in game.properties
    with pytest.raises(ValueError, match="3 players"):
        game.players = ["A"]


def test_every_node_knows_its_game_through_edits() -> None:
    game = sgf.loads(TREE)
    first = game.children[0]
    side = first.children[1]
    assert side.game is game and side.children[0].variant.id == "duo"
    built = sgf.Node(side, {"C": ["built by hand"]})
    assert built.game is game and built.color is None
    # Taken out of the tree, a variation and everything after it belong to no game.
    first.remove_variation(side)
    assert side.parent is None and first.children[1].properties == {"W": ["i4,j4,j5"]}
    for node in (side, side.children[0]):
        with pytest.raises(ValueError, match="in no game"):
            node.game  # noqa: B018 - the property raises
    assert repr(side) == "<Node in no game>"
    # Put back below another node, of another game, they are that game's.
    other = sgf.Game("duo")
    start = other.add_variation("e10,d11,e11,f11,e12")
    side.parent = start
    start.children.append(side)
    assert side.children[0].game is other
    assert [str(m) for m in side.children[0].board().move_stack] == ["e10,d11,e11,f11,e12", "j5,j6", "d9"]
    with pytest.raises(ValueError, match="cannot follow itself"):
        side.parent = side.children[0]
    with pytest.raises(ValueError, match="root of its tree"):
        other.parent = side
    assert side.parent is start and other.parent is None and other.game is other


def test_boards_follow_every_edit() -> None:
    game = sgf.loads("(;GM[Blokus Duo];B[e10];W[j5];B[f9,f8])")
    line = list(game.mainline())
    assert [str(m) for m in game.end().board().move_stack] == ["e10", "j5", "f8,f9"]
    line[1].set("W", "i4,j4,j5")
    assert [str(m) for m in line[2].board().move_stack] == ["e10", "i4,j4,j5", "f8,f9"]
    assert [str(b.peek()) for _, b in game.mainline_boards()] == ["e10", "i4,j4,j5", "f8,f9"]
    line[0].add_main_variation("j6,j5")
    assert game.end() is line[0].children[0] and str(game.end().board().peek()) == "j5,j6"
    line[0].remove_variation(line[0].children[0])
    assert game.end() is line[2] and game.end().board().ply == 3
    line[2].properties["AW"] = ["a1"]  # a setup in the last node, edited in directly
    end = game.end().board()
    assert end.move_stack == [end.parse_move("f8,f9")] and end.cell_colors()[end.variant.cell_index("a1") or 0] == 1


def test_walks_give_each_node_its_board() -> None:
    game = sgf.loads(TREE)
    walked = list(game.walk())
    assert [n for n, _ in walked] == [game, *game.children, *_preorder_below(game.children[0])]
    for node, board in walked:
        assert board == node.board() and board.move_stack == node.board().move_stack
    first = game.children[0]
    assert [(n, b.move_stack) for n, b in first.mainline_boards()] == [
        (n, n.board().move_stack) for n in first.mainline()
    ]
    # The boards are the caller's: changing one changes no other, nor the walk.
    boards = [b for _, b in game.mainline_boards()]
    boards[0].push("j5")
    assert [b.ply for b in boards] == [2, 2, 3] and [b.ply for _, b in game.mainline_boards()] == [1, 2, 3]
    # A node is read when the walk reaches it: a variation added on the way is walked too.
    seen = []
    for node, _ in first.walk():
        seen.append(node)
        if node is first:
            node.add_variation("j4,j5")
    assert seen[-1] is first.children[-1] and str(seen[-1].move) == "j4,j5"


def _preorder_below(node: sgf.Node) -> list[sgf.Node]:
    """The nodes below ``node``, each before its children, the main line first."""
    out: list[sgf.Node] = []
    for child in node.children:
        out.append(child)
        out.extend(_preorder_below(child))
    return out


def test_collections_files_and_paths(tmp_path: Path) -> None:
    two = TREE + "\n" + sgf.dumps(Board("duo", ["e10"]))
    games = sgf.loads_all(two)
    assert len(games) == 2 and sgf.loads(two).players == ["Ann", "Bob"]
    path = tmp_path / "game.blksgf"
    sgf.dump(Board("junior", ["d10,e10,f10,g10,g11"]), path)
    assert path.read_bytes().startswith(b"(;GM[Blokus Junior]CA[UTF-8]")
    assert str(sgf.load(path).end().move) == "d10,e10,f10,g10,g11"
    assert len(sgf.load_all(str(path))) == 1
    buffer = io.StringIO()
    sgf.dump(sgf.load(path), buffer)
    assert sgf.loads(buffer.getvalue()).end().board().ply == 1
    assert sgf.load(io.BytesIO(path.read_bytes())).variant.id == "junior"


# --- what Pentobi reads ---


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        # Pentobi 0.1: colour names as property ids, one value per cell.
        (
            "(;GM[Blokus Two-Player];BLUE[a16][a17][a18][a19][a20];YELLOW[s17][t17][t18][t19][t20]"
            ";RED[t1][t2][t3][t4][t5];GREEN[a1][b1][c1][d1][d2])",
            ["1[a16,a17,a18,a19,a20]", "2[s17,t17,t18,t19,t20]", "3[t1,t2,t3,t4,t5]", "4[a1,b1,c1,d1,d2]"],
        ),
        # Two colours: 1/2 and BLUE/GREEN stand for B/W.
        ("(;GM[Blokus Duo];1[E10];2[j5])", ["B[e10]", "W[j5]"]),
        ("(;GM[Blokus Duo];BLUE[e10][e11];GREEN[j5])", ["B[e10,e11]", "W[j5]"]),
        # Cells in any order and case, point lists mixed with comma lists.
        ("(;GM[Blokus];1[A20,b20][A19])", ["1[a19,a20,b20]"]),
    ],
)
def test_legacy_forms(text: str, moves: list[str]) -> None:
    game = sgf.loads(text)
    assert [n._move_text() for n in game.mainline()] == moves
    assert sgf.loads(sgf.dumps(game)).end().board() == game.end().board()


def test_latin1_without_charset_and_declared_charsets() -> None:
    latin = "(;GM[Blokus Duo]PB[Jos\xe9];B[e10])".encode("latin-1")
    assert sgf.loads(latin).players[0] == "Jos\xe9"
    utf8 = "(;GM[Blokus Duo]CA[UTF-8]PB[Jos\xe9];B[e10])".encode()
    assert sgf.loads(utf8).players[0] == "Jos\xe9"
    declared = "(;GM[Blokus Duo]CA[ISO-8859-1]PB[Jos\xe9];B[e10])".encode("latin-1")
    assert sgf.loads(declared).players[0] == "Jos\xe9"
    assert sgf.dumps(sgf.loads(declared)).startswith("(;GM[Blokus Duo]CA[UTF-8]PB[Jos\xe9]")
    with pytest.raises(SgfError, match=r"unknown character set CA\[klingon\]"):
        sgf.loads(b"(;GM[Blokus Duo]CA[klingon])")
    with pytest.raises(SgfError, match="not valid UTF-8"):
        sgf.loads(b"(;GM[Blokus Duo]CA[UTF-8]PB[\xff])")


def test_the_charset_is_the_roots_ca_property_only() -> None:
    # UTF-8 files that only mention CA: in a comment, as the end of another id, in a later node.
    for text in [
        "(;GM[Blokus Duo]C[write CA[ISO-8859-1\\] for Latin-1]PB[Jos\xe9];B[e10])",
        "(;GM[Blokus Duo]XCA[ISO-8859-1]PB[Jos\xe9];B[e10])",
        "(;GM[Blokus Duo]PB[Jos\xe9];B[e10]CA[ISO-8859-1])",
    ]:
        game = sgf.loads(text.encode())
        assert game.players[0] == "Jos\xe9", text
        assert sgf.dumps(game).startswith("(;GM[Blokus Duo]CA[UTF-8]")
    assert sgf.loads(b"(;GM[Blokus Duo]XCA[ISO-8859-1];B[e10])").properties["XCA"] == ["ISO-8859-1"]
    # Latin-1 with its CA after other headers, in any case and spacing.
    latin = "(;GM[Blokus Duo]PB[Jos\xe9]PW[Ren\xe9e]\nca[x] CA [ latin1 ];B[e10])".encode("latin-1")
    assert sgf.loads(latin).players == ["Jos\xe9", "Ren\xe9e"]


# --- setup ---


def test_setup_in_the_root_as_pentobi_writes_it() -> None:
    text = "(;GM[Blokus Duo]AB[e8,e9,f9,d10,e10][g6,f7,g7,h7,g8]AW[i4,h5,i5,j5,i6][j7,j8,j9,k9,j10]PL[W];W[l8])"
    game = sgf.loads(text)
    start = game.board()
    assert start.turn == 1 and start.move_stack == []
    assert [len(start.pieces_left(c)) for c in (0, 1)] == [19, 19]
    end = game.end().board()
    assert [str(m) for m in end.move_stack] == ["l8"] and end.turn == 0
    # Written back: the setup, then the moves.
    again = sgf.loads(sgf.dumps(end))
    assert again.end().board().bpn() == end.bpn()
    assert again.properties["AB"] == ["g6,f7,g7,h7,g8", "e8,e9,f9,d10,e10"] or again.properties["AB"] == [
        "e8,e9,f9,d10,e10",
        "g6,f7,g7,h7,g8",
    ]
    assert again.properties["PL"] == ["W"]


def test_setup_in_any_node_adds_removes_and_sets_the_turn() -> None:
    text = "(;GM[Blokus];1[a20];2[t20];A3[t1]AE[a20]PL[4];4[a1];1[a19,a20])"
    game = sgf.loads(text)
    nodes = list(game.mainline())
    after_setup = nodes[2].board()
    assert after_setup.turn == 3 and after_setup.move_stack == []
    colors = after_setup.cell_colors()
    v = after_setup.variant
    assert colors[v.cell_index("a20") or 0] == -1 and colors[v.cell_index("t1") or 0] == 2
    end = game.end().board()
    assert [str(m) for m in end.move_stack] == ["a1", "a19,a20"]
    # Blue's first piece was taken away, so Blue starts again at its corner.
    assert [len(end.pieces_left(c)) for c in range(4)] == [20, 20, 20, 20]


def test_from_board_writes_setup_and_turn() -> None:
    b = Board.from_setup("classic", [["a20"], ["t20"], [], ["a1"]], turn=2)
    b.push("t1,t2")
    text = sgf.dumps(b)
    assert text.startswith("(;GM[Blokus]CA[UTF-8]A1[a20]A2[t20]A4[a1]PL[3]\n;3[t1,t2])")
    assert sgf.loads(text).end().board().bpn() == b.bpn()


# --- errors ---


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("", 1, 1, "expected '\\(' to start a game tree, found the end of the file"),
        ("x", 1, 1, "expected '\\(' to start a game tree, found 'x'"),
        ("(", 1, 2, "expected ';' to start the first node"),
        ("(;GM[Blokus Duo]", 1, 17, "expected '\\)' to close the game tree opened at line 1, column 1"),
        ("(;GM[Blokus Duo", 1, 5, "expected '\\]' to end the value of GM that starts here"),
        ("(;GM[Blokus Duo]\n;B e10])", 2, 4, "expected '\\[' to start a value of B"),
        ("(;GM[Blokus Duo]\n;[e10])", 2, 2, "expected a property id"),
        ("(;GM[Blokus Duo]\n;B[e10]B[e11])", 2, 8, "property B appears twice"),
        ("(;GM[Blokus Duo](;B[e10]);W[j5])", 1, 26, "nodes cannot follow variations"),
        ("(;GM[Blokus Duo]) x", 1, 19, "expected '\\(' to start another game tree"),
        ("(;GM[Blokus Duo]?)", 1, 17, "expected ';', '\\(' or '\\)', found '\\?'"),
        ("(;FF[4])", 1, 2, "the root node has no GM property"),
        ("(;GM[Go])", 1, 3, r"unknown game GM\[Go\]: expected one of Blokus, Blokus Two-Player"),
        ("(;GM[Blokus Duo]\n;B[e10]W[j5])", 2, 8, "a node holds one move, but this one has B and W"),
        ("(;GM[Blokus Duo]\n;B[e10,zz])", 2, 2, r"B\[e10,zz\]: item 2"),
        ("(;GM[Blokus Duo]\n;B[a1,c1])", 2, 2, "do not form a piece"),
        ("(;GM[Blokus Duo]\n;AB[a1,c1])", 2, 2, r"AB\[a1,c1\]"),
        ("(;GM[Blokus Duo]\n;3[e10])", 1, 1, "no GM"),
    ],
)
def test_broken_files_say_where_and_what(text: str, line: int, column: int, message: str) -> None:
    if message == "no GM":  # colour 3 in a two-colour game is an unknown property, kept
        assert sgf.loads(text).end().properties == {"3": ["e10"]}
        return
    with pytest.raises(SgfError, match=message) as e:
        sgf.loads(text)
    assert (e.value.line, e.value.column) == (line, column), str(e.value)
    assert str(e.value).startswith(f"line {line}, column {column}: ")
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (
            "(;GM[Blokus Duo]\n;B[e10]\n;W[e11])",
            3,
            1,
            r"move 2 \(W\[e11\]\): illegal move e11 for Orange: no start point",
        ),
        (
            "(;GM[Blokus Duo]\n;B[e10]\n;B[j5])",
            3,
            1,
            r"move 2 \(B\[j5\]\): illegal move j5 for Purple: it is Orange's turn",
        ),
        (
            "(;GM[Blokus Duo];B[e10];W[j5]\n(;B[f11,f12]) (;B[d9,d10]))",
            2,
            16,
            r"move 3 \(B\[d9,d10\]\): illegal move d9,d10 for Purple: own edge",
        ),
        ("(;GM[Blokus Duo]\n;AB[e10][e10])", 2, 1, "setup: 2nd piece of Purple: Purple has only 1 copy of piece 1"),
        ("(;GM[Blokus Duo]\n;AB[e10]AW[e10,e11])", 2, 1, "setup: 1st piece of Orange: e10 is already covered"),
        ("(;GM[Blokus Duo]\n;AB[e10,f10][e11])", 2, 1, "shares an edge with another piece of Purple"),
        ("(;GM[Blokus Duo]\n;AE[e10])", 2, 1, r"setup: AE\[e10\]: no such piece is on the board"),
        ("(;GM[Blokus Duo]\n;PL[X])", 2, 1, r"setup: PL\[X\]: expected B or W \(or 1, 2\)"),
        # Blokus 3D
        (
            "(;GM[Blokus 3D Tower]\n;1[a1@1,a1@2]\n;2[a1@3,a1@4])",
            3,
            1,
            r"move 2 \(2\[a1@3,a1@4\]\): illegal move a1@3,a1@4 for Yellow: first piece off the ground",
        ),
        (
            "(;GM[Blokus 3D Tower]\n;1[a1@2,b1@2])",
            2,
            1,
            r"move 1 \(1\[a1@2,b1@2\]\): illegal move a1@2,b1@2 for Blue: unsupported: the cell beneath a1@2 is empty",
        ),
        (
            "(;GM[Blokus 3D Tower]\n;1[a1@1,a1@9])",
            2,
            2,
            r"1\[a1@1,a1@9\]: item 2 \(a1@9\) is above the height limit of its column \(level 8\)",
        ),
        (
            "(;GM[Blokus 3D Tower]\n;A2[c1@2,d1@2])",
            2,
            1,
            r"setup: 1st piece of Yellow: nothing beneath c1@2 \(c1@1 is empty\)",
        ),
        (
            "(;GM[Blokus 3D Tower]\n;A1[a1@1,b1@1]XO[5])",
            2,
            1,
            r"setup: XO\[5\]: expected the colours out, each one of 1, 2, 3, 4, or XO\[\] for none",
        ),
        (
            "(;GM[Blokus 3D Tower]\n;A1[a1@1,b1@1][a1@2,b1@2])",
            2,
            1,
            "setup: 2nd piece of Blue: Blue has only 1 copy of piece I2",
        ),
        (
            "(;GM[Blokus 3D Tower]\n;A1[a1@1,b1@1]A2[b1@1,c1@1])",
            2,
            1,
            "setup: 1st piece of Yellow: b1@1 is already covered",
        ),
    ],
)
def test_illegal_moves_and_setups_name_the_move_and_node(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(SgfError, match=message) as e:
        sgf.loads(text)
    assert (e.value.line, e.value.column) == (line, column), str(e.value)


def test_a_tree_edited_into_nonsense_raises_on_board() -> None:
    game = sgf.loads("(;GM[Blokus Duo];B[e10])")
    game.children[0].set("B", "j5")
    with pytest.raises(blokus.IllegalMoveError, match="no start point"):
        game.end().board()
    with pytest.raises(TypeError):
        sgf.dumps("(;GM[Blokus Duo])")  # type: ignore[arg-type]


def test_lone_surrogates_are_refused_saying_what_and_where(tmp_path: Path) -> None:
    cases: list[tuple[str | bytes, int, int]] = [
        ("(;GM[Blokus Duo]\n;B[e10\ud800])", 2, 7),
        ("(;GM[Blokus Duo]C[ok \udfff])", 1, 22),
        (b"(;GM[Blokus Duo]CA[unicode_escape]C[\\ud800])", 1, 37),  # a charset that makes them
    ]
    for text, line, column in cases:
        with pytest.raises(SgfError, match=r"'\\ud[0-9a-f]{3}' is a lone surrogate, not a character") as e:
            sgf.loads(text)
        assert (e.value.line, e.value.column) == (line, column)
        str(e.value).encode("utf-8")  # the message can be printed
    game = sgf.loads("(;GM[Blokus Duo];B[e10];W[j5])")
    game.end().comment = "bad \ud800 comment"
    with pytest.raises(SgfError, match=r"cannot write C\[bad \\ud800 comment\] of node 2 .*lone surrogate"):
        sgf.dumps(game)
    path, buffer = tmp_path / "game.blksgf", io.StringIO()
    for target in (path, buffer):
        with pytest.raises(SgfError, match="lone surrogate"):
            sgf.dump(game, target)
    assert not path.exists() and buffer.getvalue() == ""
    game.end().comment = ""
    game.players = ["Jos\udce9", None]  # as decoding Latin-1 with surrogateescape leaves it
    with pytest.raises(SgfError, match=r"cannot write PB\[Jos\\udce9\] of node 0"):
        sgf.dumps(game)
    game.end().set("W", "j5\ud800")
    with pytest.raises(blokus.InvalidMoveError, match=r"W\[j5\\ud800\]: character 3 \(in item 1\) is a lone surrogate"):
        game.end().board()


class Id:
    """An integer-like that is no int, as many array libraries have."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_moves_are_placement_ids_of_any_integer_type() -> None:
    game = sgf.Game("duo")
    e10 = game.board().parse_move("e10").id
    for id in (e10, np.int64(e10), np.uint16(e10), np.array([e10])[0], Id(e10)):
        assert str(game.add_variation(id).move) == "e10"  # type: ignore[arg-type]
    main = game.add_main_variation(np.int32(e10))  # type: ignore[arg-type]
    assert game.children[0] is main
    for bad, error, message in [
        (True, TypeError, "not bool"),
        (np.True_, TypeError, "not bool"),
        (float(e10), TypeError, "not float"),
        (None, TypeError, "not NoneType"),
        (-1, blokus.InvalidMoveError, r"no placement -1 in duo \(ids are 0\.\.13728\)"),
        (np.int64(13729), blokus.InvalidMoveError, "no placement 13729 in duo"),
        (10**5000, blokus.InvalidMoveError, r"no placement \(a number of 16610 bits\) in duo"),
    ]:
        with pytest.raises(error, match=message):
            game.add_variation(bad)  # type: ignore[arg-type]
    assert len(game.children) == 6


LONG = "z" * 100_000


@pytest.mark.parametrize(
    "text",
    [
        f"(;GM[{LONG}])",
        f"(;GM[Blokus Duo];B[e10,{LONG}])",
        f"(;GM[Blokus Duo];B[{'e10,' * 30_000}e11])",
        f"(;GM[Blokus Duo];B[{','.join(f'{c}{r}' for c in 'abcdefghijklmn' for r in range(1, 15))}])",
        f"(;GM[Blokus Duo]AB[{LONG}])",
        f"(;GM[Blokus Duo]PL[{LONG}])",
        f"(;GM[Blokus 3D Tower]A1[a1@1,b1@1]XO[{LONG}])",
        f"(;GM[Blokus Duo]{LONG.upper()}[x]{LONG.upper()}[y])",
        f"(;GM[Blokus Duo]B[e10]{LONG.upper()} x)",
        f"(;GM[Blokus Duo]C[{LONG}",
        f"(;GM[Go]C[{LONG}])",
        "(;GM[Blokus Duo]C[\ud800" + LONG + "])",
        "(;GM[Blokus Duo]" + "(;" * 100_000,
    ],
    ids=lambda text: syntax.excerpt(text, 30),
)
def test_messages_are_short_however_long_the_input(text: str) -> None:
    with pytest.raises(SgfError) as e:
        sgf.loads(text)
    assert len(str(e.value)) < 300, str(e.value)


def test_messages_of_edits_are_short_however_long_the_input() -> None:
    game = sgf.Game("duo")
    for move in (LONG, "e10," + LONG, ",".join(f"{c}{r}" for c in "abcdefghijklmn" for r in range(1, 15))):
        with pytest.raises(blokus.InvalidMoveError) as e:
            game.add_variation(move)
        assert len(str(e.value)) < 300, str(e.value)
    with pytest.raises(ValueError) as v:
        game.set(LONG + " ", "x")
    assert len(str(v.value)) < 300
    game.set("B", LONG)
    with pytest.raises(blokus.InvalidMoveError) as e:
        game.board()
    assert len(str(e.value)) < 300 and len(repr(game.children)) < 300


def test_failed_edits_leave_the_tree_as_it_was() -> None:
    game = sgf.loads(TREE)
    text = sgf.dumps(game)
    first = game.children[0]
    children = list(first.children)
    attempts: list[Callable[[], object]] = [
        lambda: first.add_variation("e10"),  # covered already
        lambda: first.add_variation("zz"),
        lambda: first.add_variation(True),
        lambda: first.add_variation("j4,j5", comment=5),  # type: ignore[arg-type]
        lambda: first.add_main_variation("e10"),
        lambda: first.remove_variation(game),
        lambda: first.set("C D", "x"),
        lambda: first.set("C", []),
        lambda: first.set("C", ["a", 5]),  # type: ignore[list-item]
        lambda: setattr(first, "comment", 5),
        lambda: setattr(game, "players", ["Cy", 5]),
        lambda: setattr(game, "players", ["Cy"]),
        lambda: setattr(first, "parent", children[0]),
        lambda: setattr(game, "parent", first),
    ]
    for k, attempt in enumerate(attempts):
        with pytest.raises((ValueError, TypeError)):
            attempt()
        assert sgf.dumps(game) == text, k
        assert first.children == children and all(c.parent is first and c.game is game for c in children), k
        assert first.parent is game and game.parent is None, k


def test_variants_of_our_own() -> None:
    mini = blokus.Variant.from_file(Path(__file__).resolve().parent.parent / "examples" / "mini.toml")
    with pytest.raises(SgfError, match="variant mini has no SGF game name"):
        sgf.Game(mini)
    named = blokus.Variant({**mini.spec, "sgf_name": "Mini Duo"})
    text = sgf.dumps(Board(named, ["c6"]))
    assert text.startswith("(;GM[Mini Duo]")
    assert str(sgf.loads(text, named).end().move) == "c6"
    with pytest.raises(SgfError, match=r"unknown game GM\[Mini Duo\]"):
        sgf.loads(text)
    with pytest.raises(SgfError, match=r"expected GM\[Mini Duo\] for variant mini, found GM\[Blokus Duo\]"):
        sgf.loads("(;GM[Blokus Duo])", named)


def test_a_root_with_several_game_names_is_written_as_read() -> None:
    # Found by the mutation fuzzer: the values of GM once came back as two GM properties.
    text = "(;GM[Blokus Duo][x];B[e10])"
    game = sgf.loads(text)
    assert game.properties["GM"] == ["Blokus Duo", "x"]
    assert sgf.dumps(game) == "(;GM[Blokus Duo][x]CA[UTF-8]\n;B[e10])\n"
    assert sgf.dumps(sgf.loads(sgf.dumps(game))) == sgf.dumps(game)


def test_deep_nesting_is_read_and_written_without_recursion() -> None:
    depth = 5000
    text = "(;GM[Blokus Duo]" + "(;C[x]" * depth + ")" * depth + ")"
    game = sgf.loads(text)
    assert sum(1 for _ in game.mainline()) == depth
    assert sgf.loads(sgf.dumps(game)).end().comment == "x"
    with pytest.raises(SgfError, match="expected '\\)'"):
        sgf.loads("(;GM[Blokus Duo]" + "(;" * depth)


# --- Blokus 3D (our extension) ---

CUBE_IDS = [v for v in blokus.variants() if v.startswith("3d_")]


def test_3d_game_names() -> None:
    names = {vid: blokus.Variant(vid).sgf_name for vid in CUBE_IDS}
    assert names["3d_tower"] == "Blokus 3D Tower"
    assert names["3d_wall_3"] == "Blokus 3D Wall Three-Player"
    assert names["3d_steps_2"] == "Blokus 3D Steps Two-Player"
    assert names["3d_pyramid_2x2"] == "Blokus 3D Pyramid Two-Player Four-Color"
    assert len(set(names.values())) == 16
    for vid, name in names.items():
        assert sgf.loads(f"(;GM[{name}])").variant.id == vid


def test_reading_a_file_builds_only_its_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    # Building a variant's placement tables takes a while; a file needs only its own.
    import blokus.variant

    asked: list[str] = []
    builtin = blokus.variant._builtin

    def recorded(id: str) -> blokus.Variant:
        asked.append(id)
        return builtin(id)

    monkeypatch.setattr(blokus.variant, "_builtin", recorded)
    assert sgf.loads("(;GM[Blokus 3D Wall Two-Player]C[no moves])").variant.id == "3d_wall_2"
    assert set(asked) == {"3d_wall_2"}
    with pytest.raises(SgfError, match=r"unknown game GM\[Go\]: expected one of Blokus, Blokus Two-Player, "):
        sgf.loads("(;GM[Go])")
    assert set(asked) == {"3d_wall_2"}


@pytest.mark.parametrize("variant_id", CUBE_IDS)
def test_3d_selfplay_games_round_trip(variant_id: str) -> None:
    r = blokus.selfplay(variant_id, games=3, seed=5, keep_moves=True)
    for g in range(3):
        board = r.board(g)
        text = sgf.dumps(board)
        move_ids = "BW" if board.variant.num_colors == 2 else "1234"
        assert all(line[1] in move_ids for line in text.splitlines()[1:])
        assert "@" in text and f"RE[{board.result()}]" in text
        game = sgf.loads(text)
        assert sgf.dumps(game) == text
        end = game.end().board()
        assert end.move_stack == board.move_stack and end.move_colors() == board.move_colors()
        assert end.bpn() == board.bpn() and end.points() == board.points()
        assert end.is_game_over() and end.result() == game.result


def test_3d_moves_in_any_order_and_case_written_by_level_row_column() -> None:
    game = sgf.loads("(;GM[Blokus 3D Tower]\n;1[B1@1,A1@1]\n;2[c1@2,C1@1,b1@2])")
    assert [str(n.move) for n in game.mainline()] == ["a1@1,b1@1", "c1@1,b1@2,c1@2"]
    assert sgf.dumps(game) == "(;GM[Blokus 3D Tower]CA[UTF-8]\n;1[a1@1,b1@1]\n;2[c1@1,b1@2,c1@2])\n"
    # One value per cube, as Pentobi's legacy form for cells.
    assert str(sgf.loads("(;GM[Blokus 3D Tower];1[a1@1][b1@1])").end().move) == "a1@1,b1@1"


def test_3d_setup_with_out_colours_round_trips() -> None:
    b = Board.from_setup("3d_tower", [["a1@1,b1@1"], [], ["a1@2,b1@2,b1@3"]], turn=1, out=[1])
    b.push("a1@3,a1@4")  # Red, on its own cube; Yellow stays out
    text = sgf.dumps(b)
    assert text == "(;GM[Blokus 3D Tower]CA[UTF-8]A1[a1@1,b1@1]A3[a1@2,b1@2,b1@3]PL[3]XO[2]\n;3[a1@3,a1@4])\n"
    end = sgf.loads(text).end().board()
    assert end.bpn() == b.bpn() and 1 in end._core.out
    # Without XO, Yellow would be back in the game.
    without = sgf.loads(text.replace("XO[2]", "")).board()
    assert without._core.out == [] and without.turn == 2


def test_3d_out_colours_in_later_setup_nodes() -> None:
    # A setup node keeps the colours out before it unless it has XO; XO[] clears them.
    text = "(;GM[Blokus 3D Tower]A1[a1@1,b1@1]XO[2]PL[3];3[c1@1,d1@1];A4[d2@1,d3@1]PL[2];XO[]PL[2];2[a2@1,b2@1])"
    game = sgf.loads(text)
    nodes = list(game.mainline())
    assert nodes[0].board()._core.out == [1] and nodes[0].board().turn == 3
    # Yellow is still out, so the turn passes on to Red, as after a move.
    assert nodes[1].board()._core.out == [1] and nodes[1].board().turn == 2
    assert nodes[2].board()._core.out == [] and nodes[2].board().turn == 1
    assert nodes[3].board().turn == 2
    assert sgf.loads(sgf.dumps(game)).end().board().bpn() == game.end().board().bpn()
    # Two colours: B and W, as for PL; read as numbers too, written canonically.
    duo = sgf.loads("(;GM[Blokus 3D Steps Two-Player]AB[a1@1,b1@1]XO[2]PL[B])")
    assert duo.properties["XO"] == ["W"] and duo.board()._core.out == [1]


def test_3d_builds_and_edits_trees() -> None:
    game = sgf.Game("3d_pyramid_2")
    node = game.add_variation("d4@1,e4@1")
    node.add_variation("d5@1,e5@1,d5@2")
    with pytest.raises(blokus.IllegalMoveError, match="unsupported: the cell beneath e5@2 is empty"):
        node.add_variation("e4@2,e5@2")
    assert sgf.dumps(game) == "(;GM[Blokus 3D Pyramid Two-Player]CA[UTF-8]\n;B[d4@1,e4@1]\n;W[d5@1,e5@1,d5@2])\n"


def test_xo_is_an_ordinary_property_on_flat_boards() -> None:
    game = sgf.loads("(;GM[Blokus Duo]XO[W];B[e10])")
    assert game.properties["XO"] == ["W"] and not game.has_setup()
    assert sgf.dumps(game).startswith("(;GM[Blokus Duo]CA[UTF-8]XO[W]\n")
