"""``blokus gtp``: the framing, commands, colour tokens and error texts of Pentobi's GTP engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from blokus import Board, Move, sgf
from blokus.bots import Analysis, GreedyBot, RandomBot, RootMove
from blokus.gtp_server import GtpServer, response, split_line

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def ok(text: str = "", id: str = "") -> str:
    return response(True, id, text)


def fail(text: str, id: str = "") -> str:
    return response(False, id, text)


def body(answer: str | None) -> str:
    assert answer is not None and answer.startswith("= "), answer
    return answer[2:-2]


@pytest.fixture
def duo() -> GtpServer:
    return GtpServer(RandomBot(seed=1), "duo")


# --- framing ---


def test_answers_end_with_one_empty_line_and_echo_the_id(duo: GtpServer) -> None:
    assert duo.handle("name") == "= blokus random\n\n"
    assert duo.handle("12 name") == "=12 blokus random\n\n"
    assert duo.handle("7 undo") == "?7 cannot undo\n\n"
    assert duo.handle("3 clear_board") == "=3 \n\n", "an empty answer is '=' and a space, as Pentobi writes it"


def test_a_number_alone_is_a_command_name(duo: GtpServer) -> None:
    assert duo.handle("12") == fail("unknown command (12)")
    assert duo.handle("frobnicate 1") == fail("unknown command (frobnicate)")


def test_blank_lines_and_comments_are_skipped(duo: GtpServer) -> None:
    for line in ["", "   ", "\t", "# a comment", "   # indented comment", "\r\n"]:
        assert duo.handle(line) is None, repr(line)
    assert duo.handle("name # what is it called") == ok("blokus random")
    assert duo.handle("5\tname\r\n") == ok("blokus random", "5"), "tabs are spaces, CR LF is a line end"
    assert duo.handle("  name  ") == ok("blokus random")


def test_multi_line_answers(duo: GtpServer) -> None:
    answer = duo.handle("list_commands")
    assert answer is not None and answer.endswith(
        "quit\nreg_genmove\nsavesgf\nset_game\nset_random_seed\nshowboard\ntime_left\ntime_settings\nundo\nversion\n\n"
    )
    assert "\n\n" not in answer[:-2], "only the end of the answer has an empty line"
    # An empty line inside an answer would end it early: it becomes a line with one space.
    assert response(True, "", "a\n\nb") == "= a\n \nb\n\n"
    assert response(False, "4", "x\n") == "?4 x\n\n"


def test_quoted_words() -> None:
    assert split_line('loadsgf "a b/c.blksgf" 2') == ["loadsgf", "a b/c.blksgf", "2"]
    assert split_line('savesgf ""') == ["savesgf", ""]
    assert split_line("  play  b   e10 ") == ["play", "b", "e10"]


def test_framing_over_a_pipe() -> None:
    """The real command: bytes in, bytes out, quit ends it, nothing is written to stderr."""
    lines = b"1 name\n\n# comment\r\n2 play b e10,d11,e11,f11,e12\n3 play b e10\nbogus\n4 quit\nname\n"
    run = subprocess.run(
        [sys.executable, "-m", "blokus", "gtp", "--game", "duo"], input=lines, capture_output=True, timeout=60
    )
    assert run.returncode == 0 and run.stderr == b""
    assert run.stdout == (
        b"=1 blokus greedy\n\n=2 \n\n?3 not b's turn (w is to play)\n\n? unknown command (bogus)\n\n=4 \n\n"
    )


# --- commands ---


def test_colour_tokens_are_pentobis(duo: GtpServer) -> None:
    for token in ["b", "B", "black", "Blue", "purple"]:
        assert body(duo.handle(f"reg_genmove {token}")), token
    assert duo.handle("all_legal 1") == fail("invalid color argument '1'")
    assert duo.handle("all_legal Red") == fail("invalid color argument 'red'")
    assert duo.handle("genmove b w") == fail("too many arguments")
    classic = GtpServer(RandomBot(seed=1), "classic")
    assert classic.handle("play blue a20") == ok()
    assert classic.handle("play 2 t20") == ok()
    assert classic.handle("play RED t1") == ok()
    assert classic.handle("play green a1") == ok()
    assert classic.handle("play b a19") == fail("invalid color argument 'b'")
    trigon3 = GtpServer(RandomBot(seed=1), "trigon_3")
    assert trigon3.handle("all_legal 4") == fail("invalid color argument '4'")
    assert trigon3.handle("all_legal green") == fail("invalid color argument 'green'")
    junior = GtpServer(RandomBot(seed=1), "junior")
    assert junior.handle("play b e10") == ok()
    assert junior.handle("play green j5") == ok(), (
        "in two-colour variants green is the second colour, as Pentobi has it"
    )


def test_play_and_its_errors(duo: GtpServer) -> None:
    assert duo.handle("play b pass") == fail("invalid move")
    assert duo.handle("play b null") == fail("play pass not supported (anymore)")
    assert duo.handle("play b") == fail("missing argument 2")
    assert duo.handle("play") == fail("missing argument 1")
    assert duo.handle("play b z99") == fail("invalid move")
    assert duo.handle("play b a1") == fail("illegal move")
    assert duo.handle("play b E12,D11,e11,F11,e10") == ok(), "cells in any order and case"
    assert duo.handle("play b j5") == fail("not b's turn (w is to play)")
    assert duo.handle("play w e10,d11,e11,f11,e12") == fail("illegal move")
    assert duo.handle("play w j5") == ok()
    assert duo.handle("play b f9") == ok()
    assert duo.handle("play w k4") == fail("piece already played")
    assert [str(m) for m in duo.board.move_stack] == ["e10,d11,e11,f11,e12", "j5", "f9"]


def test_spaces_around_the_commas_of_a_move_are_taken_as_pentobi_takes_them(duo: GtpServer) -> None:
    assert duo.handle("play black e10,d11,e11,f11,e12") == ok()
    assert duo.handle("play w J5,I5 , K5,J4,J6") == ok()
    assert str(duo.board.peek()) == "j4,i5,j5,k5,j6"


def test_genmove_plays_and_reg_genmove_does_not(duo: GtpServer) -> None:
    move = body(duo.handle("reg_genmove b"))
    assert duo.board.ply == 0 and Board("duo").is_legal(move)
    played = body(duo.handle("genmove b"))
    assert [str(m) for m in duo.board.move_stack] == [played]
    assert duo.handle("genmove b") == fail("not b's turn (w is to play)")
    assert body(duo.handle("g"))
    assert duo.board.ply == 2


def test_a_colour_with_no_move_passes() -> None:
    server = GtpServer(GreedyBot(seed=3), "duo")
    board = Board("duo")
    while not board.is_game_over():
        color = "bw"[board.turn or 0]
        other = "wb"[board.turn or 0]
        if board.turn is not None and not server._can_move(1 - board.turn):
            # The other colour has no move: it passes, and lists no moves, though not to move.
            assert server.handle(f"genmove {other}") == ok("pass")
            assert server.handle(f"all_legal {other}") == ok()
            assert server.handle(f"reg_genmove {other}") == fail("player failed to generate a move")
        move = body(server.handle(f"genmove {color}"))
        board.push(move)
    assert server.handle("genmove b") == ok("pass") and server.handle("genmove w") == ok("pass")
    assert server.handle("final_score") == ok(board.result())


def test_all_legal_for_any_colour() -> None:
    server = GtpServer(RandomBot(seed=1), "classic")
    assert server.handle("play 1 a20") == ok()
    # Yellow is to move; Red's moves are listed all the same, as if it were its turn.
    red = sorted(body(server.handle("all_legal 3")).split("\n"))
    board = Board.from_setup("classic", [["a20"], [], [], []], turn=2)
    assert red == sorted(str(m) for m in board.legal_moves) and len(red) == 58


def test_final_score_has_pentobis_form() -> None:
    server = GtpServer(RandomBot(seed=1), "classic")
    assert server.handle("final_score") == ok("0 0 0 0 "), "every colour's points, each with a space after it"
    server.handle("play 1 a20")
    assert server.handle("final_score") == ok("1 0 0 0 ")
    two = GtpServer(RandomBot(seed=1), "classic_2")
    two.handle("play 1 a20,a19")
    assert two.handle("final_score") == ok("B+2")
    duo = GtpServer(RandomBot(seed=1), "duo")
    duo.handle("play b e10")
    duo.handle("play w j5,j6")
    assert duo.handle("final_score") == ok("W+1")


def test_set_game_clear_board_and_undo(duo: GtpServer) -> None:
    assert duo.handle("set_game Blokus Trigon Three-Player") == ok()
    assert duo.variant.id == "trigon_3"
    assert duo.handle("set_game blokus   DUO") == ok()
    assert duo.variant.id == "duo"
    assert duo.handle("set_game Blokus 3D Tower Two-Player") == ok()
    assert duo.variant.id == "3d_tower_2"
    assert duo.handle("set_game Nexos") == fail("invalid argument")
    assert duo.handle("set_game") == fail("invalid argument")
    duo.handle("set_game Blokus Duo")
    duo.handle("play b e10")
    duo.handle("play w j5")
    assert duo.handle("undo") == ok() and duo.board.ply == 1
    assert duo.handle("clear_board") == ok() and duo.board.ply == 0
    assert duo.handle("undo") == fail("cannot undo")
    assert duo.handle("clear_board now") == fail("no arguments allowed")


def test_a_users_variant_is_set_by_its_name() -> None:
    from blokus import Variant

    mini = Variant.from_file(EXAMPLES / "mini.toml")
    server = GtpServer(RandomBot(seed=1), mini)
    server.handle("set_game Blokus Duo")
    assert server.handle(f"set_game {mini.sgf_name or mini.id}") == ok()
    assert server.variant == mini
    assert server.handle(f"set_game {mini.id}") == ok()


def test_loadsgf_and_savesgf(duo: GtpServer, tmp_path: Path) -> None:
    moves = ["e10,d11,e11,f11,e12", "j5,j6", "f9", "k4"]
    path = tmp_path / "a game.blksgf"
    sgf.dump(Board("duo", moves), path)
    assert duo.handle(f'loadsgf "{path}"') == ok()
    assert [str(m) for m in duo.board.move_stack] == moves
    assert duo.handle(f'loadsgf "{path}" 3') == ok(), "the position before move 3"
    assert [str(m) for m in duo.board.move_stack] == moves[:2]
    assert duo.handle(f'loadsgf "{path}" 99') == ok()
    assert duo.board.ply == 4
    assert duo.handle(f'loadsgf "{path}" 0') == fail("argument 2 must be greater or equal 1")
    assert duo.handle(f'loadsgf "{path}" x') == fail("argument 2 ('x') has invalid type")
    missing = tmp_path / "none.blksgf"
    assert duo.handle(f"loadsgf {missing}") == fail(f"Could not open '{missing}': No such file or directory")
    classic = tmp_path / "classic.blksgf"
    sgf.dump(Board("classic", ["a20"]), classic)
    assert duo.handle(f"loadsgf {classic}") == ok()
    assert duo.variant.id == "classic", "a game file sets its variant"
    out = tmp_path / "saved.blksgf"
    assert duo.handle(f"savesgf {out}") == ok()
    assert [str(m) for m in sgf.load(out).end().board().move_stack] == ["a20"]
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[zz1])")
    answer = duo.handle(f"loadsgf {bad}")
    assert answer is not None and answer.startswith("? ") and "zz1" in answer


def test_loadsgf_of_a_setup(duo: GtpServer, tmp_path: Path) -> None:
    board = Board.from_setup("duo", [["e10,d11,e11,f11,e12"], ["j5"]], turn=1)
    path = tmp_path / "setup.blksgf"
    sgf.dump(board, path)
    assert duo.handle(f"loadsgf {path}") == ok()
    assert duo.board == board and duo.board.turn == 1
    assert body(duo.handle("genmove w"))
    assert duo.handle("undo") == ok()
    assert duo.handle("undo") == fail("cannot undo"), "a setup is the start, not a move"


def test_small_commands(duo: GtpServer) -> None:
    from blokus import __version__

    assert duo.handle("protocol_version") == ok("2")
    assert duo.handle("version") == ok(__version__)
    assert duo.handle("known_command genmove") == ok("true")
    assert duo.handle("known_command frobnicate") == ok("false")
    assert float(body(duo.handle("cputime"))) >= 0
    showboard = body(duo.handle("showboard"))
    assert showboard.startswith("\n") and str(duo.board) in showboard
    assert duo.handle("set_random_seed x") == fail("argument 1 ('x') has invalid type")
    assert duo.handle("quit") == ok() and duo.quit


def test_set_random_seed_reseeds_the_bot() -> None:
    server = GtpServer(RandomBot(seed=1), "classic")
    server.handle("set_random_seed 42")
    first = [body(server.handle("reg_genmove 1")) for _ in range(5)]
    server.handle("set_random_seed 42")
    assert [body(server.handle("reg_genmove 1")) for _ in range(5)] == first
    server.handle("clear_board")
    assert [body(server.handle("reg_genmove 1")) for _ in range(5)] != first, "clear_board keeps the numbers going"


class Recorder:
    """A bot that remembers the time it was given and reports made-up search numbers."""

    name = "recorder"

    def __init__(self) -> None:
        self.given: list[float | None] = []

    def choose(self, board: Board, seconds: float | None = None) -> Move:
        return self.analyse(board, seconds).best

    def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
        self.given.append(seconds)
        moves = sorted(board.legal_moves, key=str)[:3]
        rows = tuple(RootMove(m, 10 * (3 - i), 0.6 - 0.1 * i) for i, m in enumerate(moves))
        n = board.variant.num_players
        player = board.player or 0
        value = tuple(0.7 if p == player else 0.3 / (n - 1) for p in range(n))
        return Analysis(rows, value, (moves[0],), moves[0])

    def reset(self) -> None:
        pass


def test_move_values_and_get_value_come_from_the_analysis() -> None:
    server = GtpServer(Recorder(), "duo")
    assert server.handle("move_values") == ok()
    assert server.handle("get_value") == fail("no move generated yet")
    move = body(server.handle("genmove b"))
    lines = body(server.handle("move_values")).split("\n")
    assert lines[0].split()[:3] == ["30", "30.0", "0.600"] and lines[0].endswith(f"]{move}")
    assert lines[0].split()[3].startswith("[") and len(lines) == 3
    assert server.handle("get_value") == ok("0.7")


def test_time_settings_give_the_bot_a_budget() -> None:
    bot = Recorder()
    server = GtpServer(bot, "duo")
    body(server.handle("genmove b"))
    assert bot.given == [None], "no clock: the bot's own setting"
    server.handle("time_settings 0 2 1")
    server.handle("time_left w 2 1")
    body(server.handle("genmove w"))
    assert bot.given[-1] == pytest.approx(1.9), "byo-yomi of 2 s for one move, less a twentieth"
    server.handle("time_settings 100 0 0")
    body(server.handle("genmove b"))
    # 100 s of main time over half of the 20 pieces Purple still has (10 moves), less a twentieth.
    assert bot.given[-1] == pytest.approx(9.5)
    server.handle("time_left w 0.5 0")
    body(server.handle("genmove w"))
    assert bot.given[-1] == pytest.approx(0.95 * 0.5 / 10)
    server.handle("time_settings 0 1 0")
    body(server.handle("genmove b"))
    assert bot.given[-1] is None, "byo-yomi without stones: no limit"
    assert server.handle("time_settings 1 2") == fail("command needs 3 arguments")
    assert server.handle("time_left w -1 0") == fail("argument 2 must be greater or equal 0")


def test_a_bot_that_chooses_an_illegal_move_is_not_believed() -> None:
    class Cheater(Recorder):
        def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
            m = board.parse_move("a1")
            return Analysis((), (0.5, 0.5), (m,), m)

    server = GtpServer(Cheater(), "duo")
    assert server.handle("genmove b") == fail("player generated illegal move: a1")
    assert server.board.ply == 0


def test_a_bot_that_fails_fails_the_command_not_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    class Broken(Recorder):
        def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
            raise ZeroDivisionError("oops")

    server = GtpServer(Broken(), "duo")
    assert server.handle("genmove b") == fail("internal error: ZeroDivisionError: oops")
    assert "ZeroDivisionError" in capsys.readouterr().err, "the traceback goes to stderr"
    assert server.handle("name") == ok("blokus recorder")


# --- values out of range (each once took the server down a path it could not finish) ---


def test_a_seed_past_64_bits_is_refused_and_the_next_move_is_made(duo: GtpServer) -> None:
    assert duo.handle("set_random_seed 18446744073709551616") == fail("argument 1 must be less or equal 1.84467e+19")
    assert duo.handle("set_random_seed 18446744073709551615") == ok()
    assert body(duo.handle("genmove b")) in {str(m) for m in Board("duo").legal_moves}


@pytest.mark.parametrize(
    ("command", "argument"),
    [("time_settings 1e308 0 0", 1), ("time_settings 0 1e308 1", 2), ("time_left b 1e308 0", 2)],
)
def test_a_clock_of_endless_time_is_refused(duo: GtpServer, command: str, argument: int) -> None:
    assert duo.handle(command) == fail(f"argument {argument} must be less or equal 3.1536e+07")


@pytest.mark.parametrize("clock", [["time_left b 0 0"], ["time_settings 0 0.001 1", "time_left b 0 1"]])
def test_a_search_with_no_time_left_still_moves(clock: list[str]) -> None:
    from blokus.bots import MctsBot

    server = GtpServer(MctsBot(seconds=5, seed=1), "duo")
    for line in clock:
        assert server.handle(line) == ok()
    assert body(server.handle("genmove b")) in {str(m) for m in Board("duo").legal_moves}


def test_loadsgf_of_an_endless_file_is_refused(duo: GtpServer) -> None:
    answer = duo.handle("loadsgf /dev/zero")
    assert answer == fail("/dev/zero: the file is larger than 256 MiB, the most a record may have")
    assert duo.handle("final_score") == ok("0"), "the position is as it was"
