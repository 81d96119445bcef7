"""``blokus gtp`` under hostile input: any line gets an answer in GTP's framing (``=`` or
``?``, one empty line after), never a traceback or an internal error, and a refused command
leaves the position as it was. Hypothesis writes the lines from the server's own commands,
misspellings of them and arguments of every kind; a real server process is fed raw bytes."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blokus import Board
from blokus.bots import RandomBot
from blokus.gtp_server import MAX_LINE_BYTES, GtpServer, clean_line, split_line

COMMANDS = GtpServer(RandomBot(seed=0), "duo")._commands
_FOLDER = tempfile.mkdtemp(prefix="blokus-gtp-fuzz-")
_RECORD = Path(_FOLDER) / "game.blksgf"
_RECORD.write_text("(;GM[Blokus Duo];B[e10];W[j5])")

TOKENS = st.sampled_from(
    [
        *["b", "w", "1", "2", "3", "4", "blue", "yellow", "red", "green", "black", "white"],
        *["e10", "j5", "e10,d11,e11,f11,e12", "a1", "z99", "pass", "e10,e10", "a1@1"],
        *["0", "-1", "1.5", "1e308", "-1e308", "nan", "inf", "18446744073709551616", "99999999999999999999"],
        "Blokus Duo",
        "Blokus",
        "Blokus Trigon",
        "Blokus 3D",
        str(_RECORD),
        f"{_FOLDER}/saved.blksgf",
        "/no/such/folder/x.blksgf",
        _FOLDER,
        '"quoted arg"',
        "#",
        "\x00",
        "\x07\t",
        "é",
        "\ud7ff",
    ]
)
NAMES = st.one_of(
    st.sampled_from(sorted(COMMANDS)),
    st.sampled_from(sorted(COMMANDS)).map(lambda n: n[:-1] or "x"),
    st.sampled_from(sorted(COMMANDS)).map(str.upper),
    st.text(max_size=8),
)
# (``savesgf`` gets only the paths of PLAUSIBLE: a generated one could be anywhere.)
LINES = st.builds(
    lambda id, name, args: " ".join([*id, name, *args]),
    st.lists(st.sampled_from(["1", "42", "007", "-3"]), max_size=1),
    NAMES,
    st.lists(st.one_of(TOKENS, st.text(max_size=12)), max_size=4),
).filter(lambda line: "savesgf" not in split_line(clean_line(line))[:2])
# Commands a controller sends, so that the hostile lines meet positions of every kind.
PLAUSIBLE = st.sampled_from(
    [
        *["play b e10", "play w j5", "play 1 e10,d11,e11,f11,e12", "play b a1", "play w pass", "p e10"],
        *["genmove b", "genmove w", "genmove 3", "reg_genmove b", "g", "undo", "clear_board", "all_legal w"],
        *["final_score", "showboard", "move_values", "get_value", "set_random_seed 5", "cputime"],
        *[f"loadsgf {_RECORD}", f"loadsgf {_RECORD} 2", f"savesgf {_FOLDER}/saved.blksgf"],
        *["set_game Blokus Duo", "set_game Blokus Classic", "set_game Blokus Trigon Three-Player"],
        *["time_settings 10 0 0", "time_settings 0 1 1", "time_left b 5 0", "time_left w 0 0"],
    ]
)
FRAMED = re.compile(r"[=?]\d* [^\n]*(?:\n[^\n]+)*\n\n|[=?]\d*\n\n", re.S)


def position(server: GtpServer) -> tuple[str, list[str]]:
    return server.variant.id, [str(m) for m in server.board.move_stack]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(LINES, PLAUSIBLE), min_size=1, max_size=20),
    st.sampled_from(["duo", "classic", "trigon_3", "3d_tower_2"]),
)
def test_every_line_gets_a_framed_answer_and_a_refusal_changes_nothing(lines: list[str], variant: str) -> None:
    server = GtpServer(RandomBot(seed=1), variant)
    for line in lines:
        words = split_line(clean_line(line))[:2]
        assert "savesgf" not in words or f"savesgf {_FOLDER}/" in line, "files are written in the test's folder only"
        before = position(server)
        answer = server.handle(line)
        if answer is None:
            continue
        assert FRAMED.fullmatch(answer), (line, answer)
        assert "internal error" not in answer, (line, answer)
        if answer.startswith("?"):
            assert position(server) == before, (line, answer)


def test_a_server_process_answers_hostile_bytes_and_goes_on() -> None:
    lines = [
        b"1 name\n",
        b"2 " + b"x" * (10 * 2**20) + b"\n",  # 10 MB: refused whole, its id kept
        b"3 play b e10\x00\n",
        b"4 play w \xff\xfe\n",
        b"5 set_game \x80Blokus\n",
        b"6 boardsize 19\n",
        b"7 time_settings nan 0 0\n",
        b"8 final_score\n",
        b"9 genmove w",  # the end of the input in the middle of a command
    ]
    run = subprocess.run(
        [sys.executable, "-m", "blokus", "gtp", "--game", "duo", "--bot", "random:seed=1"],
        input=b"".join(lines),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0 and run.stderr == b"", run.stderr[-2000:]
    answers = run.stdout.decode().split("\n\n")
    assert answers[-1] == ""
    ids = [a.split(" ", 1)[0] for a in answers[:-1]]
    assert ids == ["=1", "?2", "=3", "?4", "?5", "?6", "?7", "=8", "=9"], answers
    assert answers[1] == f"?2 line too long (more than {MAX_LINE_BYTES} bytes)"
    assert answers[7] == "=8 B+1"
    assert answers[8][3:] in {str(m) for m in Board("duo", ["e10"]).legal_moves}
