"""Takes the screenshots of the GUI in docs/images/ with headless Chromium (Debian's chromium and
chromium-driver, through Selenium): python examples/gui_screenshots.py [OUT_DIR]. With pngquant
installed, the pictures are made small (256 colours)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains

from blokus import Board, sgf
from blokus.bots import GreedyBot, RandomBot
from blokus.gui._geometry import board_geometry
from blokus.gui._session import Config
from blokus.gui.server import running

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "docs" / "images")


def browser() -> Any:
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1240,780", "--hide-scrollbars"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def wait(d: Any, script: str, timeout: float = 20) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = d.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(script)


def send(d: Any, message: dict[str, Any]) -> None:
    d.execute_script(f"window.blokusApp.ws.send({json.dumps(json.dumps(message))})")


def play(d: Any, moves: list[str]) -> None:
    for text in moves:
        ply = d.execute_script("return window.blokusApp.state.ply")
        send(d, {"type": "play", "move": text})
        wait(d, f"return window.blokusApp.state.ply > {ply}")


def hover(d: Any, vid: str, board: Board, pick_largest: bool = True) -> None:
    """Picks a large piece of the colour to move and holds it over a legal spot."""
    geo = board_geometry(board.variant)
    move = max(board.legal_moves, key=lambda m: (m.piece.size, m.id))
    where = {}
    for p, piece in enumerate(geo["pieces"]):
        for o, orientation in enumerate(piece["orientations"]):
            pl = orientation["placements"]
            for k in range(0, len(pl), 2):
                where[pl[k + 1]] = (p, o, pl[k])
    p, o, ref = where[move.id]
    d.find_element("css selector", f'.tray[data-color="{board.turn}"] [data-piece="{p}"]').click()
    d.execute_script(f"window.blokusApp.picked.orient = {o}; window.blokusApp.orients.set({p}, {o});")
    if geo["kind"] == "cube":
        x, y, _ = geo["cells"][ref]["xyz"]
        target = d.find_element("css selector", f'#board [data-col="{x},{y}"]')
    else:
        target = d.find_element("css selector", f'#board [data-cell="{ref}"]')
    ActionChains(d).move_to_element(target).perform()
    d.execute_script("document.querySelector('aside').scrollTop = 0")
    time.sleep(0.3)


def game(vid: str, plies: int, seed: int = 1) -> Board:
    b = Board(vid)
    bot = GreedyBot(seed=seed) if not vid.startswith("3d") else RandomBot(seed=seed)
    for _ in range(plies):
        b.push(bot.choose(b))
    return b


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    d = browser()
    try:
        # Play: Duo against the greedy bot, a piece held over the board.
        with running(Config("duo", ["human", "greedy"])) as url:
            d.get(url)
            wait(d, "return document.body.dataset.ready === 'yes'")
            b = game("duo", 6, 3)
            send(d, {"type": "seat", "player": 1, "spec": "human"})
            play(d, [str(m) for m in b.move_stack])
            send(d, {"type": "seat", "player": 1, "spec": "greedy"})
            time.sleep(0.3)
            hover(d, "duo", b)
            d.save_screenshot(str(OUT / "gui-duo.png"))
        # Trigon, four people at one screen.
        with running(Config("trigon", [])) as url:
            d.get(url)
            wait(d, "return document.body.dataset.ready === 'yes'")
            b = game("trigon", 12, 2)
            play(d, [str(m) for m in b.move_stack])
            hover(d, "trigon", b)
            d.save_screenshot(str(OUT / "gui-trigon.png"))
        # Blokus 3D: the top view with heights and the isometric view, a piece over a column.
        with running(Config("3d_tower", [])) as url:
            d.get(url)
            wait(d, "return document.body.dataset.ready === 'yes'")
            b = game("3d_tower", 12, 5)
            play(d, [str(m) for m in b.move_stack])
            hover(d, "3d_tower", b)
            d.save_screenshot(str(OUT / "gui-3d.png"))
        # Analysis: the MCTS bot's candidates, heat map, value bar and principal variation.
        with running(Config("duo", [], analysis="mcts:seconds=1,seed=1")) as url:
            d.get(url)
            wait(d, "return document.body.dataset.ready === 'yes'")
            b = game("duo", 8, 4)
            play(d, [str(m) for m in b.move_stack])
            send(d, {"type": "analyse", "on": True})
            wait(
                d,
                "return window.blokusApp.analysis && window.blokusApp.analysis.generation === window.blokusApp.state.generation",
            )
            d.find_element("css selector", "#show-pv").click()
            time.sleep(0.2)
            d.save_screenshot(str(OUT / "gui-analysis.png"))
        # Replay: a game file stepped through with the slider.
        folder = Path(tempfile.mkdtemp())
        b = game("classic", 40, 6)
        record = sgf.Game.from_board(b)
        record.players = ["mcts", "greedy", "pentobi level 5", "random"]
        list(record.mainline())[26].comment = "mcts: played m9,l10,m10,n10,m11 value 0.412; best m9,l10,m10,n10,m11"
        sgf.dump(record, folder / "match-007.blksgf")
        config = Config(
            "classic", [], game=sgf.load(folder / "match-007.blksgf"), folder=folder, title="match-007.blksgf"
        )
        with running(config) as url:
            d.get(url)
            wait(d, "return document.body.dataset.ready === 'yes'")
            send(d, {"type": "goto", "ply": 27})
            wait(d, "return window.blokusApp.state.ply === 27")
            d.execute_script("document.getElementById('files-box').open = true")
            d.execute_script("document.querySelector('aside').scrollTop = 0")
            time.sleep(0.2)
            d.save_screenshot(str(OUT / "gui-replay.png"))
    finally:
        d.quit()
    if shutil.which("pngquant"):
        pictures = [str(p) for p in sorted(OUT.glob("gui-*.png"))]
        subprocess.run(
            ["pngquant", "--quality", "70-90", "--speed", "1", "--force", "--ext", ".png", *pictures], check=True
        )


if __name__ == "__main__":
    main()
