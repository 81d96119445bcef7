"""Every bad input is a clear error (issue #18): a test per family of inputs a hostile user
tries. The contract: an exception of `blokus.errors` (a `BlokusError`, and a `ValueError`, or a
`TypeError` for a wrong type) whose message says what and where in a few hundred characters;
no abort, panic, hang or unbounded growth; the board unchanged after any failed call.

What could kill the interpreter (huge sizes) runs in a child process with a memory limit, which
must exit normally having printed the exception it got."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest

import blokus
from blokus import Board, Move, Variant, errors, sgf, svg
from blokus.cli import main
from blokus.rl import BatchEnv, observation

#: Well under the few hundred characters the contract allows, for any input.
MESSAGE = 300


E = TypeVar("E", bound=BaseException)


def refused(call: Callable[[], object], cls: type[E]) -> E:
    """The error ``call`` raises: of ``cls``, a BlokusError, a ValueError (a TypeError too for
    InvalidTypeError), with a short message."""
    with pytest.raises(cls) as info:
        call()
    e = info.value
    assert isinstance(e, errors.BlokusError) and isinstance(e, ValueError), repr(e)
    assert 0 < len(str(e)) < MESSAGE, str(e)[:500]
    return e


def in_child(code: str, memory_mb: int = 1500) -> list[str]:
    """Runs ``code`` in a fresh interpreter limited to ``memory_mb`` of address space; it must
    exit normally. Its output lines."""
    limit = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({memory_mb} << 20, {memory_mb} << 20))\n"
    r = subprocess.run(
        [sys.executable, "-c", limit + textwrap.dedent(code)], capture_output=True, text=True, timeout=300, check=False
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.splitlines()


def unchanged(b: Board) -> Callable[[], None]:
    """A check that ``b`` is as it is now."""
    before = (b.copy(), b.bpn(), b.zobrist_hash(), b.legal_moves.ids().tolist())

    def check() -> None:
        assert (b.copy(), b.bpn(), b.zobrist_hash(), b.legal_moves.ids().tolist()) == before

    return check


# --- crashes and panics: sizes are checked before allocating ---


def test_batches_too_large_for_memory_are_errors_not_aborts() -> None:
    out = in_child(
        """
        import blokus
        from blokus.rl import BatchEnv
        for variant, size in [("duo", 10**12), ("duo", 2**62), ("duo", 2**63), ("duo", 2**70), ("classic", 100_000)]:
            try:
                BatchEnv(variant, size)
                print("made")
            except BaseException as e:
                print(type(e).__name__)
        env = BatchEnv("duo", 4)  # and the interpreter goes on
        print(env.legal_action_mask.shape)
        """
    )
    assert out == [
        "MemoryError",
        "InvalidArgumentError",
        "InvalidArgumentError",
        "InvalidArgumentError",
        "MemoryError",
        "(4, 13729)",
    ]


def test_selfplay_bounds_threads_and_grows_with_the_games_done(monkeypatch: pytest.MonkeyPatch) -> None:
    e = refused(lambda: blokus.selfplay(games=10**12, threads=2**40), errors.InvalidArgumentError)
    assert "threads must be 1 to 256" in str(e)
    # A long run goes in slices: the first is small, and Ctrl-C stops it after any.
    calls: list[int] = []
    real = blokus._blokus.selfplay_games

    def counted(*args: Any) -> Any:
        calls.append(args[2])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(blokus._blokus, "selfplay_games", counted)
    with pytest.raises(KeyboardInterrupt):
        blokus.selfplay("duo", games=10**12, threads=2)
    assert calls[0] == 128 and calls[1] <= blokus._blokus.MAX_GAMES_PER_CALL


def test_many_threads_play_within_a_memory_limit() -> None:
    out = in_child(
        """
        import blokus
        r = blokus.selfplay("duo", games=300, seed=1, threads=256)
        s = blokus.selfplay("duo", games=300, seed=1, threads=1)
        print((r.points == s.points).all())
        """,
        memory_mb=2500,
    )
    assert out == ["True"]


def test_read_only_outputs_are_an_error_and_the_batch_is_unchanged() -> None:
    env = BatchEnv("duo", 3, threads=1)
    actions = env.legal_action_mask.argmax(axis=1)
    base = env.current_player.base
    assert isinstance(base, np.ndarray)
    base.flags.writeable = False
    e = refused(lambda: env.step(actions), errors.BlokusError)
    assert "current_player" in str(e) and "read-only" in str(e)
    refused(lambda: env.reset(), errors.BlokusError)
    base.flags.writeable = True
    env.step(actions)  # the failed step played nothing: the same actions are legal
    assert (env.current_color == 1).all()


# --- hangs: long calls stop on Ctrl-C; sizes are checked first ---


def test_perft_stops_on_ctrl_c() -> None:
    out = in_child(
        """
        import os, signal
        import blokus
        signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.SIGINT))
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        try:
            blokus.Board("classic").perft(10)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    assert out == ["interrupted"]


@pytest.mark.parametrize("depth", [-1, 2**32, 10**40, 85])
def test_perft_depths_are_bounded(depth: int) -> None:
    e = refused(lambda: Board("classic").perft(depth), errors.InvalidArgumentError)
    assert "perft depth must be 0 to 84" in str(e)
    refused(lambda: Board("classic").perft(True), errors.InvalidTypeError)


def test_perft_at_the_bound_of_a_short_game_counts() -> None:
    tiny = Variant(
        {
            "id": "tiny",
            "board": {"geometry": "square", "width": 3, "height": 3},
            "colors": ["A", "B"],
            "players": [[0], [1]],
            "start_points": [["a1"], ["c3"]],
            "pieces": {"only": ["1", "2"]},
        }
    )
    b = Board(tiny)
    assert tiny.max_plies == 4
    assert b.perft(4) == sum(1 for _ in _sequences(b, 4))


def _sequences(b: Board, depth: int) -> list[list[Move]]:
    if depth == 0:
        return [[]]
    out = []
    for m in list(b.legal_moves):
        b.push(m)
        out += [[m, *rest] for rest in _sequences(b, depth - 1)]
        b.pop()
    return out


def spec(**changes: object) -> dict[str, Any]:
    s = Variant("duo").spec
    s.update(changes)
    s["id"] = "mine"
    return s


def test_huge_lists_in_specs_are_refused_before_they_are_read() -> None:
    holes = {"geometry": "square", "width": 14, "height": 14}
    e = refused(lambda: Variant(spec(board={**holes, "holes": ["a1"] * 1_000_000})), errors.InvalidVariantError)
    assert str(e) == "board.holes: 1000000 items; no list of a spec has more than 4096"
    e = refused(lambda: Variant(spec(board={**holes, "holes": ["a1"] * 4096})), errors.InvalidVariantError)
    assert str(e) == "board.holes: 4096 holes, but the 14x14 board has only 196 cells"
    e = refused(lambda: Variant(spec(board={**holes, "holes": ["a1", "b2", "a1"]})), errors.InvalidVariantError)
    assert str(e) == "board.holes: a1 is listed twice"
    e = refused(
        lambda: Variant(spec(shared_start_points=None, start_points=[["e10"] * 197, ["j5"]])),
        errors.InvalidVariantError,
    )
    assert str(e) == "start_points[0]: 197 start points, but the board has only 196 cells"
    e = refused(lambda: Variant(spec(start_points=[["e10", "e10"], ["j5"]])), errors.InvalidVariantError)
    assert str(e) == "start_points[0]: e10 is listed twice"
    e = refused(lambda: Variant(spec(pieces={"only": ["X"] * 4000})), errors.InvalidVariantError)
    assert str(e) == 'pieces.only: "X" is listed twice; use pieces.copies'


# --- wrong answers ---


@pytest.mark.parametrize("field", ["all_placed", "last_monomino"])
def test_bonuses_are_bounded(field: str) -> None:
    for bonus in (1001, 2**31, 2**32 - 1):
        e = refused(partial(Variant, spec(bonus={field: bonus})), errors.InvalidVariantError)
        assert isinstance(e, errors.InvalidVariantError) and e.field == f"bonus.{field}"
        assert "a bonus is 0 to 1000 points" in str(e)
    refused(lambda: Variant(spec(bonus={field: -1})), errors.InvalidVariantError)
    assert Variant(spec(bonus={field: 1000})).spec["bonus"][field] == 1000


INTEGERS = [np.int64, np.int32, np.uint16, np.uint64, int]


@pytest.mark.parametrize("kind", INTEGERS)
def test_any_integer_is_a_placement_id(kind: Callable[[int], Any]) -> None:
    b = Board("duo")
    ids = b.legal_moves.ids()
    first = kind(ids[0])
    assert first in b.legal_moves and b.is_legal(first) and b.why_illegal(first) is None
    assert Move(b.variant, first).id == int(ids[0])
    assert kind(13728) not in b.legal_moves  # a placement, but not legal here
    b.push(first)
    assert b.ply == 1 and b.peek().id == int(ids[0])
    game = sgf.Game("duo")
    game.add_variation(first)


@pytest.mark.parametrize("move", [True, False, np.True_, 1.0, np.float64(3), 12.7, [1], None, b"e10"])
def test_bools_floats_and_others_are_no_move(move: object) -> None:
    b = Board("duo")
    check = unchanged(b)
    assert move not in b.legal_moves
    refused(lambda: b.push(move), errors.InvalidTypeError)  # type: ignore[arg-type]
    refused(lambda: b.is_legal(move), errors.InvalidTypeError)  # type: ignore[arg-type]
    refused(lambda: Move(b.variant, move), errors.InvalidTypeError)  # type: ignore[arg-type]
    check()


def test_boards_of_equal_variants_are_equal_however_many_specs_were_built() -> None:
    first = Board(Variant(spec()), ["e10"])
    for k in range(70):  # more than the tables cache holds
        Variant(spec(id=f"other{k}"))
    again = Board(Variant(spec()), ["e10"])
    assert first == again and first.move_stack == again.move_stack
    assert first.zobrist_hash() == again.zobrist_hash()


@pytest.mark.parametrize(
    ("actions", "cls"),
    [
        (lambda ids: ids + 0.7, errors.InvalidTypeError),
        (lambda ids: ids.astype(np.float32), errors.InvalidTypeError),
        (lambda ids: ids > 0, errors.InvalidTypeError),
        (lambda ids: ids.astype(str), errors.InvalidTypeError),
        (lambda ids: ids.astype(object).astype(complex), errors.InvalidTypeError),
        (lambda ids: ids[:2], errors.InvalidArgumentError),
        (lambda ids: np.stack([ids, ids]), errors.InvalidArgumentError),
        (lambda ids: np.full(4, 2**64 - 1, dtype=np.uint64), errors.InvalidArgumentError),
        (lambda ids: np.full(4, -1), errors.IllegalMoveError),
        (lambda ids: np.full(4, 10**6), errors.IllegalMoveError),
    ],
)
def test_batch_actions_are_integers_of_the_right_shape(
    actions: Callable[[np.ndarray[Any, Any]], Any], cls: type[BaseException]
) -> None:
    env = BatchEnv("duo", 4, threads=1)
    ids = env.legal_action_mask.argmax(axis=1)
    before = env.observation.copy(), env.current_color.copy()
    refused(lambda: env.step(actions(ids)), cls)
    assert (env.observation == before[0]).all() and (env.current_color == before[1]).all()
    env.step(ids.astype(np.uint16))  # any integer dtype is fine
    assert (env.current_color == 1).all()


def test_batch_reset_masks_are_flags() -> None:
    env = BatchEnv("duo", 4, threads=1)
    refused(lambda: env.reset(np.array(["a"] * 4)), errors.InvalidTypeError)
    refused(lambda: env.reset(np.array([0.5] * 4)), errors.InvalidTypeError)
    refused(lambda: env.reset(np.array([0, 1, 2, 0])), errors.InvalidArgumentError)
    refused(lambda: env.reset([True, False]), errors.InvalidArgumentError)
    env.step(env.legal_action_mask.argmax(axis=1))
    env.reset([1, 0, 0, 1])
    assert env.current_color.tolist() == [0, 1, 1, 0]


def test_adapters_refuse_non_integer_actions() -> None:
    from blokus.rl.gymnasium import BlokusVectorEnv
    from blokus.rl.pettingzoo import env as pettingzoo_env

    pz = pettingzoo_env("duo")
    pz.reset()
    first = pz.board.legal_moves.ids()[0]
    refused(lambda: pz.step(float(first) + 0.7), errors.InvalidTypeError)  # type: ignore[arg-type]
    refused(lambda: pz.step(True), errors.InvalidTypeError)
    assert pz.board.ply == 0
    pz.step(np.int64(first))  # type: ignore[arg-type]
    assert pz.board.ply == 1
    gym = BlokusVectorEnv("duo", num_envs=2)
    _, infos = gym.reset()
    ids = infos["action_mask"].argmax(axis=1)
    refused(lambda: gym.step(ids + 0.7), errors.InvalidTypeError)
    gym.step(ids)


def test_colours_and_cells_are_checked() -> None:
    b = Board("duo")
    for color in (-1, 2, 5, 2**70):
        refused(partial(b.pieces_left, color), errors.InvalidArgumentError)
        refused(partial(b.has_move, color), errors.InvalidArgumentError)
        refused(partial(observation, b, color), errors.InvalidArgumentError)
    refused(lambda: b.pieces_left(True), errors.InvalidTypeError)
    assert len(b.pieces_left(np.int64(1))) == 21  # type: ignore[arg-type]
    for cell in (-1, 196, 10**30):
        refused(partial(b.variant.cell_name, cell), errors.InvalidArgumentError)
    refused(lambda: b.variant.cell_index(5), errors.InvalidTypeError)  # type: ignore[arg-type]
    refused(lambda: b.variant.cells_text([0, 1.5]), errors.InvalidTypeError)  # type: ignore[list-item]
    refused(lambda: b.heights(), errors.InvalidArgumentError)


def test_specs_without_a_game_are_refused() -> None:
    board = {"geometry": "square", "width": 2, "height": 2}
    e = refused(
        lambda: Variant(spec(board=board, start_points=None, shared_start_points=["a1"], pieces={"only": ["X"]})),
        errors.InvalidVariantError,
    )
    assert e.field == "pieces"
    assert str(e) == "pieces: no piece fits the board of 4 cells"
    # Dominoes fit, but none covers a1, walled in by holes.
    walled = {**board, "width": 4, "holes": ["b1", "a2"]}
    e = refused(
        lambda: Variant(spec(board=walled, start_points=None, shared_start_points=["a1"], pieces={"only": ["2"]})),
        errors.InvalidVariantError,
    )
    assert e.field == "start_points"


# --- wrong errors and unclear messages ---


@pytest.mark.parametrize(
    "call",
    [
        lambda: blokus.selfplay("duo", games=1, threads=0),
        lambda: blokus.selfplay("duo", games=-1),
        lambda: blokus.selfplay("duo", games=1, seed=-1),
        lambda: blokus.selfplay("duo", games=1, seed=2**64),
        lambda: blokus.selfplay("duo", games=1, policy="fancy"),
        lambda: BatchEnv("duo", 0),
        lambda: BatchEnv("duo", 2, threads=0),
        lambda: BatchEnv("duo", 2).step([0, 0, 0]),
        lambda: BatchEnv("duo", 2).reset([True]),
        lambda: Board("duo").perft(-1),
        lambda: Board("duo").perft(2**32),
        lambda: observation(Board("duo"), 5),
        lambda: Board("duo").heights(),
        lambda: Board("duo").pieces_left(5),
        lambda: Variant("duo").cell_name(196),
        lambda: blokus.selfplay("duo", games=2, keep_moves=True).board(2),
    ],
)
def test_range_checks_are_blokus_errors(call: Callable[[], object]) -> None:
    refused(call, errors.InvalidArgumentError)


@pytest.mark.parametrize("move", [2**32, 2**64, -1, 10**40, 13729])
def test_ids_out_of_range_are_invalid_moves_everywhere(move: int) -> None:
    b = Board("duo")
    for call in (b.push, b.is_legal, b.why_illegal, lambda m: Move(b.variant, m)):
        refused(partial(call, move), errors.InvalidMoveError)
    assert move not in b.legal_moves


SURROGATES = ["\ud800", "e10,\udfff", "e10,d11,e11,f11,e12\ud800"]


@pytest.mark.parametrize("text", SURROGATES)
def test_lone_surrogates_are_invalid_moves(text: str) -> None:
    b = Board("duo")
    check = unchanged(b)
    for call in (b.parse_move, b.push, b.is_legal, b.why_illegal, lambda t: Move.from_text("duo", t)):
        e = refused(partial(call, text), errors.InvalidMoveError)
        assert isinstance(e, errors.InvalidMoveError) and "lone surrogate" in str(e)
        assert e.text == text and e.index == text[: text.index(next(c for c in text if c >= "\ud800"))].count(",")
    assert text not in b.legal_moves
    assert True not in b.legal_moves
    position = refused(lambda: Board.from_bpn(f"3d_tower a1@1,{text}/-/-/- y -"), errors.InvalidPositionError)
    assert "lone surrogate" in str(position)
    check()


def test_lone_surrogates_elsewhere_are_blokus_errors() -> None:
    refused(lambda: Variant("duo\ud800"), errors.UnknownVariantError)
    refused(lambda: Board("duo").points("\ud800"), errors.InvalidArgumentError)
    refused(lambda: blokus.selfplay("duo", games=1, policy="\ud800"), errors.InvalidArgumentError)
    refused(lambda: svg.board(Board("duo"), view="\ud800"), errors.InvalidArgumentError)
    refused(lambda: Board.from_bpn("\ud800 14 p -"), errors.InvalidPositionError)
    refused(lambda: Variant(spec(colors=["\ud800", "b"])), errors.InvalidVariantError)


def test_long_text_gives_short_messages() -> None:
    b = Board("duo")
    for text in ["x" * 10_000_000, "a1," * 1_000_000, "e10," + "e" * 10**6]:
        refused(partial(b.push, text), errors.InvalidMoveError)
        refused(partial(b.parse_move, text), errors.InvalidMoveError)
    refused(lambda: Variant("x" * 10**6), errors.UnknownVariantError)
    refused(lambda: Variant(dict(spec(), id="a" * 10**6)), errors.InvalidVariantError)
    refused(lambda: Variant(spec(colors=["a" * 10**6, "b"])), errors.InvalidVariantError)
    refused(lambda: Variant(spec(**{"x" * 10**6: 1})), errors.InvalidVariantError)
    refused(lambda: Variant(spec(**{"x" * 10**6: float("nan")})), errors.InvalidVariantError)
    refused(lambda: Board.from_bpn("duo " + "p" * 10**6 + " o -"), errors.InvalidPositionError)
    refused(lambda: Board.from_bpn("duo 14 o - " + "x" * 10**6), errors.InvalidPositionError)


def nested(depth: int) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for _ in range(depth):
        d = {"x": d}
    return d


def test_deep_specs_are_invalid_variants(tmp_path: Path) -> None:
    e = refused(lambda: Variant(spec(board=nested(100_000))), errors.InvalidVariantError)
    assert "nested more than 16 levels deep" in str(e)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    refused(lambda: Variant.from_file(deep), errors.InvalidVariantError)
    toml = tmp_path / "deep.toml"
    toml.write_text("x = " + "[" * 100_000 + "]" * 100_000)
    refused(lambda: Variant.from_file(toml), errors.InvalidVariantError)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"pieces": []}, "pieces", "pieces: expected a table (an object) of fields, found a list"),
        ({"bonus": []}, "bonus", "bonus: expected a table (an object) of fields, found a list"),
        ({"board": [1, 2]}, "board", "board: expected a table"),
        ({"scoring": 1}, "scoring", "scoring: invalid type: integer `1`, expected a string"),
        ({"scoring": float("nan")}, "scoring", "scoring: nan is not a finite number"),
        ({"scoring": 1e400}, "scoring", "scoring: inf is not a finite number"),
        ({"player_score": "worst"}, "player_score", 'player_score: unknown value "worst" (known: sum, best)'),
        ({"blocked": None, "scoring": True}, "scoring", "scoring: invalid type: boolean `true`"),
        ({"players": [[0], [2**70]]}, "players[1][0]", "players[1][0]: a 71-bit number is out of range"),
        ({"colors": {"a": 1}}, "colors", "colors: invalid type: map"),
        ({"sgf_name": ""}, "sgf_name", "sgf_name: empty"),
        ({"name": "a" * 101}, "name", "longer than 100 characters"),
        ({1: 2}, None, "variant spec: field names are str, not int"),
        ({"extra": object()}, "extra", "extra: object is not plain data"),
    ],
)
def test_bad_fields_are_named(changes: dict[Any, Any], field: str | None, message: str) -> None:
    e = refused(lambda: Variant(spec(**changes) if 1 not in changes else changes), errors.InvalidVariantError)
    assert isinstance(e, errors.InvalidVariantError) and e.field == field
    assert message in str(e)


def test_a_variant_without_a_game_name_says_so_in_sgf() -> None:
    v = Variant({k: value for k, value in spec().items() if k != "sgf_name"})
    e = refused(lambda: sgf.loads("(;GM[Blokus Duo];B[e10])", v), errors.SgfError)
    assert "has no SGF game name (set sgf_name in its spec)" in str(e) and "None" not in str(e)
    refused(lambda: sgf.Game(v), errors.SgfError)


def test_a_batch_stepped_by_two_threads_is_busy_not_already_borrowed() -> None:
    env = BatchEnv("classic", 64, threads=1)
    seen: list[BaseException] = []

    def play() -> None:
        for _ in range(80):
            try:
                if env.terminated.all():
                    env.reset()
                env.step(env.legal_action_mask.argmax(axis=1))
            except errors.IllegalMoveError:
                pass  # the other thread stepped between reading the mask and stepping
            except BaseException as e:  # noqa: BLE001 - every other error is the test's finding
                seen.append(e)

    threads = [threading.Thread(target=play) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(e, errors.BusyError) for e in seen), seen
    assert all("in use by another thread" in str(e) for e in seen)


def test_a_board_counted_in_one_thread_plays_on_in_another() -> None:
    b = Board("classic")
    counts: list[int] = []
    counter = threading.Thread(target=lambda: counts.append(b.copy().perft(3)))
    perft_on_board = threading.Thread(target=lambda: counts.append(b.perft(3)))
    counter.start()
    perft_on_board.start()
    played = 0
    while perft_on_board.is_alive() and played < 200:
        b.push(next(iter(b.legal_moves)))
        b.pop()
        played += 1
    counter.join()
    perft_on_board.join()
    assert counts == [counts[0]] * 2 and b.ply == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["selfplay", "--games", "-1"],
        ["selfplay", "--threads", "0"],
        ["selfplay", "--threads", "100000"],
        ["selfplay", "--seed", "-1"],
        ["selfplay", "--seed", "18446744073709551616"],
        ["selfplay", "--games", "9" * 5000],
        ["bench", "--seconds", "nan"],
        ["bench", "--seconds", "-1"],
        ["bench", "--seconds", "inf"],
        ["render", "--size", "-1", "duo 14/14/14/14/14/14/14/14/14/14/14/14/14/14 p -"],
        ["render", "--size", "0", "duo 14/14/14/14/14/14/14/14/14/14/14/14/14/14 p -"],
        ["render", "--move", "-1", "game.blksgf"],
        ["gtp", "--seconds", "nan"],
        ["gtp", "--threads", "0"],
    ],
)
def test_bad_command_line_arguments_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < MESSAGE, err


def test_deep_spec_files_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(spec())[:-1] + ', "board": ' + "[" * 50_000 + "]" * 50_000 + "}")
    assert main(["selfplay", "--variant", str(deep), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err


@pytest.mark.parametrize(
    "color", ['red"/><script>alert(1)</script>', "url(#x)", "#12", "", "red;", "rgb(1,2,3)) x", 5, None]
)
def test_svg_colours_are_colours(color: object) -> None:
    b = Board("duo", ["e10"])
    cls = errors.InvalidTypeError if not isinstance(color, str) else errors.InvalidArgumentError
    refused(lambda: svg.board(b, colors=[color, "blue"]), cls)  # type: ignore[list-item]
    refused(lambda: svg.board(b, colors={0: color}), cls)  # type: ignore[dict-item]


@pytest.mark.parametrize("size", [0, -1, 0.5, float("nan"), float("inf"), 10**9, True, "300"])
def test_svg_sizes_are_pixels(size: object) -> None:
    cls = errors.InvalidTypeError if isinstance(size, (bool, str)) else errors.InvalidArgumentError
    refused(lambda: svg.board(Board("duo"), size=size), cls)  # type: ignore[arg-type]


def test_good_svg_colours_and_sizes_draw() -> None:
    b = Board("duo", ["e10"])
    for color in ["#abc", "#aabbcc", "#aabbccdd", "rebeccapurple", "rgb(1, 2, 3)", "hsla(120, 50%, 50%, 0.5)"]:
        assert f'fill="{color}"' in svg.board(b, colors={"Purple": color}, size=150.5)


# --- pickling and copies, hash and the position key ---


def _objects() -> list[object]:
    b = Board("duo", ["e10", "j5", "f9,f8"])
    ended = blokus.selfplay("duo", games=1, seed=3, keep_moves=True).board(0)
    mine = Variant(spec(bonus={"all_placed": 3}))
    return [
        b,
        Board("3d_tower", ["a1@1,b1@1"]),
        Board.from_setup("3d_tower", [["a1@1,b1@1"], [], ["a1@2,b1@2,b1@3"]], turn=1, out=[1]),
        Board.from_setup("duo", [["e10"], ["j5"]], turn=1),
        Board(mine, ["e10"]),
        b.peek(),
        Move(mine, 5),
        b.variant,
        mine,
        b.variant.pieces[7],
        ended.outcome(),
        blokus.selfplay("junior", games=3, seed=2, keep_moves=True),
    ]


@pytest.mark.parametrize("obj", _objects(), ids=lambda o: type(o).__name__)
def test_objects_pickle_and_deep_copy_to_equal_objects(obj: object) -> None:
    for again in (pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj), copy.copy(obj)):
        assert again == obj and type(again) is type(obj)
        if isinstance(obj, Board):
            assert isinstance(again, Board)
            assert again.bpn() == obj.bpn() and again.zobrist_hash() == obj.zobrist_hash()
            assert again.move_stack == obj.move_stack and again.out == obj.out


def test_games_pickle_and_deep_copy_node_for_node() -> None:
    game = sgf.loads("(;GM[Blokus Duo]PB[Ann]XX[kept];B[e10](;W[j5];B[f9,f8]C[a])(;W[j6,j5]))")
    node = game.children[0].children[1]
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert isinstance(again, sgf.Game)
        assert sgf.dumps(again) == sgf.dumps(game) and again.end().board() == game.end().board()
        lines = [(n.line, n.column) for n, _ in again.walk()]
        assert lines == [(n.line, n.column) for n, _ in game.walk()]
    copied = pickle.loads(pickle.dumps(node))
    assert copied.move == node.move and copied.board() == node.board()
    deep = sgf.Game("duo")
    end: sgf.Node = deep
    for move in blokus.selfplay("duo", games=1, seed=1, keep_moves=True).moves[0]:  # type: ignore[index]
        end = end.add_variation(move)
    assert sgf.dumps(pickle.loads(pickle.dumps(deep))) == sgf.dumps(deep)


def test_errors_pickle_with_their_fields() -> None:
    with pytest.raises(errors.IllegalMoveError) as e:
        Board("duo", ["e10"]).push("e10,e11")
    again = pickle.loads(pickle.dumps(e.value))
    assert type(again) is errors.IllegalMoveError and str(again) == str(e.value)
    assert (again.reason, again.cell, again.move, again.color) == ("overlap", "e10", "e10,e11", 1)


def test_boards_are_unhashable_and_have_a_position_key() -> None:
    b = Board("duo", ["e10"])
    with pytest.raises(TypeError):
        hash(b)
    with pytest.raises(TypeError):
        _ = {b}
    same = Board.from_setup("duo", [["e10"], []], turn=1)
    assert same.zobrist_hash() == b.zobrist_hash() and same != b  # same position, other history
    # The key covers what the cells do not say: the last piece, the pieces in hand (Blokus 3D).
    x_last = Board.from_setup("duo", [["e10", "f9,f8"], []], turn=1)
    i2_last = Board.from_setup("duo", [["f9,f8", "e10"], []], turn=1)
    assert x_last.bpn() != i2_last.bpn() and x_last.zobrist_hash() != i2_last.zobrist_hash()
    one = Board.from_setup("3d_tower", [["a1@1,b1@1,c1@1", "a1@2,b1@2"], [], [], []], turn=1)  # I3, I2
    other = Board.from_setup("3d_tower", [["a1@1,a1@2,b1@2", "b1@1,c1@1"], [], [], []], turn=1)  # V3, I2
    assert one.cell_colors() == other.cell_colors() and one.zobrist_hash() != other.zobrist_hash()
    # The same from run to run.
    code = "import blokus; print(blokus.Board('duo', ['e10']).zobrist_hash())"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(child.stdout) == b.zobrist_hash()


# --- typed errors across the boundary ---


def test_the_engine_raises_the_classes_of_blokus_errors_with_fields() -> None:
    b = Board("duo", ["e10"])
    illegal = refused(lambda: b.push("e10,e11"), errors.IllegalMoveError)
    assert type(illegal) is errors.IllegalMoveError
    assert (illegal.reason, illegal.cell, illegal.move, illegal.color) == ("overlap", "e10", "e10,e11", 1)
    illegal = refused(lambda: b.push("a1"), errors.IllegalMoveError)
    assert (illegal.reason, illegal.cell) == ("no_start_point", None)
    invalid = refused(lambda: b.push("j5,zz1,j6"), errors.InvalidMoveError)
    assert type(invalid) is errors.InvalidMoveError
    assert (invalid.text, invalid.index, invalid.reason) == ("j5,zz1,j6", 1, "item 2 (zz1) is not a cell of this board")
    spec_error = refused(lambda: Variant(spec(players=[[0], [0]])), errors.InvalidVariantError)
    assert type(spec_error) is errors.InvalidVariantError and spec_error.field == "players[1]"
    setup = refused(lambda: Board.from_setup("duo", [["e10", "e10,e11"]]), errors.InvalidPositionError)
    assert (setup.kind, setup.placement) == ("overlap", (0, 1))
    env = BatchEnv("duo", 2, threads=1)
    step = refused(lambda: env.step([env.legal_action_mask[0].argmax(), 99_999]), errors.IllegalMoveError)
    assert (step.game, step.reason, step.move) == (1, "no_placement", None)
    step = refused(lambda: env.step([0, env.legal_action_mask[1].argmax()]), errors.IllegalMoveError)
    assert (step.game, step.reason, step.move) == (0, "no_start_point", "a1")
