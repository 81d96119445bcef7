"""Invariants on random positions (hypothesis), and fuzzing of the text parsers."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blokus
from blokus import Board
from blokus.errors import BlokusError, IllegalMoveError, InvalidMoveError, InvalidVariantError
from blokus.rl import BatchEnv

ALL_VARIANTS = blokus.variants()


def reference_legal_ids(b: Board, color: int) -> set[int]:
    """The legal placements of ``color`` by the core's plain reference generator (written from
    the rules and the cells' coordinates, without the engine's state)."""
    return set(b._core.reference_legal_ids(color))


def random_board(variant: str, seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    b = Board(variant)
    for _ in range(plies):
        moves = list(b.legal_moves)
        if not moves:
            break
        b.push(rng.choice(moves))
    return b


positions = st.builds(
    random_board,
    st.sampled_from(ALL_VARIANTS),
    st.integers(0, 2**32),
    st.integers(0, 90),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_listed_moves_are_legal_and_counted(b: Board) -> None:
    moves = list(b.legal_moves)
    ids = b.legal_moves.ids().tolist()
    assert len(moves) == len(b.legal_moves) == len(ids) == len(set(ids))
    assert [m.id for m in moves] == ids
    for m in moves:
        assert b.is_legal(m) and b.why_illegal(m) is None
    assert bool(b.legal_moves) == (len(moves) > 0) == (not b.is_game_over())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_reference_generator_agrees(b: Board) -> None:
    # The colour to move through the Python API, and every colour through the core.
    if b.turn is not None:
        assert set(b.legal_moves.ids().tolist()) == reference_legal_ids(b, b.turn)
    for c in range(b.variant.num_colors):
        assert b.has_move(c) == bool(reference_legal_ids(b, c))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 2**32))
def test_pop_restores_the_exact_position(b: Board, seed: int) -> None:
    if b.is_game_over():
        return
    before = (b.copy(), b.zobrist_hash(), str(b), b.legal_moves.ids().tolist(), b.points(), b.turn, b.player)
    move = random.Random(seed).choice(list(b.legal_moves))
    b.push(move)
    assert b.peek() == move
    assert b.pop() == move
    after = (b, b.zobrist_hash(), str(b), b.legal_moves.ids().tolist(), b.points(), b.turn, b.player)
    assert after == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 2**32))
def test_illegal_moves_leave_the_board_unchanged(b: Board, seed: int) -> None:
    legal = set(b.legal_moves.ids().tolist())
    rng = random.Random(seed)
    for _ in range(20):
        pid = rng.randrange(b.variant.num_placements)
        if pid in legal:
            continue
        before = b.copy()
        assert b.why_illegal(pid) is not None
        with pytest.raises(IllegalMoveError):
            b.push(pid)
        assert b == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_hash_depends_on_the_position_only(b: Board) -> None:
    again = Board(b.variant, b.move_stack)
    assert again.zobrist_hash() == b.zobrist_hash() and again == b


cell = st.builds(
    lambda col, row, level: col + row + level,
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABZ", min_size=0, max_size=3),
    st.one_of(st.integers(-2, 30).map(str), st.text(alphabet="0123456789-", max_size=3)),
    st.one_of(st.just(""), st.integers(-1, 10).map(lambda z: f"@{z}"), st.text(alphabet="@0123", max_size=3)),
)
move_text = st.one_of(
    st.text(max_size=40),
    st.lists(cell, min_size=0, max_size=7).map(",".join),
    st.lists(cell, min_size=1, max_size=7).map(lambda cs: " , ".join(cs).upper()),
)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(ALL_VARIANTS), move_text)
def test_move_text_parser_never_crashes(variant: str, text: str) -> None:
    b = Board(variant)
    try:
        m = b.parse_move(text)
    except InvalidMoveError as e:
        assert str(e)
        return
    assert b.parse_move(str(m)) == m
    assert sorted(str(m).split(",")) == sorted(c.strip().lower() for c in text.split(","))


def mutate(value: Any, data: st.DataObject) -> Any:
    """Replaces, drops or perturbs one part of a spec."""
    junk = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 600),
        st.text(max_size=4),
        st.lists(st.text(max_size=3), max_size=3),
        st.lists(st.lists(st.integers(-1, 5), max_size=3), max_size=5),
    )
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        out = dict(value)
        action = data.draw(st.sampled_from(["drop", "replace", "recurse"]))
        if action == "drop":
            del out[key]
        elif action == "replace":
            out[key] = data.draw(junk)
        else:
            out[key] = mutate(value[key], data)
        return out
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        out_list = list(value)
        out_list[i] = mutate(value[i], data)
        return out_list
    return data.draw(junk)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(blokus.variants()), st.data())
def test_variant_spec_validation_never_crashes(variant: str, data: st.DataObject) -> None:
    spec = mutate(blokus.Variant(variant).spec, data)
    if not isinstance(spec, dict):
        return
    try:
        v = blokus.Variant(spec)
    except InvalidVariantError as e:
        assert str(e)
        return
    b = Board(v)
    assert b.perft(1) == len(b.legal_moves)
    # A spec that validates plays through the simulation paths too.
    r = blokus.selfplay(v, games=1, seed=1, threads=1)
    assert r.plies.shape == (1,)
    env = BatchEnv(v, batch_size=2, threads=2)
    assert env.legal_action_mask.shape == (2, v.num_placements)


def test_blokus_errors_are_the_only_exceptions_of_bad_text() -> None:
    b = Board("classic")
    for text in ["\x00", "a" * 10_000, "a1," * 1000, "ä1", "a99999999999999999999", "aaaa1", "-", ","]:
        with pytest.raises(BlokusError):
            b.push(text)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_reference_generator_counts_first_moves(variant: str) -> None:
    # The reference is only worth something if it finds moves: check it on the empty board too.
    b = Board(variant)
    assert len(reference_legal_ids(b, 0)) == len(b.legal_moves) > 0
    b.push(next(iter(b.legal_moves)))
    assert b.turn is not None
    assert reference_legal_ids(b, b.turn) == set(b.legal_moves.ids().tolist())
