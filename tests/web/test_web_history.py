"""`sticktable serve`: a journal's games in a real browser, checked against the journal itself.

The journal is made the way a user makes one: a simulated Stick Stack game at --speed 0 and a
Bloodsticks game typed at the simulated table. Every number on the pages is compared with what
`sticktable replay` and `sticktable export` say about the same journal.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import (
    PHONE,
    SIM_RUN,
    TV,
    Served,
    command,
    play_bloodsticks,
    replay,
    screenshot,
    sticktable,
)


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("web") / "journal.sqlite")
    played = sticktable(
        *SIM_RUN, "--seed", "3", "--players", "Ann,Bo,Cy", "--speed", "0", "--quiet",
        "--journal", path,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]
    play_bloodsticks(path)
    return path


@pytest.fixture(scope="module")
def console(journal):
    served = Served("serve", "--journal", journal, "--web", "127.0.0.1:0")
    yield served
    served.stop()


def page_totals(page, root: str = "table.standings") -> dict[str, int]:
    cells = page.locator(f"{root} td[data-total]")
    return {
        cells.nth(i).get_attribute("data-total"): int(cells.nth(i).inner_text())
        for i in range(cells.count())
    }


def test_the_game_page_shows_each_players_name_and_final_total(journal, console, page_for):
    served = console
    expected = replay(journal, 1)
    page = page_for(TV)
    page.goto(f"{served.url}/games/1")
    page.wait_for_selector("section table.standings td[data-total]")
    first = page.locator("section").first
    for name, total in expected["totals"].items():
        row = first.locator(f'tr[data-player="{name}"]')
        assert row.locator("td.name").inner_text().startswith(name)
        assert int(row.locator("td.total").inner_text()) == total
    winners = [row.get_attribute("data-player") for row in first.locator("tr.winner").all()]
    assert winners == expected["winners"]
    # One column per round, each cell the round's score from the replay.
    for number, result in enumerate(expected["rounds"], start=1):
        for name, score in result["scores"].items():
            cell = first.locator(f'tr[data-player="{name}"] td.num').nth(number - 1)
            assert int(cell.inner_text()) == score
    assert page.locator(".plot canvas").count() >= 1, "the totals-by-round plot is drawn"
    log = page.locator("#log li")
    assert log.count() == sticktable_events(journal, 1)
    assert log.nth(0).get_attribute("data-n") == "0"
    assert not page.errors
    screenshot(page, "game")


def sticktable_events(journal: str, game: int) -> int:
    listed = command("games", "--json", "--journal", journal)
    rows = [json.loads(line) for line in listed.splitlines()]
    return next(row["events"] for row in rows if row["id"] == game)


def test_the_replay_slider_shows_the_state_at_any_step(journal, console, page_for):
    served = console
    page = page_for(PHONE)
    page.goto(f"{served.url}/games/1")
    page.wait_for_selector("#step-view table.standings")
    events = sticktable_events(journal, 1)
    for step in (0, 7, events // 2, events - 1, events):
        page.locator("#step").fill(str(step))
        page.wait_for_selector(f'#step-view[data-step="{step}"]')
        shown = page_totals(page, "#step-view table.standings")
        assert shown == replay(journal, 1, upto=step)["totals"], f"step {step}"
    screenshot(page, "replay-phone")


def test_downloads_are_the_journals_own_exports(journal, console, page_for):
    served = console
    page = page_for()
    page.goto(f"{served.url}/games/1")
    page.wait_for_selector(".downloads a")
    transcript = page.request.get(f"{served.url}/games/1/transcript.jsonl")
    assert transcript.ok and "attachment" in transcript.headers["content-disposition"]
    exported = command("export", "1", "--journal", journal)
    assert transcript.text() == exported
    as_json = page.request.get(f"{served.url}/games/1/game.json").json()
    assert as_json["summary"]["totals"] == replay(journal, 1)["totals"]
    assert len(as_json["events"]) == sticktable_events(journal, 1)
    rows = list(
        csv.DictReader(io.StringIO(page.request.get(f"{served.url}/games/1/rounds.csv").text()))
    )
    expected = replay(journal, 1)
    last_round = max(int(r["round"]) for r in rows)
    assert last_round == len(expected["rounds"])
    finals = {r["player"]: int(r["total"]) for r in rows if int(r["round"]) == last_round}
    assert finals == expected["totals"]


def test_games_list_and_leaderboards(journal, console, page_for):
    served = console
    page = page_for()
    page.goto(served.url + "/")
    page.wait_for_selector("table.games")
    assert page.locator("table.games tbody tr").count() == 2
    page.click("text=#2")
    page.wait_for_selector("section table.standings td[data-total]")
    assert page_totals(page, "section table.standings") == replay(journal, 2)["totals"]
    page.goto(served.url + "/stats")
    page.wait_for_selector("table.leaderboard")
    stick_stack = page.locator('section[data-rules="stick-stack"]')
    expected = replay(journal, 1)
    for winner in expected["winners"]:
        row = stick_stack.locator(f'tr[data-player="{winner}"]')
        assert row.locator("td").nth(0).inner_text() == "1"  # rank 1: the only game's winner
    bloodsticks = page.locator('section[data-rules="bloodsticks"]')
    assert bloodsticks.locator('tr[data-player="Ann"]').count() == 1
    screenshot(page, "leaderboard")


def test_a_missing_game_is_a_clear_message(journal, console, page_for):
    served = console
    page = page_for()
    page.goto(f"{served.url}/games/99")
    page.wait_for_selector(".error")
    assert "no game 99" in page.inner_text(".error")
    assert page.request.get(f"{served.url}/api/games/99").status == 404
    assert page.request.get(f"{served.url}/api/games/1/step/9999").status == 400


def test_serve_refuses_a_bad_address(journal):
    done = sticktable("serve", "--journal", journal, "--web", "127.0.0.1:http")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "--web" in done.stderr


def test_with_no_table_the_setup_page_says_how_to_start_one(journal, console, page_for):
    page = page_for(PHONE)
    page.goto(f"{console.url}/setup")
    page.wait_for_selector("#no-table")
    assert "sticktable run --web" in page.inner_text("#no-table")
    start = {"action": "start", "rules": "stick-stack", "players": ["Ann", "Bo"], "house": {}}
    refused = page.request.post(
        f"{console.url}/api/setup", data=start, headers={"Origin": console.url}
    )
    assert refused.status == 409 and "no table" in refused.json()["error"]
    assert json.loads(command("games", "--json", "--journal", journal).splitlines()[-1])["id"] == 2
