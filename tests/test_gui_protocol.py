"""The GUI's server without a browser: the security rules, the message protocol (every bad
message answered with an error and nothing changed), a game played through messages, and the
engines of a closed page stopped."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from blokus import Board, sgf
from blokus.gui import protocol
from blokus.gui._session import Config
from blokus.gui.server import create_app

TOKEN = "s3cret-token"
ORIGIN = {"origin": "http://testserver"}


def client_for(config: Config) -> TestClient:
    return TestClient(create_app(config, TOKEN, {"testserver"}))


@pytest.fixture
def duo() -> Iterator[TestClient]:
    with client_for(Config("duo", ["human", "human"])) as c:
        yield c


def receive_until(ws: Any, kind: str, limit: int = 50) -> dict[str, Any]:
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message in {limit}")


def opening(ws: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    setup = ws.receive_json()
    state = ws.receive_json()
    assert (setup["type"], state["type"]) == ("setup", "state")
    return setup, state


# --- security ---


def test_every_request_needs_the_token(duo: TestClient) -> None:
    assert duo.get(f"/{TOKEN}/").status_code == 200
    assert duo.get(f"/{TOKEN}/app.js").status_code == 200
    for path in ("/", "/app.js", "/wrong/", "/wrong/app.js", f"/{TOKEN[:-1]}/", f"/x{TOKEN}/", "/favicon.ico"):
        r = duo.get(path)
        assert r.status_code == 403, path
        assert "token" in r.text
    with pytest.raises(WebSocketDisconnect), duo.websocket_connect("/wrong/ws", headers=ORIGIN) as ws:
        ws.receive_json()


def test_the_page_sets_a_strict_content_policy(duo: TestClient) -> None:
    r = duo.get(f"/{TOKEN}/")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    assert duo.get(f"/{TOKEN}/nothing.js").status_code == 404
    assert duo.get(f"/{TOKEN}/..%2F_session.py").status_code == 404


def test_host_and_origin_are_checked(duo: TestClient) -> None:
    # DNS rebinding: a page of another name that resolves to 127.0.0.1.
    assert duo.get(f"/{TOKEN}/", headers={"host": "evil.example"}).status_code == 403
    assert duo.get(f"/{TOKEN}/", headers={"host": "testserver.evil.example"}).status_code == 403
    # Another site's page.
    r = duo.get(f"/{TOKEN}/", headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "Origin" in r.text
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {}):
        with pytest.raises(WebSocketDisconnect), duo.websocket_connect(f"/{TOKEN}/ws", headers=headers) as ws:
            ws.receive_json()
    with (
        pytest.raises(WebSocketDisconnect),
        duo.websocket_connect(f"/{TOKEN}/ws", headers={**ORIGIN, "host": "evil.example"}) as ws,
    ):
        ws.receive_json()


HOSTILE: list[str | bytes] = [
    "",
    "not json",
    "[]",
    "null",
    '"play"',
    "{}",
    '{"type": 3}',
    '{"type": "nonsense"}',
    '{"type": "play"}',
    '{"type": "play", "move": null}',
    '{"type": "play", "move": true}',
    '{"type": "play", "move": 1.5}',
    '{"type": "play", "move": -1}',
    '{"type": "play", "move": 99999999999}',
    '{"type": "play", "move": 13729}',
    '{"type": "play", "move": "z99"}',
    '{"type": "play", "move": "a1"}',
    '{"type": "play", "move": "e10", "extra": 1}',
    '{"type": "play", "move": "' + "a" * 400 + '"}',
    '{"type": "goto", "ply": 5}',
    '{"type": "goto", "ply": "1"}',
    '{"type": "undo"}',
    '{"type": "redo"}',
    '{"type": "new", "variant": "nope"}',
    '{"type": "new", "seats": ["human", "rm -rf /"]}',
    '{"type": "new", "seats": "human"}',
    '{"type": "seat", "player": 1, "spec": "sh -c evil"}',
    '{"type": "seat", "player": 7, "spec": "greedy"}',
    '{"type": "seat", "player": 1, "spec": "greedy:depth=3"}',
    '{"type": "pause", "on": "yes"}',
    '{"type": "save", "name": "game.blksgf"}',
    '{"type": "open", "name": "../../etc/passwd"}',
    '{"type": "export", "format": "exe"}',
    '{"type": "export", "format": "svg", "view": "iso"}',  # duo: drawn from the top, no change either
    "[" * 3000 + "]" * 3000,
    '{"type": "play", "move": "e10"' + " " * 5000 + "}",
    b"\x00\x01binary",
]


def test_hostile_messages_get_an_error_and_change_nothing(duo: TestClient) -> None:
    with duo.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        _, state = opening(ws)
        assert state["generation"] == 0
        for message in HOSTILE:
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(message)
            answer = ws.receive_json()
            if message == HOSTILE[-4]:
                assert answer["type"] == "export"  # the one harmless message: it changes nothing
                continue
            assert answer["type"] == "error", (message, answer)
            assert answer["message"], message
        # One legal move: it is the first change of the game.
        ws.send_json({"type": "play", "move": "e10,d11,e11,f11,e12"})
        state = receive_until(ws, "state")
        assert (state["generation"], state["ply"], [m["text"] for m in state["line"]]) == (
            1,
            1,
            ["e10,d11,e11,f11,e12"],
        )


def test_an_illegal_move_is_refused_with_the_engines_reason(duo: TestClient) -> None:
    with duo.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        ws.send_json({"type": "play", "move": "e10"})
        receive_until(ws, "state")
        board = Board("duo", ["e10"])
        for text in ("e10", "j6", "a1"):
            ws.send_json({"type": "play", "move": board.parse_move(text).id})
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["reason"] == board.why_illegal(text)
            assert answer["move"]["cells"] == board.parse_move(text).cell_indices()


def test_the_protocol_refuses_what_it_does_not_know() -> None:
    with pytest.raises(protocol.ProtocolError, match="at most 4096 bytes"):
        protocol.parse("{" + " " * protocol.MAX_MESSAGE + "}")
    with pytest.raises(protocol.ProtocolError, match="JSON object"):
        protocol.parse("[" * 2000 + "]" * 2000)
    with pytest.raises(protocol.ProtocolError, match="no 'name'"):
        protocol.parse('{"type": "open"}')
    assert protocol.parse('{"type": "new"}') == protocol.NewGame()
    assert set(protocol.INTENTS) == {
        "play", "undo", "redo", "goto", "new", "seat", "hint", "analyse", "pause", "save", "files", "open", "export"
    }  # fmt: skip


# --- play ---


def test_a_whole_game_against_a_bot_through_messages() -> None:
    with (
        client_for(Config("duo", ["human", "greedy:seed=2"])) as c,
        c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws,
    ):
        setup, state = opening(ws)
        assert setup["variant"]["id"] == "duo" and len(setup["geometry"]["cells"]) == 196
        for _ in range(200):
            if state["over"]:
                break
            if state["seats"][state["player"]]["human"]:
                # The person plays the largest piece the page offers, as given in the state.
                ws.send_json({"type": "play", "move": max(state["legal"])})
            state = receive_until(ws, "state")
        assert state["over"]
        line = [m["text"] for m in state["line"]]
        board = Board("duo", line)
        assert state["result"] == board.result() and state["scores"] == board.scores()
        assert board.is_game_over() and state["legal"] == []
        # Undo goes back to the person's turn; redo replays the bot's answer too.
        ws.send_json({"type": "undo"})
        back = receive_until(ws, "state")
        assert back["seats"][back["player"]]["human"] and back["ply"] < len(line)
        ws.send_json({"type": "goto", "ply": 0})
        start = receive_until(ws, "state")
        assert start["ply"] == 0 and len(start["line"]) == len(line) and start["paused"]


def test_pass_and_scores_are_in_the_state() -> None:
    with client_for(Config("duo", ["human", "human"])) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        board = Board("duo")
        state: dict[str, Any] = {}
        while not board.out:
            move = max(board.legal_moves, key=lambda m: (m.piece.size, -m.id))
            board.push(move)
            ws.send_json({"type": "play", "move": str(move)})
            state = receive_until(ws, "state")
        assert state["out"] == list(board.out) and state["points"] == board.points()
        assert state["turn"] == board.turn


def test_trigon_and_blokus_3d_setups_carry_their_drawing() -> None:
    for vid, kind in (("trigon", "triangle"), ("3d_tower", "cube")):
        with client_for(Config(vid, [])) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
            setup, state = opening(ws)
            geo = setup["geometry"]
            assert geo["kind"] == kind and len(state["cells"]) == len(geo["cells"])
            # Every legal placement is in the orientation tables under the cell it is held at.
            ids = {geo["pieces"][p]["orientations"][o]["placements"][k + 1] for p in range(len(geo["pieces"])) for o in range(len(geo["pieces"][p]["orientations"])) for k in range(0, len(geo["pieces"][p]["orientations"][o]["placements"]), 2)}  # fmt: skip
            assert set(state["legal"]) <= ids and len(ids) == Board(vid).variant.num_placements
            ws.send_json({"type": "play", "move": state["legal"][0]})
            assert receive_until(ws, "state")["ply"] == 1


def test_hint_and_analysis() -> None:
    config = Config("duo", ["human", "human"], analysis="mcts:simulations=200,seed=1")
    with client_for(config) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        ws.send_json({"type": "hint"})
        hint = receive_until(ws, "hint")
        assert Board("duo").is_legal(hint["move"]) and hint["text"] == str(Board("duo").parse_move(hint["text"]))
        ws.send_json({"type": "analyse", "on": True})
        assert receive_until(ws, "state")["analysing"]
        a = receive_until(ws, "analysis")
        assert sum(m["visits"] for m in a["moves"]) >= 200 and a["moves"][0]["visits"] > 0
        assert len(a["value"]) == 2 and a["pv"][0]["id"] == a["best"]["id"]


# --- files ---


def test_save_and_open_stay_in_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (tmp_path / "outside.blksgf").write_text("(;GM[Blokus Duo];B[e10])")
    config = Config("duo", ["human", "human"], folder=folder)
    with client_for(config) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        for text in ("e10,d11,e11,f11,e12", "j5"):
            ws.send_json({"type": "play", "move": text})
            receive_until(ws, "state")
        for name in ("../outside.blksgf", "/tmp/x.blksgf", "a/b.blksgf", ".hidden.blksgf", "x.txt", "x\x00.blksgf"):
            ws.send_json({"type": "save", "name": name})
            assert ws.receive_json()["type"] == "error", name
            ws.send_json({"type": "open", "name": name})
            assert ws.receive_json()["type"] == "error", name
        ws.send_json({"type": "save", "name": "my game.blksgf"})
        assert ws.receive_json() == {"type": "saved", "name": "my game.blksgf"}
        ws.send_json({"type": "save", "name": "my game.blksgf"})
        assert "exists" in ws.receive_json()["message"]
        assert sorted(p.name for p in folder.iterdir()) == ["my game.blksgf"]
        assert sgf.load(folder / "my game.blksgf").end().board() == Board("duo", ["e10,d11,e11,f11,e12", "j5"])
        ws.send_json({"type": "files"})
        assert ws.receive_json() == {"type": "files", "names": ["my game.blksgf"]}
        ws.send_json({"type": "new"})
        assert receive_until(ws, "state")["ply"] == 0
        ws.send_json({"type": "open", "name": "my game.blksgf"})
        state = receive_until(ws, "state")
        assert state["ply"] == 0 and [m["text"] for m in state["line"]] == ["e10,d11,e11,f11,e12", "j5"]
        ws.send_json({"type": "goto", "ply": 2})
        assert receive_until(ws, "state")["cells"] == Board("duo", ["e10,d11,e11,f11,e12", "j5"]).cell_colors()
        ws.send_json({"type": "export", "format": "svg"})
        export = ws.receive_json()
        assert export["text"].startswith("<svg") and export["name"] == "my game-2.svg"


def test_a_replayed_file_shows_its_players_and_comments(tmp_path: Path) -> None:
    text = "(;GM[Blokus Duo]PB[Ann]PW[Bob]C[Before];B[e10]C[first move];W[j5];B[f9,g9]C[third])"
    (tmp_path / "g.blksgf").write_text(text)
    config = Config("duo", [], game=sgf.load(tmp_path / "g.blksgf"), folder=tmp_path, title="g.blksgf")
    with client_for(config) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        _, state = opening(ws)
        assert (state["names"], state["title"], state["comment"]) == (["Ann", "Bob"], "g.blksgf", "Before")
        seen = []
        for ply in (1, 2, 3):
            ws.send_json({"type": "goto", "ply": ply})
            seen.append(receive_until(ws, "state")["comment"])
        assert seen == ["first move", "", "third"]
        # Another move leaves the file's line: its comments go with it.
        ws.send_json({"type": "goto", "ply": 2})
        receive_until(ws, "state")
        ws.send_json({"type": "play", "move": "d9,d8"})
        state = receive_until(ws, "state")
        assert state["comment"] == "" and len(state["line"]) == 3


def test_without_a_folder_nothing_is_written() -> None:
    with client_for(Config("duo", [])) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        ws.send_json({"type": "save", "name": "x.blksgf"})
        assert "no folder" in ws.receive_json()["message"]


# --- engines ---


def engine_processes(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc to find the engine's process")
def test_closing_the_page_stops_its_engines() -> None:
    marker = f"{os.getpid()}{time.monotonic_ns()}"
    spec = f"{sys.executable} -m blokus gtp --variant duo --bot greedy --seed {marker[-9:]}"
    config = Config("duo", ["human", spec], gtp_specs=frozenset({spec}))
    with client_for(config) as c:
        with c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
            opening(ws)
            ws.send_json({"type": "play", "move": "e10,d11,e11,f11,e12"})
            receive_until(ws, "state")
            state = receive_until(ws, "state")  # the engine's answer
            assert state["ply"] == 2 and Board("duo", [m["text"] for m in state["line"]]).ply == 2
            assert engine_processes(marker[-9:]), "the GTP engine runs while the page is open"
        for _ in range(100):
            if not engine_processes(marker[-9:]):
                break
            time.sleep(0.1)
        assert not engine_processes(marker[-9:]), "the engine outlived its page"


def test_a_dying_engine_gives_the_seat_to_a_person(tmp_path: Path) -> None:
    engine = Path(__file__).resolve().parent / "fake_engine.py"
    spec = f"{sys.executable} {engine} crash genmove 1"
    config = Config("duo", ["human", spec], gtp_specs=frozenset({spec}))
    with client_for(config) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        ws.send_json({"type": "play", "move": "e10"})
        receive_until(ws, "state")
        failure = receive_until(ws, "error")
        assert "failed" in failure["message"] and failure["intent"] == "engine"
        state = receive_until(ws, "state")
        assert state["seats"][1]["human"] and state["paused"]
        ws.send_json({"type": "play", "move": "j5"})
        assert receive_until(ws, "state")["ply"] == 2


def test_setup_is_small_enough_to_load_fast() -> None:
    from blokus.gui._session import Session

    for vid in ("classic", "trigon", "3d_pyramid"):
        size = len(json.dumps(Session(Config(vid, [])).setup()))
        assert size < 600_000, (vid, size)


def test_engines_against_engines_can_be_watched_and_paused() -> None:
    config = Config("duo", ["greedy:seed=1", "random:seed=2"], watch_delay=0.01)
    with client_for(config) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        opening(ws)
        state = receive_until(ws, "state")
        assert state["ply"] == 1 and state["thinking"] == 1
        ws.send_json({"type": "pause", "on": True})
        paused = receive_until(ws, "state", limit=5)
        while not paused["paused"]:
            paused = receive_until(ws, "state", limit=5)
        # Paused: no engine moves; the page is still answered.
        ws.send_json({"type": "files"})
        assert ws.receive_json() == {"type": "files", "names": []}
        ply = paused["ply"]
        ws.send_json({"type": "pause", "on": False})
        for _ in range(200):
            state = receive_until(ws, "state")
            if state["over"]:
                break
        assert state["over"] and state["ply"] > ply
        assert state["result"] == Board("duo", [m["text"] for m in state["line"]]).result()


def test_a_hanging_engine_does_not_hold_up_the_page(tmp_path: Path) -> None:
    engine = Path(__file__).resolve().parent / "fake_engine.py"
    marker = f"hang-{os.getpid()}-{time.monotonic_ns()}"
    spec = f"{sys.executable} {engine} hang genmove 1 --log {tmp_path / marker}"
    config = Config("duo", ["human", spec], gtp_specs=frozenset({spec}))
    with client_for(config) as c:
        with c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
            opening(ws)
            ws.send_json({"type": "play", "move": "e10"})
            assert receive_until(ws, "state")["thinking"] == 1
            for _ in range(100):
                if (tmp_path / marker).exists() and "genmove" in (tmp_path / marker).read_text():
                    break
                time.sleep(0.05)
            assert engine_processes(str(tmp_path / marker)), "the engine runs, hanging on genmove"
            start = time.monotonic()
            ws.send_json({"type": "export", "format": "blksgf"})
            answer = ws.receive_json()
            assert answer["type"] == "export" and answer["text"].endswith(";B[e10])\n")
            assert time.monotonic() - start < 5
            # The person takes the move back while the engine hangs: the position is theirs.
            ws.send_json({"type": "undo"})
            assert receive_until(ws, "state")["ply"] == 0
        for _ in range(100):
            if not engine_processes(str(tmp_path / marker)):
                break
            time.sleep(0.1)
        assert not engine_processes(str(tmp_path / marker)), "the hanging engine outlived its page"


def test_a_variant_of_ones_own() -> None:
    from blokus.variant import Variant

    v = Variant.from_file(Path(__file__).resolve().parent.parent / "examples" / "mini.toml")
    with client_for(Config(v, [])) as c, c.websocket_connect(f"/{TOKEN}/ws", headers=ORIGIN) as ws:
        setup, state = opening(ws)
        assert setup["variant"]["id"] == v.id and len(state["cells"]) == v.num_cells
        ws.send_json({"type": "play", "move": state["legal"][0]})
        assert receive_until(ws, "state")["ply"] == 1
        ws.send_json({"type": "new"})
        assert receive_until(ws, "state")["ply"] == 0
        assert setup["variants"][0] == v.id
        # Away to a built-in and back to one's own.
        ws.send_json({"type": "new", "variant": "junior"})
        assert receive_until(ws, "setup")["variant"]["id"] == "junior"
        assert len(receive_until(ws, "state")["cells"]) == 196
        ws.send_json({"type": "new", "variant": v.id})
        assert len(receive_until(ws, "state")["cells"]) == v.num_cells


def test_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import urllib.request

    from blokus.cli import main

    for argv, message in (
        (["gui", "--seat", "3=greedy"], "N a player from 1 to 2"),
        (["gui", "--seat", "greedy"], "give N=SPEC"),
        (["gui", "--seat", "2=nobot"], "unknown bot 'nobot'"),
        (["gui", "--analysis", "greedy:depth=1"], "no option 'depth'"),
        (["gui", "--open", str(tmp_path / "none.blksgf")], "No such file"),
        (["gui", "--folder", str(tmp_path / "none")], "no such folder"),
    ):
        p = subprocess.run(
            [sys.executable, "-m", "blokus", *argv, "--no-browser"], capture_output=True, text=True, timeout=60
        )
        assert p.returncode == 2 and message in p.stderr and p.stderr.count("\n") == 1, (argv, p.stderr)
    with pytest.raises(SystemExit) as e:
        main(["gui", "--port", "70000"])
    assert e.value.code == 2
    game = tmp_path / "g.blksgf"
    game.write_text("(;GM[Blokus Duo];B[e10];W[j5])")
    server = subprocess.Popen(
        [sys.executable, "-m", "blokus", "gui", "--no-browser", "--open", str(game), "--host", "localhost"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://localhost:") and url.endswith("/")
        token = url.rsplit("/", 2)[1]
        assert len(token) >= 30
        assert urllib.request.urlopen(url, timeout=10).status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url.replace(token, "x" * len(token)), timeout=10)
        assert refused.value.code == 403
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert server.stderr is not None and "warning" not in server.stderr.read()


def test_another_host_is_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import threading

    from blokus.gui import server

    out = io.StringIO()
    t = threading.Thread(
        target=server.run,
        args=(Config("duo", []),),
        kwargs={"host": "0.0.0.0", "open_browser": False, "out": out},
        daemon=True,
    )
    t.start()
    for _ in range(500):
        if out.getvalue().endswith("\n"):
            break
        time.sleep(0.01)
    assert out.getvalue().startswith("http://0.0.0.0:")
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err
