"""The daemon's session: board facts and keys become journaled rule events, rings follow."""

import pytest

from sticktable.daemon import TableSession
from sticktable.engine import Display, Game, RuleError, get_rules
from sticktable.journal import Journal

HEADER = {"game": "stick-stack", "players": ["Ann", "Bo", "Cy"]}


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    game = Game(HEADER)
    sent = []
    session = TableSession(
        journal,
        journal.new_game(HEADER, "test"),
        game,
        send=lambda kind, **f: sent.append((kind, f)),
        say=lambda _: None,
    )
    yield session, journal, sent
    journal.close()


def board(kind, seq, **fields):
    return {"k": kind, "s": seq, "t": seq * 100, **fields}


def test_board_facts_become_journaled_events(table):
    session, journal, sent = table
    session.on_board(board("hello", 0, boot="b1"))
    session.on_board(board("button", 1, seat=0, long=False))
    session.on_board(board("placed", 2, g=61))
    session.on_board(board("fell", 3, n=1, g=60))
    events = journal.events(session.game_id)
    assert [e["type"] for e in events] == ["take", "placed", "fell"]
    assert events[0]["player"] == "Ann" and events[2]["count"] == 1
    assert all(e["src"] == "board" for e in events) and events[2]["seq"] == 3
    facts = journal.facts(session.game_id)
    assert facts[0]["decision"].startswith("link: board")  # the hello is journaled too
    assert [f["seq"] for f in facts[1:]] == [1, 2, 3] and all(f["boot"] == "b1" for f in facts)
    # Ann's fallen stick is in front of her; the rings already point at Bo, who is next.
    kind, shown = sent[-1]
    assert kind == "show" and shown["sc"] == [1, 0, 0] and shown["turn"] == 1


def test_a_fact_that_means_nothing_is_logged_not_applied(table):
    session, journal, _ = table
    session.on_board(board("placed", 1, g=60))  # no turn has started: nothing is in play
    assert journal.events(session.game_id) == []
    assert journal.facts(session.game_id)[0]["decision"] == "no rule event"


def test_keys_undo_is_a_logged_correction(table):
    session, journal, _ = table
    session.on_key("take player=Ann from=bag")
    session.on_key("placed")
    session.on_key("undo")
    events = journal.events(session.game_id)
    assert events[-1] == {
        "type": "correct",
        "target": 1,
        "events": [],
        "why": "undo",
        "src": "referee",
    }
    assert session.game.state["hand"] == 1  # the placement was taken back
    assert session.game.replay() == session.game.state


def test_refused_keys_leave_the_log_alone(table):
    session, journal, _ = table
    said = []
    session.say = said.append
    session.on_key("take player=Bo from=bag")  # Ann starts round 1
    session.on_key("fell")
    session.on_key("fix x {}")
    assert journal.events(session.game_id) == []
    said = [s for s in said if not s.strip().startswith("-- ")]  # not the status lines
    assert len(said) == 3 and all("refused" in s or "usage" in s or "expected" in s for s in said)


def test_typed_key_value_commands():
    rules = get_rules("stick-stack")
    assert rules.parse_key("fell count=2") == {"type": "fell", "count": 2}
    with pytest.raises(RuleError):
        rules.parse_key("fell 2")


def test_wire_display_uses_short_keys():
    shown = Display(scores=(1, 2), scale=11, turn=1, mode="play", marks=(0, 1)).wire()
    assert shown == {"sc": [1, 2], "scale": 11, "turn": 1, "mode": "play", "win": [], "mk": [0, 1]}


def test_a_sensor_fault_pauses_play_until_it_clears(table):
    session, journal, sent = table
    session.on_board(board("button", 1, seat=0, long=False))
    session.on_board(board("fault", 2, what="cells", ok=False))
    assert sent[-1][1]["mode"] == "fault"
    session.on_board(board("placed", 3, g=60))  # sensed while faulty: journaled, not applied
    assert [e["type"] for e in journal.events(session.game_id)] == ["take"]
    assert journal.facts(session.game_id)[-1]["decision"].startswith("held: paused")
    session.on_board(board("fault", 4, what="cells", ok=True))
    assert sent[-1][1]["mode"] == "play"
    session.on_board(board("placed", 5, g=60))
    assert [e["type"] for e in journal.events(session.game_id)] == ["take", "placed"]


def test_lost_events_pause_play_until_the_referee_confirms(table):
    session, journal, sent = table
    session.on_board(board("button", 1, seat=0, long=False))
    session.on_board({"k": "gap", "src": "host", "n": 2, "why": "board rebooted"})
    assert sent[-1][1]["mode"] == "paused"
    session.on_board(board("placed", 2, g=60))
    assert [e["type"] for e in journal.events(session.game_id)] == ["take"]
    session.on_key("placed")  # the referee enters what the board lost ...
    session.on_key("ok")  # ... and confirms the tower
    assert sent[-1][1]["mode"] == "play"
    assert [e["type"] for e in journal.events(session.game_id)] == ["take", "placed"]


def test_chance_is_drawn_journaled_and_kept_off_the_shared_screen(tmp_path):
    header = {"game": "sticks", "players": ["Ann", "Bo"]}
    said = []
    with Journal(tmp_path / "j.sqlite") as journal:
        session = TableSession(
            journal, journal.new_game(header, "test"), Game(header), say=said.append
        )
        session.begin()
        events = journal.events(session.game_id)
        assert [e["type"] for e in events][-1] == "deal" and events[-1]["src"] == "chance"
        assert Game(header, events).replay() == session.game.state  # no generator needed
    deal = next(e for e in events if e["type"] == "deal")
    assert any(line.strip().endswith(" deal (by chance)") for line in said)
    hidden = [str(card) for card in deal.get("order", [])[:5]]
    assert hidden and not any(card in " ".join(said) for card in hidden if len(card) > 1)


@pytest.mark.parametrize("line", ["fix 0 [1]", "fix 0 {}", "{", '{"type": 3}', "fix 9 []"])
def test_malformed_referee_lines_are_refused_not_fatal(table, line):
    session, journal, _ = table
    said = []
    session.say = said.append
    session.on_key("take player=Ann from=bag")
    session.on_key(line)
    assert [e["type"] for e in journal.events(session.game_id)] == ["take"]
    said = [s for s in said if not s.strip().startswith("-- ")]  # not the status lines
    assert len(said) == 2 and line.split()[0] in said[1]


def test_undo_twice_takes_back_two_events(table):
    session, journal, _ = table
    for line in ("take player=Ann from=bag", "placed", "take player=Bo from=bag", "undo", "undo"):
        session.on_key(line)
    corrections = [e["target"] for e in journal.events(session.game_id) if e["type"] == "correct"]
    assert corrections == [2, 1]
    assert session.game.state["hand"] == 1 and session.game.state["tower"] == 0  # Ann holds it


def test_a_reboot_mid_round_re_arms_the_board_with_the_tower(table):
    session, journal, sent = table
    session.on_board(board("hello", 0, boot="b1"))
    session.on_board(board("button", 1, seat=0, long=False))
    session.on_board(board("placed", 2, g=81))
    session.on_board(board("button", 3, seat=1, long=False))
    session.on_board(board("placed", 4, g=79))
    sent.clear()
    reboot = {"k": "gap", "src": "host", "why": "reboot", "n": 1, "exact": True}
    session.on_board({**reboot, "boot": "b2", "old_boot": "b1"})
    # The new boot's detector is told the two sticks standing, with the masses it reported.
    assert [f for kind, f in sent if kind == "arm"] == [{"sticks": [81, 79]}]

    # A restarted daemon knows how many stand, not their masses (they were never journaled as
    # such): the board takes its nominal stick for them.
    resumed_game = Game(HEADER)
    for event in journal.events(session.game_id):
        resumed_game.step(event)
    again = []
    resumed = TableSession(
        journal,
        session.game_id,
        resumed_game,
        send=lambda kind, **f: again.append((kind, f)),
        say=lambda _: None,
    )
    resumed.on_board({**reboot, "boot": "b3", "old_boot": "b2"})
    assert [f for kind, f in again if kind == "arm"] == [{"sticks": [None, None]}]
    assert resumed.holds  # and play is paused until the referee's ok


def test_no_re_arm_between_rounds_nor_for_a_full_buffer(table):
    session, _, sent = table
    session.on_board(board("hello", 0, boot="b1"))
    reboot = {"k": "gap", "src": "host", "why": "reboot", "n": 0, "exact": True}
    session.on_board({**reboot, "boot": "b2", "old_boot": "b1"})  # no stick stands
    session.on_board(board("button", 1, seat=0, long=False))
    session.on_board(board("placed", 2, g=81))
    session.on_board(board("gap", 3, n=2, why="buffer full"))  # the board lost events, no reset
    assert not [f for kind, f in sent if kind == "arm"]
