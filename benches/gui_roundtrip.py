"""How fast the GUI answers (issue 35 asks for a move's round trip under 50 ms and a usable page
within 1 s): a benchmark, not a timed test.

    python benches/gui_roundtrip.py [--variant duo ...] [--moves 200] [--pages 5] [--no-browser]

For each variant, on a server started here (127.0.0.1, hot seat, no engine):

- **WebSocket round trip**: a ``play`` message sent, the new ``state`` received and parsed, by a
  plain WebSocket client; moves of seeded random games, new games as they end.
- **Drop to redrawn board** (headless Chromium): in the page, a ``play`` sent as a click sends
  it, until the board is redrawn with the new state and the browser has painted the next frame
  (two animation frames are waited for, so up to two frame intervals are in it); and the part
  of it the page spends handling the new state (drawing board, trays, scores and moves).
- **Page usable**: from asking for the page to the first position drawn and the tray ready
  (``document.body.dataset.ready``), a fresh load each time.

Prints median, 90th percentile and worst, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

from blokus import Board
from blokus.gui._session import Config
from blokus.gui.server import running


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"  {name:<24} median {statistics.median(ms):7.1f} ms   p90 {p90:7.1f} ms   max {ms[-1]:7.1f} ms   (n={len(ms)})"


def random_lines(vid: str, seed: int) -> Any:
    rng = random.Random(seed)
    while True:
        b = Board(vid)
        line = []
        while not b.is_game_over():
            m = rng.choice(list(b.legal_moves))
            b.push(m)
            line.append(m.id)
        yield line


def websocket_roundtrips(url: str, vid: str, moves: int) -> list[float]:
    from websockets.sync.client import connect
    from websockets.typing import Origin

    ws_url = url.replace("http://", "ws://") + "ws"
    origin = url.split("/", 3)[:3]
    times: list[float] = []
    with connect(ws_url, origin=Origin("/".join(origin)), max_size=2**24) as ws:
        ws.recv()  # setup
        ws.recv()  # state
        lines = random_lines(vid, 1)
        while len(times) < moves:
            for id in next(lines):
                start = time.perf_counter()
                ws.send(json.dumps({"type": "play", "move": id}))
                state = json.loads(ws.recv())
                times.append((time.perf_counter() - start) * 1000)
                assert state["type"] == "state", state
                if len(times) >= moves:
                    break
            ws.send(json.dumps({"type": "new"}))
            json.loads(ws.recv())
    return times


#: In the page: send a move, wait for the board to be redrawn with it and the next frame painted.
DROP = """
const [id, done] = arguments;
const app = window.blokusApp;
const ply = app.state.ply;
const start = performance.now();
const watch = new MutationObserver(() => {
  if (Number(document.body.dataset.ply) > ply) {
    watch.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
  }
});
watch.observe(document.body, { attributes: true });
app.ws.send(JSON.stringify({ type: "play", move: id }));
"""


def browser() -> Any:
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,860"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def page_times(d: Any, url: str, vid: str, moves: int, pages: int) -> tuple[list[float], list[float], list[float]]:
    loads = []
    for _ in range(pages):
        d.get("about:blank")
        start = time.perf_counter()
        d.get(url)
        while d.execute_script("return document.body.dataset.ready") != "yes":
            time.sleep(0.002)
        loads.append((time.perf_counter() - start) * 1000)
    drops: list[float] = []
    draws: list[float] = []
    lines = random_lines(vid, 2)
    while len(drops) < moves:
        for id in next(lines):
            drops.append(float(d.execute_async_script(DROP, id)))
            draws.append(float(d.execute_script("return window.blokusApp.drawMs")))
            if len(drops) >= moves:
                break
        d.execute_script("window.blokusApp.ws.send(JSON.stringify({type: 'new'}))")
        while d.execute_script("return window.blokusApp.state.ply") != 0:
            time.sleep(0.005)
    return drops, draws, loads


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", action="append", help="variants (default: duo, classic, trigon, 3d_tower)")
    p.add_argument("--moves", type=int, default=200, help="moves timed per variant (default 200)")
    p.add_argument("--pages", type=int, default=5, help="page loads timed per variant (default 5)")
    p.add_argument("--no-browser", action="store_true", help="the WebSocket round trip only")
    args = p.parse_args()
    d = None if args.no_browser else browser()
    try:
        for vid in args.variant or ["duo", "classic", "trigon", "3d_tower"]:
            print(vid)
            with running(Config(vid, [])) as url:
                print(summary("WebSocket round trip", websocket_roundtrips(url, vid, args.moves)))
                if d is not None:
                    drops, draws, loads = page_times(d, url, vid, max(20, args.moves // 4), args.pages)
                    print(summary("drop to redrawn board", drops))
                    print(summary("  of which the redraw", draws))
                    print(summary("page usable", loads))
    finally:
        if d is not None:
            d.quit()


if __name__ == "__main__":
    main()
