"""The game at the table: seat buttons, rings, per-player views and actions, referee fixes."""

import copy
import random

import pytest
from bloodsticks_helpers import layout, new_game, play_round, random_game

from sticktable.engine import Game, InvariantError, RuleError, get_rules
from sticktable.games.bloodsticks.rules import (
    LISTED_BETS,
    MARK_COUNTER,
    MARK_FELL_OUT,
    MARK_TO_ANSWER,
)


def betting_game():
    game = new_game(("Ann", "Bo", "Cy"), first_dropper="host")
    game.apply({"type": "first_dropper", "player": "Ann"})
    game.apply({"type": "collect"})
    game.apply({"type": "bet", "amount": 2})
    return game


def test_registered_on_the_engine():
    assert get_rules("bloodsticks").name == "bloodsticks"


def test_buttons_short_press_matches_long_press_falls_out():
    game = betting_game()
    rules = game.rules
    assert rules.interpret(game.state, {"k": "button", "seat": 1, "long": False}) == [
        {"type": "match", "player": "Bo"}
    ]
    assert rules.interpret(game.state, {"k": "button", "seat": 1, "long": True}) == [
        {"type": "fall_out", "player": "Bo"}
    ]
    # The dropper has no bet to answer; Cy answers after Bo (G3: clockwise from the
    # dropper's left); other facts and bad seats mean nothing.
    for fact in (
        {"k": "button", "seat": 0, "long": False},
        {"k": "button", "seat": 2, "long": True},
        {"k": "button", "seat": 9},
        {"k": "button", "seat": True},
        {"k": "fell", "n": 2},
        {"k": "topple"},
        "junk",
    ):
        assert rules.interpret(game.state, fact) == []
    game.apply(rules.interpret(game.state, {"k": "button", "seat": 1, "long": False})[0])
    assert rules.interpret(game.state, {"k": "button", "seat": 1, "long": True}) == []
    assert rules.interpret(game.state, {"k": "button", "seat": 2, "long": True}) == [
        {"type": "fall_out", "player": "Cy"}
    ]


def test_buttons_mean_nothing_outside_a_bet():
    game = new_game(variant="house")
    game.apply({"type": "collect"})
    assert game.rules.interpret(game.state, {"k": "button", "seat": 0, "long": True}) == []


def test_display_scores_turn_marks_pot_and_the_winner():
    game = betting_game()
    shown = game.rules.display(game.state)
    assert shown.turn == 0 and shown.mode == "play" and game.standings().pot == 2
    assert shown.marks == (0, MARK_COUNTER | MARK_TO_ANSWER, MARK_TO_ANSWER)
    game.apply({"type": "match", "player": "Bo"})
    game.apply({"type": "fall_out", "player": "Cy"})
    assert game.rules.display(game.state).marks == (0, MARK_COUNTER, MARK_FELL_OUT)
    game.apply({"type": "drop", "style": "low"})
    game.apply({"type": "layout", "sticks": layout(game, **{"Bo-1": {"posture": "thin"}})})
    game.apply({"type": "confirm"})
    shown = game.rules.display(game.state)
    assert shown.scores == (2, 3, 0) and shown.turn == 1  # Bo drops next
    play_round(game)  # Bo's round: Ann counts; then Ann is next again: the end
    shown = game.rules.display(game.state)
    assert shown.mode == "over" and shown.win == (1,) and shown.turn is None
    assert game.standings().pot == 0 and shown.marks == (0, 0, MARK_FELL_OUT)
    assert shown.scale >= max(shown.scores)


def test_display_is_idle_until_the_first_dropper_is_chosen():
    game = new_game(first_dropper="host")
    assert game.rules.display(game.state).mode == "idle"


def test_legal_actions_per_player_are_concrete_events():
    game = betting_game()
    rules = game.rules
    assert rules.legal_actions(game.state, "Ann") == []
    assert rules.legal_actions(game.state, "Bo") == [
        {"type": "match", "player": "Bo"},
        {"type": "fall_out", "player": "Bo"},
    ]
    fresh = new_game(first_dropper="host", cap=3)
    fresh.apply({"type": "first_dropper", "player": "Cy"})
    fresh.apply({"type": "collect"})
    assert [a["amount"] for a in rules.legal_actions(fresh.state, "Cy")] == [1, 2, 3]
    challenge = new_game(("Ann", "Bo"), variant="challenge", first_dropper="host")
    challenge.apply({"type": "first_dropper", "player": "Ann"})
    challenge.apply({"type": "collect"})
    listed = rules.legal_actions(challenge.state, "Ann")
    assert [a["amount"] for a in listed] == list(range(1, 1 + LISTED_BETS))
    assert all(rules.is_legal(challenge.state, a) for a in listed)
    challenge.apply({"type": "bet", "amount": 1000})  # no cap in a challenge: listed or not


def test_view_shows_the_drop_sticks_and_the_players_actions():
    game = betting_game()
    answer = game.rules.view(game.state, "Cy")
    assert answer["you"] == "Cy" and answer["to_answer"] == ["Bo", "Cy"]
    assert answer["actions"] == []  # Bo answers first (G3)
    game.apply({"type": "match", "player": "Bo"})
    assert game.rules.view(game.state, "Cy")["actions"] == [
        {"type": "match", "player": "Cy"},
        {"type": "fall_out", "player": "Cy"},
    ]
    game.apply({"type": "match", "player": "Cy"})
    game.apply({"type": "drop", "style": "high"})
    view = game.rules.view(game.state, "Bo")
    assert view["sticks"] == {
        "Ann": ["Ann-1", "Ann-2"],
        "Bo": ["Bo-1", "Bo-2"],
        "Cy": ["Cy-1", "Cy-2"],
    }
    assert view["extras"] == ["blood", "henki"] and view["pot"] == 6
    assert {a["type"] for a in view["actions"]} == {"layout"}  # Bo is the counter
    assert all(game.rules.is_legal(game.state, a) for a in view["actions"])
    assert game.rules.view(game.state, "Cy")["actions"] == []


def test_referee_correction_rewrites_a_fall_out_as_a_match():
    game = betting_game()
    game.apply({"type": "match", "player": "Bo"})
    game.apply({"type": "fall_out", "player": "Cy"})
    fall = len(game.events) - 1
    game.apply(
        {
            "type": "correct",
            "target": fall,
            "events": [{"type": "match", "player": "Cy"}],
            "why": "Cy pressed the wrong way",
        }
    )
    assert game.state["fell_out"] == [] and game.state["stakes"]["Cy"] == 2
    assert game.state["phase"] == "drop"
    assert game.replay() == game.state
    # A correction that makes the rest of the log illegal is refused.
    with pytest.raises(RuleError):
        game.apply({"type": "correct", "target": 2, "events": [], "why": "no bet"})


def test_undo_takes_back_a_confirmed_round():
    game = betting_game()
    game.apply({"type": "match", "player": "Bo"})
    game.apply({"type": "match", "player": "Cy"})
    game.apply({"type": "drop", "style": "low"})
    game.apply({"type": "layout", "sticks": layout(game)})
    before = game.state
    game.apply({"type": "confirm"})
    assert game.undo(1).state == before


def test_house_game_without_side_pots_refuses_side_bets():
    game = new_game(variant="house")
    with pytest.raises(RuleError, match="secondary pots"):
        game.apply(
            {"type": "side_bet", "bettor": "Zed", "kind": "high_score", "guess": 3, "stake": 1}
        )


def test_side_bets_are_checked():
    game = new_game(variant="house", side_pots=True)
    base = {
        "type": "side_bet",
        "bettor": "Zed",
        "kind": "high_drop",
        "guess": 3,
        "stake": 1,
    }
    for bad in (
        {"bettor": ""},
        {"bettor": "@house"},
        {"kind": "middle"},
        {"guess": 2.5},
        {"guess": True},
        {"stake": 0},
    ):
        with pytest.raises(RuleError):
            game.apply({**base, **bad})
    game.apply(base)


GARBAGE = [None, True, -1, 0, 2.5, "", "x", "Ann", [], ["Ann"], {}, {"Ann": 1}, [[1]]]


def test_garbage_events_are_refused_with_a_reason_never_a_crash():
    """Every event type with every field set to junk, in every phase of a few random games."""
    rng = random.Random(5)
    rules = get_rules("bloodsticks")
    for header in (
        {"players": ["Ann", "Bo", "Cy"]},
        {"players": ["Ann", "Bo", "Cy"], "variant": "house", "side_pots": True},
        {"players": ["Ann", "Bo"], "variant": "challenge", "entry": "totals"},
    ):
        game, states = random_game({"game": "bloodsticks", **header}, seed=1)
        for state in states:
            for kind in list(_event_fields()):
                for _ in range(3):
                    event = {"type": kind}
                    for field in _event_fields()[kind]:
                        event[field] = rng.choice(GARBAGE)
                    try:
                        rules.apply(copy.deepcopy(state), event)
                    except RuleError:
                        pass


def _event_fields() -> dict:
    return {
        "ban_vote": ["owner", "votes"],
        "first_dropper": ["player"],
        "collect": [],
        "pick_counter": ["player"],
        "bet": ["player", "amount"],
        "match": ["player"],
        "fall_out": ["player"],
        "drop": ["style"],
        "layout": ["player", "sticks"],
        "totals": ["player", "points"],
        "redo": ["player"],
        "confirm": ["player"],
        "override": ["player", "points", "why"],
        "side_bet": ["bettor", "kind", "guess", "stake", "round"],
    }


def test_a_game_journaled_as_header_and_events_is_rebuilt_identically():
    game, _ = random_game({"game": "bloodsticks", "players": ["Ann", "Bo", "Cy", "Dee"]}, seed=9)
    again = Game(dict(game.header), [dict(e) for e in game.events])
    assert again.state == game.state and again.standings() == game.standings()
    assert again.standings().finished is True


@pytest.mark.parametrize(
    "tamper",
    [
        lambda s: s["ledger"]["balances"].update({"@pot": s["ledger"]["balances"]["@pot"] + 1}),
        lambda s: s["ledger"]["entries"].append(
            {"from": "Ann", "to": "@pot", "amount": 1, "why": "a coin slipped in"}
        ),
        lambda s: s["stakes"].update(Bo=s["stakes"]["Bo"] + 1),
        lambda s: s["totals"].update(Cy=s["totals"]["Cy"] + 1),
        lambda s: s["rounds"][0]["points"].update(Ann=99),
        lambda s: s["active"].remove("Bo"),
    ],
)
def test_check_catches_a_coin_or_a_point_out_of_place(tamper):
    game, states = random_game({"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"]}, seed=4)
    state = copy.deepcopy(next(s for s in states if s["rounds"] and s["bet"]))
    game.rules.check(state)
    tamper(state)
    with pytest.raises(InvariantError):
        game.rules.check(state)
