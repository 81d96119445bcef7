"""RL interfaces: the batch environment and its observations (the adapters: test_rl_gymnasium.py,
test_rl_pettingzoo.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np
import pytest

import blokus
from blokus.errors import IllegalMoveError, InvalidArgumentError
from blokus.rl import BatchEnv, observation

if TYPE_CHECKING:
    import numpy.typing as npt


def random_actions(env: BatchEnv, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(env.batch_size, dtype=np.int64)
    for g, mask in enumerate(env.legal_action_mask):
        legal = np.flatnonzero(mask)
        if legal.size:
            out[g] = rng.choice(legal)
    return out


@pytest.mark.parametrize("variant", ["duo", "classic_3", "trigon_3", "3d_pyramid_2x2"])
def test_batch_env_matches_boards(variant: str) -> None:
    env = BatchEnv(variant, batch_size=6, threads=2)
    boards = [blokus.Board(variant) for _ in range(6)]
    rng = np.random.default_rng(5)
    seen_end = np.zeros(6, dtype=bool)
    step = 0
    while not env.terminated.all():
        step += 1
        if step in (5, 9, 14):
            # Some games start again mid-way: their mask rows must lose every old id.
            which = rng.random(6) < 0.5
            env.reset(which)
            for reset in np.flatnonzero(which).tolist():
                boards[reset] = blokus.Board(variant)
        for g, b in enumerate(boards):
            assert env.terminated[g] == b.is_game_over()
            assert env.current_color[g] == (-1 if b.turn is None else b.turn)
            assert env.current_player[g] == (-1 if b.player is None else b.player)
            assert set(np.flatnonzero(env.legal_action_mask[g]).tolist()) == set(b.legal_moves.ids().tolist())
            assert (env.observation[g] == observation(b)).all()
        actions = random_actions(env, rng)
        for g, b in enumerate(boards):
            if not b.is_game_over():
                b.push(int(actions[g]))
        env.step(actions)
        for g, b in enumerate(boards):
            if b.is_game_over() and not seen_end[g]:
                seen_end[g] = True
                o = b.outcome()
                assert o is not None
                expected = [
                    (1.0 if len(o.winners) == 1 else 0.0) if p in o.winners else -1.0
                    for p in range(b.variant.num_players)
                ]
                assert env.rewards[g].tolist() == expected
            elif not b.is_game_over():
                assert not env.rewards[g].any()
    assert seen_end.all() and not env.truncated.any()


def test_batch_env_outputs_are_read_only() -> None:
    env = BatchEnv("duo", batch_size=2, threads=1)
    for name in [
        "observation",
        "legal_action_mask",
        "rewards",
        "current_player",
        "current_color",
        "terminated",
        "truncated",
    ]:
        array = getattr(env, name)
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
    mask = env.legal_action_mask.copy()
    mask[0] = False
    assert env.legal_action_mask[0].any()


def test_batch_env_rejects_illegal_actions_and_resets() -> None:
    env = BatchEnv("duo", batch_size=3, threads=1)
    before = env.observation.copy()
    legal = int(np.flatnonzero(env.legal_action_mask[0])[0])
    illegal = int(np.flatnonzero(~env.legal_action_mask[1])[0])
    with pytest.raises(IllegalMoveError, match="game 1"):
        env.step([legal, illegal, legal])
    assert (env.observation == before).all()
    env.step([legal, legal, legal])
    assert env.current_color.tolist() == [1, 1, 1]
    env.reset(np.array([False, True, False]))
    assert env.current_color.tolist() == [1, 0, 1]
    env.reset()
    assert (env.observation == before).all()


@pytest.mark.parametrize(
    "mask",
    [
        lambda env: env.terminated,
        lambda env: env.terminated[:],
        lambda env: np.asarray(env.terminated),
        lambda env: env.terminated.view(),
    ],
)
def test_the_terminated_array_resets_the_finished_games(mask: Callable[[BatchEnv], npt.ArrayLike]) -> None:
    env = BatchEnv("duo", batch_size=4, threads=1)
    rng = np.random.default_rng(5)
    # Every game played to its end, then two started again.
    while not env.terminated.all():
        env.step([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in env.legal_action_mask])
    env.reset([False, False, True, True])
    assert env.terminated.tolist() == [True, True, False, False]
    env.reset(mask(env))
    assert env.terminated.tolist() == [False] * 4
    assert [int(m.sum()) for m in env.legal_action_mask] == [414] * 4


def test_observation_is_from_the_movers_point_of_view() -> None:
    b = blokus.Board("duo", ["e10"])
    obs = observation(b)
    assert obs.shape == (2, 14, 14)
    # Orange to move: plane 0 is Orange (empty), plane 1 Purple with e10 (row 10 = index 4).
    assert obs[0].sum() == 0 and obs[1].sum() == 1 and obs[1, 14 - 10, 4] == 1


def test_a_variant_without_placements_is_refused() -> None:
    # A hexagon of edge 1 has no room for a six-triangle piece: no action at all, so no game
    # for any adapter to play.
    spec = {
        "id": "tiny",
        "board": {"geometry": "triangle", "edge": 1},
        "colors": ["A"],
        "players": [[0]],
        "shared_start_points": ["a1"],
        "pieces": {"only": ["I6"]},
    }
    with pytest.raises(blokus.InvalidVariantError, match="pieces: no piece fits the board of 6 cells") as e:
        blokus.Variant(spec)
    assert e.value.field == "pieces"


@pytest.mark.parametrize("variant", ["duo", "classic", "classic_3", "trigon_3", "3d_pyramid_2x2"])
def test_an_illegal_action_loses_its_game_as_in_pgx(variant: str) -> None:
    # Random actions, a third of them illegal ids, against boards played by hand: an illegal
    # one ends its game at once, -1 for its player and +(players - 1) for each other (pgx's
    # rule), while the other games step as usual and finished games ignore their action.
    n = 6
    env = BatchEnv(variant, batch_size=n, threads=2, illegal_action="lose")
    boards = [blokus.Board(variant) for _ in range(n)]
    lost: list[int | None] = [None] * n
    players = boards[0].variant.num_players
    rng = np.random.default_rng(7)
    seen_loss = False
    while not env.terminated.all():
        actions = random_actions(env, rng)
        illegal = rng.random(n) < 1 / 3
        actions[illegal] = rng.integers(0, env.num_actions, int(illegal.sum()))
        was_over = env.terminated.copy()
        for g, b in enumerate(boards):
            if was_over[g]:
                continue
            if b.is_legal(int(actions[g])):
                b.push(int(actions[g]))
            else:
                lost[g] = b.player
        env.step(actions)
        for g, b in enumerate(boards):
            if was_over[g]:
                assert env.terminated[g] and not env.rewards[g].any()
            elif (loser := lost[g]) is not None:
                seen_loss = True
                expected = [float(players - 1)] * players
                expected[loser] = -1.0
                assert env.rewards[g].tolist() == expected
                assert env.terminated[g] and env.current_player[g] == -1 and env.current_color[g] == -1
                assert not env.legal_action_mask[g].any()
            else:
                assert env.terminated[g] == b.is_game_over()
                assert env.current_player[g] == (-1 if b.player is None else b.player)
                assert set(np.flatnonzero(env.legal_action_mask[g]).tolist()) == set(b.legal_moves.ids().tolist())
                assert (env.rewards[g] != 0).any() == b.is_game_over()
            # A lost game keeps its board.
            assert (env.observation[g] == observation(b, 0 if env.terminated[g] else None)).all()
    assert seen_loss
    env.reset(np.array([g % 2 == 0 for g in range(n)]))
    assert env.terminated.tolist() == [g % 2 == 1 for g in range(n)]


def test_the_illegal_action_option_is_checked() -> None:
    with pytest.raises(InvalidArgumentError, match="illegal_action must be 'raise' or 'lose', not 'pass'"):
        BatchEnv("duo", 2, threads=1, illegal_action="pass")
    env = BatchEnv("duo", 2, threads=1, illegal_action="lose")
    # An id outside the action space is no illegal move but a wrong argument: refused either way.
    with pytest.raises(IllegalMoveError, match="game 1: action 13729 is not a legal placement: no placement"):
        env.step([130, env.num_actions])
    assert env.current_player.tolist() == [0, 0]


@pytest.mark.parametrize("variant", blokus.variants())
def test_no_game_asks_for_a_pass(variant: str) -> None:
    # The rules skip a colour that cannot move: an unfinished game always has a legal action.
    env = BatchEnv(variant, batch_size=2, threads=1)
    rng = np.random.default_rng(3)
    while not env.terminated.all():
        assert env.legal_action_mask[~env.terminated].any(axis=1).all()
        env.step(random_actions(env, rng))


def observations_table() -> list[list[str]]:
    """The rows of the observations page's table, computed from the library."""
    rows = []
    for vid in blokus.variants():
        v = blokus.Variant(vid)
        shape = BatchEnv(vid, 1, threads=1).observation.shape[1:]
        grid = int(np.prod(shape[1:]))
        rows.append(
            [
                f"`{vid}`",
                v.geometry,
                str(v.num_colors),
                str(v.num_players),
                f"`{shape}`",
                f"{v.num_cells} / {grid}",
                str(v.num_placements),
            ]
        )
    return rows


def test_the_observations_page_matches_the_library() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "guide" / "observations.md").read_text()
    table = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in page.splitlines()
        if re.match(r"\| `[a-z0-9_]+` \|", line)
    ]
    assert table == observations_table()
