"""Sticks played hot-seat at one shared screen from `sticktable run` (issue 12): the screen
hides every hand between turns, Enter shows the player whose turn it is their own hand,
stick, the checker's verdict and their moves, and `help` lists every command a player needs.

The end-to-end test plays whole games through a real `sticktable run` process on a pty, by
reading the screen only (hotseat_player.py), and checks from the journal that every hand the
screen showed was the hand of the player whose turn it was, at that turn."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

import pytest

from sticktable.engine import Game, get_rules
from sticktable.journal import Journal
from sticktable.table import State
from sticktable.terminal import CLEAR, Reveal, TerminalOutput

from .helpers import give_sticks, new_game, rig_deal
from .hotseat_player import HAND_END, PROMPT, Screen, play

HAND = re.compile(r"^  \| (\S+)'s hand \(\d+\): (.*)$", re.M)
RULES = get_rules("sticks")


# --- typed commands ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, event",
    [
        ("draw stock", {"type": "draw", "from": "stock", "player": "Bo"}),
        ("draw player=Bo from=discard", {"type": "draw", "from": "discard", "player": "Bo"}),
        ("laydown 3C,3D,JK", {"type": "laydown", "cards": "3C,3D,JK", "player": "Bo"}),
        ("laydown 3D,4D,5D/8S,8C,8D", {"type": "laydown", "melds": "3D,4D,5D/8S,8C,8D",
                                       "player": "Bo"}),
        ("layoff 2 5H,6H", {"type": "layoff", "meld": 2, "cards": "5H,6H", "player": "Bo"}),
        ("discard 10H", {"type": "discard", "card": "10H", "player": "Bo"}),
        ("steal 1 5H JK meld JK,6H,7H", {"type": "steal", "meld": 1, "give": "5H", "wild": "JK",
                                         "player": "Bo", "then": {"type": "meld",
                                                                  "cards": "JK,6H,7H"}}),
        ("steal 1 5H 2C layoff 0 2C", {"type": "steal", "meld": 1, "give": "5H", "wild": "2C",
                                       "player": "Bo", "then": {"type": "layoff", "meld": 0,
                                                                "cards": "2C"}}),
    ],
)  # fmt: skip
def test_short_commands_play_for_whose_turn_it_is(line, event):
    game = new_game(players=("Ann", "Bo"))
    assert game.turn().player is None or game.state["phase"] == "sticks"
    give_sticks(game, {"Ann": 29, "Bo": 30})
    rig_deal(game, {})
    assert game.turn().player == "Bo"
    assert RULES.parse_key(line, game.state) == event


@pytest.mark.parametrize("line", ["draw stock discard", "dance", "steal 1 5H JK meld", ""])
def test_a_command_that_is_no_move_says_so(line):
    from sticktable.engine import RuleError

    with pytest.raises(RuleError):
        RULES.parse_key(line, new_game().state)


# --- the screens ---------------------------------------------------------------------------


def rigged(hand: list[str], stick: int) -> Game:
    """Ann and Bo, Bo to play first holding `hand` and stick `stick`."""
    game = new_game(players=("Ann", "Bo"))
    give_sticks(game, {"Ann": 29, "Bo": stick})
    rig_deal(game, {"Bo": hand}, flip="9C")
    return game


def test_the_hand_screen_shows_the_stick_the_checkers_verdict_and_the_moves():
    game = rigged(["3C", "3D", "JK", "AC", "AH", "AS"], stick=30)  # three 3s and three aces
    game.apply({"type": "draw", "player": "Bo", "from": "stock"})
    lines = RULES.private_lines(game.state, "Bo")
    text = "\n".join(lines)
    assert lines[0].startswith("Bo's hand (16): ")
    assert Counter(lines[0].split(": ")[1].split()) == Counter(game.state["hands"]["Bo"])
    assert "your stick 30: " in text and "checker: your hand makes it" in text
    assert "a set of three 3s: 3C 3D JK=3" in text and "a set of three Aces: AC AH AS" in text
    moves = lines[lines.index("your moves (type one):") + 1 : -1]
    laydown = next(m.strip() for m in moves if m.strip().startswith("laydown "))
    game.apply(RULES.parse_key(laydown, game.state))  # the listed command is taken as it is
    assert game.state["down"]["Bo"]


def test_the_checker_explains_part_by_part_what_the_hand_lacks():
    game = rigged(["3C", "3D", "3H", "KC", "QD"], stick=30)
    text = "\n".join(RULES.private_lines(game.state, "Bo"))
    assert "checker: not in your hand yet" in text
    assert "you hold a set of three 3s: 3C 3D 3H" in text
    assert "missing: a set of three Aces" in text
    assert "draw stock" in text and "takes 9C" in text  # the draw phase: only draws


def test_the_table_lines_show_no_hand():
    game = rigged(["3C", "3D", "JK", "AC", "AH", "AS"], stick=30)
    text = "\n".join(RULES.public_lines(game.state))
    assert "discard 9C" in text and "Bo: 15 cards, 0 sticks done" in text
    assert "3C" not in text and "30" not in text  # neither a card held nor a stick


def test_the_table_lines_show_a_stick_given_up_after_its_tries():
    game = rigged(["3C"], stick=30)
    state = {**game.state, "revealed": [{"player": "Ann", "stick": 29, "deal": 0}]}
    assert "  Ann failed stick 29 (Two Sets of Five) too often: shown, and back in the bag" in (
        RULES.public_lines(state)
    )
    state["revealed"] = [{"player": "Ann", "stick": 29, "deal": 1}]  # this deal's: not yet
    assert not any("failed" in line for line in RULES.public_lines(state))


# --- the terminal's hot-seat screen ---------------------------------------------------------


def screen_of(game: Game, clear: bool):
    said: list[str] = []
    output = TerminalOutput(say=said.append, clear=clear)
    return output, said, lambda: output(State(game, {}, None))


@pytest.mark.parametrize("clear", [True, False])
def test_enter_shows_the_turn_players_hand_until_enter_again_or_the_turn_ends(clear):
    game = rigged(["3C", "3D", "JK", "AC", "AH", "AS"], stick=30)
    output, said, tell = screen_of(game, clear)
    tell()
    assert said[-1] == "Bo: press Enter to see your hand (everyone else looks away)"
    assert not any("'s hand" in line for line in said)
    output(Reveal(State(game, {}, None)))
    assert said[-1] == "  | Enter hides your hand"
    assert any(line.startswith("  | Bo's hand (15): ") for line in said)
    hidden = CLEAR if clear else "  | (hand hidden)"
    said.clear()
    output(Reveal(State(game, {}, None)))  # Enter again: hidden, and asked again
    assert said[0] == hidden and said[-1].startswith("Bo: press Enter")
    output(Reveal(State(game, {}, None)))
    game.apply({"type": "draw", "player": "Bo", "from": "stock"})
    said.clear()
    tell()  # Bo drew: their hand again, as it is now
    assert any(line.startswith("  | Bo's hand (16): ") for line in said)
    discard = game.rules.legal_actions(game.state, "Bo")[-1]
    game.apply(discard)
    said.clear()
    tell()  # Bo's turn is over: hidden before Ann is asked
    assert said[0] == hidden and said[-1].startswith("Ann: press Enter")
    assert not any("'s hand" in line for line in said)


def test_games_without_hidden_hands_have_no_hot_seat():
    game = Game({"game": "stick-stack", "players": ["Ann", "Bo"]})
    output, said, tell = screen_of(game, clear=True)
    tell()
    output(Reveal(State(game, {}, None)))
    assert said == []
    referee = new_game(players=("Ann", "Bo"), mode="referee")
    assert referee.rules.hot_seat(referee.state) is None


# --- a real `sticktable run` ----------------------------------------------------------------


def hands_by_turn(journal_path) -> set[tuple[str, tuple[str, ...]]]:
    """(turn player, their hand) at every step of the journaled game where it was their turn."""
    with Journal(journal_path, read_only=True) as journal:
        row = journal.game("1")
        game = Game(row.header)
        seen = set()
        for event in journal.events(row.id):
            game.apply(event)
            turn = RULES.hot_seat(game.state)
            if turn is not None:
                seen.add((turn[0], tuple(sorted(game.state["hands"][turn[0]]))))
    return seen


GAMES = {  # (players, house rules): hands big enough for a game of a few deals
    "classic": ("Ann,Bo", ["--house", "hand_size=25"]),
    "tries": ("Ann,Bo,Cy", ["--house", "preset=tries", "--house", "hand_size=20", "--seed", "4"]),
}


@pytest.mark.parametrize("preset", GAMES)
def test_a_whole_game_played_by_reading_the_screen(tmp_path, preset):
    journal = tmp_path / "j.sqlite"
    players, house = GAMES[preset]
    screen = Screen(["run", "--sim", "--game", "sticks", "--players", players, *house,
                     "--journal", str(journal)])  # fmt: skip
    screen.type("help")
    _, end = screen.wait_first({"help": re.compile(r"^  help +the game's commands.*$", re.M)})
    documented = set(re.findall(r"^  (\w+)", screen.pending[: end.end()], re.M))
    shown = list(play(screen))
    assert screen.finish() == 0, screen.text[-2000:]
    moves = [line.split()[0] for line in screen.typed[1:] if line]
    assert set(moves) <= documented, set(moves) - documented  # every move is one `help` lists
    assert {"draw", "laydown", "discard", "meld", "layoff"} <= set(moves)
    assert preset != "tries" or "steal" in moves
    text = screen.text
    assert re.search(r"^game 1 over$", text, re.M)
    assert len(shown) > 20

    # Every hand the screen showed was the hand of the player whose turn it was, right then.
    truth = hands_by_turn(journal)
    for player, block in shown:
        owners = HAND.findall(block)
        assert [owner for owner, _ in owners] == [player], block
        assert (player, tuple(sorted(owners[0][1].split()))) in truth, block

    # Between a hand shown and the next player's prompt the screen is cleared (a terminal).
    turns = [m.start() for m in PROMPT.finditer(text)]
    for start, end in zip(turns, turns[1:], strict=False):
        segment = text[start:end]
        if HAND_END.search(segment):
            assert CLEAR in segment[segment.rfind("Enter hides your hand") :], segment[-500:]
        asked = PROMPT.match(segment)[1]
        assert {owner for owner, _ in HAND.findall(segment)} <= {asked}


def test_piped_input_shows_a_hand_only_on_enter_and_marks_where_it_ends(tmp_path):
    played = subprocess.run(
        [sys.executable, "-m", "sticktable", "run", "--sim", "--game", "sticks",
         "--players", "Ann,Bo", "--journal", str(tmp_path / "j.sqlite")],
        input="show\n\n\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = played.stdout
    asked = PROMPT.search(out)
    assert asked, out
    hands = HAND.findall(out)
    assert [owner for owner, _ in hands] == [asked[1]]  # one Enter: one hand, the turn player's
    assert out.index("'s hand") > asked.end()
    assert "  | (hand hidden)" in out[out.index("'s hand") :]  # Enter again hid it
    assert CLEAR not in out  # a pipe is no screen to clear


def test_quiet_keeps_the_hot_seat_screen_but_not_the_stream():
    from sticktable.table import Line

    game = rigged(["3C", "3D", "JK", "AC", "AH", "AS"], stick=30)
    said: list[str] = []
    output = TerminalOutput(quiet=True, say=said.append)
    output(Line("#4 draw from=stock player=Bo"))
    output(State(game, {}, None))
    output(Reveal(State(game, {}, None)))
    assert not any(line.startswith("#4") for line in said)
    assert any(line.startswith("Bo: press Enter") for line in said)
    assert any(line.startswith("  | Bo's hand (15)") for line in said)
