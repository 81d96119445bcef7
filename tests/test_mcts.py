"""The MCTS bot from Python: legal moves on every variant, seeds, budgets, strength against
random play, analyses, evaluators, greedy's tie-break, and the commands that use them."""

from __future__ import annotations

import io
import random
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import blokus
from blokus import Board, sgf
from blokus.bots import GreedyBot, MctsBot, RandomBot, analyse_together, playout_values
from blokus.cli import main

USER_VARIANT = {
    "id": "small",
    "board": {"geometry": "square", "width": 9, "height": 9, "holes": ["e5"]},
    "colors": ["Blue", "Red", "Green"],
    "players": [[0], [1], [2]],
    "start_points": [["a1"], ["i9"], ["a9"]],
    "pieces": {"only": ["1", "2", "V3", "L4", "P", "X"]},
}


@pytest.mark.parametrize("variant", [*blokus.variants(), "user"])
def test_every_variant_is_played_with_legal_moves_only(variant: str) -> None:
    v = blokus.Variant(USER_VARIANT) if variant == "user" else blokus.Variant(variant)
    bot = MctsBot(simulations=8, seed=1)
    board = Board(v)
    while not board.is_game_over():
        move = bot.choose(board)
        assert move in board.legal_moves, f"{variant}: {move}"
        board.push(move)
    assert board.outcome() is not None


def play(a: Any, b: Any, variant: str | blokus.Variant, seat: int) -> Board:
    """A game of bot ``a`` (player ``seat``) against ``b``."""
    board = Board(variant)
    while not board.is_game_over():
        bot = a if board.player == seat else b
        board.push(bot.choose(board))
    return board


def test_one_seed_plays_one_game() -> None:
    games = [play(MctsBot(simulations=80, seed=7), MctsBot(simulations=80, seed=8), "duo", 0) for _ in range(2)]
    assert [str(m) for m in games[0].move_stack] == [str(m) for m in games[1].move_stack]
    other = play(MctsBot(simulations=80, seed=9), MctsBot(simulations=80, seed=8), "duo", 0)
    assert [str(m) for m in other.move_stack] != [str(m) for m in games[0].move_stack]


def test_the_time_budget_is_kept() -> None:
    # A functional check with a wide margin (speed itself is measured by benchmarks).
    bot = MctsBot(seconds=0.2, seed=1)
    start = time.perf_counter()
    bot.choose(Board("classic"))
    assert time.perf_counter() - start < 0.2 + 0.25
    start = time.perf_counter()
    bot.choose(Board("classic"), seconds=0.05)  # a clock's time overrides the bot's own
    assert time.perf_counter() - start < 0.05 + 0.25
    start = time.perf_counter()
    MctsBot(seconds=0.1, pace=1.0, seed=1).choose(Board("classic"))  # a first move: twice the budget
    assert 0.2 <= time.perf_counter() - start < 0.2 + 0.25


def paced_times(bot: MctsBot, variant: str) -> dict[int, list[float | None]]:
    """The time ``bot`` gives each move of a greedy game, by colour."""
    board, times = Board(variant), dict[int, list[float | None]]()
    while board.turn is not None:
        times.setdefault(board.turn, []).append(bot.seconds_for(board))
        board.push(GreedyBot(seed=board.ply).choose(board))
    return times


def test_a_pace_gives_early_moves_more_time_and_late_ones_less() -> None:
    for pace in (0.6, 1.0):
        for color, times in paced_times(MctsBot(seconds=0.1, pace=pace), "duo").items():
            assert times[0] == pytest.approx(0.1 * (1 + pace)), color
            assert times == sorted(times, key=lambda t: -(t or 0)), color  # never more than the move before
            assert times[7] == pytest.approx(0.1, abs=0.01), color  # its 8th move: 7 of 21 pieces placed
            assert min(t or 0 for t in times) >= 0.1 * 0.1 - 1e-12, color
    # A greedy colour places 17 of its pieces: its last moves get the floor.
    assert paced_times(MctsBot(seconds=0.1, pace=1.0), "duo")[0][-1] == pytest.approx(0.01)
    # No pace: the plain budget on every move.
    assert {t for times in paced_times(MctsBot(seconds=0.1), "duo").values() for t in times} == {0.1}


def test_a_pace_scales_a_clocks_seconds_and_counts_copies() -> None:
    bot = MctsBot(seconds=0.1, pace=0.6)
    assert bot.seconds_for(Board("duo"), 1.0) == pytest.approx(1.6)
    assert MctsBot(simulations=100, pace=0.6).seconds_for(Board("duo")) is None
    # Junior has two copies of each of 12 pieces: one placed is 1/24 of them.
    board = Board("junior")
    board.push(GreedyBot(seed=1).choose(board))
    board.push(GreedyBot(seed=2).choose(board))
    assert board.turn == 0
    assert bot.seconds_for(board) == pytest.approx(0.1 * (1 + 0.6 * (1 - 1 / 24 / 0.33)))


def test_a_paced_bot_is_named_by_its_spec_and_refused_in_searches_together() -> None:
    bot = blokus.bots.from_spec("mcts:seconds=0.05,pace=0.7")
    assert isinstance(bot, MctsBot) and bot.pace == 0.7
    assert repr(bot) == "MctsBot(seconds=0.05, pace=0.7, threads=1, seed=None)"
    with pytest.raises(ValueError, match="bot 1 has a pace: searches together share one budget"):
        analyse_together(
            [MctsBot(simulations=8), MctsBot(simulations=8, pace=0.5)],
            [Board("duo"), Board("duo")],
            lambda observations, masks: (np.zeros(masks.shape, np.float32), None),
        )


def test_the_search_beats_random_play() -> None:
    wins = 0
    for g in range(20):
        board = play(MctsBot(simulations=200, seed=g), RandomBot(seed=g), "duo", g % 2)
        outcome = board.outcome()
        assert outcome is not None
        wins += outcome.winners == (g % 2,)
    assert wins >= 19


def test_the_analysis_is_the_trees() -> None:
    board = Board("classic_2", ["a20", "t20,t19", "t1,s1,t2"])
    a = MctsBot(simulations=500, seed=3).analyse(board)
    assert sum(m.visits for m in a.moves) == 500
    assert a.best == a.moves[0].move == a.pv[0]
    assert all(m.move in board.legal_moves for m in a.moves)
    assert [m.visits for m in a.moves] == sorted((m.visits for m in a.moves), reverse=True)
    assert len(a.value) == board.variant.num_players and abs(sum(a.value) - 1) < 1e-3
    assert all(0 <= m.value <= 1 for m in a.moves)
    # The principal variation is a line of play.
    line = board.copy()
    for move in a.pv:
        line.push(move)


def test_a_uniform_evaluator_behaves_like_plain_uct() -> None:
    calls: list[int] = []

    def uniform(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, None]:
        assert observations.dtype == np.uint8 and masks.dtype == np.bool_
        assert observations.shape[0] == masks.shape[0] <= 8
        assert observations.shape[1:] == (2, 14, 14) and masks.shape[1] == 13729
        calls.append(len(masks))
        return np.ones(masks.shape, dtype=np.float32), None

    bot = MctsBot(simulations=100, seed=1, evaluator=uniform, batch_size=8)
    a = bot.analyse(Board("duo"))
    assert sum(m.visits for m in a.moves) == 100
    assert calls[0] == 1 and sum(calls) <= 101
    priors_alike = {round(m.visits / 100, 6) for m in a.moves if m.visits == 0}
    assert priors_alike <= {0.0}
    # As strong as plain UCT: it beats random play.
    wins = sum(
        (
            play(MctsBot(simulations=100, seed=g, evaluator=uniform), RandomBot(seed=g), "duo", g % 2).outcome()
            or blokus.Outcome((), (), (), "")
        ).winners
        == (g % 2,)
        for g in range(6)
    )
    assert wins >= 5


def test_an_evaluator_that_sees_more_wins_more() -> None:
    def uniform(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, None]:
        return np.ones(masks.shape, dtype=np.float32), None

    def oracle(observations: np.ndarray, masks: np.ndarray, boards: list[Board]) -> tuple[np.ndarray, np.ndarray]:
        # Each leaf's value from 48 playouts rather than one: much nearer the truth.
        values = np.array([playout_values(b, 48, seed=k) for k, b in enumerate(boards)], dtype=np.float32)
        return np.ones(masks.shape, dtype=np.float32), values

    # RAVE off for both: it learns from the playouts' moves, which only the blind side plays,
    # and would blur what is compared here, the values alone. The blind side's playouts do
    # not answer the last moves: answering makes one playout nearly as good a guess as many.
    wins = 0.0
    games = 16
    for g in range(games):
        seer = MctsBot(simulations=48, seed=g, evaluator=oracle, evaluator_boards=True, rave_equivalence=0)
        blind = MctsBot(simulations=48, seed=g, evaluator=uniform, rave_equivalence=0, local=False)
        board = play(seer, blind, "duo", g % 2)
        outcome = board.outcome()
        assert outcome is not None
        wins += 1 / len(outcome.winners) if g % 2 in outcome.winners else 0
    assert wins >= 0.625 * games


def test_a_bad_evaluator_is_a_clear_error() -> None:
    def wrong_shape(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, None]:
        return np.ones((1, 3), dtype=np.float32), None

    with pytest.raises(blokus.BlokusError, match=r"priors has shape \[1, 3\], expected \(1, 13729\)"):
        MctsBot(simulations=10, evaluator=wrong_shape).choose(Board("duo"))

    def fails(observations: np.ndarray, masks: np.ndarray) -> Any:
        raise RuntimeError("the network is down")

    with pytest.raises(RuntimeError, match="the network is down"):
        MctsBot(simulations=10, evaluator=fails).choose(Board("duo"))


def _favour_big(observations: np.ndarray, masks: np.ndarray, colors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # Priors from the placements' ids and values from the leaf's stones: not alike, so that a
    # search's moves depend on which leaf got which answer.
    priors = masks * (1 + np.arange(masks.shape[1], dtype=np.float32) % 7)
    stones = observations.reshape(len(observations), observations.shape[1], -1).sum(axis=2)
    own = stones[np.arange(len(colors)), 0]
    counts = np.stack([own, stones[:, 1]], axis=1).astype(np.float32)
    values = (1 / (1 + np.exp(-(counts - counts[:, ::-1]) / 5))).astype(np.float32)
    # Relative to the mover: colour c's value is column (c - mover) % 2.
    return priors.astype(np.float32), np.where(colors[:, None] == 0, values, values[:, ::-1])


@pytest.mark.parametrize("leaves", [1, 4])
def test_searches_together_find_what_each_finds_alone(leaves: int) -> None:
    boards = [Board("duo")]
    for k in range(1, 5):
        b = boards[-1].copy()
        b.push(GreedyBot(seed=k).choose(b))
        boards.append(b)
    alone = [
        MctsBot(simulations=40, seed=k, evaluator=_favour_big, evaluator_colors=True, batch_size=leaves).analyse(b)
        for k, b in enumerate(boards)
    ]
    calls: list[list[int]] = []

    def together(observations: np.ndarray, masks: np.ndarray, colors: np.ndarray, searches: np.ndarray) -> Any:
        assert searches.dtype == np.int64 and len(searches) == len(masks) == len(colors)
        calls.append(sorted(set(searches.tolist())))
        return _favour_big(observations, masks, colors)

    bots = [MctsBot(simulations=40, seed=k, batch_size=leaves) for k in range(len(boards))]
    assert analyse_together(bots, boards, together) == alone
    assert calls[0] == list(range(len(boards)))  # the roots, in one call
    assert max(len(c) for c in calls[1:]) > 1  # and the leaves of several searches after
    assert analyse_together([], [], together) == []


def test_searches_together_refuse_what_cannot_work() -> None:
    def alike(observations: np.ndarray, masks: np.ndarray, colors: np.ndarray, searches: np.ndarray) -> Any:
        return np.ones(masks.shape, np.float32), np.full((len(masks), 2), 0.5, np.float32)

    duo = Board("duo")
    bot = MctsBot(simulations=8)
    with pytest.raises(ValueError, match="2 bots for 1 boards"):
        analyse_together([bot, MctsBot(simulations=8)], [duo], alike)
    with pytest.raises(blokus.BlokusError, match="searches 0 and 1 are the same search"):
        analyse_together([bot, bot], [duo, duo], alike)
    with pytest.raises(ValueError, match="bot 1's simulations, seconds or batch_size differ"):
        analyse_together([bot, MctsBot(simulations=9)], [duo, duo], alike)
    with pytest.raises(TypeError, match="bot 1 is a GreedyBot"):
        analyse_together([bot, GreedyBot()], [duo, duo], alike)  # type: ignore[list-item]
    with pytest.raises(blokus.BlokusError, match="search 1 or its board is of another variant"):
        analyse_together([bot, MctsBot(simulations=8)], [duo, Board("classic")], alike)

    def fails(*args: Any) -> Any:
        raise RuntimeError("the network is down")

    with pytest.raises(RuntimeError, match="the network is down"):
        analyse_together([MctsBot(simulations=32) for _ in range(3)], [duo] * 3, fails)
    # The searches are usable after a failure.
    assert sum(m.visits for m in analyse_together([bot], [duo], alike)[0].moves) == 8


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("exploration", float("nan"), "exploration must be a number from 0 to 100, not nan"),
        ("margin_weight", float("inf"), "margin_weight must be a number from 0 to 1, not inf"),
        ("exploration", -1e308, "exploration must be a number from 0 to 100, not -1e"),
        ("size_bias", 1e300, "size_bias must be a number from -3 to 3, not 1e"),
        ("size_bias", 8, "size_bias must be a number from -3 to 3, not 8"),
        ("playout_piece_weights", {"I5": 20}, r"playout_piece_weights\['I5'\] must be a number from -12 to 12, not 20"),
        ("max_children", -1, "max_children must be 1 to 4294967295, not -1"),
        ("first_children", -1, "first_children must be 0 to 4294967295, not -1"),
        ("widening", -0.5, "widening must be a number from 0 to 1e\\+06, not -0.5"),
        ("tournament", 2.5, "tournament must be an integer, not float"),
        ("local", 1, "local must be True or False, not 1"),
        ("prior_weights", [1.0, "x"], r"prior_weights\[1\] must be a number, not str"),
    ],
)
def test_a_bad_search_option_is_refused_when_the_bot_is_made(option: str, value: Any, message: str) -> None:
    tuning: dict[str, Any] = {option: value}
    with pytest.raises(blokus.BlokusError, match=message):
        MctsBot(simulations=10, **tuning)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("simulations", True, "simulations must be an integer, not a bool"),
        ("simulations", 10**30, r"simulations must be 1 to 2\*\*64 - 1, not "),
        ("seconds", float("inf"), "seconds must be a finite number above 0, at most 1e"),
        ("seconds", 0, "seconds must be a finite number above 0, at most 1e"),
        ("seed", 2**64, r"a seed is a whole number from 0 to 2\*\*64 - 1, not a 65-bit number"),
        ("threads", 10**6, "threads must be 1 to 256, not 1000000"),
        ("pace", 1.5, "pace must be a number from 0 to 1, not 1.5"),
        ("pace", "fast", "pace must be a number, not str"),
    ],
)
def test_a_bad_budget_is_refused_when_the_bot_is_made(option: str, value: Any, message: str) -> None:
    options: dict[str, Any] = {option: value}
    with pytest.raises(blokus.BlokusError, match=message):
        MctsBot(**options)


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), 1e300, -1.0, 0.0])
def test_a_bad_time_for_one_move_is_refused(seconds: float) -> None:
    with pytest.raises(blokus.BlokusError, match="seconds must be a finite number above 0"):
        MctsBot(simulations=10).choose(Board("duo"), seconds)


def test_playout_weights_that_would_stall_the_playouts_are_refused_for_the_variant() -> None:
    # Each weight is in range, but together they set Duo's pieces too far apart: a playout
    # would draw some exp(13) moves to keep one of the lightest piece's.
    bot = MctsBot(simulations=10, size_bias=3, playout_piece_weights={"I5": 5})
    with pytest.raises(blokus.InvalidArgumentError, match=r"differ by 13\.3 between duo's lightest and heaviest"):
        bot.choose(Board("duo"))


@pytest.mark.parametrize("variant", ["duo", "trigon_2", "3d_tower"])
def test_a_search_at_the_widest_size_bias_ends_within_its_budget(variant: str) -> None:
    # The size bias that once made playouts reject every draw (size_bias 8) is refused; at
    # the widest one accepted, a search of a late position, where only small pieces fit,
    # still ends.
    b = Board(variant)
    rng = random.Random(3)
    while b.ply < 14 and not b.is_game_over():
        b.push(rng.choice(list(b.legal_moves)))
    a = MctsBot(simulations=30, size_bias=3, seed=1).analyse(b)
    assert sum(m.visits for m in a.moves) >= 30


def test_a_search_option_the_search_cannot_take_is_a_clear_error() -> None:
    with pytest.raises(blokus.BlokusError, match="prior_weights: 2 numbers for 9 features"):
        MctsBot(simulations=10, prior_weights=[1.0, 2.0]).choose(Board("duo"))
    with pytest.raises(blokus.BlokusError, match="exploration must be finite, not NaN"):
        _blokus_search(exploration=float("nan"))
    with pytest.raises(blokus.BlokusError, match="max_children must be a whole number from 0 to 4294967295"):
        _blokus_search(max_children=-1)
    with pytest.raises(blokus.BlokusError, match="local must be True or False"):
        _blokus_search(local=1)


def _blokus_search(**options: object) -> object:
    """The binding's search, made directly (as the bot makes it, without its checks)."""
    from blokus import _blokus

    return _blokus.SearchCore(blokus.Variant("duo")._tables, options=options)


def test_greedy_breaks_ties_by_the_positional_score() -> None:
    board = Board("duo")
    move = GreedyBot(seed=1).choose(board)
    ids = [m.id for m in board.legal_moves if m.piece.size == 5]
    features = board._core.features(ids)
    scores = features[:, 1] + features[:, 2]
    assert move.piece.size == 5
    assert scores[ids.index(move.id)] == scores.max()


def test_playout_values_estimate_who_is_ahead() -> None:
    board = Board("duo")
    # Purple's X in the middle, Orange's monomino in its corner: Purple is far ahead.
    for m in ["e10,d11,e11,f11,e12", "j5"]:
        board.push(m)
    purple, orange = playout_values(board, 200)
    assert purple > 0.6 > orange and abs(purple + orange - 1) < 1e-3


def test_the_commands_play_and_analyse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("e10,d11,e11,f11,e12\nzz\nhint\nundo\nquit\n"))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", "--variant", "duo", "--bot", "mcts:simulations=30", "--seed", "1"]) == 0
    text = out.getvalue()
    assert "mcts plays" in text and "not played: invalid move" in text and "hint: " in text
    record = tmp_path / "game.blksgf"
    board = play(GreedyBot(seed=1), RandomBot(seed=2), "duo", 0)
    sgf.dump(board, record)
    annotated = tmp_path / "annotated.blksgf"
    assert main(["analyse", str(record), "-o", str(annotated), "--bot", "mcts:simulations=40", "--seed", "1"]) == 0
    game = sgf.load(annotated)
    nodes = [n for n in game.mainline() if n.move is not None]
    assert len(nodes) == board.ply
    assert all(n.get("XB") is not None and "mcts: played" in n.comment for n in nodes)
    again = sgf.loads(sgf.dumps(game))  # the values survive a round trip
    assert [n.get("XV") for n in again.mainline()] == [n.get("XV") for n in game.mainline()]


def test_analyse_reads_a_record_of_a_users_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "mini.toml"
    mini = Path(__file__).resolve().parent.parent / "examples" / "mini.toml"
    spec.write_text('sgf_name = "Blokus Mini"\n' + mini.read_text())
    board = play(GreedyBot(seed=1), RandomBot(seed=2), blokus.Variant.from_file(spec), 0)
    record = tmp_path / "mini.blksgf"
    sgf.dump(board, record)
    assert main(["analyse", str(record), "--bot", "mcts:simulations=20"]) == 2
    assert "Blokus Mini" in capsys.readouterr().err, "without the spec the game's name is unknown"
    out = tmp_path / "annotated.blksgf"
    assert main(["analyse", str(record), "-o", str(out), "--variant", str(spec), "--bot", "mcts:simulations=20"]) == 0
    nodes = [n for n in sgf.load(out, blokus.Variant.from_file(spec)).mainline() if n.move is not None]
    assert len(nodes) == board.ply and all("mcts: played" in n.comment for n in nodes)


def test_analyse_names_the_file_of_a_malformed_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "bad.blksgf"
    record.write_text("(;GM[Blokus Duo];B[zz99])")
    assert main(["analyse", str(record), "--bot", "greedy"]) == 2
    assert (
        capsys.readouterr().err
        == f"blokus: {record}: line 1, column 18: B[zz99]: item 1 (zz99) is not a cell of this board\n"
    )


def test_play_answers_help_and_empty_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n\nmoves\nquit\n"))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", "--variant", "duo", "--bot", "greedy"]) == 0
    text = out.getvalue()
    assert "hint     the bot's choice for you" in text and "not played" not in text
    assert "(414 legal moves)" in text


def test_selfplay_with_the_search_is_the_same_for_any_threads() -> None:
    a = blokus.selfplay("duo", games=3, seed=4, threads=1, policy="mcts", simulations=20, keep_moves=True)
    b = blokus.selfplay("duo", games=3, seed=4, threads=2, policy="mcts", simulations=20, keep_moves=True)
    assert a.moves == b.moves and (a.points == b.points).all()
    for moves in a.moves or []:
        Board("duo", moves)  # every game replays by the rules
