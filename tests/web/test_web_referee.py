"""The referee's Sticks screen (referee mode, real cards), in real headless chromium: a
lay-down entered by picking cards, the checker's verdict before it is entered, and the
rules' own verdict once it is, checked against the journal and the checker itself.
"""

from __future__ import annotations

import subprocess

from conftest import SIM_RUN, TV, Served, screenshot
from test_web_live import journal_events, referee_sends

from sticktable.games.sticks.check import check_request

SETUP = (
    "seats order=Ann,Bo dealer=Bo",
    "stick player=Ann stick=1",
    "stick player=Bo stick=2",
    "deal",
)
RUN_AND_SET = ["3C", "4C", "5C", "8S", "8H", "8D"]  # stick 1: one run of three, one set of three


def test_a_lay_down_checked_then_entered_on_the_sticks_referee_screen(tmp_path, page_for):
    journal = str(tmp_path / "j.sqlite")
    served = Served(
        *SIM_RUN, "--game", "sticks", "--players", "Ann,Bo", "--house", "mode=referee",
        "--journal", journal, "--web", "127.0.0.1:0", stdin=subprocess.PIPE,
    )  # fmt: skip
    try:
        referee = page_for(TV)
        referee.goto(served.url + "/referee")
        referee.wait_for_selector("#log")
        for line in SETUP:
            referee_sends(referee, line)
        referee.wait_for_selector("#laydown-check")
        assert referee.input_value("#ref-player") == "Ann"  # whose turn it is
        # A wrong lay-down, typed: the checker says why, and nothing is journaled.
        before = len(journal_events(journal))
        wrong = ["3C", "4C", "6C", "8S", "8H", "8D"]
        referee.fill("#ref-cards", ",".join(wrong))
        referee.click("#ref-check")
        referee.wait_for_selector('#verdict [data-ok="false"]')
        expected = check_request("classic", 1, wrong)
        assert expected["why"] in referee.inner_text("#verdict")
        assert len(journal_events(journal)) == before
        # The right one, picked card by card: the checker's melds, then entered.
        referee.click("text=clear")
        referee.click("#laydown-check summary")
        for card in RUN_AND_SET:
            referee.click(f'#card-picker [data-card="{card}"]')
        assert referee.input_value("#ref-cards") == ",".join(RUN_AND_SET)
        referee.click("#ref-check")
        referee.wait_for_selector('#verdict [data-ok="true"]')
        shown = referee.inner_text("#verdict")
        for meld in check_request("classic", 1, RUN_AND_SET)["melds"]:
            assert " ".join(meld["cards"]) in shown
        referee.locator("#verdict").scroll_into_view_if_needed()
        screenshot(referee, "referee-sticks")
        referee.click("#ref-laydown")
        referee.wait_for_selector("#answer .ok")
        laid = [e for e in journal_events(journal) if e["type"] == "laydown"]
        assert laid == [{"type": "laydown", "player": "Ann", "cards": RUN_AND_SET, "src": "key"}]
        # Bo's stick (2) is not entered with Ann's cards: the rules refuse, the page says why.
        referee.select_option("#ref-player", "Bo")
        referee.click("#ref-check")
        referee.wait_for_selector("#verdict .error")
        assert not referee.errors
    finally:
        served.proc.stdin.close()
        served.stop()


def test_a_pages_answer_says_what_the_table_made_of_it_without_the_terminals_echo():
    from sticktable.table import Answer
    from sticktable.web.live import answer_json

    line = '{"type": "draw", "player": "Ann", "from": "stock"}'
    said = (
        f"          key {line:28} -> #6 draw player=Ann from=stock",
        "          -- deal 1, play: Ann's turn (discard, laydown)",
    )
    assert answer_json(line, Answer(True, said, 1)) == {
        "ok": "#6 draw player=Ann from=stock · deal 1, play: Ann's turn (discard, laydown)"
    }
    refused = answer_json("undo", Answer(False, ("  key: undo: nothing to undo",), 0))
    assert refused == {"error": "nothing to undo", "applied": 0}
