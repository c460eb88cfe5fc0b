"""Playing at the terminal (issue 12): each game's own help and status line, numbered events
with what they cost whom, `undo` after `fix`, typed events that cannot pass for the board,
standings as a table (winner first, payouts and fall-outs, any script in names), `show
--json`, rings under the names of who sits at them."""

import json
import random

import pytest

from sticktable.daemon import TableSession, describe_event
from sticktable.engine import Game, get_rules
from sticktable.journal import Journal
from sticktable.table import Rings
from sticktable.terminal import TerminalOutput
from sticktable.texttable import cell_width

LAYOUT = {"Ann-1": {"posture": "center"}, "Ann-2": {"posture": "flat"},
          "Bo-1": {"posture": "thin"}, "Bo-2": {"posture": "flat"},
          "Cy-1": {"posture": "flat"}, "Cy-2": {"posture": "flat"}}  # fmt: skip


@pytest.fixture
def table(tmp_path):
    """open(header) -> (session, said): a rule session on a real journal, its screen lines."""
    with Journal(tmp_path / "journal.sqlite") as journal:

        def open_session(header):
            said: list[str] = []
            game_id = journal.new_game(header, "test")
            session = TableSession(journal, game_id, Game(header), say=said.append)
            session.begin()
            return session, said

        yield open_session


def bloodsticks(**house):
    return {"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"], "first_dropper": "host", **house}


@pytest.mark.parametrize("name", ["stick-stack", "bloodsticks", "sticks"])
def test_help_lists_the_games_own_commands(table, name):
    header = bloodsticks() if name == "bloodsticks" else {"game": name, "players": ["Ann", "Bo"]}
    session, said = table(header)
    said.clear()
    session.on_key("help")
    text = "\n".join(said)
    assert get_rules(name).keys_help in text and "undo" in text
    others = {r.name: r.keys_help for r in [get_rules(n) for n in ("stick-stack", "sticks")]}
    assert all(help_text not in text for game, help_text in others.items() if game != name)


def test_undo_after_fix_takes_back_the_fixed_event(table):
    session, said = table(bloodsticks())
    for line in ["first Ann", "collect", "bet 1", "match Bo", "match Cy", "drop high"]:
        session.on_key(line)
    session.on_key("layout " + json.dumps(LAYOUT))
    assert session.game.state["phase"] == "confirm"
    fixed = {**LAYOUT, "Bo-1": {"posture": "center"}}
    session.on_key(f"fix 6 {json.dumps({'type': 'layout', 'sticks': fixed})}")
    assert session.game.state["proposal"]["Bo"] > 4
    said.clear()
    session.on_key("undo")
    assert not any("refused" in line for line in said), said
    assert session.game.state["phase"] == "count"  # the fixed layout is taken back, not the drop
    session.on_key("undo")
    assert session.game.state["phase"] == "drop"


def test_a_typed_event_cannot_claim_to_come_from_the_board(table):
    session, _ = table(bloodsticks())
    session.on_key('{"type": "first_dropper", "player": "Ann", "src": "board"}')
    assert session.game.events[-1]["src"] == "key"
    session.on_key('fix 0 {"type": "first_dropper", "player": "Bo", "src": "board"}')
    assert session.game.events[-1]["events"] == [
        {"type": "first_dropper", "player": "Bo", "src": "referee"}
    ]
    session.on_key('{"type": "correct", "target": 0, "events": [{"type": "first_dropper", '
                   '"player": "Cy", "src": "board"}]}')  # fmt: skip
    assert session.game.events[-1]["events"][0]["src"] == "referee"
    assert session.game.state["dropper"] == "Cy"


def test_the_stream_numbers_events_and_says_what_they_cost_whom(table):
    session, said = table({"game": "stick-stack", "players": ["Ann", "Bo"], "foul_penalty": 2})
    for fact in [
        {"k": "button", "seat": 0, "long": False},
        {"k": "placed"},
        {"k": "touch"},
        {"k": "button", "seat": 1, "long": False},
        {"k": "placed"},
        {"k": "fell", "n": 1},
    ]:
        session.on_board(fact)
    text = "\n".join(said)
    assert "#0 take player=Ann from=bag" in text and "#1 placed" in text
    assert "#2 touch (Ann +2, Ann mark 1)" in text and "#5 fell count=1 (Bo +1)" in text


def test_bloodsticks_shows_dropper_counter_pot_and_the_proposal(table):
    session, said = table(bloodsticks())
    for line in ["first Ann", "collect", "bet 2", "match Bo", "match Cy", "drop low"]:
        session.on_key(line)
    assert "dropper Ann; counter Bo; pot 6; sticks Ann-1 Ann-2 Bo-1" in said[-1]
    session.on_key("layout " + json.dumps(LAYOUT))
    assert "proposed: Ann 9, Bo 3, Cy 2" in said[-1] and "confirm" in said[-1]


def test_sticks_shows_the_deal_the_turn_and_the_kinds_of_move(table):
    session, said = table({"game": "sticks", "players": ["Ann", "Bo"], "preset": "classic"})
    player = session.game.turn().player
    assert said[-1].endswith(f"deal 1, draw: {player}'s turn (draw)")
    session.on_key(f"draw player={player} from=stock")
    assert f"play: {player}'s turn (" in said[-1] and "discard" in said[-1]
    assert not any(card in said[-1] for card in session.game.state["hands"][player])


def test_standings_winner_first_with_payouts_and_fall_outs_as_a_table(table):
    session, said = table(bloodsticks(entry="totals"))
    for line in ["first Ann", "collect", "bet 2", "match Bo", "fall Cy", "drop low",
                 "totals Ann=9 Bo=4", "collect", "bet 1", "match Ann", "drop flip",
                 "totals Ann=2 Bo=2"]:  # fmt: skip
        session.on_key(line)
    assert session.game.finished
    said.clear()
    session.on_key("show")
    rows = "\n".join(said).splitlines()[-4:]
    assert rows[0].split() == ["player", "total"]
    assert rows[1].split() == ["Ann", "11", "winner", "paid", "6"]
    assert rows[2].split() == ["Bo", "6"] and rows[3].split() == ["Cy", "0", "fell", "out"]
    said.clear()
    session.on_key("show --json")
    summary = json.loads(said[-1])
    assert summary["winners"] == ["Ann"] and summary["active"] == ["Ann", "Bo"]


def test_names_in_any_script_print_as_they_are_in_aligned_columns(table):
    players = ["Änne", "李小龙", "Bo"]
    session, said = table({"game": "stick-stack", "players": players})
    session.on_board({"k": "button", "seat": 0, "long": False})
    session.on_board({"k": "placed"})
    session.on_board({"k": "fell", "n": 1})
    said.clear()
    session.on_key("show")
    rows = "\n".join(said).splitlines()[-3:]
    assert {row.split()[0] for row in rows} == set(players)
    # The totals column ends in the same terminal cell on every row (李小龙 takes six).
    ends = {cell_width(row[: row.index(row.split()[1]) + len(row.split()[1])]) for row in rows}
    assert len(ends) == 1


def test_rings_print_under_who_sits_there_after_the_seat_draw():
    players = ["Ann", "Bo", "Cy", "Di"]
    for seed in range(20):
        game = Game({"game": "sticks", "players": players})
        game.draw_chance(random.Random(seed))
        while game.state["seats"] is None:
            game.draw_chance(random.Random(seed + 100))
        if game.state["seats"] != players:
            break
    names = game.rules.display(game.state).names
    assert list(names) == game.state["seats"] != players
    said: list[str] = []
    frame = bytes([0, 0, 40] * 12) + bytes(3 * 12 * 3)  # a lit first ring
    TerminalOutput(say=said.append)(Rings(frame, names))
    assert said[-1].split()[1].startswith(f"{names[0]}[bbbbbbbbbbbb]")


def test_typed_events_print_for_people_never_as_a_python_repr(table):
    session, said = table(bloodsticks())
    for line in ["first Ann", "collect", "bet 1", "match Bo", "match Cy", "drop low"]:
        session.on_key(line)
    session.on_key("layout " + json.dumps(LAYOUT))
    told = next(line for line in said if "-> #6 layout" in line)
    shown = told.split("-> #6 layout sticks=")[1]
    assert "{'" not in told and shown.startswith('{"Ann-1":{"posture":"center"}')
    assert len(shown) <= 60 and shown.endswith("…")  # the journal keeps it whole
    event = {"type": "laydown", "cards": ["3C", "3D", "JK"], "player": "Bo"}
    assert describe_event(event) == "laydown cards=3C,3D,JK player=Bo"


def test_bloodsticks_play_is_gone_run_is_the_one_way():
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-m", "sticktable", "bloodsticks", "play"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert gone.returncode == 2 and "invalid choice: 'play'" in gone.stderr


def test_typing_at_a_terminal_keeps_a_prompt_below_the_stream(tmp_path):
    """`run` with the keyboard and the screen on a terminal (a pty): every line is written over
    the prompt, which is drawn again below it, and taken away at the end."""
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "sticktable", "run", "--sim", "--game", "bloodsticks",
         "--players", "Ann,Bo,Cy", "--house", "first_dropper=host",
         "--journal", str(tmp_path / "j.sqlite")],
        stdin=slave, stdout=slave, stderr=slave,
    )  # fmt: skip
    os.close(slave)
    screen = b""
    os.write(master, b"first Ann\n")
    while b"#0 first_dropper" not in screen:
        screen += os.read(master, 65536)
    os.write(master, b"\x04")  # Ctrl-D: the keyboard is done
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    assert process.wait(timeout=60) == 1  # the game is not finished
    os.close(master)
    text = screen.decode()
    assert "\r\x1b[K          key first Ann" in text
    assert "#0 first_dropper player=Ann (Bo mark 1)\r\n> " in text  # the prompt below it
    assert text.endswith("Cy          0\r\n> \r\x1b[K")  # the last prompt is taken away


def test_a_reader_that_goes_away_is_no_traceback(tmp_path):
    """`sticktable run ... | head -3`: the rest of the stream goes nowhere, quietly."""
    import subprocess
    import sys

    run = subprocess.Popen(
        [sys.executable, "-m", "sticktable", "run", "--sim", "--game", "sticks",
         "--players", "Ann,Bo", "--journal", str(tmp_path / "j.sqlite")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert run.stdout.readline().startswith("game 1: sticks")
    run.stdout.close()  # the reader goes away
    _, errors = run.communicate("help\n" * 200, timeout=120)
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
