"""BPN, the one-line position string, and setup boards: every reachable position round-trips
with everything that matters (turn, out colours, last piece for the bonus); broken strings say
at which character and what was expected."""

from __future__ import annotations

import random

import pytest

import blokus
from blokus import Board
from blokus.errors import InvalidMoveError, InvalidPositionError
from conftest import conformance_files, conformance_games

EMPTY_DUO = "duo " + "/".join(["14"] * 14)


def same_position(a: Board, b: Board) -> None:
    assert a.bpn() == b.bpn()
    assert (a.turn, a.player, a.is_game_over()) == (b.turn, b.player, b.is_game_over())
    assert sorted(a.legal_moves.ids().tolist()) == sorted(b.legal_moves.ids().tolist())
    assert a.points() == b.points() and a.points("basic") == b.points("basic")
    assert a.scores() == b.scores() and a.result() == b.result()
    assert a.cell_colors() == b.cell_colors()
    assert [len(a.pieces_left(c)) for c in range(a.variant.num_colors)] == [
        len(b.pieces_left(c)) for c in range(b.variant.num_colors)
    ]
    assert a._core.out == b._core.out and a.zobrist_hash() == b.zobrist_hash()


def test_examples_of_the_readme() -> None:
    b = Board("duo")
    assert b.bpn() == EMPTY_DUO + " p -"
    b.push("e10,d11,e11,f11,e12")
    assert b.bpn() == "duo 14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14/14/14 o -"
    b.push("j5,j6")
    b.push("f9")
    assert b.bpn() == "duo 14/14/4p9/3ppp8/4p9/5P8/14/14/9O4/9O4/14/14/14/14 o -"
    assert Board("classic").bpn() == "classic " + "/".join(["20"] * 20) + " b -"
    assert Board("trigon_3").bpn().startswith("trigon_3 17/19/21/23/25/27/29/31/31/29/")


@pytest.mark.parametrize("variant_id", blokus.variants())
def test_every_position_of_random_games_round_trips(variant_id: str) -> None:
    rng = random.Random(variant_id)
    for _ in range(2):
        b = Board(variant_id)
        while True:
            again = Board.from_bpn(b.bpn())
            same_position(b, again)
            assert again.move_stack == []
            if b.is_game_over():
                break
            move = rng.choice(list(b.legal_moves))
            b.push(move)
            after = again.copy()
            after.push(move)
            same_position(b, after)


@pytest.mark.parametrize(
    "path", [p for p in conformance_files() if not p.name.startswith("3d_")], ids=lambda p: p.name.split(".")[0]
)
def test_final_positions_of_pentobi_games_keep_their_points(path: object) -> None:
    for game in conformance_games(path):  # type: ignore[arg-type]
        b = Board(game["variant"], [p["move"] for p in game["plies"] if p["move"] is not None])
        again = Board.from_bpn(b.bpn())
        assert again.points() == game["final"]["points"]
        assert again.result() == game["final"]["final_score"]


def test_capitals_decide_the_bonus() -> None:
    # Trigon game 10 of the conformance set: Blue places all its pieces, the 1-triangle last.
    path = next(p for p in conformance_files() if p.name == "trigon.jsonl.gz")
    game = list(conformance_games(path))[10]
    b = Board("trigon", [p["move"] for p in game["plies"] if p["move"] is not None])
    assert b.points()[0] == game["final"]["points"][0] and game["final"]["bonus"][0] == 20
    text = b.bpn()
    last_blue = [m for m, c in zip(b.move_stack, b.move_colors()) if c == 0][-1]
    assert last_blue.piece.size == 1
    cell = last_blue.cells[0]
    # The string marks exactly that triangle; marking another Blue piece instead gives +15.
    index = position_of_cell(b, cell)
    assert text[index] == "B"
    other = next(m for m, c in zip(b.move_stack, b.move_colors()) if c == 0)
    marked = list(text.replace("B", "b"))
    for name in other.cells:
        marked[position_of_cell(b, name)] = "B"
    b15 = Board.from_bpn("".join(marked))
    assert b15.points()[0] == b.points()[0] - 5
    # All placed and no last piece marked: the string must say which.
    with pytest.raises(
        InvalidPositionError, match="Blue has placed all its pieces: expected its last piece in capitals"
    ):
        Board.from_bpn(text.replace("B", "b"))


def position_of_cell(b: Board, name: str) -> int:
    """Index in b.bpn() of a cell's letter."""
    text = b.bpn()
    cell = b.variant.cell_index(name)
    rows = b.variant.rows()
    i = text.index(" ") + 1
    for row in rows:
        k = 0
        while k < len(row):
            ch = text[i]
            if ch.isdigit():
                j = i
                while text[j].isdigit():
                    j += 1
                k += int(text[i:j])
                i = j
                continue
            if row[k] == cell:
                return i
            k += 1
            i += 1
        i += 1  # the '/'
    raise AssertionError(name)


def test_out_colours_and_the_end_of_the_game() -> None:
    # Duo game 0 of the conformance set: Orange runs out of moves before Purple.
    path = next(p for p in conformance_files() if p.name == "duo.jsonl.gz")
    game = next(conformance_games(path))
    b = Board("duo")
    seen_out = False
    for move in [p["move"] for p in game["plies"] if p["move"] is not None]:
        b.push(move)
        text = b.bpn()
        if b._core.out and not b.is_game_over():
            seen_out = True
            assert text.endswith(" p o")
        same_position(b, Board.from_bpn(text))
    assert seen_out and b.bpn().endswith(" - po")


def test_classic_3_shared_colour_player_follows_from_the_cells() -> None:
    b = Board("classic_3", ["a20", "t20", "t1", "a1", "b19,c19", "s19,r19", "s2,r2", "b2,c2"])
    again = Board.from_bpn(b.bpn())
    assert again.turn == 0
    for _ in range(3):
        b.push(next(iter(b.legal_moves)))
    again = Board.from_bpn(b.bpn())
    assert b.turn == again.turn == 3 and b.player == again.player == 2


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("", 0, "expected a variant id, found an empty string"),
        ("chess 8/8 w -", 0, r"expected a variant id \(classic, classic_2, .*\), found 'chess'"),
        ("duo", 3, "expected the cells after 'duo'"),
        (EMPTY_DUO, 45, "expected the colour to move"),
        (EMPTY_DUO + " p", 47, "expected the colours out"),
        (EMPTY_DUO + " p - x", 50, "expected the end of the string after the four fields, found 'x'"),
        (
            EMPTY_DUO + " x -",
            46,
            r"expected the colour to move \(p Purple, o Orange\) or '-' when the game is over, found 'x'",
        ),
        (EMPTY_DUO + " p x", 48, r"expected the letters of the colours out \(p Purple, o Orange\) or '-', found 'x'"),
        (EMPTY_DUO + " p oo", 49, "colour o is listed twice"),
        ("duo 15" + EMPTY_DUO[6:] + " p -", 4, "15 empty cells do not fit: only 14 of the 14 cells of row 1"),
        ("duo 13" + EMPTY_DUO[6:] + " p -", 6, "expected 1 cell more in row 1 from the top before '/'"),
        ("duo 13p" + EMPTY_DUO[6:] + " p -", 4, None),
        ("duo 14p" + EMPTY_DUO[6:] + " p -", 6, "expected '/' or a space: row 1 from the top has only 14 cells"),
        (EMPTY_DUO[:-3] + " p -", 42, "expected 1 more row"),
        (EMPTY_DUO + "/14 p -", 45, "the board has only 14 rows"),
        ("duo 14/0014" + EMPTY_DUO[9:] + " p -", 7, "a count of empty cells is 1 or more without leading zeros"),
        (
            "duo 14/1x12" + EMPTY_DUO[9:] + " p -",
            8,
            r"expected a colour letter \(p Purple, o Orange; capitals for a last piece\)",
        ),
        ("duo 14/pP12" + EMPTY_DUO[9:] + " p -", 8, "this Purple piece mixes them"),
        ("duo 14/P1P11" + EMPTY_DUO[9:] + " p -", 9, "Purple has two last pieces"),
        ("duo 14/p1p11" + EMPTY_DUO[9:] + " p -", 9, "2nd piece of Purple: Purple has only 1 copy of piece 1"),
        (
            "duo 14/pppppp8" + EMPTY_DUO[9:] + " p -",
            7,
            "the cells a13,b13,c13,d13,e13,f13 of Purple form no piece of duo",
        ),
        ("duo 14/3p10/2ppp9/3p10" + EMPTY_DUO[15:] + " p -", 10, None),
        (EMPTY_DUO + " p p", 48, "Purple is listed as out but has a legal move"),
        (EMPTY_DUO + " - -", 46, "the game is said to be over, but Purple has a legal move"),
        ("duo 14/14/14/14/14/14/14/14/14/9p4/14/14/14/14 o -", 47, "Orange is to move but has no legal move"),
        ("duo 14/14/14/14/14/14/14/14/14/9p4/14/14/14/14 o o", 47, "Orange is to move but is listed as out"),
    ],
)
def test_broken_strings_say_where_and_what(text: str, position: int, message: str | None) -> None:
    if message is None:
        Board.from_bpn(text)
        return
    with pytest.raises(InvalidPositionError, match=message) as e:
        Board.from_bpn(text)
    assert e.value.position == position, str(e.value)
    assert str(e.value).startswith(f"invalid BPN at character {position + 1}: ")


def test_variants_of_our_own_need_the_variant() -> None:
    from pathlib import Path

    mini = blokus.Variant.from_file(Path(__file__).resolve().parent.parent / "examples" / "mini.toml")
    b = Board(mini, ["c6"])
    text = b.bpn()
    assert text.startswith("mini ") and text.endswith(" o -")
    again = Board.from_bpn(text, mini)
    same_position(b, again)
    with pytest.raises(InvalidPositionError, match="expected a variant id"):
        Board.from_bpn(text)
    with pytest.raises(InvalidPositionError, match="expected the variant id 'mini', found 'duo'"):
        Board.from_bpn(EMPTY_DUO + " p -", mini)
    with pytest.raises(TypeError):
        Board.from_bpn(b"duo")  # type: ignore[arg-type]


def test_from_bpn_with_moves_and_repr_of_setup_boards() -> None:
    b = Board.from_bpn("duo 14/14/4p9/3ppp8/4p9/14/14/14/14/14/14/14/14/14 o -", moves=["j5"])
    assert [str(m) for m in b.move_stack] == ["j5"] and b.turn == 0
    shown = repr(b)
    assert shown == "blokus.Board.from_bpn('duo 14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14/14/14 o -', moves=['j5'])"
    assert eval(shown, {"blokus": blokus}).bpn() == b.bpn()
    assert repr(Board("duo", ["e10"])) == "blokus.Board('duo', moves=['e10'])"


def test_setup_boards() -> None:
    b = Board.from_setup("classic", [["a20", "b19,c19"], [], ["t1"]], turn=1)
    assert b.turn == 1 and b.move_stack == [] and len(b.pieces_left(0)) == 19
    assert b.cell_colors()[b.variant.cell_index("t1") or 0] == 2
    # A colour that cannot move is skipped, as after a move.
    blocked = Board.from_setup("duo", [["j5"]], turn=1)
    assert blocked.turn == 0
    with pytest.raises(InvalidPositionError, match="1st piece of Orange: e10 is already covered") as e:
        Board.from_setup("duo", [["e10"], ["e10,e11"]])
    assert (e.value.kind, e.value.color, e.value.placement) == ("overlap", 1, (1, 0))
    with pytest.raises(InvalidPositionError, match="shares an edge with another piece of Purple"):
        Board.from_setup("duo", [["e10", "e11,e12"]])
    with pytest.raises(InvalidPositionError, match="Purple has only 1 copy of piece I5"):
        Board.from_setup("duo", [["a1,a2,a3,a4,a5", "c1,c2,c3,c4,c5"]])
    with pytest.raises(InvalidPositionError, match="pieces given for 3 colours, but duo has 2"):
        Board.from_setup("duo", [[], [], []])
    with pytest.raises(InvalidPositionError, match="duo has no colour 2"):
        Board.from_setup("duo", [], turn=2)
    with pytest.raises(InvalidMoveError, match="do not form a piece"):
        Board.from_setup("duo", [["a1,c1"]])


# --- Blokus 3D: the pieces in move text ---

EMPTY_TOWER = "3d_tower -/-/-/-"


def test_3d_pieces_are_listed_in_move_text() -> None:
    b = Board("3d_tower")
    assert b.bpn() == EMPTY_TOWER + " b -"
    b.push("a1@1,b1@1")
    b.push("c1@1,c1@2,b1@2")
    b.push("d1@1,d2@1")
    assert b.bpn() == "3d_tower a1@1,b1@1/c1@1,b1@2,c1@2/d1@1,d2@1/- g -"
    b.push("d3@1,d4@1")
    b.push("a2@1,a1@2,a2@2")  # Blue's second piece shares faces with its first
    text = b.bpn()
    assert text == "3d_tower a1@1,b1@1;a2@1,a1@2,a2@2/c1@1,b1@2,c1@2/d1@1,d2@1/d3@1,d4@1 y -"
    same_position(b, Board.from_bpn(text))
    # Any order of cubes and any case is read; the pieces are written canonically.
    messy = "3d_tower B1@1,A1@1;a2@2,a1@2,a2@1/c1@2,b1@2,c1@1/d2@1,d1@1/d4@1,d3@1 y -"
    assert Board.from_bpn(messy).bpn() == text


def test_3d_pieces_in_any_order_but_the_last_piece_last() -> None:
    # Yellow's piece rests on Blue's second piece, which is listed later: still one board.
    text = "3d_tower a1@1,b1@1;c1@1,d1@1,d2@1/a1@2,b1@2,c1@2/-/- r -"
    b = Board.from_bpn(text)
    assert b.bpn() == text and b.heights()[3].tolist() == [2, 2, 2, 1]
    swapped = Board.from_bpn("3d_tower c1@1,d1@1,d2@1;a1@1,b1@1/a1@2,b1@2,c1@2/-/- r -")
    assert swapped.cell_colors() == b.cell_colors() and swapped.points() == b.points()
    assert swapped.bpn() != text  # another last piece


def test_3d_out_colours_are_kept_even_with_a_legal_move() -> None:
    # Knock-out: a colour that once could not move stays out, even when room opens later.
    # Search random games for such positions (a few games in a hundred have one); the string
    # keeps the colour out.
    letters = blokus.Variant("3d_tower").color_letters
    seen = 0
    for seed in range(300):
        if seen >= 3:
            break
        rng = random.Random(seed)
        b = Board("3d_tower")
        while not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)))
            if b.is_game_over():
                break
            vid, pieces, _turn, out = b.bpn().split(" ")
            for c in b._core.out:
                back_in = out.replace(letters[c], "") or "-"
                try:
                    other = Board.from_bpn(f"{vid} {pieces} {letters[c]} {back_in}")
                except InvalidPositionError:
                    continue  # no legal move: out either way
                seen += 1
                again = Board.from_bpn(b.bpn())
                same_position(b, again)
                assert c in again._core.out and other.turn == c and c not in other._core.out
    assert seen > 0


def test_3d_setup_boards() -> None:
    b = Board.from_setup("3d_pyramid", [["d4@1,e4@1"], ["d5@1,e5@1,d5@2"]], turn=2)
    assert b.turn == 2 and b.heights().sum() == 5
    assert b.bpn() == "3d_pyramid d4@1,e4@1/d5@1,e5@1,d5@2/-/- r -"
    with pytest.raises(
        InvalidPositionError, match="1st piece of Yellow: nothing beneath d5@2 \\(d5@1 is empty\\)"
    ) as e:
        Board.from_setup("3d_pyramid", [["d4@1,e4@1"], ["d5@2,e5@2,e4@2"]])
    assert (e.value.kind, e.value.color, e.value.placement) == ("unsupported", 1, (1, 0))
    # Pieces of a colour may share faces in 3D.
    Board.from_setup("3d_pyramid", [["d4@1,e4@1", "d4@2,e4@2,f4@1,f4@2"]])
    out = Board.from_setup("3d_tower", [["a1@1,b1@1"]], turn=1, out=[1])
    assert out.turn == 2 and out._core.out == [1]
    with pytest.raises(InvalidPositionError, match="3d_tower has no colour 4"):
        Board.from_setup("3d_tower", [], out=[4])
    # A board from a setup shows itself as one, and can be pasted back.
    out.push("c1@1,d1@1")
    shown = repr(out)
    assert shown == "blokus.Board.from_bpn('3d_tower a1@1,b1@1/-/-/- r y', moves=['c1@1,d1@1'])"
    again = eval(shown, {"blokus": blokus})
    same_position(out, again)


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("3d_tower", 8, "expected the pieces after '3d_tower'"),
        (
            "3d_tower -/-/- b -",
            14,
            r"expected the pieces of 4 colours \(Blue, Yellow, Red, Green\) separated by '/', found 3",
        ),
        ("3d_tower -/-/-/-/- b -", 16, "expected the end of the pieces after 4 colours"),
        (
            "3d_tower a1@1,b1@1;/-/-/- y -",
            19,
            r"expected a piece of Blue \(b\) in move text like a1@1,b1@1 \(or '-' alone for none\), found nothing",
        ),
        ("3d_tower -/;a1@1/-/- b -", 11, "expected a piece of Yellow"),
        (
            "3d_tower -/-/-/a1 b -",
            15,
            r'expected a piece of Green \(g\) in move text .*: item 1 \("a1"\) is not a cube like a1@2',
        ),
        ("3d_tower -/-/-/a1@1,a1@9 b -", 15, r"above the height limit of its column \(level 8\)"),
        ("3d_tower -/-/-/a1@1,c1@1 b -", 15, "do not form a piece"),
        ("3d_tower a1@1,b1@1;a2@1,b2@1/-/-/- y -", 19, "2nd piece of Blue: Blue has only 1 copy of piece I2"),
        ("3d_tower a1@1,b1@1/b1@1,c1@1/-/- r -", 19, "1st piece of Yellow: b1@1 is already covered"),
        ("3d_tower a1@1,b1@1/-/c1@2,d1@2/- g -", 21, r"1st piece of Red: nothing beneath c1@2 \(c1@1 is empty\)"),
        ("3d_tower a1@1,b1@1/-/-/- y y", 25, "Yellow is to move but is listed as out"),
        ("3d_tower a1@1,b1@1/-/-/- - y", 25, "the game is said to be over, but Blue has a legal move"),
        ("3d_tower -/-/-/- y -", 17, "Yellow is to move but has no legal move"),
        ("3d_tower -/-/-/- b x", 19, r"expected the letters of the colours out \(b Blue, y Yellow, r Red, g Green\)"),
        # A colour out with a legal move is a position of the game (knock-out).
        ("3d_tower a1@1,b1@1/-/-/- r y", 0, None),
        ("3d_tower a1@1,b1@1/-/-/- - bryg", 0, None),
    ],
)
def test_broken_3d_strings_say_where_and_what(text: str, position: int, message: str | None) -> None:
    test_broken_strings_say_where_and_what(text, position, message)
