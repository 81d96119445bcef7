"""Fuzzing the Python entry points (issue #18): numbers of every kind, array dtypes and shapes,
specs and command-line arguments. Whatever comes in, a call either works or raises an error of
`blokus.errors` (a `BlokusError` and a `ValueError`, or a `TypeError` for a wrong type) with a
short message, and a failed call changes nothing. Sizes that could exhaust memory are tried in
a child process with a memory limit, which must exit normally."""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import blokus
from blokus import Board, Move, Variant, cli, errors, svg
from blokus.rl import BatchEnv, observation

MESSAGE = 300
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Numbers as a hostile caller passes them: every int size, bools, floats, numpy scalars of
#: every kind, strings, containers, None.
numbers = st.one_of(
    st.integers(-3, 300),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**31, 2**32, 2**63, 2**64, -(2**63) - 1, 10**30]),
    st.booleans(),
    st.sampled_from([np.True_, np.False_]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**63), 2**63 - 1).map(np.int64),
    st.integers(0, 2**16 - 1).map(np.uint16),
    st.integers(0, 2**64 - 1).map(np.uint64),
    st.integers(-128, 127).map(np.int8),
    st.floats(width=32).map(np.float32),
    st.text(max_size=5),
    st.none(),
    st.lists(st.integers(0, 5), max_size=2),
    st.just(1j),
)


def is_integer(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def works_or_refuses(call: Callable[[], object]) -> tuple[bool, BaseException | None]:
    """Calls ``call``; an exception must be a BlokusError and a ValueError (a TypeError too for a
    wrong type) with a short message. Whether it worked, and the exception."""
    try:
        call()
    except errors.BlokusError as e:
        assert isinstance(e, ValueError), repr(e)
        assert 0 < len(str(e)) < MESSAGE, str(e)[:400]
        return False, e
    return True, None


BOARDS = {v: Board(v, moves) for v, moves in [("duo", ["e10", "j5"]), ("classic", []), ("3d_tower", ["a1@1,b1@1"])]}


@FUZZ
@given(st.sampled_from(sorted(BOARDS)), numbers)
def test_numbers_as_moves(variant: str, x: object) -> None:
    b = BOARDS[variant]
    before = (b.bpn(), b.ply, b.zobrist_hash())
    n = b.variant.num_placements
    valid = is_integer(x) and 0 <= int(x) < n  # type: ignore[call-overload]
    ok, e = works_or_refuses(lambda: Move(b.variant, x))  # type: ignore[arg-type]
    assert ok == valid and (ok or isinstance(e, errors.InvalidMoveError if is_integer(x) else errors.InvalidTypeError))
    for call in (lambda: b.is_legal(x), lambda: b.why_illegal(x)):  # type: ignore[arg-type]
        ok, e = works_or_refuses(call)
        if isinstance(x, str):
            continue  # text: read or refused (test_properties fuzzes move text)
        assert ok == valid, (x, e)
        assert ok or isinstance(e, errors.InvalidMoveError if is_integer(x) else errors.InvalidTypeError), (x, e)
    contained = x in b.legal_moves
    if not isinstance(x, str):
        assert contained == (valid and b.is_legal(x))  # type: ignore[arg-type]
    ok, _ = works_or_refuses(lambda: b.push(x))  # type: ignore[arg-type]
    assert ok == contained
    if ok:
        b.pop()
    assert (b.bpn(), b.ply, b.zobrist_hash()) == before


@FUZZ
@given(st.sampled_from(sorted(BOARDS)), numbers)
def test_numbers_as_colours_cells_and_depths(variant: str, x: object) -> None:
    b = BOARDS[variant]
    v = b.variant
    before = b.bpn()
    colour = is_integer(x) and 0 <= int(x) < v.num_colors  # type: ignore[call-overload]
    for call in (lambda: b.pieces_left(x), lambda: b.has_move(x)):  # type: ignore[arg-type]
        assert works_or_refuses(call)[0] == colour, x
    assert works_or_refuses(lambda: observation(b, x))[0] == (colour or x is None)  # type: ignore[arg-type]
    cell = is_integer(x) and 0 <= int(x) < v.num_cells  # type: ignore[call-overload]
    assert works_or_refuses(lambda: v.cell_name(x))[0] == cell  # type: ignore[arg-type]
    depth = is_integer(x) and 0 <= int(x) <= v.max_plies  # type: ignore[call-overload]
    if not depth or int(x) <= 1:  # type: ignore[call-overload]  # deeper counts take long
        assert works_or_refuses(lambda: b.perft(x))[0] == depth  # type: ignore[arg-type]
    assert b.bpn() == before


@settings(max_examples=80, deadline=None)
@given(numbers, numbers)
def test_numbers_as_selfplay_arguments(seed: object, threads: object) -> None:
    valid_seed = is_integer(seed) and 0 <= int(seed) < 2**64  # type: ignore[call-overload]
    valid_threads = threads is None or (is_integer(threads) and 1 <= int(threads) <= 256)  # type: ignore[call-overload]
    ok, e = works_or_refuses(lambda: blokus.selfplay("duo", games=1, seed=seed, threads=threads))  # type: ignore[arg-type]
    assert ok == (valid_seed and valid_threads), (seed, threads, e)
    games = seed
    if not (is_integer(games) and int(games) > 3):  # type: ignore[call-overload]  # more games take long
        ok, e = works_or_refuses(lambda: blokus.selfplay("duo", games=games, threads=1))  # type: ignore[arg-type]
        assert ok == (is_integer(games) and int(games) >= 0), (games, e)  # type: ignore[call-overload]


@settings(max_examples=60, deadline=None)
@given(numbers)
def test_numbers_as_batch_sizes_and_picture_sizes(x: object) -> None:
    small = is_integer(x) and 1 <= int(x) <= 64  # type: ignore[call-overload]
    if small or not (is_integer(x) and int(x) > 64):  # type: ignore[call-overload]  # large ones: in a child
        assert works_or_refuses(lambda: BatchEnv("duo", x, threads=1))[0] == small  # type: ignore[arg-type]
    pixels = isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))
    pixels = pixels and math.isfinite(float(x)) and 1 <= float(x) <= 100_000  # type: ignore[arg-type]
    assert works_or_refuses(lambda: svg.board(BOARDS["duo"], size=x))[0] == (pixels or x is None)  # type: ignore[arg-type]


DTYPES = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float32,
    np.float64,
    np.bool_,
]


@FUZZ
@given(
    st.sampled_from(DTYPES).flatmap(
        lambda dtype: hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=5))
    ),
    st.booleans(),
)
def test_arrays_as_actions_and_reset_masks(array: np.ndarray[Any, Any], legal: bool) -> None:
    env = BatchEnv("duo", 4, threads=1)
    if legal and array.shape == (4,) and array.dtype.kind in "iu" and array.dtype.itemsize >= 4:
        array = env.legal_action_mask.argmax(axis=1).astype(array.dtype)
    before = env.observation.copy(), env.current_color.copy()
    ok, e = works_or_refuses(lambda: env.step(array))
    if ok:
        assert array.dtype.kind in "iu" and array.shape == (4,)
    else:
        assert (env.observation == before[0]).all() and (env.current_color == before[1]).all()
        if array.dtype.kind not in "iu":
            assert isinstance(e, errors.InvalidTypeError)
    ok, e = works_or_refuses(lambda: env.reset(array))
    flags = array.dtype.kind == "b" or (array.dtype.kind in "iu" and bool(np.isin(array, (0, 1)).all()))
    assert ok == (flags and array.shape == (4,)), (array, e)


def test_huge_sizes_end_in_errors_within_a_memory_limit() -> None:
    code = """
        import random, resource
        resource.setrlimit(resource.RLIMIT_AS, (1500 << 20, 1500 << 20))
        import blokus
        from blokus.rl import BatchEnv
        rng = random.Random(7)
        sizes = [2**k for k in range(20, 80, 3)] + [rng.randrange(2 ** rng.randrange(14, 90)) for _ in range(25)]
        for variant in ("duo", "classic", "trigon"):
            for size in sizes:
                try:
                    BatchEnv(variant, size, threads=rng.randrange(1, 300))
                    print("ok")
                except (MemoryError, blokus.BlokusError) as e:
                    print(type(e).__name__)
        for games, threads in [(10**12, 2**40), (2**64, 1), (-1, 1), (3, 2**8), (3, 2**8 + 1)]:
            try:
                blokus.selfplay("duo", games=games, threads=threads)
                print("ok")
            except blokus.BlokusError as e:
                print(type(e).__name__)
    """
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300, check=False
    )
    assert r.returncode == 0, r.stderr[-2000:]
    results = r.stdout.split()
    assert set(results) <= {"ok", "MemoryError", "InvalidArgumentError"}, results
    assert results[-5:] == ["InvalidArgumentError"] * 3 + ["ok", "InvalidArgumentError"]


#: Junk a spec's fields are replaced with, nastier than that of test_properties.
junk = st.one_of(
    numbers,
    st.sampled_from([float("nan"), float("inf"), 1e400, 2**80, -(2**80)]),
    st.lists(numbers, max_size=3),
    st.dictionaries(st.text(max_size=3), numbers, max_size=2),
    st.integers(10, 200).map(lambda depth: json.loads("[" * depth + "]" * depth)),
    st.integers(10, 100).map(lambda n: "x" * n * 100),
    st.just([["a1"] * 5000]),
)


def mutate(value: Any, data: st.DataObject) -> Any:
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        out = dict(value)
        out[key] = mutate(value[key], data) if data.draw(st.booleans()) else data.draw(junk)
        return out
    if isinstance(value, list) and value and data.draw(st.booleans()):
        out_list = list(value)
        i = data.draw(st.integers(0, len(value) - 1))
        out_list[i] = mutate(value[i], data)
        return out_list
    return data.draw(junk)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(blokus.variants()), st.data())
def test_nasty_specs_validate_or_name_the_field(variant: str, data: st.DataObject) -> None:
    spec = mutate(Variant(variant).spec, data)
    if not isinstance(spec, dict):
        return
    spec["id"] = "fuzzed"
    ok, e = works_or_refuses(lambda: Variant(spec))
    if not ok:
        assert isinstance(e, errors.InvalidVariantError)
        assert e.field is None or str(e).startswith(e.field[:20]), (e.field, str(e))
        return
    b = Board(Variant(spec))
    assert b.variant.num_placements > 0 and b.perft(1) == len(b.legal_moves) > 0


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=40), numbers.map(str)))
def test_command_line_numbers_parse_or_say_why(text: str) -> None:
    for parse in (cli._count, cli._seed, cli._threads, cli._seconds, cli._integer(1, 100_000)):
        try:
            value = parse(text)
        except argparse.ArgumentTypeError as e:
            assert 0 < len(str(e)) < MESSAGE
            continue
        assert isinstance(value, (int, float)) and math.isfinite(value) and value >= 0


@settings(max_examples=25, deadline=None)
@given(st.one_of(st.text(max_size=12), numbers.map(str)), st.one_of(st.text(max_size=12), numbers.map(str)))
def test_command_lines_exit_0_or_2_with_one_line(seed: str, threads: str) -> None:
    # No games: a valid command line does no work.
    argv = ["selfplay", "--games", "0", "--variant", "duo", "--seed", seed, "--threads", threads]
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code  # type: ignore[assignment]
    assert code in (0, 2)


@pytest.mark.parametrize("size", ["0", "-3", "nan", "1e9", "abc", "", "9" * 40])
def test_render_sizes_exit_2(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["render", "--size", size, "duo 14/14/14/14/14/14/14/14/14/14/14/14/14/14 p -"])
    assert e.value.code == 2 and capsys.readouterr().err.count("\n") == 1
