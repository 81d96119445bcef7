"""The GUI in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by Selenium plays a whole Duo game by clicks against a bot, makes a Trigon move and a
Blokus 3D move with the pointer, is refused an illegal drop with the engine's reason shown, steps
through a replayed file with the arrow keys and the slider, and saves it.

Skipped when Selenium, Chromium or its driver is missing, except with
``BLOKUS_REQUIRE_BROWSER=1`` (as CI runs it), where that is a failure."""

from __future__ import annotations

import os
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from blokus import Board, sgf
from blokus.variant import variant

REQUIRED = os.environ.get("BLOKUS_REQUIRE_BROWSER") == "1"
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
DRIVER = shutil.which("chromedriver")


def missing() -> str | None:
    try:
        import selenium  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as e:
        return f"{e.name} is not installed (pip install -e '.[test]')"
    if CHROMIUM is None:
        return "no chromium on PATH (apt-get install chromium)"
    if DRIVER is None:
        return "no chromedriver on PATH (apt-get install chromium-driver)"
    return None


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    reason = missing()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"BLOKUS_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    # Selenium Manager would download a driver: the system's is used, and nothing is fetched.
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    yield d
    d.quit()


@pytest.fixture(autouse=True)
def no_page_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test: the page logged no error (a script error, a refused request)."""
    yield
    if "driver" in request.fixturenames:
        d = request.getfixturevalue("driver")
        errors = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors


def wait_for(check: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def alert_of(driver: Any) -> Any:
    """The page's open dialog (confirm), or None."""
    from selenium.common.exceptions import NoAlertPresentException

    try:
        return driver.switch_to.alert
    except NoAlertPresentException:
        return None


class Page:
    """The page of one server, with what a test does on it."""

    def __init__(self, d: Any, url: str, vid: str) -> None:
        from selenium.webdriver.common.by import By

        self.d = d
        self.by = By
        d.get(url)
        wait_for(lambda: d.execute_script("return document.body.dataset.ready") == "yes", "the page")
        self.use(vid)

    def use(self, vid: str) -> None:
        """The placement tables of the variant the page shows (as the server sends them)."""
        from blokus.gui._geometry import board_geometry

        geo = board_geometry(variant(vid))
        self.pieces = geo["pieces"]
        self.where: dict[int, tuple[int, int, int]] = {}
        for p, piece in enumerate(self.pieces):
            for o, orientation in enumerate(piece["orientations"]):
                pl = orientation["placements"]
                for k in range(0, len(pl), 2):
                    self.where[pl[k + 1]] = (p, o, pl[k])
        self.cube = geo["kind"] == "cube"
        self.cells = geo["cells"]

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.d.execute_script("return window.blokusApp.state")
        return state

    def ply(self) -> int:
        return int(self.state()["ply"])

    def find(self, css: str) -> Any:
        return self.d.find_element(self.by.CSS_SELECTOR, css)

    def turns(self, piece: int, start: int, goal: int) -> list[str]:
        """The buttons that turn a piece from one orientation to another (breadth first)."""
        ops = ["rotate", "flip", "tilt"] if self.cube else ["rotate", "flip"]
        orientations = self.pieces[piece]["orientations"]
        came: dict[int, tuple[int, str] | None] = {start: None}
        queue = deque([start])
        while queue:
            o = queue.popleft()
            for op in ops:
                n = orientations[o][op]
                if n not in came:
                    came[n] = (o, op)
                    queue.append(n)
        path = []
        at = goal
        while came[at] is not None:
            prev, op = came[at]  # type: ignore[misc]
            path.append(op)
            at = prev
        return path[::-1]

    def hold(self, move_id: int) -> Any:
        """Picks the piece of a placement in the tray and turns it; returns the cell (or
        column) to drop it on."""
        p, o, ref = self.where[move_id]
        color = self.state()["turn"]
        self.find(f'.tray[data-color="{color}"] [data-piece="{p}"]').click()
        picked = self.find("#picked")
        assert picked.get_attribute("data-piece") == str(p)
        for op in self.turns(p, int(picked.get_attribute("data-orient")), o):
            self.find(f"#{op}").click()
        assert self.find("#picked").get_attribute("data-orient") == str(o)
        if self.cube:
            x, y, _ = self.cells[ref]["xyz"]
            return self.find(f'#board [data-col="{x},{y}"]')
        return self.find(f'#board [data-cell="{ref}"]')

    def drop(self, move_id: int) -> None:
        """Plays a placement by pointer: the piece from the tray, turned, dropped on the board."""
        before = self.ply()
        self.hold(move_id).click()
        wait_for(lambda: self.ply() > before, f"move {move_id} to be played")


def serve(config: Any) -> Any:
    from blokus.gui.server import running

    return running(config)


def test_a_whole_duo_game_by_clicks_against_a_bot(driver: Any) -> None:
    from blokus.gui._session import Config

    with serve(Config("duo", ["human", "greedy:seed=4"])) as url:
        page = Page(driver, url, "duo")
        board = Board("duo")
        for _ in range(60):
            state = wait_for(
                lambda: (s := page.state())["over"] or (s["seats"][s["player"]]["human"] and s),
                "the person's turn or the end",
            )
            if state is True or state["over"]:
                break
            board = Board("duo", [m["text"] for m in state["line"][: state["ply"]]])
            # The pieces left with no place are faded in the tray.
            playable = {m.piece.name for m in board.legal_moves}
            stuck = {p.name for p in board.pieces_left(board.turn)} - playable  # type: ignore[arg-type]
            shown = driver.find_elements(page.by.CSS_SELECTOR, f'.tray[data-color="{board.turn}"] .stuck')
            assert {e.get_attribute("data-name") for e in shown} == stuck
            # The largest piece, as a person who plays to win would; any legal placement of it.
            move = max(board.legal_moves, key=lambda m: (m.piece.size, m.id))
            page.drop(move.id)
            assert page.state()["line"][board.ply]["id"] == move.id
        final = page.state()
        assert final["over"]
        board = Board("duo", [m["text"] for m in final["line"]])
        assert board.is_game_over() and final["result"] == board.result()
        assert page.find("#result").is_displayed() and board.result() in page.find("#result").text
        assert page.find("#status").text.startswith("Game over")


def test_an_illegal_drop_is_refused_with_the_reason_shown(driver: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    from blokus.gui._session import Config

    with serve(Config("duo", ["human", "human"])) as url:
        page = Page(driver, url, "duo")
        board = Board("duo")
        page.drop(board.parse_move("e10,d11,e11,f11,e12").id)
        page.drop(board.parse_move("j5").id)
        board = Board("duo", ["e10,d11,e11,f11,e12", "j5"])
        # Purple's I2 on top of its own X: the server refuses it and says why.
        bad = board.parse_move("e11,e12")
        page.hold(bad.id).click()
        reason = board.why_illegal(bad)
        assert reason is not None
        wait_for(lambda: page.find("#message").get_attribute("data-reason") == reason, "the reason")
        assert reason in page.find("#message").text and page.ply() == 2
        # A drop next to its own piece breaks the edge rule.
        bad = board.parse_move("f10")
        page.hold(bad.id).click()
        wait_for(lambda: page.find("#message").get_attribute("data-reason") == board.why_illegal(bad), "the reason")
        # The typed move box plays Pentobi's move text.
        from selenium.webdriver.common.keys import Keys

        assert board.is_legal("c10")
        page.find("#move-text").send_keys("C10" + Keys.ENTER)
        wait_for(lambda: page.ply() == 3, "the typed move")
        assert page.state()["line"][2]["text"] == "c10"
        assert page.find("#move-text").get_attribute("value") == ""
        # Move numbers on the board, with the key M (once the move box is left).
        page.find("#status").click()
        ActionChains(driver).send_keys("m").perform()
        numbers = driver.find_elements(page.by.CSS_SELECTOR, "#board .move-number")
        assert sorted(e.text for e in numbers) == ["1", "2", "3"]


def test_a_trigon_move_by_pointer(driver: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.select import Select

    from blokus.gui._session import Config

    with serve(Config("duo", [])) as url:
        # Started as Duo; the menu starts a game of Trigon.
        page = Page(driver, url, "duo")
        Select(page.find("#variant")).select_by_value("trigon")
        page.find("#new").click()
        wait_for(lambda: len(driver.find_elements(page.by.CSS_SELECTOR, "#board [data-cell]")) == 486, "Trigon's board")
        page.use("trigon")
        board = Board("trigon")
        move = max(board.legal_moves, key=lambda m: (m.piece.size, m.id))
        target = page.hold(move.id)
        ActionChains(driver).move_to_element(target).perform()
        # The piece follows the pointer: its ghost is drawn over the board, marked legal.
        wait_for(lambda: len(driver.find_elements(page.by.CSS_SELECTOR, "#board g.ghost polygon")) > 0, "the ghost")
        assert driver.find_elements(page.by.CSS_SELECTOR, "#board .legal-spot")
        target.click()
        wait_for(lambda: page.ply() == 1, "the Trigon move")
        state = page.state()
        board.push(move)
        assert state["line"][0]["id"] == move.id and state["cells"] == board.cell_colors()


def test_a_blokus_3d_move_by_pointer(driver: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    from blokus.gui._session import Config

    with serve(Config("3d_tower", [])) as url:
        page = Page(driver, url, "3d_tower")
        board = Board("3d_tower")
        for _ in range(2):
            # The highest-reaching legal placement of a large piece: stacked when it can be.
            move = max(
                board.legal_moves,
                key=lambda m: (m.piece.size, max(board.variant.cell_coords()[c][2] for c in m.cell_indices()), m.id),
            )
            column = page.hold(move.id)
            ActionChains(driver).move_to_element(column).perform()
            # Hovering a column shows the cubes the piece would occupy, in the isometric view too.
            ghosts = wait_for(
                lambda: driver.find_elements(page.by.CSS_SELECTOR, "#iso .ghost-cube"),
                "the cubes under the pointer",
            )
            assert len(ghosts) == move.piece.size
            assert page.find("#level").text.startswith("level")
            column.click()
            wait_for(lambda: page.ply() == board.ply + 1, "the 3D move")
            played = page.state()["line"][board.ply]
            board.push(played["id"])
            assert page.where[played["id"]][:2] == page.where[move.id][:2]
        assert page.state()["cells"] == board.cell_colors()
        # The isometric view turns.
        before = page.find("#iso").get_attribute("innerHTML")
        page.find("#turn-right").click()
        assert page.find("#iso").get_attribute("innerHTML") != before


def test_replay_a_file_step_by_step_and_save_it(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    from blokus.gui._session import Config

    board = Board("duo")
    for _ in range(8):
        board.push(max(board.legal_moves, key=lambda m: (m.piece.size, m.id)))
    path = tmp_path / "match.blksgf"
    sgf.dump(board, path)
    config = Config("duo", [], game=sgf.load(path), folder=tmp_path, title=path.name)
    with serve(config) as url:
        page = Page(driver, url, "duo")
        assert page.ply() == 0 and len(page.state()["line"]) == 8
        keys = ActionChains(driver)
        for _ in range(3):
            keys.send_keys(Keys.ARROW_RIGHT)
        keys.perform()
        wait_for(lambda: page.ply() == 3, "three steps forward")
        assert page.state()["cells"] == Board("duo", board.move_stack[:3]).cell_colors()
        ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
        wait_for(lambda: page.ply() == 2, "a step back")
        assert page.find("#slider").get_attribute("value") == "2"
        ActionChains(driver).send_keys(Keys.END).perform()
        wait_for(lambda: page.ply() == 8, "the end")
        page.find("#moves li:nth-child(5)").click()
        wait_for(lambda: page.ply() == 5, "a move of the list")
        # Save: the whole line, in the folder of the file opened.
        page.find("#files-box summary").click()
        page.find("#save-name").send_keys("copy")
        page.find("#save").click()
        wait_for(lambda: (tmp_path / "copy.blksgf").exists(), "the saved file")
        # Saved again: the file is there, and is replaced once the person confirms it.
        (tmp_path / "copy.blksgf").write_text("(;GM[Blokus Duo];B[e10])")
        page.find("#save").click()
        alert = wait_for(lambda: alert_of(driver), "the question")
        assert "exists" in alert.text
        alert.accept()
        wait_for(lambda: len(sgf.load(tmp_path / "copy.blksgf").mainline_moves()) == 8, "the file replaced")
        saved = sgf.load(tmp_path / "copy.blksgf")
        assert saved.mainline_moves() == board.move_stack
        assert "Saved copy.blksgf" in page.find("#message").text
        # Export: the position as SVG, handed to the browser to download.
        page.find("#export-svg").click()
        exported = wait_for(lambda: driver.execute_script("return window.blokusApp.lastExport"), "the export")
        assert exported["name"] == "match-5.svg" and exported["text"].startswith("<svg")
        assert Board("duo", board.move_stack[:5]).bpn() in exported["text"]


def test_hint_and_the_analysis_panel(driver: Any) -> None:
    from blokus.gui._session import Config

    with serve(Config("duo", [], analysis="mcts:simulations=300,seed=1")) as url:
        page = Page(driver, url, "duo")
        page.find("#hint").click()
        wait_for(lambda: page.find("#message").text.startswith("Hint: "), "the hint")
        hint = page.find("#message").text.removeprefix("Hint: ")
        assert Board("duo").is_legal(hint)
        assert driver.find_elements(page.by.CSS_SELECTOR, '#board line[stroke="#1aa64a"]'), "the hint outlined"
        page.find("#analyse").click()
        rows = wait_for(lambda: driver.find_elements(page.by.CSS_SELECTOR, "#candidates li .rank"), "the candidates")
        assert rows[0].text == "1." and page.find("#value-bar").text.count("%") == 2
        assert driver.find_elements(page.by.CSS_SELECTOR, '#board line[stroke="#ff5a00"]'), "the best move outlined"
        page.find("#show-pv").click()
        assert page.find("#pv").is_displayed() and page.find("#pv").text.startswith("1. Purple ")


def test_watch_two_engines_with_a_pause(driver: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    from blokus.gui._session import Config

    with serve(Config("duo", ["greedy:seed=1", "random:seed=2"], watch_delay=0.05)) as url:
        page = Page(driver, url, "duo")
        wait_for(lambda: page.ply() >= 2, "the engines' moves")
        assert "is thinking" in page.find("#status").text or page.ply() > 2
        page.find("#pause").click()
        wait_for(lambda: page.state()["paused"], "the pause")
        ply = page.ply()
        time.sleep(0.4)
        assert page.ply() == ply and page.find("#status").text.startswith("Paused")
        assert page.find("#pause").get_attribute("aria-pressed") == "true"
        ActionChains(driver).send_keys(" ").perform()  # the space bar lets them go on
        wait_for(lambda: page.state()["over"], "the end of the game", timeout=30)
        final = page.state()
        assert final["result"] == Board("duo", [m["text"] for m in final["line"]]).result()
