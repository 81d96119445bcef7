"""Replays Pentobi's conformance games through the Python API: at every turn the colour and
player to move and the exact set of legal moves as text; at the end the points and result line."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import blokus
from conftest import CONFORMANCE, conformance_files, conformance_games

FLAT_FILES = [p for p in conformance_files() if not p.name.startswith("3d_")]


def test_conformance_games_are_present() -> None:
    assert FLAT_FILES, f"no conformance games in {CONFORMANCE}"


@pytest.mark.parametrize("path", FLAT_FILES, ids=lambda p: p.name.split(".")[0])
def test_replay(path: Path) -> None:
    games = list(conformance_games(path))
    variant_id = games[0]["variant"]
    assert variant_id in blokus.variants(), f"{path.name}: no built-in variant {variant_id}"
    for n, game in enumerate(games):
        board = blokus.Board(variant_id)
        assert board.variant.sgf_name == game["gm"]
        assert board.variant.num_colors == game["num_colors"]
        assert board.variant.num_players == game["num_players"]
        for ply in game["plies"]:
            where = f"{path.name} game {n} ply {ply['ply']}"
            if ply["move"] is None:
                assert ply["n_legal"] == 0
                assert board.turn != ply["color"], where
                continue
            assert board.turn == ply["color"], where
            assert board.player == ply["player"], where
            legal = board.legal_moves
            ours = sorted(str(m) for m in legal)
            assert len(legal) == len(ours) == ply["n_legal"], where
            assert ours == ply["legal"], where
            move = board.parse_move(ply["move"])
            assert move in legal and move.piece.name == ply["piece"], where
            board.push(move)
        assert board.is_game_over(), f"{path.name} game {n}"
        assert board.points() == game["final"]["points"], f"{path.name} game {n}"
        assert board.result() == game["final"]["final_score"], f"{path.name} game {n}"
        outcome = board.outcome()
        assert outcome is not None and outcome.result == game["final"]["final_score"]
        colors = board.move_colors()
        played = [colors.count(c) for c in range(board.variant.num_colors)]
        assert played == game["final"]["pieces_played"], f"{path.name} game {n}"


CUBE_FILES = [p for p in conformance_files() if p.name.startswith("3d_")]


def test_blokus_3d_conformance_games_are_present() -> None:
    assert CUBE_FILES, f"no Blokus 3D conformance games in {CONFORMANCE}"


@pytest.mark.parametrize("path", CUBE_FILES, ids=lambda p: p.name.split(".")[0])
def test_replay_blokus_3d(path: Path) -> None:
    """Blokus 3D records: a knocked-out colour has one ply without a move; `legal` is checked
    against our list and its sha256; at the end the points, visible columns, pieces left and
    winners."""
    for n, game in enumerate(conformance_games(path)):
        board = blokus.Board(game["variant"])
        assert board.variant.num_colors == game["num_colors"]
        assert board.variant.num_players == game["num_players"]
        out: set[int] = set()
        for ply in game["plies"]:
            where = f"{path.name} game {n} ply {ply['ply']}"
            if ply["move"] is None:
                assert ply["n_legal"] == 0 and board.turn != ply["color"], where
                out.add(ply["color"])
                continue
            assert board.turn == ply["color"] and board.player == ply["player"], where
            ours = sorted(str(m) for m in board.legal_moves)
            assert len(ours) == len(board.legal_moves) == ply["n_legal"], where
            assert hashlib.sha256("\n".join(ours).encode()).hexdigest() == ply["legal_sha256"], where
            assert ours == ply["legal"], where
            board.push(ply["move"])
        final = game["final"]
        assert board.is_game_over()
        assert out == set(range(board.variant.num_colors)), "every colour is knocked out once"
        assert board.points() == final["points_per_color"], f"{path.name} game {n}"
        assert [len(board.pieces_left(c)) for c in range(board.variant.num_colors)] == final["pieces_left"]
        tops = board.top_colors()
        assert [int((tops == c).sum()) for c in range(board.variant.num_colors)] == final["visible"]
        outcome = board.outcome()
        assert outcome is not None and list(outcome.winners) == final["winners"], f"{path.name} game {n}"
