"""The match runner: seats, openings, results equal to the games, files, resuming, forfeits, SPRT."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import blokus
from blokus import Board, Move, match, sgf
from blokus.bots import MIN_SECONDS, Analysis, RandomBot
from blokus.errors import BlokusError, InvalidBotSpecError
from blokus.match import GameRecord, MatchResult, place_scores, seatings

FAKE = str(Path(__file__).resolve().parent / "fake_engine.py")
runner = importlib.import_module("blokus.match")


def without_times(r: GameRecord) -> GameRecord:
    """The record without what changes from run to run (times) or with the files kept."""
    n = len(r.seconds)
    return dataclasses.replace(r, seconds=(0.0,) * n, cpu=(0.0,) * n, sgf=None)


def test_seats_turn_and_rounds_share_an_opening(tmp_path: Path) -> None:
    r = match(["random", "greedy"], "duo", games=6, seed=2, jobs=1, out=tmp_path)
    assert [g.seats for g in r.records] == [(0, 1), (1, 0)] * 3
    assert [g.round for g in r.records] == [0, 0, 1, 1, 2, 2]
    openings = [g.opening for g in r.records]
    assert openings[0] == openings[1] and openings[2] == openings[3] and len({*openings}) == 3
    assert all(len(o) == 2 for o in openings), "one opening move per colour"
    for g in r.records:
        # The record is the game: the file replays to the same points and result.
        board = sgf.load(tmp_path / str(g.sgf)).end().board()
        assert [str(m) for m in board.move_stack[:2]] == list(g.opening)
        assert (tuple(board.points()), board.result(), board.ply) == (g.points, g.result, g.plies)
        winner = g.seats[board.outcome().winners[0]] if len(board.outcome().winners) == 1 else None  # type: ignore[union-attr]
        if winner is not None:
            assert g.scores_by_engine[winner] == 1.0 and g.scores_by_engine[1 - winner] == 0.0
        game = sgf.load(tmp_path / str(g.sgf))
        assert game.players == [r.engines[g.seats[0]], r.engines[g.seats[1]]]
    # Greedy beats random nearly always: the first engine's score is low, Elo negative.
    assert r.engine_stats()[0].score.score < 0.5 and (r.elo() is not None and r.elo().elo < 0)  # type: ignore[union-attr]


def test_results_table_is_twogtps(tmp_path: Path) -> None:
    r = match(["random", "greedy"], "duo", games=4, seed=1, jobs=1, out=tmp_path)
    lines = (tmp_path / "results.dat").read_text().splitlines()
    assert lines[0] == "# Game\tResult\tLength\tPlayerB\tCpuB\tCpuW\tFast"
    rows = [line.split("\t") for line in lines[1:]]
    assert [len(row) for row in rows] == [7] * 4
    for row, g in zip(rows, r.records):
        assert int(row[0]) == g.game and float(row[1]) == g.scores_by_engine[0] and int(row[2]) == g.plies
        assert int(row[3]) == g.seats.index(0) and int(row[6]) == len(g.opening)
        assert float(row[4]) >= 0 and float(row[5]) >= 0


def test_parallel_games_are_the_same_games(tmp_path: Path) -> None:
    one = match(["random", "greedy:seed=4"], "junior", games=6, seed=3, jobs=1)
    two = match(["random", "greedy:seed=4"], "junior", games=6, seed=3, jobs=2)
    assert [without_times(g) for g in one.records] == [without_times(g) for g in two.records]


class InProcessWorkers:
    """Workers of one's own (the seam blokus.distributed uses): games played here, in the
    order submitted, each handed back a call later."""

    def __init__(self, slots: int, variant_spec: object, specs: list[str], timeout: float | None) -> None:
        self.slots = slots
        self.started: list[int] = []
        self.variant = blokus.Variant(variant_spec)  # type: ignore[arg-type]
        self.engines = runner._Engines(specs, timeout)
        self.queue: list[object] = []
        self.closed = False

    def submit(self, job: object) -> None:
        self.started.append(job.game)  # type: ignore[attr-defined]
        self.queue.append(job)

    def next(self, timeout: float) -> object:
        return runner._play(self.queue.pop(0), self.variant, self.engines) if self.queue else None

    def close(self) -> None:
        self.engines.close()
        self.closed = True

    def terminate(self) -> None:
        self.close()


def test_games_played_by_workers_of_ones_own_are_the_same_games(tmp_path: Path) -> None:
    made: list[InProcessWorkers] = []

    def start(*args: object) -> InProcessWorkers:
        made.append(InProcessWorkers(*args))  # type: ignore[arg-type]
        return made[-1]

    local = match(["random", "greedy"], "duo", games=5, seed=2, jobs=1, out=tmp_path / "a")
    mine = match(["random", "greedy"], "duo", games=5, seed=2, jobs=3, out=tmp_path / "b", workers=start)  # type: ignore[arg-type]
    assert len(made) == 1 and made[0].slots == 3 and made[0].closed and made[0].started == [0, 1, 2, 3, 4]
    assert [without_times(g) for g in mine.records] == [without_times(g) for g in local.records]
    # The game files are written by the runner, from the text the workers send back.
    assert sorted(p.name for p in (tmp_path / "b" / "games").iterdir()) == [f"000{g}.blksgf" for g in range(5)]
    for g in range(5):
        name = f"games/000{g}.blksgf"
        assert (tmp_path / "b" / name).read_text() == (tmp_path / "a" / name).read_text()
    with pytest.raises(InvalidBotSpecError, match="specs"):
        match([RandomBot(), "greedy"], "duo", games=2, workers=start)  # type: ignore[arg-type]


def test_resume_goes_on_as_the_match_would_have(tmp_path: Path) -> None:
    whole = match(["random", "greedy"], "duo", games=8, seed=5, jobs=1)
    folder = tmp_path / "m"
    match(["random", "greedy"], "duo", games=3, seed=5, jobs=1, out=folder)
    # An interruption cut the last line short: that game is played again.
    results = folder / "results.jsonl"
    text = results.read_text()
    results.write_text(text[: text.rindex("\n", 0, len(text) - 1) + 1] + text.splitlines()[-1][:20])
    seen: list[int] = []
    r = match(
        ["random", "greedy"],
        "duo",
        games=8,
        seed=5,
        jobs=1,
        out=folder,
        resume=True,
        progress=lambda m: seen.append(len(m.records)),
    )
    assert seen == [3, 4, 5, 6, 7, 8]
    assert [without_times(g) for g in r.records] == [without_times(g) for g in whole.records]
    assert len(results.read_text().splitlines()) == 8
    with pytest.raises(BlokusError, match="holds a match already"):
        match(["random", "greedy"], "duo", games=8, seed=5, jobs=1, out=folder)
    with pytest.raises(BlokusError, match="holds another match \\(seed: 5, not 6\\)"):
        match(["random", "greedy"], "duo", games=8, seed=6, jobs=1, out=folder, resume=True)


@pytest.mark.parametrize("settings", ["[]", '"a match"', "3"])
def test_resume_refuses_settings_that_are_no_object(tmp_path: Path, settings: str) -> None:
    folder = tmp_path / "m"
    match(["random", "greedy"], "duo", games=1, seed=5, jobs=1, out=folder)
    (folder / "match.json").write_text(settings)
    with pytest.raises(BlokusError, match=r"match\.json: cannot read: a match's settings are a JSON object, not "):
        match(["random", "greedy"], "duo", games=2, seed=5, jobs=1, out=folder, resume=True)


@pytest.mark.parametrize(
    "line",
    ["[]", '"x"', "null", '{"game": 1}', '{"game": "x"}', "{}", "{truncated"],
)
def test_resume_plays_again_a_game_whose_record_is_malformed(tmp_path: Path, line: str) -> None:
    whole = match(["random", "greedy"], "duo", games=3, seed=5, jobs=1)
    folder = tmp_path / "m"
    match(["random", "greedy"], "duo", games=3, seed=5, jobs=1, out=folder)
    results = folder / "results.jsonl"
    first, _, third = results.read_text().splitlines()
    results.write_text(f"{first}\n{line}\n{third}\n")
    r = match(["random", "greedy"], "duo", games=3, seed=5, jobs=1, out=folder, resume=True)
    assert [without_times(g) for g in r.records] == [without_times(g) for g in whole.records]


@pytest.mark.parametrize(
    ("field", "value"),
    [("seats", ["a", 1]), ("plies", 2.5), ("seconds", [1, "x"]), ("forfeit", "0"), ("by_color", 1)],
)
def test_a_game_record_of_the_wrong_kinds_is_refused(field: str, value: object) -> None:
    good = match(["random", "greedy"], "duo", games=1, seed=5, jobs=1).records[0]
    data = json.loads(good.to_json())
    data[field] = value
    with pytest.raises(ValueError, match=f"a game record's '{field}' cannot be "):
        GameRecord.from_json(json.dumps(data))


def test_openings_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# two openings\ne10,d11,e11,f11,e12; j5,j6\n\ne10 j5  # a comment\n")
    r = match(["random", "random:seed=1"], "duo", games=6, jobs=1, openings=path)
    assert [g.opening for g in r.records] == [("e10,d11,e11,f11,e12", "j5,j6")] * 2 + [("e10", "j5")] * 2 + [
        ("e10,d11,e11,f11,e12", "j5,j6")
    ] * 2
    path.write_text("e10\nj5 e10\n")
    with pytest.raises(BlokusError, match=r"line 2: .*illegal move"):
        match(["random", "random"], "duo", games=2, openings=path)
    r = match(["random", "random:seed=1"], "duo", games=2, jobs=1, opening_plies=0)
    assert r.records[0].opening == ()


def test_an_engine_against_three_copies_of_another() -> None:
    r = match(["greedy", "random"], "classic", games=8, seed=1, jobs=1)
    assert [g.seats for g in r.records[:4]] == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    for g in r.records:
        places, _, firsts = place_scores(list(g.scores))[1], None, place_scores(list(g.scores))[2]
        mine = g.seats.index(0)
        assert g.places[0] == places[mine] and g.firsts[0] == firsts[mine]
        others = [p for p, e in enumerate(g.seats) if e == 1]
        assert g.places[1] == pytest.approx(sum(places[p] for p in others) / 3)
    stats = r.engine_stats()
    assert stats[0].games == 8 and 1 <= stats[0].place <= 4 and 0 <= stats[0].first <= 1
    assert r.elo() is not None and "Elo greedy vs random" in r.summary()


def test_four_engines_and_teams() -> None:
    r = match(["greedy", "random", "greedy", "random"], "classic", games=4, jobs=1)
    assert r.groups == (0, 1, 0, 1) and r.elo() is not None, "two distinct engines, two copies each"
    assert [g.seats for g in r.records] == [(0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0)]
    r = match(["greedy", "random", "random:seed=1", "random:seed=2"], "classic", games=4, jobs=1)
    assert r.elo() is None and "Elo" not in r.summary()
    teams = match(["greedy", "random", "greedy:seed=1", "random:seed=1"], "classic_2", games=4, jobs=1)
    assert all(g.by_color for g in teams.records)
    for g in teams.records:
        # Colours 0 and 2 play together: their engines have the same score.
        assert g.scores_by_engine[g.seats[0]] == g.scores_by_engine[g.seats[2]]


@pytest.mark.parametrize(
    ("variant", "engines", "message"),
    [
        ("duo", ["random", "random", "random"], "duo has 2 players and 2 colours: a match there has 2 engines, not 3"),
        ("classic", ["random"] * 3, "a match there has 2 or 4 engines, not 3"),
        ("classic_3", ["random"] * 4, "a match there has 2 or 3 engines, not 4"),
    ],
)
def test_seat_counts(variant: str, engines: list[str], message: str) -> None:
    with pytest.raises(BlokusError, match=message):
        match(engines, variant, games=1)


def test_bad_arguments() -> None:
    with pytest.raises(InvalidBotSpecError, match="seconds must be a finite number above 0"):
        match(["random", "mcts:seconds=-1"], "duo", games=1)
    with pytest.raises(BlokusError, match="at least two engines"):
        match(["random"], "duo")
    with pytest.raises(BlokusError, match="an SPRT needs two distinct engines"):
        match(["random", "greedy", "random:seed=1", "greedy:seed=2"], "classic", games=1, sprt=(0, 10))
    with pytest.raises(ValueError, match="elo0 < elo1"):
        match(["random", "greedy"], "duo", games=1, sprt=(10, 0))
    with pytest.raises(InvalidBotSpecError, match="no program '/no/such/engine'"):
        match(["random", "/no/such/engine --level 1"], "duo", games=1)
    with pytest.raises(BlokusError, match="equal_time names engine 2"):
        match(["random", "greedy"], "duo", games=1, equal_time=2)


def test_every_variant_with_random_bots() -> None:
    for v in blokus.variants():
        n = blokus.Variant(v).num_players
        r = match(["random"] * n, v, games=1, jobs=1, opening_plies=0)
        g = r.records[0]
        assert g.forfeit is None and g.plies > 0 and len(g.scores) == n


def test_sprt_stops_the_match() -> None:
    r = match(["greedy", "random"], "duo", games=200, jobs=1, sprt=(0, 100))
    assert r.stopped == "sprt: H1" and len(r.records) < 40
    t = r.sprt()
    assert t is not None and t.llr >= t.upper and "H1 accepted" in r.summary()
    # A match that is decided already does not go on when resumed.


def test_a_crashing_engine_forfeits_and_the_match_goes_on(tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    spec = f"gtp:{sys.executable} {FAKE} crash genmove 1 --once {marker}"
    r = match(["random", spec], "duo", games=4, jobs=1, out=tmp_path / "m", timeout=30)
    first = r.records[0]
    assert first.forfeit == 1 and first.result == "B+F" and first.scores_by_engine == (1.0, 0.0)
    assert "'genmove w': the engine exited (code 3)" in str(first.error) and "crashing on purpose" in str(first.error)
    assert all(g.forfeit is None for g in r.records[1:]), "the engine was started again"
    assert "forfeited" in r.summary() and r.engine_stats()[1].forfeits == 1
    game = sgf.load(tmp_path / "m" / str(first.sgf))
    assert game.result == "B+F" and "forfeit" in game.comment


def test_a_forfeit_stops_the_match_when_asked(tmp_path: Path) -> None:
    spec = f"gtp:{sys.executable} {FAKE} crash genmove 2"
    r = match(["random", spec], "duo", games=6, jobs=1, out=tmp_path / "m", timeout=30, stop_on_forfeit=True)
    assert [g.forfeit for g in r.records] == [1]
    assert r.stopped == f"game 0 forfeited by {spec}"
    assert f"stopped early (game 0 forfeited by {spec})" in r.summary().splitlines()[0]
    assert len((tmp_path / "m" / "results.jsonl").read_text().splitlines()) == 1
    with pytest.raises(blokus.InvalidTypeError, match="stop_on_forfeit must be True or False"):
        match(["random", "random"], "duo", games=2, stop_on_forfeit=1)  # type: ignore[arg-type]


def test_ctrl_c_that_reaches_an_engine_interrupts_the_match_and_is_no_forfeit(tmp_path: Path) -> None:
    spec = f"gtp:{sys.executable} {FAKE} sigint genmove 1"
    with pytest.raises(KeyboardInterrupt):
        match(["random", spec], "duo", games=4, jobs=1, out=tmp_path / "m")
    assert not (tmp_path / "m" / "results.jsonl").exists(), "no game recorded"


def _processes_naming(marker: str) -> list[int]:
    """The running processes whose command line holds ``marker`` (zombies are not running)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in ("Z", "X"):
                    found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform != "linux", reason="reads processes from /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_of_a_match_stops_every_engine_and_keeps_the_games_written(tmp_path: Path, jobs: str) -> None:
    # Engines run in process groups of their own, which a Ctrl-C at the terminal does not
    # reach: the match must stop them itself, a hung one too, in its workers as well.
    log = tmp_path / "engine.log"
    hung = f"{sys.executable} {FAKE} hang genmove 3 --log {log}"
    out = tmp_path / "m"
    command = [sys.executable, "-m", "blokus", "match", "random", hung, "--games", "8", "--jobs", jobs]
    command += ["--out", str(out), "--timeout", "60"]
    # A process of its own with SIGINT as the terminal's Ctrl-C sends it (a shell's background
    # job would ignore it).
    match = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (log.exists() and log.read_text().count("genmove") >= 3 * int(jobs)):
            time.sleep(0.1)
        assert _processes_naming(str(log)), "the engines are running (and one hangs)"
        time.sleep(0.5)
        os.killpg(match.pid, signal.SIGINT)
        _, err = match.communicate(timeout=30)
    finally:
        if match.poll() is None:
            os.killpg(match.pid, signal.SIGKILL)
    assert match.returncode == 130 and "blokus: interrupted" in err, err
    deadline = time.monotonic() + 10
    while _processes_naming(str(log)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_naming(str(log)) == [], "no engine outlives the match"
    written = sorted((out / "games").glob("*.blksgf"))
    assert len(written) >= 1
    for path in written:
        assert sgf.load(path).end().board().ply > 0


def test_a_hanging_engine_forfeits_in_parallel_too(tmp_path: Path) -> None:
    marker = tmp_path / "hung"
    spec = f"gtp:{sys.executable} {FAKE} hang genmove 1 --once {marker}"
    r = match([spec, "random"], "duo", games=4, jobs=2, timeout=2)
    assert len(r.records) == 4
    hung = [g for g in r.records if "'genmove" in str(g.error)]
    assert len(hung) == 1 and hung[0].forfeit == 0 and hung[0].result in ("W+F", "B+F")
    assert "no answer within 2 s; the engine was stopped" in str(hung[0].error)
    # The engine is started again for the next games (on a busy machine its start may be slow:
    # a forfeit then says so, never that the engine is not running).
    assert not any("not running" in str(g.error) for g in r.records)


def test_a_bot_that_returns_an_illegal_move_forfeits() -> None:
    class Stubborn(RandomBot):
        name = "stubborn"

        def choose(self, board: Board, seconds: float | None = None) -> Move:
            return board.parse_move("a1")

    r = match([Stubborn(), RandomBot(seed=2)], "duo", games=2)
    assert all(g.forfeit == 0 for g in r.records)
    assert "stubborn chose a1, which is illegal here" in str(r.records[0].error)


def test_equal_time_gives_the_others_mean_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every move takes exactly a quarter of a second on the runner's clock.
    ticks = iter(range(10**6))
    monkeypatch.setattr(
        runner, "time", SimpleNamespace(perf_counter=lambda: next(ticks) * 0.25, process_time=lambda: 0.0)
    )

    class Recorder(RandomBot):
        name = "recorder"

        def __init__(self) -> None:
            super().__init__(seed=1)
            self.given: list[float | None] = []

        def choose(self, board: Board, seconds: float | None = None) -> Move:
            self.given.append(seconds)
            return super().choose(board)

        def analyse(self, board: Board, seconds: float | None = None) -> Analysis:
            raise NotImplementedError

    bot = Recorder()
    r = match([bot, RandomBot(seed=3)], "duo", games=2, equal_time=0, opening_plies=0)
    assert bot.given[0] is None, "the first move of the match: the other has not moved yet"
    assert bot.given[1:] and all(s == pytest.approx(0.25) for s in bot.given[1:])
    assert r.records[0].seconds[1] == pytest.approx(0.25 * r.records[0].moves[1])
    # An opponent that takes no time at all still leaves a bot its least time a move.
    monkeypatch.setattr(runner, "time", SimpleNamespace(perf_counter=lambda: 0.0, process_time=lambda: 0.0))
    bot.given.clear()
    match([bot, RandomBot(seed=3)], "duo", games=2, equal_time=0, opening_plies=0)
    assert bot.given[1:] and all(s == MIN_SECONDS for s in bot.given[1:])


def test_summary_and_result_api() -> None:
    r = match(["greedy", "random"], "duo", games=4, seed=9, jobs=1)
    assert isinstance(r, MatchResult) and r.engines == ("greedy", "random")
    text = r.summary()
    assert text.splitlines()[0] == "duo: 4 games of 4 (2 rounds), seed 9"
    assert text.splitlines()[1].split() == [
        "engine",
        "games",
        "score",
        "95%",
        "interval",
        "first",
        "points",
        "place",
        "forfeits",
        "s/move",
    ]
    assert "Elo greedy vs random" in text
    assert "inf" not in text, "a match won throughout gives a bound, not an infinite Elo"
    assert text.splitlines()[-1] == (
        "Elo greedy vs random: at least -290.5 (95%; every round won), score 1.000 over 2 rounds; "
        "too few rounds for a firm interval (fewer than 20)"
    )
    # Nearly every round lost: the interval's upper end, the lower one being a score of 0.
    lost = match(["random", "greedy"], "duo", games=40, seed=9, jobs=1).summary().splitlines()[-1]
    assert re.fullmatch(
        r"Elo random vs greedy: -\d+\.\d \(95%: at most -\d+\.\d\), score 0\.0\d\d over 20 rounds", lost
    )
    record = r.records[0]
    assert GameRecord.from_json(record.to_json()) == record
    assert json.loads(record.to_json())["game"] == 0


def test_place_scores() -> None:
    assert place_scores([10, 5]) == ([1.0, 0.0], [1.0, 2.0], [1.0, 0.0])
    assert place_scores([7, 7]) == ([0.5, 0.5], [1.5, 1.5], [0.5, 0.5])
    results, places, firsts = place_scores([3, 9, 9, 1])
    assert (
        results == pytest.approx([1 / 3, 5 / 6, 5 / 6, 0]) and places == [3, 1.5, 1.5, 4] and firsts == [0, 0.5, 0.5, 0]
    )


def test_seatings() -> None:
    assert seatings(blokus.Variant("classic_3"), 3) == (False, [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
    assert seatings(blokus.Variant("trigon_2"), 4)[0] is True
