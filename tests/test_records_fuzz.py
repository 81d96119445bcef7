"""Fuzzing the record and position parsers: whatever the input, they either read it (and then
what they read round-trips) or raise SgfError / InvalidPositionError. Nothing else escapes.

Two kinds of input: text from hypothesis (random, and random trees built from the grammar), and
mutations of real files (Pentobi's conformance records and position strings of their games),
which reach deep into the parser because most of a mutated file is still well formed."""

from __future__ import annotations

import random
import re
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blokus
from blokus import Board, sgf
from blokus.errors import InvalidPositionError, SgfError
from conftest import conformance_files, conformance_games

FLAT_FILES = [p for p in conformance_files() if not p.name.startswith("3d_")]
RECORDS = [g["sgf"] for p in FLAT_FILES for g in list(conformance_games(p))[:3]]
# Blokus 3D: our own records (Pentobi has none), from games played in Rust.
_CUBE = blokus.selfplay("3d_tower", games=2, seed=1, keep_moves=True)
_CUBE_2 = blokus.selfplay("3d_steps_2", games=2, seed=1, keep_moves=True)
RECORDS += [sgf.dumps(r.board(g)) for r in (_CUBE, _CUBE_2) for g in range(2)]
EXTRA_RECORDS = [
    "(;GM[Blokus Duo]PB[Ann]C[a \\] b\\\\]XX[y];B[e10,d11,e11,f11,e12](;W[j5];B[f9,f8])(;W[j6,j5]C[v];B[d9]))",
    "(;GM[Blokus Two-Player];BLUE[a16][a17][a18][a19][a20];YELLOW[s17][t17][t18][t19][t20])",
    "(;GM[Blokus Duo]AB[e8,e9,f9,d10,e10][g6,f7,g7,h7,g8]AW[i4,h5,i5,j5,i6][j7,j8,j9,k9,j10]PL[W];W[l8])",
    "(;GM[Blokus];1[a20];2[t20];A3[t1]AE[a20]PL[4];4[a1];1[a19,a20])",
    "(;GM[Blokus 3D Tower]A1[a1@1,b1@1]A3[a1@2,b1@2,b1@3]PL[3]XO[2];3[a1@3,a1@4](;4[c1@1,c2@1])(;XO[]PL[2];2[a2@1,b2@1]))",
    "(;GM[Blokus 3D Pyramid Two-Player];B[d4@1,e4@1];W[d5@1,e5@1,d5@2];B[d4@2,e4@2,e5@2];AE[d4@2,e4@2,e5@2]XO[W];B[c3@1,c4@1,c5@1])",
]


def read_sgf(text: str | bytes) -> None:
    """Reads text; if it is a game, checks that it round-trips and replays."""
    try:
        games = sgf.loads_all(text)
    except SgfError as e:
        assert e.line is None or (e.line >= 1 and e.column is not None and e.column >= 1), str(e)
        return
    for game in games:
        written = sgf.dumps(game)
        again = sgf.loads(written)
        assert sgf.dumps(again) == written
        assert again.end().board().bpn() == game.end().board().bpn()


def read_bpn(text: str) -> None:
    try:
        board = Board.from_bpn(text)
    except InvalidPositionError as e:
        assert e.position is not None and 0 <= e.position <= len(text), str(e)
        return
    again = Board.from_bpn(board.bpn())
    assert again.bpn() == board.bpn()
    assert again.legal_moves.ids().tolist() == board.legal_moves.ids().tolist()


def mutate(text: str, rng: random.Random, alphabet: str) -> str:
    """One to three random edits: delete, duplicate or move a span, insert or replace characters."""
    for _ in range(rng.randint(1, 3)):
        if not text:
            text = rng.choice(alphabet)
            continue
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.choice([1, 1, 1, 2, 3, 5, 10, 40]))
        kind = rng.randrange(6)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:j] + text[i:j] + text[j:]
        elif kind == 2:
            text = text[:i] + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))) + text[i:]
        elif kind == 3:
            text = text[:i] + rng.choice(alphabet) + text[i + 1 :]
        elif kind == 4:
            k = rng.randrange(len(text))
            text = text[:k] + text[i:j] + text[k:]
        else:
            text = text[:i] + text[i:j].swapcase() + text[j:]
    return text


SGF_ALPHABET = "()[];\\\n ,:@abcdefghijklmnopqrstABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\xe9"
CELL_ALPHABET = "abcdefghijklmnopqrstuvwxyzABT0123456789,@"


def mutate_sgf(text: str, rng: random.Random) -> str:
    """Mutations that mostly keep the syntax, to reach the moves, setups and variations: edit
    inside a value, change a property id, or drop, repeat, swap or move whole nodes."""
    kind = rng.randrange(10)
    if kind < 3:
        return mutate(text, rng, SGF_ALPHABET)
    if kind < 6:
        values = [m.span(1) for m in re.finditer(r"\[([^\]\\]*)\]", text)]
        if not values:
            return mutate(text, rng, SGF_ALPHABET)
        a, b = rng.choice(values)
        inner = mutate(text[a:b], rng, CELL_ALPHABET) if rng.random() < 0.8 else rng.choice(VALUES)
        return text[:a] + inner.replace("]", "") + text[b:]
    if kind < 7:
        ids = [m.span() for m in re.finditer(r"(?<=[;\]])[A-Z0-9]+(?=\[)", text)]
        if not ids:
            return mutate(text, rng, SGF_ALPHABET)
        a, b = rng.choice(ids)
        return text[:a] + rng.choice(PROPERTY_IDS) + text[b:]
    nodes = re.split(r"(?=;)", text)
    if len(nodes) < 3:
        return mutate(text, rng, SGF_ALPHABET)
    i, j = rng.randrange(1, len(nodes)), rng.randrange(1, len(nodes))
    if kind == 7:
        del nodes[i]
    elif kind == 8:
        nodes.insert(j, nodes[i])
    else:
        nodes[i], nodes[j] = nodes[j], nodes[i]
    return "".join(nodes)


def run_mutations(
    seeds: list[str], read: Callable[[str], None], change: Callable[[str, random.Random], str], count: int, seed: int
) -> None:
    rng = random.Random(seed)
    for n in range(count):
        text = change(rng.choice(seeds), rng)
        try:
            read(text)
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001 - a fuzzer reports any exception with its input
            pytest.fail(f"mutation {n}: {type(e).__name__}: {e}\ninput: {text!r}")


def test_mutations_of_real_records() -> None:
    run_mutations(RECORDS + EXTRA_RECORDS, read_sgf, mutate_sgf, count=3000, seed=1)


def test_mutations_of_real_records_as_bytes() -> None:
    rng = random.Random(2)
    for n in range(500):
        data = bytearray(mutate(rng.choice(EXTRA_RECORDS), rng, SGF_ALPHABET).encode("utf-8"))
        for _ in range(rng.randint(0, 3)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.3:
            data = bytearray(
                b"(;CA[" + rng.choice([b"UTF-8", b"latin-1", b"utf-16", b"rot13", b"x\x00", b"idna"]) + b"]" + data[1:]
            )
        try:
            read_sgf(bytes(data))
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001 - reported with its input
            pytest.fail(f"mutation {n}: {type(e).__name__}: {e}\ninput: {bytes(data)!r}")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=SGF_ALPHABET, max_size=200))
def test_random_text_is_read_or_refused(text: str) -> None:
    read_sgf("(;GM[Blokus Duo]" + text)
    read_sgf(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=100))
def test_any_unicode_is_read_or_refused(text: str) -> None:
    read_sgf(text)
    read_sgf("(;GM[Blokus]C[" + text + "])")


PROPERTY_IDS = ["B", "W", "1", "2", "3", "4", "AB", "AW", "A1", "A2", "AE", "PL", "XO", "C", "XX", "BLUE", "GM"]
VALUES = [
    "e10",
    "j5",
    "E10,d11,e11,f11,e12",
    "a1",
    "t20",
    "a20",
    "zz9",
    "",
    "B",
    "2",
    "x]y",
    "\\",
    "a1@1,b1@1",
    "A1@2,b1@2",
    "c1@1,c1@2,b1@2",
    "a1@1,a1@9",
    "d4@1,e4@1",
]


@st.composite
def trees(draw: st.DrawFn) -> str:
    """Random trees from the grammar with plausible property ids and values."""
    nodes = draw(st.integers(1, 12))
    out = [
        "(;GM["
        + draw(
            st.sampled_from(
                ["Blokus Duo", "Blokus", "Blokus Trigon", "Go", "Blokus 3D Tower", "Blokus 3D Pyramid Two-Player"]
            )
        )
        + "]"
    ]
    depth = 1
    for _ in range(nodes):
        action = draw(st.integers(0, 3))
        if action == 0 and depth < 4:
            out.append("(")
            depth += 1
        elif action == 1 and depth > 1 and out[-1] != "(":
            out.append(")")
            depth -= 1
        out.append(";")
        for _ in range(draw(st.integers(0, 2))):
            out.append(draw(st.sampled_from(PROPERTY_IDS)))
            for _ in range(draw(st.integers(1, 2))):
                out.append("[" + draw(st.sampled_from(VALUES)).replace("]", "\\]") + "]")
    out.append(")" * depth)
    return "".join(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_random_trees_are_read_or_refused(text: str) -> None:
    read_sgf(text)


# --- BPN ---


def bpn_seeds() -> list[str]:
    seeds = []
    for path in FLAT_FILES:
        game = next(conformance_games(path))
        board = Board(game["variant"])
        moves = [p["move"] for p in game["plies"] if p["move"] is not None]
        for k, move in enumerate(moves):
            board.push(move)
            if k in (0, len(moves) // 2, len(moves) - 1):
                seeds.append(board.bpn())
    # Blokus 3D: pieces in move text, and out colours that matter.
    rng = random.Random(4)
    for vid in [v for v in blokus.variants() if v.startswith("3d_")][::3]:
        board = Board(vid)
        plies = 0
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
            if plies in (1, 6, 20) or board.is_game_over():
                seeds.append(board.bpn())
    return seeds


BPN_SEEDS = bpn_seeds()
BPN_ALPHABET = "/ -0123456789byrgpoBYRGPOxaz@,;"


def test_mutations_of_real_positions() -> None:
    run_mutations(BPN_SEEDS, read_bpn, lambda text, rng: mutate(text, rng, BPN_ALPHABET), count=3000, seed=3)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=BPN_ALPHABET, max_size=80))
def test_random_position_text_is_read_or_refused(text: str) -> None:
    read_bpn(text)
    read_bpn("duo " + text)
    read_bpn("trigon_3 " + text)
    read_bpn("3d_tower " + text)
    read_bpn("3d_steps_2 a1@1,b1@1/" + text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60))
def test_any_unicode_position_is_read_or_refused(text: str) -> None:
    read_bpn(text)
    read_bpn("duo 14/14/14/14/14/14/14/14/14/14/14/14/14/" + text)


def test_seeds_are_real() -> None:
    assert len(RECORDS) >= 8 and len(BPN_SEEDS) >= 8
    assert sum(text.startswith("3d_") for text in BPN_SEEDS) >= 16
    for text in RECORDS + EXTRA_RECORDS:
        sgf.loads(text)
    for text in BPN_SEEDS:
        assert blokus.Board.from_bpn(text).bpn() == text
