"""Bad input raises a specific exception that says what and where; the board never changes."""

from __future__ import annotations

import pytest

import blokus
from blokus import Board
from blokus.errors import (
    BlokusError,
    IllegalMoveError,
    InvalidMoveError,
    UnknownVariantError,
)


def played(*moves: str, variant: str = "duo") -> Board:
    return Board(variant, moves)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move text"),
        ("e10,,e11", "item 2"),
        ("e10;e11", "item 1"),
        ("10e", "item 1"),
        ("e0", "item 1"),
        ("o1", r"item 1 \(o1\) is not a cell of this board"),
        ("a15", "is not a cell of this board"),
        ("e10,e10", "cell e10 is named twice"),
        ("a1,c1", "cells a1,c1 do not form a piece"),
        ("a1,b1,c1,d1,e1,f1", "do not form a piece"),
    ],
)
def test_malformed_move_text(text: str, message: str) -> None:
    b = played("e10,d11,e11,f11,e12")
    before = b.copy()
    with pytest.raises(InvalidMoveError, match=message):
        b.push(text)
    with pytest.raises(InvalidMoveError):
        b.parse_move(text)
    assert b == before


@pytest.mark.parametrize(
    ("moves", "move", "message"),
    [
        ((), "a1", "no start point"),
        (("e10,d11,e11,f11,e12",), "e10,e9", r"illegal move e9,e10 for Orange: overlap: e10 is already covered"),
        (("e10,e11", "j5"), "d10", "own edge: d10 shares an edge"),
        (("e10,e11", "j5"), "a1", "no corner contact"),
        (("e10,e11", "j5"), "f12", None),
        (("e10", "j5"), "f11", "piece 1 is already used"),
    ],
)
def test_illegal_moves_say_which_rule(moves: tuple[str, ...], move: str, message: str | None) -> None:
    b = played(*moves)
    before = b.copy()
    if message is None:
        assert b.why_illegal(move) is None and b.is_legal(move)
        return
    assert not b.is_legal(move)
    reason = b.why_illegal(move)
    assert reason is not None and reason.split(":")[0] in message
    with pytest.raises(IllegalMoveError, match=message):
        b.push(move)
    assert b == before


def test_errors_are_value_errors() -> None:
    for cls in (
        IllegalMoveError,
        InvalidMoveError,
        UnknownVariantError,
        blokus.InvalidVariantError,
        blokus.SgfError,
        blokus.InvalidPositionError,
    ):
        assert issubclass(cls, BlokusError) and issubclass(cls, ValueError)


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match=r'unknown variant "chess" \(known: classic'):
        Board("chess")


def test_bad_ids_and_foreign_moves() -> None:
    b = Board("duo")
    with pytest.raises(InvalidMoveError, match="no placement 13729 in duo"):
        b.push(13729)
    with pytest.raises(InvalidMoveError):
        b.push(-1)
    with pytest.raises(InvalidMoveError, match="belongs to classic"):
        b.push(Board("classic").parse_move("a20"))
    with pytest.raises(TypeError):
        b.push(1.5)  # type: ignore[arg-type]
    assert b.ply == 0


def test_moves_after_the_end() -> None:
    r = blokus.selfplay("duo", games=1, seed=3, keep_moves=True)
    b = r.board(0)
    assert b.is_game_over()
    m = b.parse_move("a1")
    assert b.why_illegal(m) == "the game is over"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        b.push(m)
