"""The AlphaZero loop (blokus.rl.alphazero): the network's encoding, the searches that share the network's calls,
a few seconds of training that lower the loss, checkpoints that resume and play as a bot."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from blokus import Board
from blokus.bots import from_spec
from blokus.errors import InvalidArgumentError, InvalidBotSpecError
from blokus.rl import observation
from blokus.rl.alphazero import AzBot
from blokus.rl.alphazero.network import Encoding, Model, NetConfig, init, save
from blokus.rl.alphazero.selfplay import CountedNetwork, GuidedSearch, self_play_games
from blokus.rl.alphazero.trainer import ReplayBuffer, TrainConfig, Trainer
from blokus.variant import variant


def _games(e: Encoding, network: CountedNetwork, seeds: list[int], leaves: int, noise: float = 0.0) -> list[Board]:
    searches = [GuidedSearch(e, network, 8, seed, noise=noise, leaves=leaves) for seed in seeds]
    return [board for _, board in self_play_games(searches, 4, seeds)]


TINY = TrainConfig(
    simulations=8, games=4, leaves=2, eval_games=2, eval_simulations=4, batch=32, network=NetConfig(8, 1, 16)
)


@pytest.mark.parametrize("vid", ["duo", "classic_3", "trigon_2", "3d_tower_2"])
def test_encoding_places_every_placement_at_its_first_cell(vid: str) -> None:
    e = Encoding(variant(vid))
    t = e.variant._tables
    levels, h, w = e.levels, e.rows, e.cols
    assert len(set(e.policy_index.tolist())) == e.variant.num_placements  # one logit each
    for id in range(0, e.variant.num_placements, 97):
        points = sorted(int(e.cell_point[c]) for c in t.placement_cells(id))
        assert e.policy_index[id] % (levels * h * w) % (h * w) == points[0] % (h * w)


@pytest.mark.parametrize("vid", ["duo", "trigon_2", "3d_tower_2"])
def test_inputs_draw_the_observation_and_the_movers_reach(vid: str) -> None:
    b = Board(vid)
    rng = np.random.default_rng(1)
    for _ in range(6):
        b.push(rng.choice(b.legal_moves.ids()))
    e = Encoding(b.variant)
    obs = observation(b)[None]
    mask = np.zeros((1, b.variant.num_placements), bool)
    mask[0, b.legal_moves.ids()] = True
    planes, pieces = e.inputs(obs, mask)
    c, levels = e.colors, e.levels
    # The colours' planes are the observation's (levels folded in).
    drawn = planes[0].transpose(2, 0, 1)[: c * levels].reshape(obs.shape[1:])
    assert (drawn == obs[0]).all()
    # The reach plane is positive exactly on the cells some legal move covers.
    covered = np.zeros(e.grid_size, bool)
    for id in b.legal_moves.ids():
        covered[e.cell_point[b.variant._tables.placement_cells(int(id))]] = True
    reach = planes[0].transpose(2, 0, 1)[(c + 1) * levels :].reshape(-1)
    assert ((reach > 0) == covered).all()
    assert set(np.flatnonzero(pieces[0])) == {m.piece.index for m in b.legal_moves}


def test_a_network_that_favours_the_mover_gives_each_player_its_value() -> None:
    e = Encoding(variant("classic_2"))  # two players of two colours each

    def mover_wins(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = np.zeros((len(obs), 4), np.float32)
        values[:, 0] = 1.0  # the mover's colour
        return masks.astype(np.float32), values

    search = GuidedSearch(e, mover_wins, simulations=4, seed=1)
    _, relative = mover_wins(np.zeros((4, 1)), np.ones((4, 3), bool))
    values = search._per_player(relative, np.array([0, 1, 2, 3]))
    # Colour c belongs to player c % 2, who gets half its two colours' values.
    assert values.tolist() == [[0.5, 0.0], [0.0, 0.5], [0.5, 0.0], [0.0, 0.5]]


def test_games_in_flight_share_the_network_calls() -> None:
    e = Encoding(variant("duo"))
    sizes: list[int] = []

    def alike(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sizes.append(len(obs))
        return masks.astype(np.float32), np.full((len(obs), 2), 0.5, np.float32)

    network = CountedNetwork(alike)
    ended: list[int] = []
    searches = [GuidedSearch(e, network, 8, k, leaves=4) for k in range(6)]
    games = [board for _, board in self_play_games(searches, 4, list(range(6)), ended.append)]
    assert all(g.is_game_over() for g in games) and sorted(ended) == list(range(6))
    assert network.positions == sum(sizes) and max(sizes) > 4  # leaves of several games in one call
    assert network.calls < sum(g.ply for g in games) * 3  # far fewer calls than each game's alone


def test_a_game_depends_on_its_seed_not_on_its_batch_companions() -> None:
    e = Encoding(variant("duo"))
    model = Model(e, NetConfig(8, 1))
    params = init(e, model.config, 3)

    def net(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return model.predict(params, obs, masks)

    def games(seeds: list[int]) -> list[list[int]]:
        return [[m.id for m in g.move_stack] for g in _games(e, CountedNetwork(net), seeds, 1, 0.25)]

    alone = games([5])[0]
    together = games([5, 6, 7])[0]
    assert alone == together


def test_training_lowers_the_loss_and_the_checkpoint_plays_and_resumes(tmp_path: Path) -> None:
    trainer = Trainer("duo", tmp_path, TINY, seed=1, quiet=True)
    trainer.iteration()
    rng = np.random.default_rng(0)
    batch = trainer.buffer.sample(rng, 64)
    before = float(trainer.model.loss(trainer.params, batch)[0])
    for _ in range(60):
        trainer.params, trainer.opt_state, _ = trainer._step(
            trainer.params, trainer.opt_state, trainer.buffer.sample(rng, 32)
        )
    after = float(trainer.model.loss(trainer.params, batch)[0])
    assert after < before - 0.1
    trainer.checkpoint()

    bot = from_spec(f"az:checkpoint={tmp_path},simulations=8")
    assert isinstance(bot, AzBot)
    b = Board("duo")
    assert bot.choose(b) in b.legal_moves
    with pytest.raises(InvalidArgumentError, match="plays duo, not classic"):
        bot.choose(Board("classic"))

    again = Trainer("classic", tmp_path, TrainConfig(), quiet=True)  # resumes: duo, the tiny network
    assert again.iterations == 1 and again.encoding.variant.id == "duo" and again.config == TINY
    assert again.buffer.total == trainer.buffer.total
    line = again.iteration()
    assert line["iteration"] == 2
    lines = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [x["iteration"] for x in lines] == [1, 2]
    for key in ("positions", "seconds", "loss", "loss_policy", "loss_value", "score_vs_greedy"):
        assert all(key in x for x in lines)
    assert 0 <= lines[1]["score_vs_greedy"] <= 1 and lines[1]["positions"] > lines[0]["positions"]


def test_training_beside_the_games_trains_for_the_last_iterations_positions(tmp_path: Path) -> None:
    def run(out: Path, overlap: bool) -> tuple[Trainer, list[dict[str, Any]]]:
        t = Trainer("duo", out, dataclasses.replace(TINY, overlap=overlap), seed=3, quiet=True)
        return t, [t.iteration(), t.iteration()]

    def due(line: dict[str, Any]) -> int:
        new: int = line["new_positions"]
        return max(1, round(new * TINY.reuse / TINY.batch))

    t, (first, second) = run(tmp_path / "a", True)
    # The first iteration trains for its own games; the second, beside its games, for the first's.
    assert first["steps"] == due(first) and second["steps"] == due(first) != due(second)
    assert t.steps_due == due(second)
    again, lines = run(tmp_path / "b", True)  # the threads change nothing: the same run again
    assert lines == [{**x, **{k: v for k, v in y.items() if "seconds" in k}} for x, y in zip([first, second], lines)]
    assert all(np.array_equal(t.params[k], again.params[k]) for k in t.params)
    resumed = Trainer("duo", tmp_path / "a", TrainConfig(), quiet=True)
    assert resumed.steps_due == due(second) and resumed.config.overlap

    t, (first, second) = run(tmp_path / "c", False)
    assert first["steps"] == due(first) and second["steps"] == due(second) and t.steps_due == 0


def test_augmented_samples_keep_the_visits_on_the_transformed_legal_moves(tmp_path: Path) -> None:
    trainer = Trainer("duo", tmp_path, TINY, seed=2, quiet=True)
    trainer.iteration()
    buffer = trainer.buffer
    assert len(buffer.symmetries) == 4
    plain = ReplayBuffer(trainer.encoding, buffer.capacity, buffer.moves, augment=False)
    plain.arrays, plain.total = buffer.arrays, buffer.total
    a = buffer.sample(np.random.default_rng(5), 200)
    b = plain.sample(np.random.default_rng(5), 200)
    assert ((a["policy"] > 0) <= a["mask"]).all() and np.allclose(a["policy"].sum(axis=1), 1)
    assert (a["value"] == b["value"]).all() and (a["points"] == b["points"]).all()
    moved = (a["mask"] != b["mask"]).any(axis=1)
    assert 0.5 < moved.mean() < 1  # about three in four under a symmetry other than the identity
    # Each sample is the plain one under one of the board's symmetries.
    for k in np.flatnonzero(moved)[:20]:
        assert any(
            (s.apply_to_actions(b["mask"][k]) == a["mask"][k]).all()
            and np.allclose(s.apply_to_actions(b["policy"][k]), a["policy"][k])
            for s in buffer.symmetries
        )


@pytest.mark.parametrize("vid", ["classic_3", "trigon_2", "3d_tower_2"])
def test_an_iteration_runs_on_every_geometry(tmp_path: Path, vid: str) -> None:
    config = TrainConfig(
        simulations=2, games=2, leaves=2, eval_games=1, eval_simulations=2, batch=8, network=NetConfig(4, 0, 8)
    )
    line = Trainer(vid, tmp_path, config, quiet=True).iteration()
    assert line["new_positions"] > 0 and np.isfinite(line["loss"])
    assert AzBot(tmp_path, simulations=4).choose(Board(vid)) in Board(vid).legal_moves


def test_the_command_line_trains_and_refuses_bad_arguments(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "blokus.rl.alphazero"]
    bad = subprocess.run([*run, "--minutes", "0", "--out", str(tmp_path)], capture_output=True, text=True)
    assert bad.returncode == 2 and "--minutes must be above 0" in bad.stderr
    bad = subprocess.run(
        [*run, "--minutes", "1", "--out", str(tmp_path), "--games", "0"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "--games" in bad.stderr
    bare = tmp_path / "bare"  # a network alone (save's output), no training state
    e = Encoding(variant("duo"))
    save(bare, e, NetConfig(4, 0), init(e, NetConfig(4, 0), 0), {})
    bad = subprocess.run([*run, "--minutes", "1", "--out", str(bare)], capture_output=True, text=True)
    assert bad.returncode == 2 and "not a training run's state" in bad.stderr
    out = tmp_path / "run"
    args = [
        "--minutes",
        "0.01",
        "--out",
        str(out),
        "--simulations",
        "2",
        "--games",
        "2",
        "--filters",
        "4",
        "--blocks",
        "0",
    ]
    done = subprocess.run([*run, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "iteration 1:" in done.stderr and (out / "params.npz").is_file()
    assert len((out / "metrics.jsonl").read_text().splitlines()) == 1


def test_az_bot_refuses_a_missing_or_broken_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(InvalidBotSpecError, match="no network"):
        from_spec(f"az:checkpoint={tmp_path}")
    e = Encoding(variant("duo"))
    save(tmp_path, e, NetConfig(4, 0), init(e, NetConfig(4, 0), 0), {})
    (tmp_path / "network.json").write_text("{")
    with pytest.raises(InvalidArgumentError, match="az:"):
        AzBot(tmp_path)


def test_az_bot_searches_64_simulations_unless_given_a_time(tmp_path: Path) -> None:
    e = Encoding(variant("duo"))
    save(tmp_path, e, NetConfig(4, 0), init(e, NetConfig(4, 0), 0), {})
    board = Board("duo")

    def visits(bot: AzBot, seconds: float | None = None) -> int:
        return sum(m.visits for m in bot.analyse(board, seconds).moves)

    assert visits(AzBot(tmp_path)) == 64
    assert visits(AzBot(tmp_path, simulations=16, seconds=30)) == 16
    assert visits(AzBot(tmp_path, simulations=16), 30) == 16
    # A time alone (the bot's, or a clock's) bounds the search: no cap of 64 simulations.
    assert visits(AzBot(tmp_path, seconds=0.5)) > 64
    assert visits(AzBot(tmp_path), 0.5) > 64
