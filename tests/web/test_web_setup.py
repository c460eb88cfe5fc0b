"""`sticktable run --web` with no game given: the setup screen starts one through `run`; the
room shows the live load and tilt from the board's samples; the game page plots the samples
journaled around each sensed event. In real headless chromium, checked against the journal.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time

import pytest
from conftest import SIM_RUN, TV, Served, screenshot

from sticktable.journal import Journal


def journal_rows(journal: str, sql: str, *args) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(journal)) as db:
        return db.execute(sql, args).fetchall()


@pytest.fixture(scope="module")
def set_up(tmp_path_factory, browser):
    """A table started from the setup screen (after a refused try and an abandoned game); what
    the room received while the game ran."""
    journal = str(tmp_path_factory.mktemp("setup") / "j.sqlite")
    with Journal(journal) as j:  # an interrupted game, to abandon from the setup screen
        j.new_game({"game": "stick-stack", "players": ["Old", "Game"]}, source="board")
    served = Served(
        *SIM_RUN, "--seed", "3", "--speed", "1", "--journal", journal, "--web", "127.0.0.1:0"
    )
    context = browser.new_context(viewport=TV)
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    readings: list[tuple[float, dict]] = []  # every live reading the room received, when

    def on_frame(payload):
        message = json.loads(payload)
        if message.get("kind") == "sensors":
            readings.append((time.monotonic(), message))

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    record = {"journal": journal, "served": served, "page": page, "errors": errors}
    record["readings"] = readings
    try:
        page.goto(served.url + "/")
        page.wait_for_selector("#new-game")
        record["setup_url"] = page.url
        record["defaults"] = {
            key: page.inner_text(f'td[data-default="{key}"]') for key in ("end_score", "sticks")
        }
        record["about"] = page.inner_text("table.house")
        # The interrupted game: resuming is refused on a simulated table, abandoning works.
        page.click('button[data-resume="1"]')
        page.wait_for_selector("#answer .error")
        record["resume_refused"] = page.inner_text("#answer")
        page.click('button[data-abandon="1"]')
        page.click("#confirm-abandon")
        page.wait_for_selector("#unfinished", state="detached")
        record["abandoned"] = journal_rows(journal, "SELECT game_id FROM abandoned")
        # A bad house rule: refused on the page, nothing journaled, the table waits on.
        page.fill("[data-player] >> nth=0", "Ann")
        page.fill("[data-player] >> nth=1", "Bo")
        page.click("#add-player")
        page.fill("[data-player] >> nth=2", "Cy")
        page.fill('[data-house="end_score"]', "lots")
        page.click("#start")
        page.wait_for_selector("#answer .error")
        record["refused"] = page.inner_text("#answer")
        record["games_after_refusal"] = journal_rows(journal, "SELECT id FROM games")
        page.fill('[data-house="end_score"]', "3")
        page.fill('[data-house="sticks"]', "8")
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, "setup")
        page.click("#start")
        page.wait_for_url(served.url + "/", timeout=90_000)
        page.wait_for_selector("#meter:not([hidden]) #load[data-load]", timeout=90_000)
        # What the meter shows and the reading it came from, read at one moment.
        record["meter_load"], record["meter_tilt"], record["shown"] = page.evaluate(
            """() => [Number(document.getElementById("load").dataset.load),
            JSON.parse(document.getElementById("tilt").dataset.tilt), window.sticktableSensors]"""
        )
        screenshot(page, "room-meter")
        # Waiting in the page: the sync Playwright API takes the page's frames only then.
        page.wait_for_selector("#status:has-text('game over')", timeout=300_000)
        served.read_until("waiting for a game to be set up", timeout=300, nth=2)  # the next one
        yield record
    finally:
        context.close()
        served.stop()


def test_the_setup_screen_lists_house_rules_with_defaults_and_what_they_do(set_up):
    assert set_up["setup_url"].endswith("/setup")
    assert set_up["defaults"] == {"end_score": "11", "sticks": "36"}
    assert "the game ends after a round in which someone reaches this total" in set_up["about"]


def test_resume_and_abandon_from_the_setup_screen(set_up):
    assert "simulated table" in set_up["resume_refused"]
    assert set_up["abandoned"] == [(1,)]


def test_a_refused_setup_changes_nothing_and_a_good_one_starts_the_game(set_up):
    assert "end_score" in set_up["refused"]
    assert set_up["games_after_refusal"] == [(1,)]
    (header,) = journal_rows(set_up["journal"], "SELECT header FROM games WHERE id = 2")[0]
    header = json.loads(header)
    assert header == {
        "game": "stick-stack",
        "players": ["Ann", "Bo", "Cy"],
        "end_score": 3,
        "sticks": 8,
    }
    (finished,) = journal_rows(set_up["journal"], "SELECT finished FROM games WHERE id = 2")[0]
    assert finished is not None
    assert not set_up["errors"]


def traces(journal: str, game: int) -> list[dict]:
    rows = journal_rows(
        journal, "SELECT id, kind, t, columns, samples FROM traces WHERE game_id = ?", game
    )
    return [
        {"id": i, "kind": k, "t": t, "columns": json.loads(c), "samples": json.loads(s)}
        for i, k, t, c, s in rows
    ]


def test_the_room_shows_the_live_load_and_tilt_at_a_bounded_rate(set_up):
    readings = set_up["readings"]
    assert readings, "the room received no live reading"
    times = [at for at, _ in readings]
    busiest = max(sum(1 for u in times if t <= u < t + 1.0) for t in times)
    assert busiest <= 13, f"{busiest} readings in one second (the table sends at most 10)"
    shown = set_up["shown"]
    assert set_up["meter_load"] == shown["load_g"]
    assert set_up["meter_tilt"] == shown["tilt_deg"]
    # Each reading is a sample the table also keeps: where one falls in a journaled window,
    # the trace holds the same load and tilt for the same board time.
    matched = 0
    for trace in traces(set_up["journal"], 2):
        at: dict[int, list] = {}  # board ms -> the samples of that ms (there may be two)
        for row in trace["samples"]:
            at.setdefault(trace["t"] + row[0], []).append((row[1], row[4:6]))
        for _, reading in readings:
            if reading["t"] in at:
                assert (reading["load_g"], reading["tilt_deg"]) in at[reading["t"]]
                matched += 1
    windows = [(t["t"] - 1500, t["t"] + 1000) for t in traces(set_up["journal"], 2)]
    seen_at = [r["t"] for _, r in readings]
    assert matched, f"no live reading fell inside a journaled event window {windows} {seen_at}"


def test_the_game_page_plots_the_samples_around_each_sensed_event(set_up, page_for):
    journal = set_up["journal"]
    stored = traces(journal, 2)
    assert stored and {t["kind"] for t in stored} >= {"placed"}
    page = page_for(TV)
    page.goto(set_up["served"].url + "/games/2")
    page.wait_for_selector("#trace[data-trace] [data-plot-of] canvas")
    plotted = page.evaluate("window.sticktableTrace")
    first = stored[0]
    assert plotted["samples"] == first["samples"] and plotted["columns"] == first["columns"]
    assert page.locator("#trace .uplot").count() == 3
    # The detection is marked: a red line where dt = 0 on each plot.
    for name in ("load", "centre of pressure", "tilt"):
        box = page.locator(f'[data-plot-of="{name}"]')
        x = int(box.get_attribute("data-marker"))
        red = box.evaluate(
            """(b, x) => { const c = b.querySelector("canvas"); const ctx = c.getContext("2d");
            const mid = Math.round(c.height / 2); const p = ctx.getImageData(x, mid, 1, 1).data;
            return [p[0], p[1], p[2]]; }""",
            x,
        )
        assert red[0] > 200 and red[1] < 60 and red[2] < 60, (name, red)
    # Every rule event the sensors made (the buttons make only takes) has its samples, the
    # last ones too (the table journals the open windows when it stops).
    events = [
        json.loads(e)
        for (e,) in journal_rows(journal, "SELECT event FROM events WHERE game_id = 2")
    ]
    sensed = [e for e in events if e.get("src") == "board" and e["type"] != "take"]
    assert page.locator("#log button[data-plot]").count() == len(sensed) > 0
    # A log entry made of a sensed event plots its own trace.
    button = page.locator("#log button[data-plot]").last
    wanted = int(button.get_attribute("data-plot"))
    button.click()
    page.wait_for_selector(f'#trace[data-trace="{wanted}"]')
    again = page.evaluate("window.sticktableTrace")
    assert again["id"] == wanted
    assert again["samples"] == next(t for t in stored if t["id"] == wanted)["samples"]
    screenshot(page, "event-plot")
    assert not page.errors


def test_an_unfinished_game_resumed_from_the_setup_screen_plays_on(tmp_path, page_for):
    """At a real table (here a board on a pty): the setup screen's resume is `run --resume`."""
    from host.pty_board import PtyBoard

    journal = str(tmp_path / "j.sqlite")
    with Journal(journal) as j:
        j.new_game({"game": "stick-stack", "players": ["Ann", "Bo"]}, source="board")
        j.new_game({"game": "stick-stack", "players": ["Cy", "Di"]}, source="board")
    board = PtyBoard()
    served = Served("run", "--port", board.path, "--journal", journal, "--web", "127.0.0.1:0")
    try:
        page = page_for(TV)
        page.goto(served.url + "/")
        page.click('button[data-resume="1"]')
        page.wait_for_url(served.url + "/")
        page.wait_for_selector("#status:has-text('game 1')")
        served.read_until(r"game 1: stick-stack, players Ann, Bo")
        board.event("button", seat=0, long=False)  # Ann's seat button: she takes a stick
        page.wait_for_selector('.recent li[data-n="0"]')
        events = journal_rows(journal, "SELECT game_id, event FROM events")
        assert [(g, json.loads(e)["type"], json.loads(e)["player"]) for g, e in events] == [
            (1, "take", "Ann")
        ]
        assert journal_rows(journal, "SELECT id FROM games") == [(1,), (2,)]  # no new game
        assert not page.errors
    finally:
        served.stop()
        board.close()
