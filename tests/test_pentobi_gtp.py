"""Against Pentobi's own engine and controller (``pentobi-gtp``, ``twogtp``), where installed:
its legal moves are ours at every position of the conformance games, the client plays whole
games with it in every variant it has, its ``twogtp`` plays ``blokus gtp``, and ``blokus match``
plays it. Skipped where Pentobi's GTP tools are not on the path (build them from Pentobi's
source with ``-DPENTOBI_BUILD_GTP=ON``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from blokus import Board, Variant, match, sgf
from blokus.bots import GreedyBot
from blokus.errors import EngineTerminatedError
from blokus.gtp import Engine, GtpBot
from conftest import conformance_games

PENTOBI = shutil.which("pentobi-gtp")
TWOGTP = shutil.which("twogtp")
pytestmark = pytest.mark.skipif(PENTOBI is None, reason="pentobi-gtp is not on the path")

#: The variants Pentobi has (and we have).
VARIANTS = ["classic", "classic_2", "classic_3", "duo", "junior", "trigon", "trigon_2", "trigon_3"]


def pentobi(variant: str, level: int = 1) -> Engine:
    assert PENTOBI is not None
    command = [PENTOBI, "--nobook", "--quiet", "--noresign", "--level", str(level), "--game", variant]
    return Engine.popen(command, variant=variant, timeout=120)


@pytest.mark.parametrize("variant", VARIANTS)
def test_all_legal_agrees_at_every_position_of_the_conformance_games(variant: str, conformance_dir: Path) -> None:
    with pentobi(variant) as engine:
        for game in conformance_games(conformance_dir / f"{variant}.jsonl.gz"):
            engine.clear_board()
            board = Board(variant)
            for ply in game["plies"]:
                color = ply["color"]
                ours = sorted(str(m) for m in board.legal_moves) if board.turn == color else []
                theirs = [str(m) for m in engine.all_legal(color)]
                assert theirs == ours == ply["legal"], (variant, game["seed"], ply["ply"])
                if ply["move"] is not None:
                    engine.play(color, ply["move"])
                    board.push(ply["move"])
            assert engine.final_score() == board.result() == game["final"]["final_score"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_client_plays_whole_games_with_pentobi(variant: str, tmp_path: Path) -> None:
    with pentobi(variant) as engine:
        bot = GtpBot(engine, seed=1)
        other = GreedyBot(seed=2)
        board = Board(variant)
        bot.reset()
        while not board.is_game_over():
            # Pentobi plays the first player, greedy the others (in classic_3, the shared
            # colour too when it is theirs).
            board.push(bot.choose(board) if board.player == 0 else other.choose(board))
        bot._sync(board)
        # Its quirks, met: a trailing space in multi-player scores, an error for a colour
        # without a move in reg_genmove, "pass" in genmove.
        assert engine.final_score() == board.result()
        assert all(engine.reg_genmove(c) is None and engine.genmove(c) is None for c in range(board.variant.num_colors))
        path = tmp_path / "pentobi.blksgf"
        engine.savesgf(path)
        assert sgf.load(path).end().board().move_stack == board.move_stack, "Pentobi's record of the game is ours"


def test_reseeding_makes_pentobis_games_reproducible() -> None:
    games = []
    with pentobi("duo", level=2) as engine:
        for _ in range(2):
            bot = GtpBot(engine, seed=12)
            bot.reset()
            board = Board("duo")
            while not board.is_game_over():
                board.push(bot.choose(board))
            games.append(board.move_stack)
    assert games[0] == games[1]


def test_pentobi_will_not_start_without_a_book_option() -> None:
    assert PENTOBI is not None
    with Engine.popen([PENTOBI, "--quiet"]) as engine, pytest.raises(EngineTerminatedError, match="--nobook"):
        engine.name()


@pytest.mark.skipif(TWOGTP is None, reason="twogtp is not on the path")
def test_twogtp_plays_blokus_gtp_against_pentobi(tmp_path: Path) -> None:
    assert TWOGTP is not None and PENTOBI is not None
    ours = f"{sys.executable} -m blokus gtp --bot greedy --game duo"
    theirs = f"{PENTOBI} --nobook --quiet --level 1 --game duo"
    run = subprocess.run(
        [TWOGTP, "--black", ours, "--white", theirs, "--game", "duo", "--nugames", "10", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    rows = [line.split("\t") for line in (tmp_path / "output.dat").read_text().splitlines()[1:]]
    games = [line for line in (tmp_path / "output.blksgf").read_text().splitlines() if line.strip()]
    assert len(rows) == len(games) == 10
    for row, text in zip(sorted(rows, key=lambda r: int(r[0])), games):
        game = sgf.loads(text)
        board = game.end().board()
        assert board.is_game_over() and board.ply == int(row[2])
        # twogtp's result is the score of the engine it calls black: blokus gtp.
        ours_player = int(row[3])
        scores = board.scores()
        expected = (
            1.0
            if scores[ours_player] > scores[1 - ours_player]
            else 0.0
            if scores[ours_player] < scores[1 - ours_player]
            else 0.5
        )
        assert float(row[1]) == expected
    analyze = subprocess.run(
        [TWOGTP, "--analyze", str(tmp_path / "output.dat")], capture_output=True, text=True, timeout=60
    )
    assert analyze.returncode == 0 and analyze.stdout.startswith("Gam 10")


def test_blokus_match_against_pentobi(tmp_path: Path) -> None:
    assert PENTOBI is not None
    spec = f"{PENTOBI} --nobook --quiet --level 1"
    r = match(["greedy", spec], "duo", games=4, jobs=2, out=tmp_path)
    assert len(r.records) == 4 and all(g.forfeit is None for g in r.records)
    assert r.elo() is not None and "Elo greedy vs" in r.summary()
    if TWOGTP is not None:
        analyze = subprocess.run(
            [TWOGTP, "--analyze", str(tmp_path / "results.dat")], capture_output=True, text=True, timeout=60
        )
        assert analyze.returncode == 0 and analyze.stdout.startswith("Gam 4"), "twogtp reads our results table"


def test_a_variant_pentobi_does_not_have_is_refused() -> None:
    with pentobi("duo") as engine, pytest.raises(Exception, match="invalid argument"):
        engine.set_game(Variant("3d_tower"))
