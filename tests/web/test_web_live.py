"""`sticktable run --web`: the console on a running (simulated) table, in real headless chromium.

Every page is checked against the journal the same run wrote: what the room view showed at
each update equals `sticktable replay --upto N` for the events it had; inputs from the referee
and player pages are journaled through the rules like typed ones; a player's page never
receives another player's cards.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import subprocess

import pytest
from conftest import PHONE, SIM_RUN, TV, Served, replay, screenshot

from sticktable.web.model import round_scores

CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b|\bJK\b")


def journal_events(journal: str) -> list[dict]:
    with contextlib.closing(sqlite3.connect(journal)) as db:
        rows = db.execute("SELECT event FROM events WHERE game_id = 1 ORDER BY idx").fetchall()
    return [json.loads(text) for (text,) in rows]


def record_frames(page) -> list[dict]:
    """Every snapshot the page's WebSocket receives, decoded (each carries the log from where
    the page's copy changed: `events` is the whole log's length); not the live readings."""
    frames: list[dict] = []

    def keep(payload) -> None:
        message = json.loads(payload)
        if message.get("kind") != "sensors":
            frames.append(message)

    page.on("websocket", lambda ws: ws.on("framereceived", keep))
    return frames


def wait_events_after(page, events: int) -> dict:
    """The page's first snapshot with more than `events` log entries (LED frames alone
    also make new snapshots)."""
    page.wait_for_function(
        "n => window.sticktableLast && window.sticktableLast.log.length > n", arg=events, polling=20
    )
    return page.evaluate(BRIEF)


def wait_version_after(page, version: int) -> dict:
    """The page's next snapshot after `version` (polled: a page in the background gets no
    animation frames to poll on)."""
    page.wait_for_function(
        "v => window.sticktableLast && window.sticktableLast.version > v", arg=version, polling=20
    )
    return page.evaluate("window.sticktableLast")


# A player's move sent by the page itself (its cookie, its origin), as its buttons do.
POST_ACTION = "e => sticktable.postJSON('/api/act', {event: e}).catch(e => ({error: String(e)}))"
# What a player's page has now, in brief (the whole message grows with the log).
BRIEF = """() => { const m = window.sticktableLast;
  return {version: m.version, events: m.log.length, finished: m.status.finished, turn: m.view.turn,
          actions: m.you ? m.you.actions : []}; }"""


def test_a_stick_stack_game_watched_on_the_room_view(tmp_path, page_for):
    journal = str(tmp_path / "j.sqlite")
    page = page_for(TV)
    frames = record_frames(page)
    served = Served(
        *SIM_RUN, "--seed", "3", "--players", "Ann,Bo,Cy", "--speed", "0",
        "--journal", journal, "--web", "127.0.0.1:0",
    )  # fmt: skip
    try:
        page.goto(served.url + "/")
        served.read_until("keeps serving")  # the game is over, the console still answers
        page.wait_for_selector("#status:has-text('game over')")
        final = replay(journal)
        assert frames, "the room view received no update"
        for message in frames:  # every update the page showed, against the journal
            at = replay(journal, upto=message["events"])
            assert message["summary"]["totals"] == at["totals"], message["events"]
        table = page.locator("table.standings")
        for name, total in final["totals"].items():
            assert int(table.locator(f'td[data-total="{name}"]').inner_text()) == total
            for number, result in enumerate(final["rounds"]):
                cell = table.locator(f'tr[data-player="{name}"] td.num').nth(number)
                assert int(cell.inner_text()) == result["scores"][name]
        # The rings as the firmware lit them: the game-over frame shows the winner in green.
        winner = final["winners"][0]
        leds = page.locator(f'.ring[data-player="{winner}"] circle').evaluate_all(
            "cs => cs.map(c => c.dataset.led)"
        )
        rgb = [(int(led[1:3], 16), int(led[3:5], 16), int(led[5:7], 16)) for led in leds]
        assert len(rgb) == 12 and all(g > max(r, b) for r, g, b in rgb), leds  # full, green
        assert not page.errors
        screenshot(page, "room")
    finally:
        output = served.stop()
    assert "table scored the game exactly as scripted" in output
    assert served.proc.returncode == 0, output[-2000:]


@pytest.fixture
def bloodsticks_table(tmp_path):
    """A Bloodsticks game at the simulated table, its terminal left open (stdin a pipe)."""
    journal = str(tmp_path / "j.sqlite")
    served = Served(
        *SIM_RUN, "--game", "bloodsticks", "--players", "Ann,Bo,Cy",
        "--house", "first_dropper=host", "--journal", journal, "--web", "127.0.0.1:0",
        stdin=subprocess.PIPE,
    )  # fmt: skip
    served.journal = journal
    served.links = {
        name: served.read_until(rf"^  {name}: (http://\S+)").group(1)
        for name in ("Ann", "Bo", "Cy")
    }
    yield served
    served.proc.stdin.close()
    served.stop()


def referee_sends(page, line: str) -> str:
    page.fill("#command", line)
    page.click("form button[type=submit]")
    page.wait_for_selector("#answer .ok, #answer .error")
    answer = page.inner_text("#answer")
    assert page.locator("#answer .ok").count() == 1, f"{line}: {answer}"
    return answer


def test_the_referee_types_on_while_the_game_changes_under_the_command_line(
    bloodsticks_table, page_for
):
    """Every update rebuilds the page; a command half typed keeps its focus and caret. (A rebuild
    while the browser test filled the line once dropped the text, and the old line was sent
    again: "first Ann", refused.)"""
    typing, other = page_for(TV), page_for(TV)
    for page in (typing, other):
        page.goto(bloodsticks_table.url + "/referee")
        page.wait_for_selector("#log")
    typing.click("#command")
    typing.keyboard.type("coll")
    seen = typing.evaluate("window.sticktableLast.version")
    referee_sends(other, "first Ann")  # the game changes: every page is rebuilt
    typing.wait_for_function(f"() => window.sticktableLast.version > {seen}")
    typing.keyboard.type("ect")
    assert typing.input_value("#command") == "collect"
    typing.keyboard.press("Enter")
    typing.wait_for_selector("#answer .ok")
    assert not typing.errors


def test_bloodsticks_bets_answered_by_players_and_a_drop_counted_on_screen(
    bloodsticks_table, page_for
):
    table = bloodsticks_table
    referee = page_for(TV)
    referee.goto(table.url + "/referee")
    referee.wait_for_selector("#log")
    for line in ("first Ann", "collect", "bet 2"):
        referee_sends(referee, line)

    players = {}
    for name in ("Bo", "Cy"):
        players[name] = page_for(PHONE)
        players[name].goto(table.links[name])  # the join link: a cookie, then /player
        players[name].wait_for_selector("#actions")
    bo, cy = players["Bo"], players["Cy"]
    # A player acts only as themselves: Bo cannot answer for Cy, nor use the referee's input.
    origin = {"Origin": table.url}
    as_cy = bo.request.post(
        table.url + "/api/act", data={"event": {"type": "match", "player": "Cy"}}, headers=origin
    )
    assert as_cy.status == 403
    assert (
        bo.request.post(table.url + "/api/referee", data={"line": "undo"}, headers=origin).status
        == 403
    )
    bo.click("button[data-action=match]")
    bo.wait_for_selector("#answer .ok")
    screenshot(bo, "player-bloodsticks")
    cy.click("button[data-action=fall_out]")
    cy.wait_for_selector("#answer .ok")
    events = journal_events(table.journal)
    assert {"type": "match", "player": "Bo", "src": "key"} in events
    assert {"type": "fall_out", "player": "Cy", "src": "key"} in events

    # The counter's screen: postures picked, the proposal shown, then confirmed.
    referee_sends(referee, "drop flip")
    referee.wait_for_selector("#counter select")
    referee.select_option('[data-posture="Ann-1"]', "thick")
    referee.select_option('[data-posture="Bo-1"]', "center")
    referee.click('[data-on="Bo-2"] [data-target="Bo-1"]')  # Bo-2 lies on Bo-1
    referee.click('[data-touch="Ann-2"] [data-target="blood"]')  # the bloodstick touches Ann-2
    referee.click('[data-touch="Ann-2"] [data-target="Bo-1"]')
    referee.click('[data-touch="Ann-2"] [data-target="Bo-1"]')  # picked again: taken back
    assert referee.get_attribute('[data-on="Bo-2"] [data-target="Bo-1"]', "aria-pressed") == "true"
    referee.locator("#counter").scroll_into_view_if_needed()
    screenshot(referee, "counter")
    referee.click("#propose")
    referee.wait_for_selector("#proposal")
    layout = [e for e in journal_events(table.journal) if e["type"] == "layout"][-1]
    assert layout["sticks"]["Ann-1"] == {"posture": "thick"}
    assert layout["sticks"]["Bo-2"] == {"posture": "flat", "on": ["Bo-1"]}
    assert layout["sticks"]["Ann-2"] == {"posture": "flat", "touch": ["blood"]}
    assert layout["sticks"]["blood"] == {}
    proposed = dict(
        pair.rsplit(" ", 1)
        for pair in referee.inner_text("#proposal").split(": ", 1)[1].split(", ")
    )
    referee.click("#confirm-points")
    referee.wait_for_selector("#answer .ok")
    standings = replay(table.journal)
    assert round_scores(standings)[0] == {n: int(points) for n, points in proposed.items()}

    # The referee takes the confirmation back: a correction in the journal, the page follows.
    confirmed_at = len(journal_events(table.journal)) - 1
    version = referee.evaluate("window.sticktableLast.version")
    referee.click("#undo")
    referee.click("#confirm-yes")
    referee.wait_for_selector("#answer .ok")
    correction = journal_events(table.journal)[-1]
    assert correction["type"] == "correct" and correction["target"] == confirmed_at
    assert correction["events"] == [] and correction["src"] == "referee"
    wait_version_after(referee, version)
    referee.wait_for_selector(f'#log li.corrected[data-n="{confirmed_at}"]')
    assert referee.locator("#proposal").count() == 1  # back to confirming the proposal
    assert replay(table.journal)["rounds"] == []
    screenshot(referee, "referee")
    assert not (referee.errors or bo.errors or cy.errors)


def test_a_bad_input_changes_nothing_and_says_why(bloodsticks_table, page_for):
    table = bloodsticks_table
    referee = page_for(TV)
    referee.goto(table.url + "/referee")
    referee.wait_for_selector("#log")
    referee.fill("#command", "bet lots")
    referee.click("form button[type=submit]")
    referee.wait_for_selector("#answer .error")
    assert "bet" in referee.inner_text("#answer .error")
    assert journal_events(table.journal) == []


def test_lan_mode_tokens(tmp_path, page_for):
    journal = str(tmp_path / "j.sqlite")
    served = Served(
        *SIM_RUN, "--game", "bloodsticks", "--players", "Ann,Bo,Cy",
        "--house", "first_dropper=host", "--journal", journal, "--web", "0.0.0.0:0",
        stdin=subprocess.PIPE,
    )  # fmt: skip
    try:
        port = served.url.rsplit(":", 1)[1]
        local = f"http://127.0.0.1:{port}"
        join = {
            who: served.read_until(rf"^  {who}:? +\S+?(/join/\S+)").group(1)
            for who in ("referee", "Bo", "Cy")
        }
        stranger = page_for()
        for path in ("/", "/referee", "/player", "/api/join-codes"):
            assert stranger.request.get(local + path).status == 401, path
        refused = stranger.request.post(
            local + "/api/referee", data={"line": "first Ann"}, headers={"Origin": local}
        )
        assert refused.status == 401
        bo = page_for(PHONE)
        bo.goto(local + join["Bo"])
        bo.wait_for_selector("#actions")
        assert bo.request.get(local + "/api/join-codes").status == 403  # only the referee's
        as_cy = bo.request.post(
            local + "/api/act",
            data={"event": {"type": "match", "player": "Cy"}},
            headers={"Origin": local},
        )
        assert as_cy.status == 403
        referee = page_for(TV)
        referee.goto(local + join["referee"])
        referee.wait_for_selector("#log")
        referee_sends(referee, "first Ann")
        assert journal_events(journal)[0]["type"] == "first_dropper"
    finally:
        served.proc.stdin.close()
        served.stop()


# -- Sticks, digital: two players' phones play a whole game -----------------------------------


def choose(actions: list[dict]) -> dict:
    """The first move, as AUTOPLAY chooses."""
    for kind in ("laydown", "meld", "layoff", "draw"):
        offered = [a for a in actions if a["type"] == kind]
        if offered:
            return offered[0]
    return next(a for a in actions if a["type"] == "discard")


# Each player's page plays its own moves (in the page, no round trip to the test per move):
# whenever its latest snapshot says it is this player's turn, it sends one of the moves the
# server offered it (lay down or meld when offered, draw, else a discard that changes from
# turn to turn so the game moves on), then waits for the snapshot that holds that move.
AUTOPLAY = """me => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const pick = (actions, n) => {
    for (const kind of ["laydown", "meld", "layoff", "draw"]) {
      const a = actions.find((x) => x.type === kind);
      if (a) return a;
    }
    const discards = actions.filter((x) => x.type === "discard");
    return discards[n % discards.length];
  };
  window.autoplay = (async () => {
    let moves = 0, seen = -1;
    for (;;) {
      const m = window.sticktableLast;
      if (m.status.finished) return { moves };
      if (m.view.turn === me && m.log.length !== seen && m.you.actions.length) {
        seen = m.log.length;
        const action = pick(m.you.actions, moves);
        const answer = await sticktable.postJSON("/api/act", { event: action })
          .catch((e) => ({ error: String(e) }));
        if (answer.error) return { error: answer.error, action };
        moves += 1;
        while (window.sticktableLast.log.length <= seen) await sleep(5);
      } else await sleep(10);
    }
  })().then((result) => { window.autoplayDone = result; });
}"""


def strip_public(message: dict, me: str) -> dict:
    """The message without what anyone may see (the discard pile, the melds on the table, the
    seating draws, the public log) and without what is the player's own (hand, moves)."""
    message = json.loads(json.dumps(message))
    for part in (message.get("view") or {}, (message.get("you") or {}).get("view") or {}):
        for key in ("discard", "melds", "seat_draws", "revealed", "hand", "legal", "stick"):
            part.pop(key, None)
    message.pop("log", None)
    message.pop("keys_help", None)
    if "you" in message:
        assert message["you"]["player"] == me
        message["you"].pop("actions", None)
    return message


def assert_dom_shows_no_hidden_card(page) -> None:
    """Every card on the page is the player's own or lies open on the table."""
    message = page.evaluate("window.sticktableLast")
    view, own = message["view"], message["you"]["view"]
    open_parts = {k: view.get(k) for k in ("discard", "melds", "seat_draws", "took", "revealed")}
    public = set(CARD.findall(json.dumps(open_parts)))
    allowed = public | set(own.get("hand") or [])
    shown = set(CARD.findall(page.inner_text("body")))
    assert shown <= allowed, shown - allowed


def test_a_sticks_game_played_from_two_player_pages(tmp_path, page_for):
    journal = str(tmp_path / "j.sqlite")
    served = Served(
        *SIM_RUN, "--game", "sticks", "--players", "Ann,Bo", "--journal", journal,
        "--web", "127.0.0.1:0", stdin=subprocess.PIPE,
    )  # fmt: skip
    try:
        pages, frames = {}, {}
        for name in ("Ann", "Bo"):
            link = served.read_until(rf"^  {name}: (http://\S+)").group(1)
            pages[name] = page_for(PHONE)
            frames[name] = record_frames(pages[name])
            pages[name].goto(link)
            pages[name].wait_for_function("() => window.sticktableLast !== undefined")
        # The first move with a click on the page's button, then each page plays its own.
        first = pages["Ann"].evaluate(BRIEF)
        page = pages[first["turn"]]
        mine = wait_events_after(page, first["events"] - 1)
        page.click(f"button[data-action={choose(mine['actions'])['type']}]")
        wait_events_after(pages["Ann"], first["events"])
        assert_dom_shows_no_hidden_card(page)
        screenshot(page, "player-sticks")
        for name, page in pages.items():
            page.evaluate(AUTOPLAY, name)
        for name, page in pages.items():
            page.wait_for_function("() => window.autoplayDone", timeout=600_000, polling=200)
            result = page.evaluate("window.autoplayDone")
            assert "error" not in result, (name, result)
        final = replay(journal)
        assert final["finished"] and len(final["winners"]) == 1
        for name, page in pages.items():
            page.wait_for_selector("#status:has-text('game over')")
            other = "Bo" if name == "Ann" else "Ann"
            for message in frames[name]:
                residue = json.dumps(strip_public(message, name))
                assert not CARD.findall(residue), (name, CARD.findall(residue)[:5])
                assert other not in json.dumps(
                    message.get("you", {}).get("view", {}).get("hand", [])
                )
            assert "hand" not in json.dumps(frames[name][-1].get("view", {}))
            shown = sorted(page.locator("#hand .card").all_inner_texts())
            assert shown == sorted(frames[name][-1]["you"]["view"]["hand"])
            assert_dom_shows_no_hidden_card(page)
    finally:
        served.proc.stdin.close()
        served.stop()
