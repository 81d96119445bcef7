"""Pentobi reads the files we write: its thumbnailer (``pentobi-thumbnailer``, in the Debian and
Ubuntu ``pentobi`` package) draws each of our files, and every cell of its picture has the colour
our board has there. Skipped where Pentobi is not installed.

The thumbnailer reads the main line (moves, setup in any node, ``AE``) without checking the
rules, and draws a file that starts with a setup as that setup."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from blokus import Board, sgf
from conftest import conformance_files, conformance_games

THUMBNAILER = shutil.which("pentobi-thumbnailer") or shutil.which("/usr/games/pentobi-thumbnailer")
pytestmark = pytest.mark.skipif(THUMBNAILER is None, reason="pentobi-thumbnailer is not installed")

Pixel = tuple[int, int, int]


def read_png(path: Path) -> list[list[Pixel]]:
    """Rows of RGB pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what Qt writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, idat, width, height, bpp = 8, b"", 0, 0, 4
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i : i + 8])
        body = data[i + 8 : i + 8 + n]
        i += 12 + n
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[list[Pixel]] = []
    prev = bytearray(stride)
    k = 0
    for _ in range(height):
        kind_ = raw[k]
        line = bytearray(raw[k + 1 : k + 1 + stride])
        k += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind_ == 1:
                line[x] = (line[x] + a) & 255
            elif kind_ == 2:
                line[x] = (line[x] + b) & 255
            elif kind_ == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind_ == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([(line[x * bpp], line[x * bpp + 1], line[x * bpp + 2]) for x in range(width)])
        prev = line
    return rows


def pentobi_picture(text: str, tmp_path: Path, size: int = 280) -> list[list[Pixel]]:
    path = tmp_path / "game.blksgf"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "game.png"
    out.unlink(missing_ok=True)
    assert THUMBNAILER is not None
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    subprocess.run(
        [THUMBNAILER, "-s", str(size), str(path), str(out)], env=env, check=True, timeout=60, capture_output=True
    )
    assert out.exists(), "Pentobi could not read the file"
    return read_png(out)


def assert_same_board(board: Board, pixels: list[list[Pixel]]) -> None:
    """Every cell centre of Pentobi's picture is grey where our cell is empty, and one colour per
    colour of ours where it is covered (square boards fill the picture)."""
    v = board.variant
    coords = v.cell_coords()
    cols = max(x for x, _, _ in coords) + 1
    rows = max(y for _, y, _ in coords) + 1
    height, width = len(pixels), len(pixels[0])
    seen: dict[int, Pixel] = {}
    for cell, (x, y, _) in enumerate(coords):
        pixel = pixels[int((rows - 1 - y + 0.5) * height / rows)][int((x + 0.5) * width / cols)]
        empty = max(pixel) - min(pixel) < 30
        ours = board.cell_colors()[cell]
        where = f"{v.cell_name(cell)}: ours {ours}, Pentobi's {pixel}"
        assert empty == (ours < 0), where
        if ours >= 0:
            assert seen.setdefault(ours, pixel) == pixel, where
    assert len(set(seen.values())) == len(seen)


SQUARE_FILES = [
    p for p in conformance_files() if p.name.split(".")[0] in ("classic", "classic_2", "classic_3", "duo", "junior")
]


@pytest.mark.parametrize("path", SQUARE_FILES, ids=lambda p: p.name.split(".")[0])
def test_pentobi_reads_our_games_setups_and_trees(path: Path, tmp_path: Path) -> None:
    game = next(conformance_games(path))
    board = sgf.loads(game["sgf"]).end().board()
    moves = board.move_stack
    assert_same_board(board, pentobi_picture(sgf.dumps(board), tmp_path))
    # A game that starts from a setup (Pentobi draws the setup).
    middle = Board(board.variant, moves[: len(moves) // 2])
    setup = Board.from_bpn(middle.bpn(), moves=moves[len(moves) // 2 :])
    assert_same_board(Board.from_bpn(middle.bpn()), pentobi_picture(sgf.dumps(setup), tmp_path))
    # A tree with variations, comments, unknown properties, and a setup in a later node.
    tree = sgf.Game(board.variant)
    tree.comment = "Grüße ] \\ ok"
    tree.set("XY", ["kept", "twice"])
    node: sgf.Node = tree
    for move in moves[:6]:
        node.add_variation(next(iter(node.board().legal_moves)), comment="side")
        node = node.add_main_variation(move, comment="main")
    later = sgf.Node(node, {"AE": [str(moves[0])], "PL": [sgf.move_property(board.variant, 1)]})
    node.children.append(later)
    assert_same_board(later.board(), pentobi_picture(sgf.dumps(tree), tmp_path))
