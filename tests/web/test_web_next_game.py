"""`sticktable run --web` set up on the setup screen: after a game the table waits for the
next one, set up the same way, without restarting. Each game has its own player links; the
room follows from one game to the next. In real headless chromium, checked against the journal.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from conftest import PHONE, SIM_RUN, TV, Served
from test_web_setup import journal_rows

GAME_OVER = "#status:has-text('game over')"
WAITING = "waiting for a game to be set up"


def start_game(page, url: str, players: list[str]) -> None:
    """Fill the setup screen in for a short Stick Stack game and start it."""
    page.goto(url + "/setup")
    page.wait_for_selector("#new-game")
    for i, name in enumerate(players):
        if i >= 2:
            page.click("#add-player")
        page.fill(f"[data-player] >> nth={i}", name)
    page.fill('[data-house="end_score"]', "3")
    page.fill('[data-house="sticks"]', "8")
    page.click("#start")
    page.wait_for_url(url + "/", timeout=90_000)


def refused(url: str, link: str) -> int:
    """The status of a player's move sent with the token of `link` (a join link)."""
    token = link.rsplit("/", 1)[1]
    body = json.dumps({"event": {"type": "take"}}).encode()
    request = urllib.request.Request(
        url + "/api/act",
        data=body,
        headers={"X-Token": token, "Content-Type": "application/json", "Origin": url},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code


def test_after_a_game_the_table_waits_for_the_next_one_set_up_in_the_browser(tmp_path, page_for):
    journal = str(tmp_path / "j.sqlite")
    served = Served(
        *SIM_RUN, "--seed", "3", "--speed", "0", "--journal", journal, "--web", "127.0.0.1:0"
    )
    try:
        referee = page_for(TV)
        start_game(referee, served.url, ["Ann", "Bo"])
        ann = served.read_until(r"^  Ann:? +\S+?(/join/\S+)").group(1)
        room = page_for(TV)  # the room's screen stays open from one game to the next
        room.goto(served.url + "/")
        room.wait_for_selector('.qr figcaption:text-is("Ann")')
        phone = page_for(PHONE)
        phone.goto(served.url + ann)
        phone.wait_for_selector("#status")
        room.wait_for_selector(GAME_OVER, timeout=120_000)
        served.read_until(WAITING, timeout=120, nth=2)  # the first was before game 1
        assert room.inner_text("#turn").startswith("winner: ")  # the room keeps the result

        # The referee's screen leads to the setup page; the next game starts from there.
        referee.goto(served.url + "/referee")
        referee.click("#next-game a")
        referee.wait_for_url(served.url + "/setup")
        start_game(referee, served.url, ["Cy", "Di", "Ed"])
        room.wait_for_selector('.ring[data-player="Ed"]', timeout=60_000)
        room.wait_for_selector('.qr figcaption:text-is("Ed")')
        assert room.locator('.qr figcaption:text-is("Ann")').count() == 0
        assert "game 2" in room.inner_text("#status")
        # Ann's link was for the first game: her page says so, her token no longer works.
        phone.wait_for_selector("#link-over:has-text('game 1 is over')")
        assert refused(served.url, ann) in (401, 403)
        room.wait_for_selector(GAME_OVER, timeout=120_000)
        served.read_until(WAITING, timeout=120, nth=3)
    finally:
        out = served.stop()
    games = journal_rows(journal, "SELECT id, header, finished FROM games ORDER BY id")
    assert [(i, json.loads(h)["players"]) for i, h, _ in games] == [
        (1, ["Ann", "Bo"]),
        (2, ["Cy", "Di", "Ed"]),
    ]
    assert all(finished is not None for _, _, finished in games)
    # Ctrl-C while the table waits for a game after one was played: the console closes
    # quietly with that game's outcome.
    assert served.proc.returncode == 0, out[-2000:]
    assert "Traceback" not in out and "interrupted" not in out
    assert not (referee.errors or room.errors or phone.errors)
