"""The GTP client (``blokus.gtp``) against our own server over pipes, and against engines that fail."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import blokus
from blokus import Board, sgf
from blokus.bots import RandomBot
from blokus.errors import (
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineRefusedError,
    EngineResignedError,
    EngineTerminatedError,
    EngineTimeoutError,
    GameOverError,
)
from blokus.gtp import STDERR_LINES, Engine, GtpBot, color_token, game_name

HERE = Path(__file__).resolve().parent
FAKE = str(HERE / "fake_engine.py")
MINI = HERE.parent / "examples" / "mini.toml"


def server(*args: str) -> list[str]:
    return [sys.executable, "-m", "blokus", "gtp", *args]


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    """One server for the module's games: ``set_game`` moves it from variant to variant."""
    with Engine.popen(server("--bot", "random:seed=9"), timeout=60) as e:
        yield e


def play_against(bot: GtpBot, variant: blokus.Variant | str, seed: int, check_every: int = 0) -> Board:
    """A whole game: the engine plays player 0, a random bot the others. Every
    ``check_every`` plies the engine's legal moves are compared with the board's."""
    board = Board(variant)
    other = RandomBot(seed=seed)
    bot.reset()
    while not board.is_game_over():
        if check_every and board.ply % check_every == 0:
            bot._sync(board)
            assert board.turn is not None
            assert bot.engine.all_legal(board.turn) == sorted(board.legal_moves, key=str)
        move = bot.choose(board) if board.player == 0 else other.choose(board)
        board.push(move)
    bot._sync(board)
    return board


@pytest.mark.parametrize("variant", blokus.variants())
def test_whole_games_of_every_variant_end_as_on_a_board(engine: Engine, variant: str, tmp_path: Path) -> None:
    bot = GtpBot(engine)
    board = play_against(bot, variant, seed=3, check_every=9)
    # The engine's record of the game is the board's: same moves, same result.
    assert engine.final_score() == board.result()
    path = tmp_path / "game.blksgf"
    engine.savesgf(path)
    assert sgf.load(path).end().board().move_stack == board.move_stack
    for color in range(board.variant.num_colors):
        assert engine.all_legal(color) == []
        assert engine.reg_genmove(color) is None
        assert engine.genmove(color) is None, "a colour without a move passes"


def test_a_users_variant(tmp_path: Path) -> None:
    v = blokus.Variant.from_file(MINI)
    with Engine.popen(server("--variant", str(MINI), "--bot", "greedy"), variant=v) as e:
        board = play_against(GtpBot(e), v, seed=1, check_every=3)
        assert e.final_score() == board.result()
        e.set_game("duo")
        e.set_game(v)
        assert e.all_legal(0) == sorted(Board(v).legal_moves, key=str)


def test_commands(engine: Engine) -> None:
    engine.set_game("duo")
    assert engine.name() == "blokus random"
    assert engine.version() == blokus.__version__
    assert engine.protocol_version() == 2
    assert engine.known_command("genmove") and not engine.known_command("frobnicate")
    assert "time_left" in engine.list_commands()
    engine.play(0, "e10,d11,e11,f11,e12")
    engine.play("w", "j5")
    assert "P" in engine.showboard()
    engine.undo()
    assert engine.all_legal("w") == sorted(Board("duo", ["e10,d11,e11,f11,e12"]).legal_moves, key=str)
    with pytest.raises(EngineRefusedError, match="refused: play pass not supported") as info:
        engine.play("w", "null")
    assert info.value.text == "play pass not supported (anymore)" and info.value.command == "play w null"
    assert engine.cputime() >= 0
    engine.set_random_seed(4)
    engine.clear_board()
    move = engine.genmove("b")
    assert move is not None and Board("duo").is_legal(move)
    assert 0 <= engine.get_value() <= 1
    values = engine.move_values()
    assert values and all(v[2].variant.id == "duo" for v in values)
    engine.time_settings(0, 0.5, 1)
    engine.time_left("w", 0.5, 1)
    engine.time_settings(0, 0, 0)
    with pytest.raises(ValueError, match="a GTP command is one line"):
        engine.send("name\nquit")


def test_the_bot_follows_the_board_it_is_asked_about(engine: Engine) -> None:
    bot = GtpBot(engine)
    board = Board("classic", ["a20", "t20", "t1", "a1"])
    bot.choose(board)
    # Take back two moves and go another way: the engine undoes and replays.
    board.pop()
    board.pop()
    board.push("s1,t1")
    move = bot.choose(board)
    board.push(move)
    bot._sync(board)
    assert [str(m) for m in board.move_stack] == [str(m) for m in Board("classic", board.move_stack).move_stack]
    assert engine.all_legal(board.turn or 0) == sorted(board.legal_moves, key=str)
    # Another variant, then a setup (sent as a game file).
    bot.choose(Board("trigon_3"))
    setup = Board.from_setup("duo", [["e10,d11,e11,f11,e12"], ["j5"]], turn=1)
    move = bot.choose(setup)
    assert setup.is_legal(move)
    bot._sync(setup)  # the engine played its move: it is taken back
    assert engine.all_legal("w") == sorted(setup.legal_moves, key=str)
    with pytest.raises(GameOverError):
        bot.choose(Board("duo", _finished_duo()))


def _finished_duo() -> list[str]:
    board = Board("duo")
    bot = RandomBot(seed=1)
    while not board.is_game_over():
        board.push(bot.choose(board))
    return [str(m) for m in board.move_stack]


def test_the_bot_reseeds_the_engine_for_reproducible_games(engine: Engine) -> None:
    games = []
    for _ in range(2):
        bot = GtpBot(engine, seed=77)
        board = Board("duo")
        bot.reset()
        while not board.is_game_over():
            board.push(bot.choose(board))
        games.append(board.move_stack)
    assert games[0] == games[1]


def test_analysis_over_gtp(engine: Engine) -> None:
    bot = GtpBot(engine)
    board = Board("classic_2")
    a = bot.analyse(board)
    assert a.best == a.moves[0].move and board.is_legal(a.best)
    assert len(a.value) == 2 and a.pv == (a.best,)


def test_time_per_move_reaches_the_engine(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    moves = "e10,d11,e11,f11,e12;j5;f9"
    with fake("none", "none", moves=moves, log=str(log)) as e:
        bot = GtpBot(e)
        board = Board("duo")
        board.push(bot.choose(board, seconds=0.25))
        board.push(bot.choose(board, seconds=0.25))
        board.push(bot.choose(board, seconds=3))
    sent = [line.split(None, 1)[1] for line in log.read_text().splitlines()]
    assert sent.count("time_settings 0 0.250 1") == 1, "sent once while the time stays the same"
    assert sent[-8:] == [
        "time_left b 0.250 1",
        "genmove b",
        "time_left w 0.250 1",
        "genmove w",
        "time_settings 0 3 1",
        "time_left b 3 1",
        "genmove b",
        "quit",
    ]


def test_colour_tokens_and_game_names_are_what_twogtp_sends() -> None:
    assert [color_token(blokus.Variant("duo"), c) for c in range(2)] == ["b", "w"]
    assert [color_token(blokus.Variant("classic_3"), c) for c in range(4)] == ["1", "2", "3", "4"]
    assert game_name(blokus.Variant("trigon_2")) == "Blokus Trigon Two-Player"
    with pytest.raises(ValueError, match="duo has no colour 2"):
        color_token(blokus.Variant("duo"), 2)


# --- engines that fail ---


def fake(fault: str, command: str, n: int = 1, timeout: float | None = 30, **options: str) -> Engine:
    args = [sys.executable, FAKE, fault, command, str(n)]
    for key, value in options.items():
        args += [f"--{key}", value]
    return Engine.popen(args, timeout=timeout, name="fake")


def test_an_engine_that_crashes() -> None:
    with fake("crash", "genmove", 2, moves="e10,d11,e11,f11,e12") as e:
        bot = GtpBot(e)
        board = Board("duo")
        board.push(bot.choose(board))
        board.push("j5")
        with pytest.raises(EngineTerminatedError) as info:
            bot.choose(board)
        assert not e.alive
    error = info.value
    assert (error.engine, error.command) == ("fake", "genmove b")
    assert "the engine exited (code 3) before it answered" in str(error)
    assert "fake: crashing on purpose" in error.stderr and "crashing on purpose" in str(error)
    with pytest.raises(EngineTerminatedError, match="not running"):
        e.name()


def test_an_engine_that_hangs_is_stopped() -> None:
    with fake("hang", "genmove", timeout=0.5) as e:
        with pytest.raises(
            EngineTimeoutError, match=r"fake: 'genmove b': no answer within 0.5 s; the engine was stopped"
        ):
            GtpBot(e).choose(Board("duo"))
        assert not e.alive and e.process.poll() is not None


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("garbage", "answered 'this is not gtp', which is not a GTP response"),
        ("wrongid", "answered command 1.. when asked command"),
    ],
)
def test_an_engine_that_answers_garbage_is_stopped(fault: str, message: str) -> None:
    with fake(fault, "genmove") as e:
        with pytest.raises(EngineProtocolError, match=message):
            GtpBot(e).choose(Board("duo"))
        assert not e.alive, "out of step: stopped"


def test_an_engine_that_answers_wrong_moves_then_behaves(tmp_path: Path) -> None:
    faults = [
        (EngineIllegalMoveError, r"answered e10, which is illegal here \(overlap: e10 is already covered\)"),
        (EngineProtocolError, "answered 'zz99', which is no move of duo"),
        (EngineIllegalMoveError, "passed, but Orange has .* legal moves"),
        (EngineResignedError, "'genmove w': resigned"),
        (EngineRefusedError, "'genmove w': refused: no thanks"),
    ]
    log = tmp_path / "log.txt"
    with fake("illegal,nomove,pass,resign,refuse", "genmove", moves="j5", log=str(log)) as e:
        bot = GtpBot(e)
        board = Board("duo", ["e10,d11,e11,f11,e12"])
        for error, message in faults:
            with pytest.raises(error, match=message):
                bot.choose(board)
            assert e.alive
        # After each failure the engine's position is not known: a new game, the moves again.
        assert str(bot.choose(board)) == "j5"
    sent = [line.split(None, 1)[1] for line in log.read_text().splitlines()]
    assert sent.count("clear_board") == 5 and sent.count("play b e10,d11,e11,f11,e12") == 6


def test_a_chatty_stderr_never_blocks_the_engine() -> None:
    with fake("chatty", "genmove", moves="e10") as e:
        assert str(GtpBot(e).choose(Board("duo"))) == "e10"
    lines = e.stderr.splitlines()
    assert len(lines) == STDERR_LINES and lines[-1] == "x" * 1023, "the tail is kept, all of it read once closed"


def test_an_engine_that_cannot_start() -> None:
    with pytest.raises(EngineTerminatedError, match="cannot start '/no/such/engine'"):
        Engine.popen(["/no/such/engine"])
    with (
        Engine.popen(
            [sys.executable, "-c", "import sys; sys.stderr.write('Error: Must use either --book or --nobook\\n')"]
        ) as e,
        pytest.raises(EngineTerminatedError, match="Must use either --book or --nobook"),
    ):
        e.name()


def test_a_variant_the_client_does_not_know_yet() -> None:
    with fake("none", "none", moves="e10") as e:
        with pytest.raises(ValueError, match="does not know the engine's variant"):
            e.genmove(0)
        with pytest.raises(ValueError, match="does not know the engine's variant"):
            e.genmove("1")  # a token needs no variant, but reading the move does


# --- engines behind scripts, bad arguments, answers out of range ---


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_an_engine_behind_a_script_that_hangs_times_out_and_all_of_it_is_stopped(tmp_path: Path) -> None:
    # The script runs the engine as its child (no exec), so the engine holds the pipes after
    # the script is killed: the timeout must still fire on time and stop the engine too.
    pid_file = tmp_path / "engine.pid"
    script = tmp_path / "engine.sh"
    # (A background job reads /dev/null unless told otherwise: it is given the script's input.)
    script.write_text(
        f'#!/bin/sh\nexec 3<&0\n"{sys.executable}" "{FAKE}" hang genmove 1 <&3 &\necho $! > "{pid_file}"\nwait\n'
    )
    script.chmod(0o755)
    outcome: list[BaseException | None] = []

    def play() -> None:
        try:
            with Engine.popen([str(script)], timeout=1, name="script") as e:
                e.set_game("duo")
                GtpBot(e).choose(Board("duo"))
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            outcome.append(error)
        else:
            outcome.append(None)

    started = time.monotonic()
    worker = threading.Thread(target=play, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "the client hung after the timeout"
    assert time.monotonic() - started < 10
    assert isinstance(outcome[0], EngineTimeoutError), outcome
    engine_pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while not _gone(engine_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(engine_pid), "the engine the script started was stopped too"


def test_a_variant_that_does_not_exist_starts_no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []
    monkeypatch.setattr("blokus.gtp.subprocess.Popen", lambda *a, **k: started.append(a))
    with pytest.raises(blokus.UnknownVariantError, match="nosuch"):
        Engine.popen(server(), variant="nosuch")
    with pytest.raises(blokus.InvalidArgumentError, match="timeout must be a finite number above 0"):
        Engine.popen(server(), timeout=float("nan"))
    assert started == []


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), -1.0, 0.0, 1e300])
def test_a_time_to_answer_out_of_range_is_refused(timeout: float) -> None:
    with pytest.raises(blokus.InvalidArgumentError, match="timeout must be a finite number above 0, at most 1e"):
        Engine.popen(server(), timeout=timeout)


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), 1e300, 0.0])
def test_a_time_per_move_out_of_range_is_refused(engine: Engine, seconds: float) -> None:
    with pytest.raises(blokus.InvalidArgumentError, match="seconds must be a finite number above 0, at most 1e"):
        GtpBot(engine).choose(Board("duo"), seconds)


def test_a_search_over_gtp_given_next_to_no_time_still_moves() -> None:
    # An equal-time match gives the first move the mean time of an engine that has not
    # thought yet: next to nothing, which must reach the engine as a short time, not as 0.
    with GtpBot(Engine.popen(server("--variant", "duo", "--bot", "mcts:seed=1"), timeout=30)) as bot:
        board = Board("duo")
        move = bot.choose(board, 1e-6)
        assert move in board.legal_moves


def answering(text: str) -> Engine:
    """An engine that answers every command with ``text`` (a Python expression)."""
    script = (
        f"import sys\nfor line in sys.stdin:\n    print('=' + line.split()[0] + ' ' + {text} + chr(10), flush=True)"
    )
    return Engine.popen([sys.executable, "-c", script], name="numbers", variant="duo", timeout=30)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1e400 0.5 e10", "answered '1e400', which is not a finite number"),
        ("nan 0.5 e10", "answered 'nan', which is not a finite number"),
        ("2.5 0.5 e10", "answered '2.5', which is not a count"),
        ("-3 0.5 e10", "answered '-3', which is not a count"),
        ("10 nan e10", "answered 'nan', which is not a finite number"),
        ("10 1e400 e10", "answered '1e400', which is not a finite number"),
    ],
)
def test_move_values_out_of_range_are_protocol_errors(text: str, message: str) -> None:
    with answering(repr(text)) as e, pytest.raises(EngineProtocolError, match=f"numbers: 'move_values': {message}"):
        e.move_values()


def test_a_huge_answer_is_cut_in_the_error() -> None:
    with answering("'x' * 500_000") as e, pytest.raises(EngineProtocolError) as error:
        e.genmove("b")
    assert len(str(error.value)) < 2000 and "characters left out" in str(error.value)


def test_an_engine_that_floods_its_output_is_stopped() -> None:
    with fake("flood", "genmove") as e:
        with pytest.raises(EngineProtocolError, match=r"fake: 'genmove b': answered more than 64 MiB \(or a line of"):
            GtpBot(e).choose(Board("duo"))
        assert not e.alive
