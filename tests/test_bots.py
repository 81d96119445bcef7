"""The bots' protocol, the random and greedy bots, and bot specs."""

from __future__ import annotations

import pytest

import blokus
from blokus import Board, bots
from blokus.errors import GameOverError, InvalidBotSpecError

VARIANTS = blokus.variants()


def play_out(bot: bots.Bot, board: Board) -> list[str]:
    moves = []
    while not board.is_game_over():
        before = board.copy()
        move = bot.choose(board)
        assert board == before, "choose must not play the move"
        assert board.is_legal(move)
        board.push(move)
        moves.append(str(move))
    return moves


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("make", [bots.RandomBot, bots.GreedyBot])
def test_bots_play_whole_games_of_every_variant(variant: str, make: type[bots.RandomBot | bots.GreedyBot]) -> None:
    bot = make(seed=11)
    assert isinstance(bot, bots.Bot)
    board = Board(variant)
    play_out(bot, board)
    assert board.is_game_over()
    with pytest.raises(GameOverError, match="the game is over"):
        bot.choose(board)


def test_user_variant(tmp_path: object) -> None:
    from pathlib import Path

    mini = Path(__file__).resolve().parent.parent / "examples" / "mini.toml"
    v = blokus.Variant.from_file(mini)
    for make in (bots.RandomBot, bots.GreedyBot):
        board = Board(v)
        assert play_out(make(seed=1), board)


@pytest.mark.parametrize("make", [bots.RandomBot, bots.GreedyBot])
def test_same_seed_same_game_and_reseeding_restarts(make: type[bots.RandomBot | bots.GreedyBot]) -> None:
    first = play_out(make(seed=5), Board("classic"))
    assert play_out(make(seed=5), Board("classic")) == first
    assert play_out(make(seed=6), Board("classic")) != first
    bot = make(seed=5)
    play_out(bot, Board("classic"))
    bot.reset()  # a new game, the random numbers go on
    assert play_out(bot, Board("classic")) != first
    bot.seed = 5
    assert play_out(bot, Board("classic")) == first


def test_greedy_plays_the_largest_piece_it_can() -> None:
    board = Board("duo")
    bot = bots.GreedyBot(seed=2)
    while not board.is_game_over():
        largest = max(m.piece.size for m in board.legal_moves)
        move = bot.choose(board)
        assert move.piece.size == largest
        board.push(move)


def test_greedy_is_uniform_among_the_best_of_the_largest() -> None:
    # The largest piece, the best positional score (attach cells opened plus opponents'
    # covered), and uniformly among the moves that tie.
    board = Board("duo")
    bot = bots.GreedyBot(seed=0)
    seen = {str(bot.choose(board)) for _ in range(400)}
    pentominoes = [m for m in board.legal_moves if m.piece.size == 5]
    features = board._core.features([m.id for m in pentominoes])
    score = features[:, 1] + features[:, 2]
    best = {str(m) for m, s in zip(pentominoes, score) if s == score.max()}
    assert seen == best and len(best) > 1


def test_random_is_not_stuck_on_few_moves() -> None:
    board = Board("duo")
    bot = bots.RandomBot(seed=0)
    seen = {str(bot.choose(board)) for _ in range(400)}
    assert len(seen) > 200 and {len(m.split(",")) for m in seen} >= {1, 2, 3, 4, 5}


@pytest.mark.parametrize("make", [bots.RandomBot, bots.GreedyBot])
def test_analysis(make: type[bots.RandomBot | bots.GreedyBot]) -> None:
    board = Board("classic_3")
    a = make(seed=4).analyse(board)
    assert a.best == make(seed=4).choose(board), "analyse chooses as choose does"
    assert a.moves[0].move == a.best and a.pv[0] == a.best
    assert {r.move for r in a.moves} == set(board.legal_moves)
    assert len(a.value) == 3 and sum(a.value) == pytest.approx(1.0)
    assert all(0 <= r.value <= 1 for r in a.moves)


def test_analysis_is_frozen() -> None:
    a = bots.RandomBot(seed=0).analyse(Board("duo"))
    with pytest.raises(AttributeError):
        a.best = a.moves[1].move  # type: ignore[misc]


def test_a_users_bot_follows_the_protocol() -> None:
    class FirstMove:
        name = "first"

        def choose(self, board: Board, seconds: float | None = None) -> blokus.Move:
            return next(iter(board.legal_moves))

        def analyse(self, board: Board, seconds: float | None = None) -> bots.Analysis:
            m = self.choose(board)
            return bots.Analysis((bots.RootMove(m, 1, 0.5),), (0.5, 0.5), (m,), m)

        def reset(self) -> None:
            pass

    assert isinstance(FirstMove(), bots.Bot)
    assert not isinstance(object(), bots.Bot)


def test_specs() -> None:
    assert isinstance(bots.from_spec("random"), bots.RandomBot)
    greedy = bots.from_spec(" greedy:seed=3 ")
    assert isinstance(greedy, bots.GreedyBot) and greedy.seed == 3
    assert bots.parse_spec("x:a=1,b=0.5,c=true,d=none,e=text") == (
        "x",
        {"a": 1, "b": 0.5, "c": True, "d": None, "e": "text"},
    )
    for spec in ["pentobi-gtp --nobook", "gtp:mybot", "./bin/engine", "/usr/bin/engine -q"]:
        assert bots.is_gtp_spec(spec), spec
    for spec in ["random", "greedy:seed=3", "mcts:seconds=0.1,threads=2"]:
        assert not bots.is_gtp_spec(spec), spec
    assert bots.gtp_command("gtp:'my engine' --level 3") == ["my engine", "--level", "3"]


def test_a_spec_tunes_the_search() -> None:
    board = Board("duo")
    wide = bots.from_spec("mcts:simulations=200,seed=1,max_children=64").analyse(board)
    narrow = bots.from_spec("mcts:simulations=200,seed=1,max_children=3").analyse(board)
    assert len([m for m in wide.moves if m.visits > 0]) > 3
    assert len([m for m in narrow.moves if m.visits > 0]) == 3
    # Progressive widening: 3 moves considered at first, and no more without widening; with
    # it, the root's 200 simulations come to consider 2 * sqrt(200), some 28, of its 64.
    fixed = bots.from_spec("mcts:simulations=200,seed=1,max_children=64,first_children=3,widening=0")
    widening = bots.from_spec("mcts:simulations=200,seed=1,max_children=64,first_children=3,widening=2")
    assert len([m for m in fixed.analyse(board).moves if m.visits > 0]) == 3
    assert 3 < len([m for m in widening.analyse(board).moves if m.visits > 0]) <= 28
    # Options of one number, and only those (a list cannot be written in a spec).
    assert {"exploration", "max_children", "first_children", "widening", "tournament"} <= set(bots.MctsBot.spec_tuning)
    assert not {"prior_weights", "piece_weights", "playout_piece_weights"} & set(bots.MctsBot.spec_tuning)


def test_the_playouts_answer_unless_told_not_to() -> None:
    board = Board("duo")
    greedy = bots.GreedyBot(seed=1)
    for _ in range(6):
        board.push(greedy.choose(board))
    plain = bots.from_spec("mcts:simulations=300,seed=1,local=false")
    assert "local=False" in repr(plain)
    answering = bots.MctsBot(simulations=300, seed=1)
    # The same search but for the playouts' moves: the values found differ.
    values = [[(m.move.id, m.visits, m.value) for m in bot.analyse(board).moves] for bot in (plain, answering)]
    assert values[0] != values[1]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:seconds=-1", "seconds must be a finite number above 0, at most 1e\\+06, not -1"),
        ("mcts:depth=3", "bot 'mcts' has no option 'depth' \\(its options: seconds, .*, exploration, "),
        ("mcts:max_children=0", "max_children must be 1 to 4294967295, not 0"),
        ("mcts:exploration=x", "exploration must be a number, not str"),
        ("mcts:local=2", "local must be True or False, not 2"),
        ("minimax", "unknown bot 'minimax'.*gtp:COMMAND"),
        ("greedy:depth=3", "bot 'greedy' has no option 'depth' \\(its options: seed\\)"),
        ("greedy:seed", "an option is key=value, not 'seed'"),
        ("random:seed=-1", "a seed is a whole number from 0 to 2\\*\\*64 - 1, not -1"),
        ("random:seed=0.5", "a seed is a whole number from 0 to 2\\*\\*64 - 1, not 0.5"),
        ("gtp:", "names no program"),
        ("gtp:'unclosed", "No closing quotation"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(InvalidBotSpecError, match=message):
        bots.from_spec(spec)


def test_a_gtp_spec_that_cannot_start() -> None:
    from blokus.errors import EngineTerminatedError

    with pytest.raises(EngineTerminatedError, match=r"cannot start '\./no-such-engine'"):
        bots.from_spec("./no-such-engine --level 1")
