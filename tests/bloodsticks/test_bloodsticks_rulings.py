"""One scenario per Bloodsticks ruling (host/docs/rulings-bloodsticks.md), played by the engine.

Seats are clockwise in header order: a player's left is the next seat, their right the previous.
"""

import pytest
from bloodsticks_helpers import answer_bet, layout, new_game, play_round

from sticktable.engine import Game, RuleError
from sticktable.games.bloodsticks.ledger import HOUSE, POT, SIDE, balance

HOST = {"first_dropper": "host"}


def host_game(players=("Ann", "Bo", "Cy"), first="Ann", **house) -> Game:
    game = new_game(players, **HOST, **house)
    game.apply({"type": "first_dropper", "player": first})
    return game


def to_count(game: Game, bet: int = 1, fall=()) -> None:
    game.apply({"type": "collect"})
    answer_bet(game, bet, fall)
    game.apply({"type": "drop", "style": "low"})


def propose(game: Game, **entries) -> dict:
    game.apply({"type": "layout", "sticks": layout(game, **entries)})
    return game.state["proposal"]


# --- the counter's entry -------------------------------------------------------------------


def test_entry_engine_proposes_and_counter_confirms():
    game = host_game()
    to_count(game)
    assert propose(game, **{"Bo-1": {"posture": "center"}}) == {"Ann": 2, "Bo": 9, "Cy": 2}
    assert game.state["totals"] == {"Ann": 0, "Bo": 0, "Cy": 0}  # not counted until confirmed
    game.apply({"type": "confirm", "player": "Bo"})
    assert game.state["totals"] == {"Ann": 2, "Bo": 9, "Cy": 2}


def test_entry_counter_override_is_final_and_logged():
    game = host_game()
    to_count(game)
    propose(game)
    with pytest.raises(RuleError, match="Bo's to do"):
        game.apply({"type": "confirm", "player": "Cy"})  # only the counter decides
    game.apply(
        {
            "type": "override",
            "player": "Bo",
            "points": {"Ann": 5, "Bo": 0, "Cy": 1},
            "why": "Ann's stick was propped",
        }
    )
    assert game.state["totals"] == {"Ann": 5, "Bo": 0, "Cy": 1}
    record = game.state["rounds"][0]
    assert record["override"] == {
        "proposed": {"Ann": 2, "Bo": 2, "Cy": 2},
        "why": "Ann's stick was propped",
    }
    assert game.events[-1]["type"] == "override"


def test_entry_totals_mode_takes_the_counters_points():
    game = host_game(entry="totals")
    to_count(game)
    with pytest.raises(RuleError, match="totals"):
        game.apply({"type": "layout", "sticks": {}})
    with pytest.raises(RuleError, match="exactly"):
        game.apply({"type": "totals", "points": {"Ann": 1}})
    game.apply({"type": "totals", "points": {"Ann": 3, "Bo": 0, "Cy": 12}})
    assert game.state["totals"] == {"Ann": 3, "Bo": 0, "Cy": 12}


def test_entry_malformed_layout_is_refused_and_nothing_changes():
    game = host_game()
    to_count(game)
    before = game.state
    with pytest.raises(RuleError, match="layout refused: .*Ann-1.*itself"):
        game.apply(
            {
                "type": "layout",
                "sticks": layout(game, **{"Ann-1": {"posture": "flat", "on": ["Ann-1"]}}),
            }
        )
    assert game.state == before


# --- ruling 1 --------------------------------------------------------------------------------


def test_ruling_1_a_stick_lying_on_another_cancels_it_own_sticks_too():
    game = host_game()
    to_count(game)
    got = propose(
        game,
        **{
            "Ann-1": {"posture": "flat", "on": ["Ann-2", "Bo-1"]},
            "Ann-2": {"posture": "center"},
            "Bo-1": {"posture": "thick"},
        },
    )
    assert got == {"Ann": 1, "Bo": 1, "Cy": 2}


def test_ruling_1_house_rule_dead_sticks_cancel():
    # Cy-1 lies on Bo-1 (centre) and the bloodstick kills Cy-1.
    entries = {
        "Cy-1": {"posture": "flat", "on": ["Bo-1"], "touch": ["blood"]},
        "Bo-1": {"posture": "center"},
    }
    game = host_game()
    to_count(game)
    assert propose(game, **entries)["Bo"] == 1
    game = host_game(dead_sticks_cancel=False)
    to_count(game)
    assert propose(game, **entries)["Bo"] == 9


# --- ruling 2 --------------------------------------------------------------------------------


def test_ruling_2_bloodstick_kills_unless_the_henki_touches_that_stick_too():
    game = host_game()
    to_count(game)
    got = propose(
        game,
        blood={"on": ["Bo-1", "Cy-1"]},
        henki={"touch": ["Cy-1"]},
        **{"Bo-1": {"posture": "thick"}, "Cy-1": {"posture": "thick"}},
    )
    assert got == {"Ann": 2, "Bo": 0 + 1, "Cy": 4 + 1}


# --- ruling 3 --------------------------------------------------------------------------------


def test_ruling_3_henki_largest_multiplier_applies_not_the_product():
    game = host_game()
    to_count(game)
    got = propose(
        game,
        henki={"on": ["Ann-1"], "touch": ["Bo-1"]},
        **{
            "Ann-1": {"posture": "thin", "touch": ["henki"]},
            "Bo-1": {"posture": "thin"},
            "Cy-1": {"posture": "thin", "on": ["henki"]},
        },
    )
    assert got == {"Ann": 6 + 1, "Bo": 4 + 1, "Cy": 8 + 1}


def test_ruling_3_house_rule_henki_scope_round():
    game = host_game(henki_scope="round")
    to_count(game)
    got = propose(
        game, **{"Cy-1": {"posture": "thin", "on": ["henki"]}, "Cy-2": {"posture": "thick"}}
    )
    assert got["Cy"] == (2 + 4) * 4


# --- ruling 4 --------------------------------------------------------------------------------


def test_ruling_4_first_drop_off_is_redone_and_the_redo_is_careless():
    game = host_game()
    to_count(game)
    game.apply({"type": "layout", "sticks": layout(game, **{"Bo-2": {"off": True}})})
    assert game.state["phase"] == "drop" and game.state["attempt"] == 2
    game.apply({"type": "drop", "style": "high"})
    # Second drop: Bo-2 and Cy-1 off (+8 each to Bo and Cy, -16 Ann), Ann's own Ann-2 off (dead),
    # the bloodstick off (-10) and the henki off (-20): Ann ends the round negative.
    got = propose(
        game,
        blood={"off": True},
        henki={"off": True},
        **{"Bo-2": {"off": True}, "Cy-1": {"off": True}, "Ann-2": {"off": True}},
    )
    assert got == {"Ann": 1 - 16 - 30, "Bo": 1 + 8, "Cy": 1 + 8}
    game.apply({"type": "confirm"})
    record = game.state["rounds"][0]
    assert record["careless"] and record["redos"] == 1 and record["styles"] == ["low", "high"]
    assert game.state["totals"]["Ann"] == -45  # totals may go negative


def test_ruling_4_bloodstick_or_henki_off_on_a_first_drop_plays_on_without_them():
    game = host_game()
    to_count(game)
    got = propose(
        game,
        blood={"off": True},
        henki={"off": True},
        **{
            "Bo-1": {"posture": "thin", "touch": ["blood"]},
            "Cy-1": {"posture": "thin", "on": ["henki"]},
        },
    )
    assert got == {"Ann": 2, "Bo": 3, "Cy": 3}
    assert game.state["phase"] == "confirm"


def test_ruling_4_totals_mode_redo_only_on_the_first_drop():
    game = host_game(entry="totals")
    to_count(game)
    game.apply({"type": "redo"})
    game.apply({"type": "drop", "style": "flip"})
    with pytest.raises(RuleError, match="careless"):
        game.apply({"type": "redo"})
    game.apply({"type": "totals", "points": {"Ann": -30, "Bo": 9, "Cy": 1}})
    assert game.state["rounds"][0]["careless"] is True


# --- ruling 5 --------------------------------------------------------------------------------


def test_ruling_5_counter_is_left_of_dropper_and_roles_pass_right():
    game = host_game(("Ann", "Bo", "Cy", "Dee"), first="Cy")
    seen = []
    while game.state["stage"] != "tiebreak":
        seen.append((game.state["dropper"], game.state["counter"]))
        play_round(game)
    # Cy drops first, Dee (her left) counts; then both move right: Bo/Cy, Ann/Bo, Dee/Ann.
    assert seen == [("Cy", "Dee"), ("Bo", "Cy"), ("Ann", "Bo"), ("Dee", "Ann")]
    assert len(game.state["rounds"]) == 4  # as many rounds as players (then a tie: 8 each)


def test_ruling_5_opening_drop_picks_the_first_dropper_ties_redrop():
    game = new_game(("Ann", "Bo", "Cy"))
    assert game.state["stage"] == "opening"
    game.apply({"type": "drop", "style": "low"})
    # One stick each plus the bloodstick (no henki): Cy's stick off -> drop again.
    with pytest.raises(RuleError, match="henki"):
        game.apply({"type": "layout", "sticks": layout(game, henki={})})
    game.apply({"type": "layout", "sticks": layout(game, **{"Cy-1": {"off": True}})})
    assert game.state["phase"] == "drop" and game.state["pool"] == ["Ann", "Bo", "Cy"]
    game.apply({"type": "drop", "style": "low"})
    game.apply(
        {
            "type": "layout",
            "sticks": layout(game, **{"Ann-1": {"posture": "thick"}, "Bo-1": {"posture": "thick"}}),
        }
    )
    game.apply({"type": "confirm"})
    assert game.state["pool"] == ["Ann", "Bo"]  # the tied leaders redrop
    game.apply({"type": "drop", "style": "bounce"})
    game.apply({"type": "layout", "sticks": layout(game, blood={"on": ["Ann-1"]})})
    game.apply({"type": "confirm"})
    assert (game.state["dropper"], game.state["counter"], game.state["phase"]) == (
        "Bo",
        "Cy",
        "collect",
    )
    assert game.state["totals"] == {"Ann": 0, "Bo": 0, "Cy": 0}  # the opening scores nothing
    assert [r["points"] for r in game.state["openings"]] == [
        {"Ann": 4, "Bo": 4, "Cy": 1},
        {"Ann": 0, "Bo": 1},
    ]


def test_ruling_5_host_chooses_the_first_dropper():
    game = new_game(**HOST)
    assert game.state["phase"] == "setup"
    with pytest.raises(RuleError):
        game.apply({"type": "first_dropper", "player": "Dee"})
    game.apply({"type": "first_dropper", "player": "Bo"})
    assert (game.state["dropper"], game.state["counter"]) == ("Bo", "Cy")


# --- ruling 6 --------------------------------------------------------------------------------


def test_ruling_6_bets_are_one_to_cap_and_min_bet():
    game = host_game(cap=3, min_bet=2)
    game.apply({"type": "collect"})
    for bad in (1, 4, "2", True, None):
        with pytest.raises(RuleError, match="bet"):
            game.apply({"type": "bet", "amount": bad})
    with pytest.raises(RuleError):
        game.apply({"type": "bet", "player": "Bo", "amount": 2})  # only the dropper bets
    game.apply({"type": "bet", "player": "Ann", "amount": 3})
    with pytest.raises(RuleError, match="no event 'raise'"):
        game.apply({"type": "raise", "player": "Bo", "amount": 5})  # no raises
    assert [a["type"] for a in game.rules.legal_actions(game.state, "Bo")] == ["match", "fall_out"]


def test_ruling_6_falling_out_loses_the_stake_and_leaves_the_rotation():
    game = host_game(("Ann", "Bo", "Cy", "Dee"), first="Ann", entry="totals")
    play_round(game, bet=2, points={"Ann": 1, "Bo": 1, "Cy": 9, "Dee": 1})  # pot 8
    assert (game.state["dropper"], game.state["counter"]) == ("Dee", "Ann")
    with pytest.raises(RuleError, match="exactly"):
        play_round(game, bet=3, fall=("Cy",), points={"Ann": 1, "Bo": 1, "Cy": 1, "Dee": 1})
    game.apply({"type": "totals", "points": {"Ann": 1, "Bo": 2, "Dee": 1}})  # Cy is out
    assert game.state["fell_out"] == ["Cy"] and game.state["stakes"]["Cy"] == 2
    # Next dropper is Dee's right = Cy, who is out: skipped to Bo; Bo's left counter = Dee
    # (Cy skipped as counter too).
    assert (game.state["dropper"], game.state["counter"]) == ("Bo", "Dee")
    play_round(game, bet=1, points={"Ann": 1, "Bo": 1, "Dee": 1})
    assert game.finished  # Ann was next and has dropped: Cy's turn is skipped
    # Cy's 9 points do not count: Bo (3) wins the pot 8 + 3 x 3 + 3 x 1, Cy's 2 in it.
    assert game.state["winners"] == ["Bo"] and game.state["payouts"] == {"Bo": 20}


def test_ruling_6_the_last_active_player_wins_the_pot_at_once():
    game = host_game()
    play_round(game, bet=2)  # pot 6
    game.apply({"type": "collect"})
    game.apply({"type": "bet", "amount": 5})  # Cy drops (Ann's right)
    game.apply({"type": "fall_out", "player": "Ann"})
    assert not game.finished
    game.apply({"type": "fall_out", "player": "Bo"})
    assert game.finished and game.state["winners"] == ["Cy"]
    assert game.state["end"] == "last_standing" and game.state["payouts"] == {"Cy": 11}
    assert balance(game.state["ledger"], POT) == 0


# --- ruling 7 --------------------------------------------------------------------------------


def test_ruling_7_highest_active_total_takes_the_pot():
    game = host_game(entry="totals")
    play_round(game, bet=2, points={"Ann": 4, "Bo": 9, "Cy": 1})
    play_round(game, bet=1, fall=("Bo",), points={"Ann": 5, "Cy": 2})
    # Cy dropped, Bo (next) fell out before his turn, Ann has dropped: the game ends.
    # Bo has the highest total but fell out: Ann (9) beats Cy (3).
    assert game.state["winners"] == ["Ann"] and game.state["payouts"] == {"Ann": 6 + 2}


def test_ruling_7_ties_redrop_without_betting_until_broken():
    game = host_game(entry="totals")
    for _ in range(3):
        play_round(game, points={"Ann": 3, "Bo": 3, "Cy": 1})
    assert game.state["stage"] == "tiebreak" and game.state["pool"] == ["Ann", "Bo"]
    actions = game.rules.legal_actions(game.state)
    assert {a["type"] for a in actions} == {"drop"}  # no betting in a tiebreak
    game.apply({"type": "drop", "style": "low"})
    game.apply({"type": "totals", "points": {"Ann": 2, "Bo": 2}})  # still tied
    game.apply({"type": "drop", "style": "low"})
    game.apply({"type": "totals", "points": {"Ann": 1, "Bo": 4}})
    assert game.state["winners"] == ["Bo"] and game.state["totals"] == {
        "Ann": 12,
        "Bo": 15,
        "Cy": 3,
    }
    assert game.state["payouts"] == {"Bo": 9}


def test_ruling_7_tiebreak_uses_all_the_tied_players_sticks_and_the_layout():
    game = host_game()
    for _ in range(3):
        play_round(game)
    assert game.state["pool"] == ["Ann", "Bo", "Cy"]  # all tied at 6
    game.apply({"type": "drop", "style": "flip"})
    assert set(game.rules.view(game.state)["sticks"]) == {"Ann", "Bo", "Cy"}
    game.apply({"type": "layout", "sticks": layout(game, **{"Cy-2": {"posture": "thin"}})})
    game.apply({"type": "confirm"})
    assert game.state["winners"] == ["Cy"] and game.state["end"] == "highest"


def test_ruling_g4_tiebreak_dropper_careless_redo_and_judged_over_all_active():
    # Four seats Ann Bo Cy Dee; Bo drops first, then going right: Ann, Dee, Cy (Cy last).
    game = host_game(("Ann", "Bo", "Cy", "Dee"), first="Bo", entry="any")
    zero = {"Ann": 0, "Bo": 0, "Cy": 0, "Dee": 0}
    rounds = [{"Ann": 5, "Bo": 5, "Cy": 0, "Dee": 4}, zero, zero, {**zero, "Cy": 1}]
    for points in rounds:  # "any": the rounds as totals, the tiebreak as a layout
        to_count(game)
        game.apply({"type": "totals", "points": points})
    # Ann 5, Bo 5 tie; Dee 4 is active but not in the drop. The previous dropper is Cy: the
    # first tied player to Cy's right is Bo (Cy -> Bo).
    assert game.state["stage"] == "tiebreak" and game.state["dropper"] == "Bo"
    game.apply({"type": "drop"})  # no style recorded
    game.apply({"type": "layout", "sticks": layout(game, **{"Ann-1": {"off": True}})})
    assert game.state["phase"] == "drop" and game.state["attempt"] == 2  # done over
    game.apply({"type": "drop"})
    # Careless: Ann-1 off -> Ann +8 (her other stick 1), Bo -8 + 2, the henki off: Bo -20.
    got = propose(game, henki={"off": True}, **{"Ann-1": {"off": True}})
    assert got == {"Ann": 1 + 8, "Bo": 2 - 8 - 20}
    game.apply({"type": "confirm"})
    # Judged over all active players: Ann 14, Bo -21, Dee 4, Cy 1: Ann wins outright.
    assert game.state["winners"] == ["Ann"] and game.state["totals"]["Bo"] == 5 - 26
    record = game.state["tiebreaks"][0]
    assert record["dropper"] == "Bo" and record["careless"] and record["redos"] == 1


def test_ruling_g3_answers_go_clockwise_from_the_droppers_left():
    game = host_game(("Ann", "Bo", "Cy", "Dee"), first="Cy")
    game.apply({"type": "collect"})
    game.apply({"type": "bet", "amount": 2})
    assert game.state["pending"] == ["Dee", "Ann", "Bo"]
    with pytest.raises(RuleError, match="Dee answers before Ann"):
        game.apply({"type": "match", "player": "Ann"})
    for player in ("Dee", "Ann", "Bo"):
        game.apply({"type": "match", "player": player})
    assert game.state["phase"] == "drop"


def test_ruling_7_house_rule_max_tiebreaks_splits_remainder_to_earliest_seat():
    game = host_game(("Ann", "Bo", "Cy", "Dee"), first="Bo", entry="totals", max_tiebreaks=2)
    play_round(game, bet=5, points={"Ann": 1, "Bo": 1, "Cy": 1, "Dee": 0})
    play_round(game, bet=1, fall=("Dee",), points={"Ann": 1, "Bo": 1, "Cy": 1})  # Ann drops
    play_round(game, bet=1, points={"Ann": 1, "Bo": 1, "Cy": 1})  # Cy (Dee skipped)
    for _ in range(2):
        game.apply({"type": "drop", "style": "low"})
        game.apply({"type": "totals", "points": {"Ann": 2, "Bo": 2, "Cy": 2}})
    # pot 20 + 3 + 3 = 26 split three ways: 8 each, the remainder 2 to Ann (seat 0).
    assert game.state["end"] == "split"
    assert game.state["payouts"] == {"Ann": 10, "Bo": 8, "Cy": 8}
    assert len(game.state["tiebreaks"]) == 2


def test_ruling_7_max_tiebreaks_zero_splits_at_once():
    game = host_game(("Ann", "Bo", "Cy"), first="Cy", entry="totals", max_tiebreaks=0)
    for _ in range(3):
        play_round(game, bet=1, points={"Ann": 1, "Bo": 2, "Cy": 2})
    assert game.state["payouts"] == {"Bo": 5, "Cy": 4}  # 9 coins: Bo is the earlier seat


# --- ruling 8 --------------------------------------------------------------------------------


def test_ruling_8_challenge_five_sticks_four_rounds_alternating_neutral_counter_no_cap():
    with pytest.raises(RuleError, match="challenge"):
        new_game(("Ann", "Bo"))
    capped = new_game(("Ann", "Bo"), variant="challenge", cap=5, **HOST)  # a challenge may cap
    capped.apply({"type": "first_dropper", "player": "Ann"})
    capped.apply({"type": "collect"})
    with pytest.raises(RuleError, match="1 to 5"):
        capped.apply({"type": "bet", "amount": 6})
    with pytest.raises(RuleError, match="neutral"):
        new_game(("Ann", "Bo"), variant="challenge", counter="Bo")
    game = new_game(("Ann", "Bo"), variant="challenge", counter="Ref", **HOST)
    game.apply({"type": "first_dropper", "player": "Bo"})
    roles = []
    for bet in (50, 100, 1, 7):
        roles.append((game.state["dropper"], game.state["counter"]))
        game.apply({"type": "collect"})
        answer_bet(game, bet)
        game.apply({"type": "drop", "style": "high"})
        assert len(game.rules.view(game.state)["sticks"]["Ann"]) == 5
        game.apply({"type": "layout", "player": "Ref", "sticks": layout(game)})
        game.apply({"type": "confirm", "player": "Ref"})
    assert roles == [("Bo", "Ref"), ("Ann", "Ref"), ("Bo", "Ref"), ("Ann", "Ref")]
    assert game.state["stage"] == "tiebreak"  # 5 + 5 each round: tied at 20
    game.apply({"type": "drop", "style": "low"})
    game.apply(
        {
            "type": "layout",
            "player": "Ref",
            "sticks": layout(game, **{"Ann-5": {"posture": "center"}}),
        }
    )
    game.apply({"type": "confirm", "player": "Ref"})
    assert game.state["winners"] == ["Ann"] and game.state["payouts"] == {"Ann": 316}


def test_ruling_8_challenge_neutral_counter_counts_the_opening_drop_too():
    game = new_game(("Ann", "Bo"), variant="challenge", counter="Ref")
    assert game.state["stage"] == "opening" and game.state["counter"] == "Ref"
    game.apply({"type": "drop", "style": "low"})
    with pytest.raises(RuleError, match="Ref's to do"):
        game.apply({"type": "layout", "player": "Ann", "sticks": layout(game)})
    game.apply({"type": "layout", "player": "Ref", "sticks": layout(game)})  # a tie: redrop
    game.apply({"type": "confirm", "player": "Ref"})
    assert game.state["stage"] == "opening" and game.state["counter"] == "Ref"


def test_ruling_8_house_dropper_fastfall():
    players = [f"P{i}" for i in range(10)]
    with pytest.raises(RuleError, match="2 to 10"):
        new_game(players + ["P10"], variant="house")
    with pytest.raises(RuleError, match="does not apply"):
        new_game(players, variant="house", cap=5)
    game = new_game(players, variant="house", stake=2, house_cut_pct=10, entry="totals")
    game.apply({"type": "collect"})
    assert balance(game.state["ledger"], POT) == 20  # everyone's fixed stake, no betting
    with pytest.raises(RuleError):
        game.apply({"type": "fall_out", "player": "P1"})
    game.apply({"type": "pick_counter", "player": "P3"})
    assert game.state["dropper"] is None and game.state["counter"] == "P3"
    game.apply({"type": "drop", "style": "flip"})
    game.apply({"type": "totals", "points": {p: 1 for p in players}})
    game.apply({"type": "collect"})
    game.apply({"type": "pick_counter", "player": "P3"})  # G5: the same counter again
    game.apply({"type": "drop", "style": "low"})
    game.apply({"type": "totals", "points": {p: 2 if p == "P9" else 1 for p in players}})
    play_round(game, points={p: 0 for p in players})
    # 3 rounds x 10 players x 2 = 60; the house cuts 10 % = 6; P9 takes 54.
    assert game.state["winners"] == ["P9"] and game.state["payouts"] == {"P9": 54}
    assert balance(game.state["ledger"], HOUSE) == 6


def test_ruling_8_house_careless_drop_credits_players_and_nobody_pays():
    game = new_game(variant="house")
    game.apply({"type": "collect"})
    game.apply({"type": "pick_counter", "player": "Cy"})
    game.apply({"type": "drop", "style": "low"})
    game.apply({"type": "layout", "sticks": layout(game, **{"Ann-1": {"off": True}})})
    game.apply({"type": "drop", "style": "low"})
    got = propose(game, blood={"off": True}, **{"Ann-1": {"off": True}})
    assert got == {"Ann": 1 + 8, "Bo": 2, "Cy": 2}


# --- ruling 9 --------------------------------------------------------------------------------


def side(game, bettor, kind, guess, stake):
    event = {"type": "side_bet", "bettor": bettor, "kind": kind, "guess": guess, "stake": stake}
    game.apply(event)


def test_ruling_9_secondary_pots_pay_by_the_rulings_odds():
    with pytest.raises(RuleError, match="does not apply"):
        new_game(side_pots=True)
    game = new_game(("Ann", "Bo", "Cy"), variant="house", side_pots=True, entry="totals")
    # Drop bets are on the next drop that counts (G7): here round 1's.
    side(game, "Zed", "high_drop", 12, 3)  # round 1 house score 10: 2 above -> 6 back
    side(game, "Zed", "high_drop", 10, 3)  # exactly the score: not above -> lost
    side(game, "Yan", "low_drop", 9, 2)  # 1 below -> 4 back
    side(game, "Yan", "low_drop", 7, 2)  # 3 below -> lost
    side(game, "Ann", "high_score", 9, 1)  # final highest 9: exact -> 5 back
    side(game, "Bo", "high_score", 11, 1)  # within 2 -> 2 back
    side(game, "Cy", "low_score", 4, 4)  # final lowest 1: 3 off -> lost
    side(game, "Zed", "low_score", 1, 2)  # exact -> 10 back
    side(game, "Yan", "low_score", 3, 1)  # within 2 -> 2 back
    play_round(game, points={"Ann": 5, "Bo": 3, "Cy": 2})  # house score 10
    play_round(game, points={"Ann": 2, "Bo": 0, "Cy": -2})
    side(game, "Zed", "high_drop", 5, 1)  # round 3 score 4: 1 above -> 2 back
    play_round(game, points={"Ann": 2, "Bo": 1, "Cy": 1})
    with pytest.raises(RuleError):
        side(game, "Zed", "high_score", 9, 1)  # the game is over
    assert game.state["totals"] == {"Ann": 9, "Bo": 4, "Cy": 1}
    paid = {(b["bettor"], b["kind"], b["guess"]): b["paid"] for b in game.state["side_bets"]}
    assert paid == {
        ("Zed", "high_drop", 12): 6,
        ("Zed", "high_drop", 10): 0,
        ("Yan", "low_drop", 9): 4,
        ("Yan", "low_drop", 7): 0,
        ("Ann", "high_score", 9): 5,
        ("Bo", "high_score", 11): 2,
        ("Cy", "low_score", 4): 0,
        ("Zed", "low_score", 1): 10,
        ("Yan", "low_score", 3): 2,
        ("Zed", "high_drop", 5): 2,
    }
    ledger = game.state["ledger"]
    # Side stakes 3+3+2+2+1+1+4+2+1+1 = 20, payouts 6+4+5+2+10+2+2 = 31: the house covers 11.
    assert balance(ledger, SIDE) == 0 and balance(ledger, HOUSE) == -11


def test_ruling_9_house_score_highest():
    game = new_game(variant="house", side_pots=True, house_score="highest", entry="totals")
    side(game, "Zed", "high_drop", 7, 1)  # highest single score 5: 2 above -> wins
    play_round(game, points={"Ann": 5, "Bo": 3, "Cy": 2})  # (the sum, 10, would lose)
    play_round(game, points={"Ann": 0, "Bo": 0, "Cy": 0})
    play_round(game, points={"Ann": 0, "Bo": 0, "Cy": 0})
    assert game.state["side_bets"][0]["paid"] == 2


# --- ruling 10 -------------------------------------------------------------------------------


def test_ruling_10_drop_styles_are_recorded_and_do_not_change_scoring():
    results = []
    for style in ("high", "low", "bounce", "flip"):
        game = host_game()
        game.apply({"type": "collect"})
        answer_bet(game, 1)
        game.apply({"type": "drop", "style": style})
        results.append(propose(game, **{"Bo-1": {"posture": "thick"}}))
        game.apply({"type": "confirm"})
        assert game.state["rounds"][0]["styles"] == [style]
    assert all(r == results[0] for r in results)
    game = host_game()
    game.apply({"type": "collect"})
    answer_bet(game, 1)
    with pytest.raises(RuleError, match="style"):
        game.apply({"type": "drop", "style": "sideways"})


# --- setup -----------------------------------------------------------------------------------


def test_setup_stick_ban_vote_majority_bans_tie_keeps_only_before_the_first_drop():
    game = new_game(("Ann", "Bo", "Cy", "Dee"))
    game.apply(
        {"type": "ban_vote", "owner": "Bo", "votes": {"Ann": "ban", "Cy": "ban", "Dee": "keep"}}
    )
    game.apply({"type": "ban_vote", "owner": "Cy", "votes": {"Ann": "ban", "Dee": "keep"}})
    assert [(b["owner"], b["banned"]) for b in game.state["bans"]] == [("Bo", True), ("Cy", False)]
    with pytest.raises(RuleError, match="already"):
        game.apply({"type": "ban_vote", "owner": "Bo", "votes": {"Ann": "keep"}})
    with pytest.raises(RuleError, match="vote"):
        game.apply({"type": "ban_vote", "owner": "Ann", "votes": {"Ann": "maybe"}})
    game.apply({"type": "drop", "style": "low"})
    with pytest.raises(RuleError, match="before the first drop"):
        game.apply({"type": "ban_vote", "owner": "Ann", "votes": {"Bo": "ban"}})


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "3 to 6"),
        ({"players": ["A", "A", "B"]}, "same name"),
        ({"players": ["A", "B", "@pot"]}, "@"),
        ({"players": ["A", "B", "C"], "cap": 0}, "cap"),
        ({"players": ["A", "B", "C"], "cap": 2, "min_bet": 3}, "above the cap"),
        ({"players": ["A", "B", "C"], "henki_scope": "tower"}, "henki_scope"),
        ({"players": ["A", "B", "C"], "dead_sticks_cancel": "maybe"}, "dead_sticks_cancel"),
        ({"players": ["A", "B", "C"], "max_tiebreaks": -1}, "max_tiebreaks"),
        ({"players": ["A", "B", "C"], "house_cut_pct": "5%"}, "house_cut_pct"),
        ({"players": ["A", "B", "C"], "stake": 2}, "does not apply"),
        ({"players": ["A", "B", "C"], "variant": "house", "house_cut_pct": 101}, "house_cut_pct"),
        ({"players": ["A", "B", "C"], "entry": "voice"}, "entry"),
        ({"players": ["A", "B", "C"], "variant": "poker"}, "variant"),
        ({"players": ["A", "B", "C"], "capp": 5}, "unknown header key"),
        ({"players": ["A", "B", "C"], "variant": "house", "house_score": "sum"}, "side_pots"),
    ],
)
def test_setup_bad_headers_are_refused(header, words):
    with pytest.raises(RuleError, match=words):
        new_game(**{"players": header.pop("players")}, **header)


def test_setup_house_rule_defaults_and_typed_values():
    game = new_game(dead_sticks_cancel="no", cap=10)
    settings = game.state["settings"]
    assert settings["dead_sticks_cancel"] is False and settings["cap"] == 10
    assert (
        settings["min_bet"],
        settings["henki_scope"],
        settings["max_tiebreaks"],
        settings["entry"],
    ) == (1, "stick", 10, "layout")
    house = new_game(variant="house").state["settings"]
    assert (house["stake"], house["house_cut_pct"], house["rounds"], house["cap"]) == (
        1,
        0,
        3,
        None,
    )
