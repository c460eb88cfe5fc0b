"""One scenario per Stick Stack ruling (host/docs/rulings-stick-stack.md), named after it.

Notation (see conftest.py): "Ann bag" = Ann takes from the bag, "fell 2" = two sticks fell.
"""

import copy
import re
from pathlib import Path

import pytest

from sticktable.engine import Display, InvariantError, RuleError
from sticktable.games.stickstack import RULES, blocked

ROOT = Path(__file__).resolve().parents[2]


def scores(game, index=-1):
    return game.standings().rounds[index].scores


# --- ruling 1: seats and first players ---------------------------------------------------


def test_ruling_01_two_to_eight_seats(ss):
    for seats in (2, 8):
        ss.play(players=[f"P{i}" for i in range(seats)])
    for seats in (1, 9):
        with pytest.raises(RuleError, match="needs 2 to 8 players"):
            ss.play(players=[f"P{i}" for i in range(seats)])


def test_ruling_01_first_player_of_each_round_moves_left(ss):
    game = ss.play(["Ann bag", "placed", "Bo bag", "placed", "Cy bag", "placed", "Ann bag"])
    assert game.state["holder"] == 0  # clockwise within a round, back to Ann
    game = ss.play(["Ann bag", "topple"], end_score=100)
    with pytest.raises(RuleError, match="it is Bo's turn, not Ann's"):
        game.apply(ss.event("Ann bag"))
    for step in ["Bo bag", "topple", "Cy bag", "topple"]:
        game.apply(ss.event(step))
    assert game.state["round"] == 4
    game.apply(ss.event("Ann bag"))  # round 4 wraps round to the first seat


# --- ruling 2: a turn starts with a take; bag empty -> own pile; both empty -> round over ---

# Two players, three sticks: Bo ends up with the only sticks outside the tower.
EMPTY_BAG = ["Ann bag", "placed", "Bo bag", "placed", "fell 1", "Ann bag", "placed"]


def test_ruling_02_turn_starts_with_a_take_from_bag_or_own_pile(ss):
    game = ss.play(["Ann bag", "placed", "fell 1", "Bo bag", "placed", "Cy bag", "placed"])
    game.apply(ss.event("Ann front"))
    assert game.state["piles"] == [0, 0, 0] and game.state["hand"] == 1
    with pytest.raises(RuleError, match="no turn has started"):
        ss.play().apply(ss.event("placed"))
    with pytest.raises(RuleError, match="Ann has no sticks in front"):
        ss.play().apply(ss.event("Ann front"))
    with pytest.raises(RuleError, match="Ann still holds a stick"):
        ss.play(["Ann bag"]).apply(ss.event("Bo bag"))


def test_ruling_02_bag_empty_must_take_own_pile(ss):
    game = ss.play(EMPTY_BAG, players=["Ann", "Bo"], sticks=3)
    assert game.state["bag"] == 0 and game.state["piles"] == [0, 1]
    assert RULES.legal_actions(game.state, "Bo") == [
        {"type": "take", "player": "Bo", "from": "front"}
    ]
    with pytest.raises(RuleError, match="bag: it is empty"):
        game.apply(ss.event("Bo bag"))
    game.apply(ss.event("Bo front"))
    assert RULES.legal_actions(game.state, "Bo") == [{"type": "placed"}, {"type": "unplaceable"}]


def test_ruling_02_both_empty_round_ends_no_more_sticks_before_their_turn(ss):
    steps = EMPTY_BAG + ["Bo front", "placed", "fell 2"]  # Ann has nothing left to take
    game = ss.play(steps, players=["Ann", "Bo"], sticks=3)
    assert blocked(game.state) and not game.state["rounds"]
    with pytest.raises(RuleError, match="it is Bo's turn, not Ann's"):
        game.apply(ss.event("Ann bag"))  # the round ended before Ann's turn: round 2 is Bo's
    game.apply(ss.event("Bo bag"))
    assert game.summary()["rounds"] == [
        {"scores": {"Ann": 0, "Bo": 2}, "ended_by": "no_more_sticks", "toppler": None}
    ]
    closed_by_event = ss.play(steps + ["end_round"], players=["Ann", "Bo"], sticks=3)
    assert closed_by_event.standings().totals == {"Ann": 0, "Bo": 2}
    with pytest.raises(RuleError, match="can still go on"):
        ss.play(["Ann bag", "placed"]).apply(ss.event("end_round"))


# --- ruling 3: falls belong to the turn holder until the next player takes ---------------


def test_ruling_03_falls_belong_to_the_turn_holder_until_the_next_take(ss):
    steps = ["Ann bag", "placed", "Bo bag", "placed", "Cy bag", "placed", "Ann bag", "placed"]
    game = ss.play(steps + ["fell 1"])  # after placing, still Ann's turn
    assert game.state["piles"] == [1, 0, 0]
    for step in ["Bo bag", "fell 1", "placed", "fell 1"]:  # before and after Bo places
        game.apply(ss.event(step))
    assert game.state["piles"] == [1, 2, 0]


# --- ruling 4: unplaceable stick ----------------------------------------------------------


def test_ruling_04_unplaceable_stick_goes_in_front_and_the_turn_passes(ss):
    game = ss.play(["Ann bag", "unplaceable"])
    assert game.state["piles"] == [1, 0, 0] and game.state["bag"] == 35
    assert RULES.display(game.state).turn == 1
    for step in ["Bo bag", "placed", "Cy bag", "placed", "Ann front"]:
        game.apply(ss.event(step))
    assert game.state["piles"] == [0, 0, 0]
    with pytest.raises(RuleError, match="holds no stick"):
        ss.play(["Ann bag", "placed"]).apply(ss.event("unplaceable"))


def test_house_rule_unplaceable_to_bag(ss):
    game = ss.play(["Ann bag", "unplaceable"], unplaceable="to_bag")
    assert game.state["piles"] == [0, 0, 0] and game.state["bag"] == 36
    game.apply(ss.event("Bo bag"))


# --- ruling 5: touching the tower is a foul -----------------------------------------------


def test_ruling_05_touch_is_a_foul_recorded_and_shown(ss):
    game = ss.play(["Ann bag", "touch", "placed", "Bo bag", "touch", "touch"])
    assert {"type": "touch"} in game.events
    assert RULES.display(game.state).marks == (1, 2, 0)
    assert game.standings().fouls == {"Ann": 1, "Bo": 2, "Cy": 0}
    game.apply(ss.event("topple"))
    assert scores(game) == {"Ann": 0, "Bo": 5, "Cy": 0}  # default penalty 0
    with pytest.raises(RuleError, match="no turn has started"):
        game.apply(ss.event("touch"))


def test_house_rule_foul_penalty(ss):
    steps = ["Ann bag", "touch", "touch", "placed", "Bo bag", "touch", "topple"]
    game = ss.play(steps, foul_penalty=2)
    assert scores(game) == {"Ann": 4, "Bo": 7, "Cy": 0}


# --- ruling 6: what a topple is -----------------------------------------------------------


def test_ruling_06_first_stick_off_empty_tower_is_a_fall(ss):
    game = ss.play(["Ann bag", "placed", "fell 1"])
    assert not game.state["rounds"] and game.state["piles"] == [1, 0, 0]
    game.apply(ss.event("Bo bag"))


def test_ruling_06_tower_emptied_is_a_topple(ss):
    game = ss.play(["Ann bag", "placed", "Bo bag", "placed", "fell 2"])
    assert game.summary()["rounds"] == [
        {"scores": {"Ann": 0, "Bo": 5, "Cy": 0}, "ended_by": "topple", "toppler": "Bo"}
    ]


def test_ruling_06_tower_falling_over_is_a_topple(ss):
    game = ss.play(["Ann bag", "placed", "Bo bag", "topple"])
    assert scores(game) == {"Ann": 0, "Bo": 5, "Cy": 0}


def test_house_rule_topple_min_sticks(ss):
    emptied = ["Ann bag", "placed", "Bo bag", "placed", "fell 2"]  # Bo's turn began with 1
    game = ss.play(emptied, topple_min_sticks=2)
    assert not game.state["rounds"] and game.state["piles"] == [0, 2, 0]
    game = ss.play(["Ann bag", "placed", "fell 1"], topple_min_sticks=0)
    assert scores(game) == {"Ann": 5, "Bo": 0, "Cy": 0}


# --- ruling 7: after a topple -------------------------------------------------------------

BEFORE_CY_TOPPLES = [
    "Ann bag", "placed", "Bo bag", "placed", "Cy bag", "placed", "fell 1",  # Cy: 1 in front
    "Ann bag", "placed", "fell 1", "Bo bag", "placed",  # Ann: 1 in front; tower 3
]  # fmt: skip


def test_ruling_07_topple_sends_the_turns_falls_back_and_earlier_piles_count(ss):
    game = ss.play(BEFORE_CY_TOPPLES + ["Cy bag", "placed", "fell 1"])
    assert game.state["piles"] == [1, 0, 2]
    game.apply(ss.event("fell 3"))  # the tower is empty: Cy toppled it
    assert game.summary()["rounds"] == [
        {"scores": {"Ann": 1, "Bo": 0, "Cy": 6}, "ended_by": "topple", "toppler": "Cy"}
    ]
    assert game.state["bag"] == 36 and game.state["round"] == 2


def test_ruling_07_stick_in_hand_goes_back_and_the_round_ends_at_once(ss):
    game = ss.play(BEFORE_CY_TOPPLES + ["Cy bag", "fell 1", "topple"])
    assert scores(game) == {"Ann": 1, "Bo": 0, "Cy": 6}
    with pytest.raises(RuleError, match="it is Bo's turn, not Cy's"):
        game.apply(ss.event("Cy bag"))
    with pytest.raises(RuleError, match="no turn has started"):
        game.apply(ss.event("topple"))


# --- ruling 8: scores, game end, ties -----------------------------------------------------


def test_ruling_08_totals_add_up_and_the_lowest_total_wins(ss):
    round_1 = ["Ann bag", "topple"]
    round_2 = ["Bo bag", "placed", "Cy bag", "placed", "fell 1", "Ann bag", "topple"]
    game = ss.play(round_1, end_score=6)
    assert not game.finished and game.standings().totals == {"Ann": 5, "Bo": 0, "Cy": 0}
    for step in round_2:
        game.apply(ss.event(step))
    standings = game.standings()
    assert standings.totals == {"Ann": 10, "Bo": 0, "Cy": 1}
    assert game.finished and standings.winners == ["Bo"]
    assert RULES.display(game.state) == Display(
        scores=(10, 0, 1),
        scale=6,
        turn=None,
        mode="over",
        win=(1,),
        marks=(0, 0, 0),
        names=("Ann", "Bo", "Cy"),
    )
    with pytest.raises(RuleError, match="the game is over"):
        game.apply(ss.event("Cy bag"))


def test_ruling_08_game_ends_only_at_a_round_end(ss):
    falls = ["Ann bag", "placed", "Bo bag", "placed", "Cy bag", "placed", "Ann bag", "placed"]
    game = ss.play(falls + ["fell 3"], end_score=2)  # Ann has 3 in front, round still on
    assert not game.finished and game.standings().totals == {"Ann": 0, "Bo": 0, "Cy": 0}


def test_ruling_08_tie_for_lowest_shares_the_win(ss):
    game = ss.play(["Ann bag", "topple"], end_score=5)
    assert game.finished and game.standings().winners == ["Bo", "Cy"]
    assert RULES.display(game.state).win == (1, 2)


def test_house_rule_tie_play_on(ss):
    game = ss.play(["Ann bag", "topple"], end_score=5, tie="play_on")
    assert not game.finished and game.state["round"] == 2
    for step in ["Bo bag", "placed", "fell 1", "Cy bag", "topple"]:
        game.apply(ss.event(step))
    assert game.finished and game.standings().winners == ["Bo"]
    assert game.standings().totals == {"Ann": 5, "Bo": 1, "Cy": 5}


def test_house_rule_end_score_and_sticks(ss):
    game = ss.play(["Ann bag", "topple"], end_score=4)
    assert game.finished
    game = ss.play(["Ann bag"], sticks=10)
    assert game.state["bag"] == 9


def test_header_house_rules_are_checked(ss):
    cases = {
        "unknown header key 'tie_rule'": {"tie_rule": "share"},
        '"tie" must be': {"tie": "coin"},
        '"unplaceable" must be': {"unplaceable": "away"},
        '"foul_penalty" must be': {"foul_penalty": -1},
        '"topple_min_sticks" must be': {"topple_min_sticks": 1.5},
        '"sticks" must be': {"sticks": 0},
        '"end_score" must be': {"end_score": True},
    }
    for message, house in cases.items():
        with pytest.raises(RuleError, match=message):
            ss.play(**house)
    with pytest.raises(RuleError, match="same name"):
        ss.play(players=["Ann", "Ann"])


# --- ruling 9: conservation ---------------------------------------------------------------


def test_ruling_09_sticks_are_conserved_at_every_moment(ss):
    game = ss.play(BEFORE_CY_TOPPLES + ["Cy bag", "fell 1"], sticks=20)
    state = game.state
    assert state["bag"] + state["tower"] + state["hand"] + sum(state["piles"]) == 20
    broken = copy.deepcopy(state)
    broken["piles"][0] += 1  # a stick from nowhere
    with pytest.raises(InvariantError, match="not conserved"):
        RULES.check(broken)


# --- ruling 10: sensors report facts, the rules decide; corrections are logged ------------


def test_ruling_10_board_facts_mean_what_the_rules_say(ss):
    start = ss.play().state
    assert RULES.interpret(start, {"k": "button", "seat": 0, "long": False}) == [
        {"type": "take", "player": "Ann", "from": "bag"}
    ]
    assert RULES.interpret(start, {"k": "button", "seat": 1, "long": False}) == []  # not Bo's go
    assert RULES.interpret(start, {"k": "fell", "n": 2}) == []  # nothing in play yet
    assert RULES.interpret(start, {"k": "topple"}) == []
    game = ss.play(["Ann bag", "placed", "fell 1", "Bo bag", "placed", "Cy bag"])
    state = game.state
    assert RULES.interpret(state, {"k": "placed"}) == [{"type": "placed"}]
    assert RULES.interpret(state, {"k": "fell", "n": 5}) == [{"type": "fell", "count": 1}]
    assert RULES.interpret(state, {"k": "touch"}) == [{"type": "touch"}]
    game.apply(ss.event("placed"))
    assert RULES.interpret(game.state, {"k": "placed"}) == []  # no stick in hand
    long_press = {"k": "button", "seat": 0, "long": True}
    assert RULES.interpret(game.state, long_press)[0]["from"] == "front"


def test_ruling_10_a_referee_correction_is_logged_never_silent(ss):
    game = ss.play(["Ann bag", "placed", "fell 1", "Bo bag"])
    correction = {"type": "correct", "target": 2, "events": [], "why": "it was a knock"}
    game.apply(correction)
    assert game.events[-1] == correction and len(game.events) == 5
    assert game.state["piles"] == [0, 0, 0] and game.state["tower"] == 1


def test_interpret_handles_odd_facts_without_raising(ss):
    state = ss.play(["Ann bag", "placed"]).state
    odd = [
        None, {}, {"k": "button"}, {"k": "button", "seat": 9}, {"k": "button", "seat": "0"},
        {"k": "fell", "n": 0}, {"k": "fell", "n": "2"}, {"k": "fell"}, {"k": "hb", "t": 5},
        {"k": "fault", "what": "hx711", "ok": False},
    ]  # fmt: skip
    for fact in odd:
        assert RULES.interpret(state, fact) == []


def test_interpret_button_on_a_round_that_cannot_go_on_closes_it(ss):
    steps = EMPTY_BAG + ["Bo front", "placed"]
    game = ss.play(steps, players=["Ann", "Bo"], sticks=3)
    assert RULES.interpret(game.state, {"k": "button", "seat": 0, "long": False}) == [
        {"type": "end_round"}
    ]
    assert RULES.display(game.state).turn is None


def test_display_follows_the_game(ss):
    game = ss.play(["Ann bag", "topple"], end_score=50)  # round 1: Ann toppled
    shown = RULES.display(game.state)
    assert shown.mode == "topple" and shown.turn == 1 and game.state["round"] == 2
    assert shown.scores == (5, 0, 0) and shown.scale == 50
    for step in ["Bo bag", "placed", "fell 1"]:
        game.apply(ss.event(step))
    shown = RULES.display(game.state)  # the running round's stick in front counts already
    assert shown.mode == "play" and shown.scores == (5, 1, 0) and shown.turn == 2
    game.apply(ss.event("Cy bag"))
    assert RULES.display(game.state).turn == 2  # Cy holds the stick: still Cy to act


def test_rulings_doc_points_at_real_tests():
    doc = (ROOT / "host/docs/rulings-stick-stack.md").read_text()
    named = set(re.findall(r"`(test_\w+)`", doc))
    defined = {
        name
        for path in Path(__file__).parent.glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE)
    }
    assert named <= defined, f"the doc names missing tests: {sorted(named - defined)}"
    rulings = {name for name in defined if re.match(r"test_(ruling_\d\d|house_rule)_", name)}
    assert rulings <= named, f"tests missing from the doc: {sorted(rulings - named)}"
    assert {int(name[12:14]) for name in rulings if "ruling" in name} == set(range(1, 11))


def test_view_shows_everything_public(ss):
    steps = EMPTY_BAG + ["Bo front", "placed"]
    view = RULES.view(ss.play(steps, players=["Ann", "Bo"], sticks=3, end_score=9).state, "Ann")
    assert view["round_over"] and view["next"] == "Bo" and view["tower"] == 3
    assert view["piles"] == {"Ann": 0, "Bo": 0} and view["holder"] == "Bo"
    over = ss.play(steps + ["fell 2"], players=["Ann", "Bo"], sticks=3, end_score=1).state
    assert RULES.view(over)["next"] is None  # closing the stuck round ends the game
