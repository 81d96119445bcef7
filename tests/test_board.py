"""The Board API: turns, moves, undo, copies, text forms, points and results."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import blokus
from blokus import Board, Move


def test_variants_lists_every_family() -> None:
    flat = ["classic", "classic_2", "classic_3", "duo", "junior", "trigon", "trigon_2", "trigon_3"]
    assert blokus.variants()[:8] == flat and len(blokus.variants()) == 8 + 16


@pytest.mark.parametrize(
    ("variant", "first_moves", "placements", "colors", "players"),
    [
        ("classic", 58, 30433, 4, 4),
        ("classic_2", 58, 30433, 4, 2),
        ("classic_3", 58, 30433, 4, 3),
        ("duo", 414, 13729, 2, 2),
        ("junior", 189, 7217, 2, 2),
        ("trigon", 2478, 32131, 4, 4),
        ("trigon_2", 2478, 32131, 4, 2),
        ("trigon_3", 2478, 24859, 3, 3),
    ],
)
def test_empty_board(variant: str, first_moves: int, placements: int, colors: int, players: int) -> None:
    b = Board(variant)
    assert b.turn == 0 and b.player == 0 and b.ply == 0
    assert len(b.legal_moves) == first_moves == len(list(b.legal_moves)) == len(b.legal_moves.ids())
    assert b.variant.num_placements == placements
    assert (b.variant.num_colors, b.variant.num_players) == (colors, players)
    assert not b.is_game_over() and b.outcome() is None


def test_push_pop_and_move_stack() -> None:
    b = Board("duo")
    before = b.copy()
    b.push("e10,d11,e11,f11,e12")
    b.push("j5")
    assert [str(m) for m in b.move_stack] == ["e10,d11,e11,f11,e12", "j5"]
    assert b.move_colors() == [0, 1]
    assert b.peek() == b.parse_move("j5")
    assert str(b.pop()) == "j5"
    assert str(b.pop()) == "e10,d11,e11,f11,e12"
    assert b == before and b.zobrist_hash() == before.zobrist_hash()
    with pytest.raises(IndexError):
        b.pop()


def test_moves_are_accepted_as_text_move_or_id() -> None:
    b = Board("duo")
    m = b.parse_move("E12,D11,e11,F11,e10")  # any order, any case
    assert str(m) == "e10,d11,e11,f11,e12"
    assert m.cells == ("e10", "d11", "e11", "f11", "e12")
    assert m.piece.name == "X" and m.piece.size == 5
    assert Move.from_text("duo", "e10,d11,e11,f11,e12") == m
    c = b.copy()
    b.push(m)
    c.push(m.id)
    assert b == c


def test_copy_is_independent() -> None:
    b = Board("classic")
    c = b.copy()
    c.push("a20")
    assert b.ply == 0 and c.ply == 1
    d = copy.copy(c)
    d.pop()
    assert c.ply == 1


def test_legal_moves_view_follows_the_board() -> None:
    b = Board("duo")
    moves = b.legal_moves
    first = next(iter(moves))
    assert first in moves and str(first) in moves and first.id in moves
    assert "a1" not in moves and "zz99" not in moves and 3.5 not in moves
    b.push(first)
    assert first not in moves  # the view is live
    ids = moves.ids()
    assert ids.dtype == np.uint32 and sorted(ids.tolist()) == sorted(m.id for m in moves)


def test_listed_moves_are_the_legal_ids_as_moves() -> None:
    b = Board("classic")
    for k in range(6):  # every colour past its first piece
        b.push(list(b.legal_moves)[k * 7])
    listed = list(b.legal_moves)
    ids = b.legal_moves.ids().tolist()
    assert [m.id for m in listed] == ids and len(listed) == len(b.legal_moves)
    assert listed == [Move(b.variant, i) for i in ids]
    # A listing reuses the variant's Move objects; they are immutable values.
    assert all(m is n for m, n in zip(listed, b.copy().legal_moves))
    with pytest.raises(ValueError, match="items for 30433 placements"):
        b._core.legal_items([listed[0]])


def test_repr_can_be_pasted_back() -> None:
    b = Board("classic_2", ["a20", "t20"])
    again = eval(repr(b), {"blokus": blokus})
    assert again == b
    assert repr(Board("duo")) == "blokus.Board('duo')"


def test_text_board() -> None:
    b = Board("duo", ["e10,d11,e11,f11,e12"])
    lines = str(b).splitlines()
    assert lines[0].startswith("14 ")
    assert lines[2] == "12 . . . . P . . . . . . . . ."
    assert lines[4] == "10 . . . . P . . . . . . . . ."
    assert lines[9] == " 5 . . . . . . . . . + . . . ."  # Orange's start point is still open
    assert lines[14] == "   a b c d e f g h i j k l m n"
    assert lines[15] == "Orange (O) to move"


def test_trigon_text_board_draws_triangles() -> None:
    b = Board("trigon_3", ["o3,p3,q3"])
    lines = str(b).splitlines()
    assert lines[0] == "16        ^v^v^v^v^v^v^v^v^"
    assert lines[5] == "11   ^v^v^+^v^v^v^v^v^v^v^+^v^v^"  # open start points h11 and x11
    assert lines[13] == " 3      v^v^v^v^vBBBv^v^v^v^v"  # o3 and q3 point down, p3 up
    assert lines[-3:-1] == ["                             aaaaa", "   abcdefghijklmnopqrstuvwxyzabcde"]
    assert "a" not in b.legal_moves


def test_classic_3_shared_colour_rotates_among_players() -> None:
    b = Board("classic_3")
    players: list[tuple[int | None, int | None]] = []
    while len(players) < 12:
        players.append((b.turn, b.player))
        b.push(next(iter(b.legal_moves)))
    assert players == [(0, 0), (1, 1), (2, 2), (3, 0), (0, 0), (1, 1), (2, 2), (3, 1), (0, 0), (1, 1), (2, 2), (3, 2)]


def test_points_scores_and_results_of_a_finished_game() -> None:
    b = Board("classic_2")
    r = blokus.selfplay("classic_2", games=1, seed=7, keep_moves=True)
    assert r.moves is not None
    for m in r.moves[0]:
        b.push(m)
    assert b.is_game_over() and b.turn is None and b.player is None
    points = b.points()
    assert b.scores() == [points[0] + points[2], points[1] + points[3]]
    diff = b.scores()[0] - b.scores()[1]
    assert b.result() == (f"B+{diff}" if diff > 0 else f"W+{-diff}" if diff < 0 else "0")
    basic = b.points("basic")
    assert all(p - q == 89 for p, q in zip(points, basic) if p < 89)  # no bonus: cells - 89
    outcome = b.outcome()
    assert outcome is not None and list(outcome.points) == points
    assert outcome.winners == tuple(p for p, s in enumerate(b.scores()) if s == max(b.scores()))
    assert list(r.points[0]) == points
    with pytest.raises(blokus.BlokusError):
        b.points("fancy")


def test_bonus_for_placing_every_piece_ending_with_the_monomino() -> None:
    # Place all 21 pieces of one colour on a board made for it: 1 colour, 1 player.
    spec = {
        "id": "solo",
        "board": {"geometry": "square", "width": 20, "height": 20},
        "colors": ["Blue"],
        "players": [[0]],
        "start_points": [["a1"]],
        "pieces": {},
        "bonus": {"all_placed": 15, "last_monomino": 20},
    }
    for last, bonus in [("1", 20), ("2", 15)]:
        b = Board(spec)
        # Greedy-ish: largest pieces first, the chosen piece last.
        while not b.is_game_over():
            moves = list(b.legal_moves)
            if len(b.pieces_left(0)) > 1:
                moves = [m for m in moves if m.piece.name != last] or moves
            b.push(max(moves, key=lambda m: (m.piece.size, -m.id)))
        assert b.pieces_left(0) == [] and b.move_stack[-1].piece.name == last
        assert b.points() == [89 + bonus]
        assert b.points("basic") == [0]
        b.pop()
        assert b.points() == [89 - b.variant.piece(last).size]  # one piece short: no bonus


def test_perft_from_the_empty_board() -> None:
    assert Board("duo").perft(1) == 414
    assert Board("duo").perft(2) == 171_396
    assert Board("classic").perft(3) == 195_112
    assert Board("trigon").perft(2) == 5_117_070
    assert Board("duo").perft(0) == 1
    with pytest.raises(ValueError):
        Board("duo").perft(-1)
