"""One scenario per ruling (host/docs/rulings-sticks.md), on rigged deals.

Seats are Ann, Bo, Cy clockwise: Ann deals first, Bo plays first, sticks are drawn Bo, Cy, Ann.
Small `hand_size` house settings keep the rigged hands short.
"""

import random

import pytest

from sticktable.engine import Game, RuleError
from sticktable.games.sticks import deals
from sticktable.games.sticks import game as rules_game
from sticktable.games.sticks.stick_lists import get_stick

from .helpers import act, give_sticks, new_game, rig_deal


def deal_randomly(game, seed=1):
    rng = random.Random(seed)
    while game.state["phase"] in ("sticks", "deal"):
        game.draw_chance(rng)


# ---- ruling 1: decks, hand sizes -------------------------------------------------------


@pytest.mark.parametrize(
    "preset, players, decks, hand",
    [("classic", 5, 4, 15), ("classic", 6, 6, 15), ("classic", 7, 6, 15), ("tries", 6, 4, 14)],
)
def test_r1_decks_and_hand_sizes(preset, players, decks, hand):
    names = [f"P{i}" for i in range(players)]
    game = new_game(preset, names)
    deal_randomly(game)
    state = game.state
    assert [len(state["hands"][p]) for p in names] == [hand] * players
    assert len(state["stock"]) + len(state["discard"]) + players * hand == decks * 54
    assert (
        state["stock"].count("JK")
        + state["discard"].count("JK")
        + sum(state["hands"][p].count("JK") for p in names)
        == 2 * decks
    )


def test_r1_player_counts_per_preset():
    with pytest.raises(RuleError, match="2 to 6 players"):
        new_game("tries", [f"P{i}" for i in range(7)])
    with pytest.raises(RuleError, match="2 to 7 players"):
        new_game("classic", ["Solo"])


@pytest.mark.parametrize(
    ("house", "words"),
    [
        ({"hand_sise": 5}, "unknown header key 'hand_sise'"),
        ({"tries": "3"}, '"tries" must be'),
        ({"tries": -1}, '"tries" must be'),
        ({"win": "first"}, '"win" must be'),
        ({"discard_limit": "never"}, '"discard_limit" must be'),
        ({"natural_per_meld": []}, '"natural_per_meld" must be'),
        ({"decks": 0}, '"decks" must be'),
        ({"hand_size": True}, '"hand_size" must be'),
        ({"preset": ["tries"]}, "unknown preset"),
    ],
)
def test_house_settings_are_checked_when_the_game_starts(house, words):
    # A typo or a bad value is refused at once, not a crash in the middle of a deal.
    header = {"game": "sticks", "players": ["Ann", "Bo"], "preset": "tries", **house}
    with pytest.raises(RuleError, match=words):
        Game(header)
    typed = {"game": "sticks", "players": ["Ann", "Bo"], "natural_per_meld": "no", "tries": 2}
    assert Game(typed).state["settings"]["natural_per_meld"] is False  # `--house` words


# ---- ruling 2: exact sizes at lay-down, more afterwards; natural per meld in "tries" -------


def test_r2_run_of_six_is_six_at_lay_down_and_grows_afterwards():
    game = new_game("classic", hand_size=7)
    give_sticks(game, {"Bo": 21, "Cy": 5, "Ann": 2})  # Bo: One Run of Six
    rig_deal(game, {"Bo": "8H 9H 10H JH QH KH AH".split()}, stock=["4S"])
    act(game, "Bo", "draw", **{"from": "stock"})
    with pytest.raises(RuleError, match="exactly 6 cards"):
        act(game, "Bo", "laydown", cards="8H 9H 10H JH QH KH AH".split())
    act(game, "Bo", "laydown", cards="8H 9H 10H JH QH KH".split())
    state = act(game, "Bo", "layoff", meld=0, cards=["AH"])
    assert state["melds"][0]["cards"] == "8H 9H 10H JH QH KH AH".split()
    state = act(game, "Bo", "discard", card="4S")
    assert state["out"] == "Bo" and state["deal_end"] == "went out"  # hand empty: deal over


@pytest.mark.parametrize("preset, stick, allowed", [("tries", 21, False), ("classic", 5, True)])
def test_r2_new_meld_of_wilds_only(preset, stick, allowed):
    game = new_game(preset, hand_size=7)
    give_sticks(game, {"Bo": stick, "Cy": 9, "Ann": 2})
    suit = "H" if preset == "tries" else "C"
    rig_deal(
        game, {"Bo": [f"3{suit}", f"4{suit}", f"5{suit}", "JK", "JK", "JK", "9D"]}, stock=["KS"]
    )
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards=[f"3{suit}", f"4{suit}", f"5{suit}"])
    if allowed:
        assert act(game, "Bo", "meld", cards=["JK", "JK", "JK"])["melds"][1]["kind"] == "set"
    else:
        with pytest.raises(RuleError, match="natural"):
            act(game, "Bo", "meld", cards=["JK", "JK", "JK"])


# ---- ruling 3: closed melds; wild-only melds take more wilds ---------------------------


def test_r3_closed_and_wild_only_melds():
    game = new_game("classic", hand_size=10)
    give_sticks(game, {"Bo": 15, "Cy": 16, "Ann": 31})
    rig_deal(
        game,
        {
            "Bo": "QS KS QH KH QC KC QD KD 7D JK".split(),
            "Cy": "2C JK 2D 2S JK 5H 10S 10S 8C 8C".split(),
            "Ann": "4D 4D 8D 6D 3D 5D 7D 10D 10D QD".split(),
        },
        stock=["3S", "6S", "9D"],
    )
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards="QS KS QH KH QC KC QD KD".split())
    with pytest.raises(RuleError, match="closed"):
        act(game, "Bo", "layoff", meld=0, cards=["JK"])
    act(game, "Bo", "discard", card="7D")
    act(game, "Cy", "draw", **{"from": "stock"})
    act(game, "Cy", "laydown", cards="2C JK 2D 2S".split())
    assert act(game, "Cy", "layoff", meld=1, cards=["JK"])["melds"][1]["cards"][-1] == "JK"
    with pytest.raises(RuleError, match="only 2s and jokers"):
        act(game, "Cy", "layoff", meld=1, cards=["5H"])
    act(game, "Cy", "discard", card="5H")
    act(game, "Ann", "draw", **{"from": "stock"})
    act(game, "Ann", "laydown", cards="4D 4D 8D 6D 3D 5D 7D 10D 10D QD".split())
    with pytest.raises(RuleError, match="closed"):
        act(game, "Ann", "layoff", meld=2, cards=["9D"])


def test_r3_stick_text_wins_five_fives_and_a_set_of_another_rank():
    stick = get_stick("classic", 44)
    from sticktable.games.sticks.laydown import check_stick

    assert check_stick(stick, "5D 5S 5C 5H JK 8S 8H 8D".split(), False)["ok"]
    assert not check_stick(stick, "5D 5S 5C 5H JK 5S 5H 5D".split(), False)["ok"]
    assert not check_stick(stick, "5D 5S 5C 5H JK 8S 9S 10S".split(), False)["ok"]


# ---- ruling 4: "No Discard" ------------------------------------------------------------

NO_DISCARD = [
    ["3D", "4D", "5D"],
    ["8S", "8C", "8D", "8D"],
    ["8S", "9S", "10S", "JS"],
    ["9C", "10C", "JC", "QC"],
]


def _no_discard_game(drawn):
    game = new_game("classic")
    give_sticks(game, {"Bo": 24, "Cy": 5, "Ann": 2})
    rig_deal(game, {"Bo": [c for m in NO_DISCARD for c in m]}, stock=[drawn])
    act(game, "Bo", "draw", **{"from": "stock"})
    return game


def test_r4_no_discard_needs_15_cards_and_ends_the_turn_without_a_discard():
    game = _no_discard_game("6H")
    hint = [a for a in game.rules.legal_actions(game.state) if a["type"] == "laydown"]
    assert sum(map(len, hint[0]["melds"])) >= 15  # the table can suggest the split
    with pytest.raises(RuleError, match="at least 15"):
        act(game, "Bo", "laydown", melds=NO_DISCARD[:3] + [NO_DISCARD[3][:3]])
    with pytest.raises(RuleError, match="neither a set nor a run"):
        act(game, "Bo", "laydown", melds=NO_DISCARD[:3] + [["9C", "10C", "JC", "6H"]])
    pile = list(game.state["discard"])
    state = act(game, "Bo", "laydown", melds=NO_DISCARD)
    assert state["completed"]["Bo"] == [24] and state["hands"]["Bo"] == ["6H"]
    assert rules_game.turn_player(state) == "Cy" and state["discard"] == pile


def test_r4_the_suggested_no_discard_split_is_accepted():
    game = _no_discard_game("6H")
    (hint,) = [a for a in game.rules.legal_actions(game.state) if a["type"] == "laydown"]
    assert game.apply(hint)["completed"]["Bo"] == [24]


def test_r4_no_discard_that_empties_the_hand_goes_out():
    game = _no_discard_game("6D")
    melds = [["3D", "4D", "5D", "6D"]] + NO_DISCARD[1:]
    state = act(game, "Bo", "laydown", melds=melds)
    assert state["out"] == "Bo" and state["completed"]["Bo"] == [24]


# ---- ruling 5: discard limits ----------------------------------------------------------


def test_r5_classic_limits_bind_even_after_laying_down():
    game = new_game("classic", hand_size=5)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 2})
    rig_deal(game, {"Bo": "3C 4C 5C 6C 9H".split(), "Cy": ["JK"]}, flip="KD", stock=["8S"])
    act(game, "Bo", "draw", **{"from": "discard"})
    act(game, "Bo", "laydown", cards="3C 4C 5C".split())
    with pytest.raises(RuleError, match="just taken from the discard pile"):
        act(game, "Bo", "discard", card="KD")
    with pytest.raises(RuleError, match="could extend a meld"):
        act(game, "Bo", "discard", card="6C")
    act(game, "Bo", "discard", card="9H")
    act(game, "Cy", "draw", **{"from": "stock"})
    with pytest.raises(RuleError, match="may not be discarded"):
        act(game, "Cy", "discard", card="JK")


def test_r5_tries_limit_binds_only_before_laying_down():
    game = new_game("tries", hand_size=5)
    give_sticks(game, {"Bo": 21, "Cy": 9, "Ann": 2})
    rig_deal(game, {"Bo": "3H 4H 5H 6H 9S".split(), "Cy": ["6H"]}, stock=["8S", "8D"])
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards="3H 4H 5H".split())
    act(game, "Bo", "discard", card="6H")  # Bo is down: allowed in "tries"
    act(game, "Cy", "draw", **{"from": "stock"})
    with pytest.raises(RuleError, match="could extend a meld"):
        act(game, "Cy", "discard", card="6H")  # Cy is not down


def test_r5_no_legal_discard_lets_any_natural_go():
    game = new_game("classic", hand_size=4)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 2})
    rig_deal(game, {"Bo": "3C 4C 5C 6C".split()}, stock=["2D"])
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards="3C 4C 5C".split())
    assert rules_game.legal_discards(game.state, "Bo") == ["6C"]
    with pytest.raises(RuleError, match="may not be discarded"):
        act(game, "Bo", "discard", card="2D")
    assert rules_game.turn_player(act(game, "Bo", "discard", card="6C")) == "Cy"


# ---- ruling 6: laying off, wilds alone, stealing ---------------------------------------


def test_r6_lay_off_only_when_down_and_no_lone_wild_on_another_meld():
    game = new_game("classic", hand_size=6)
    give_sticks(game, {"Bo": 5, "Cy": 19, "Ann": 2})
    rig_deal(
        game,
        {"Bo": "3C 4C 5C 6C 7H 8S".split(), "Cy": ["7C"], "Ann": "AH KH QH JK 7C 10S".split()},
        stock=["9D", "9S", "4H"],
    )
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards="3C 4C 5C".split())
    act(game, "Bo", "layoff", meld=0, cards=["6C"])
    act(game, "Bo", "discard", card="7H")
    act(game, "Cy", "draw", **{"from": "stock"})
    with pytest.raises(RuleError, match="must lay down their stick"):
        act(game, "Cy", "layoff", meld=0, cards=["7C"])
    act(game, "Cy", "discard", card="9S")
    act(game, "Ann", "draw", **{"from": "stock"})
    act(game, "Ann", "laydown", cards="AH KH QH".split())
    with pytest.raises(RuleError, match="wild card alone"):
        act(game, "Ann", "layoff", meld=0, cards=["JK"])
    state = act(game, "Ann", "layoff", meld=0, cards=["7C", "JK"])  # with a natural: fine
    assert state["melds"][0]["as"][-2:] == ["7C", "8C"]


def _steal_game(preset):
    game = new_game(preset, hand_size=8)
    give_sticks(
        game,
        {"Bo": 13 if preset == "tries" else 30, "Cy": 21 if preset == "tries" else 5, "Ann": 2},
    )
    bo = "5C 5D JK 10C 10S 10H 5H 4D" if preset == "tries" else "3C 3D JK AC AS AH 5H 4D"
    cy = "3H 4H 5H 5S 7S 8S 9D 9D" if preset == "tries" else "3C 4C 5C 3S 7S 8S 9D 9D"
    rig_deal(game, {"Bo": bo.split(), "Cy": cy.split()}, stock=["KS", "KD"])
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards=bo.split()[:6])
    act(game, "Bo", "discard", card="4D")
    act(game, "Cy", "draw", **{"from": "stock"})
    act(game, "Cy", "laydown", cards=cy.split()[:3])
    return game


def test_r6_tries_steals_a_wild_from_a_set_for_its_natural_played_at_once():
    game = _steal_game("tries")
    then = {"type": "meld", "cards": ["JK", "7S", "8S"]}
    with pytest.raises(RuleError, match="sets only"):
        act(game, "Cy", "steal", meld=2, give="5S", wild="JK", then=then)
    with pytest.raises(RuleError, match="natural 5"):
        act(game, "Cy", "steal", meld=0, give="9D", wild="JK", then=then)
    with pytest.raises(RuleError, match="same action"):
        act(
            game,
            "Cy",
            "steal",
            meld=0,
            give="5S",
            wild="JK",
            then={"type": "meld", "cards": ["9D", "9D", "5S"]},
        )
    state = act(game, "Cy", "steal", meld=0, give="5S", wild="JK", then=then)
    assert state["melds"][0]["cards"] == ["5C", "5D", "5S"]
    assert state["melds"][3]["cards"][:1] == ["JK"] and state["melds"][3]["owner"] == "Cy"
    assert "JK" not in state["hands"]["Cy"]


def test_r6_classic_has_no_wild_stealing():
    game = _steal_game("classic")
    with pytest.raises(RuleError, match="not played in this preset"):
        act(
            game,
            "Cy",
            "steal",
            meld=0,
            give="3S",
            wild="JK",
            then={"type": "meld", "cards": ["JK", "7S", "8S"]},
        )


# ---- ruling 7: end of a deal, restock, tries and the swap ------------------------------


def test_r7_empty_stock_reshuffles_the_discards_but_the_top_card():
    game = new_game("classic", ["Ann", "Bo"], decks=1, hand_size=20)
    give_sticks(game, {"Bo": 5, "Ann": 2})
    rig_deal(game, {})
    rng = random.Random(4)
    while game.state["phase"] != "restock":
        player = rules_game.turn_player(game.state)
        act(game, player, "draw", **{"from": "stock"})
        act(game, player, "discard", card=rules_game.legal_discards(game.state, player)[0])
    pile = list(game.state["discard"])
    assert game.rules.legal_actions(game.state) == []  # waiting on chance, not a player
    event = game.draw_chance(rng)
    assert event["type"] == "restock" and sorted(event["order"]) == sorted(pile[:-1])
    assert game.state["discard"] == pile[-1:] and game.state["phase"] == "draw"
    assert Game(game.header, game.events).state == game.state  # replay needs no rng


def _cap_deal(game, laydowns=()):
    """One turn per deal (max_turns=1): the starter lays down if told to, then discards."""
    player = rules_game.turn_player(game.state)
    act(game, player, "draw", **{"from": "stock"})
    for cards in laydowns:
        act(game, player, "laydown", cards=cards)
    act(game, player, "discard", card=rules_game.legal_discards(game.state, player)[0])
    assert game.state["deal_end"] == "turn limit reached"


def test_r7_tries_three_failed_deals_show_and_swap_failed_players_first():
    game = new_game("tries", max_turns=1, hand_size=6)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    rig_deal(game, {})
    _cap_deal(game)  # deal 1: Bo starts
    rig_deal(game, {})
    _cap_deal(game)  # deal 2: Cy starts
    assert game.state["tries"] == {"Ann": 2, "Bo": 2, "Cy": 2}
    rig_deal(game, {"Ann": "3H 4H 5H 9S 10D QC".split()})
    _cap_deal(game, laydowns=[["3H", "4H", "5H"]])  # deal 3: Ann starts and makes it
    state = game.state
    assert [r["stick"] for r in state["revealed"]] == [5, 9]
    assert state["queue"] == [["Bo", True], ["Cy", True], ["Ann", False]]
    assert 9 not in state["bag"] and 5 not in state["bag"]  # set aside while they redraw
    with pytest.raises(RuleError, match="not in the bag"):
        act(game, "Bo", "stick", stick=9)
    act(game, "Bo", "stick", stick=12)
    act(game, "Cy", "stick", stick=13)
    assert {5, 9} <= set(game.state["bag"])  # back for the successful player to draw
    state = act(game, "Ann", "stick", stick=9)
    assert state["stick"] == {"Ann": 9, "Bo": 12, "Cy": 13} and state["phase"] == "deal"


def test_r7_classic_keeps_an_unfinished_stick():
    game = new_game("classic", max_turns=1, hand_size=6)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    for _ in range(4):
        rig_deal(game, {})
        _cap_deal(game)
    assert game.state["stick"] == {"Ann": 21, "Bo": 5, "Cy": 9} and not game.state["revealed"]


# ---- ruling 8: Free sticks and an empty bag --------------------------------------------


def referee_deal(game, lay=(), out=None, sticks=None):
    """A referee-mode deal: players in `lay` lay down their stick's example when their turn
    comes; `out` goes out once they all have; everyone else presses "done"."""
    sticks = dict(sticks or {})
    while game.state["phase"] == "sticks":
        head = game.state["queue"][0][0]
        number = sticks.pop(head, None) or _plain_stick(game.state)
        act(game, head, "stick", stick=number)
    game.apply({"type": "deal"})
    waiting = list(lay)
    for _ in range(100):  # bounded: a deal that never ends must fail the test, not hang it
        if game.state["phase"] != "play":
            return
        player = rules_game.turn_player(game.state)
        if player in waiting:
            stick = get_stick(game.state["settings"]["preset"], game.state["stick"][player])
            act(game, player, "laydown", cards=list(stick.example))
            waiting.remove(player)
            if game.state["phase"] == "over":
                return
        if player == out and not waiting:
            act(game, player, "out")
        else:
            act(game, player, "done")
    raise AssertionError("the deal did not end")


def _plain_stick(state):
    preset = state["settings"]["preset"]
    return min(n for n in state["bag"] if get_stick(preset, n).kind == "laydown")


def test_r8_free_stick_counts_and_redraws_but_never_as_the_seventh():
    game = new_game("classic", mode="referee")
    state = act(game, "Bo", "stick", stick=49)
    assert state["completed"]["Bo"] == [49] and state["queue"][0][0] == "Bo"
    act(game, "Bo", "stick", stick=1)
    for _ in range(5):
        referee_deal(game, lay=["Bo"], out="Bo")
    assert len(game.state["completed"]["Bo"]) == 6
    while game.state["queue"][0][0] != "Bo":
        act(game, game.state["queue"][0][0], "stick", stick=_plain_stick(game.state))
    frees = game.state["bag"].count(49)
    state = act(game, "Bo", "stick", stick=49)
    assert len(state["completed"]["Bo"]) == 6 and state["bag"].count(49) == frees
    assert state["queue"][0][0] == "Bo"  # draws again


def test_r8_empty_bag_returned_sticks_then_no_stick():
    game = new_game("classic", mode="referee")
    state = game.state
    state["bag"], state["held_back"] = [], [7]
    state["queue"] = [["Bo", False], ["Cy", False]]
    deals.settle_sticks(state)
    assert state["bag"] == [7] and state["queue"][0][0] == "Bo"  # returned sticks first
    state["bag"] = []
    deals.settle_sticks(state)
    assert state["queue"] == [] and state["phase"] == "deal"  # nobody can draw: no stick
    state["completed"]["Bo"] = [1, 2, 3, 4, 6, 8]
    state["bag"], state["queue"] = [49, 49], [["Bo", False]]
    assert rules_game.drawable(state, "Bo") == []  # only Frees left, and Bo has six


# ---- ruling 9: winning -----------------------------------------------------------------


def _six_each(preset):
    game = new_game(preset, mode="referee")
    for _ in range(6):
        referee_deal(game, lay=["Bo", "Cy"], out="Cy")
    assert [len(game.state["completed"][p]) for p in ("Bo", "Cy")] == [6, 6]
    return game


@pytest.mark.parametrize("out, winner", [("Cy", "Cy"), ("Ann", "Bo")])
def test_r9_classic_wins_at_the_end_of_the_deal(out, winner):
    game = _six_each("classic")
    referee_deal(game, lay=["Bo", "Cy"], out=out)
    state = game.state
    assert state["phase"] == "over" and state["winners"] == [winner]
    assert game.rules.display(state).win == (state["seats"].index(winner),)


def test_r9_classic_seventh_does_not_end_the_deal_at_once():
    game = _six_each("classic")
    while game.state["phase"] == "sticks":
        act(game, game.state["queue"][0][0], "stick", stick=_plain_stick(game.state))
    game.apply({"type": "deal"})
    player = rules_game.turn_player(game.state)
    assert player in ("Bo", "Cy", "Ann")
    while rules_game.turn_player(game.state) != "Bo":
        act(game, rules_game.turn_player(game.state), "done")
    stick = get_stick("classic", game.state["stick"]["Bo"])
    state = act(game, "Bo", "laydown", cards=list(stick.example))
    assert state["phase"] == "play" and state["sevens"] == ["Bo"]


def test_r9_tries_ends_the_game_the_moment_a_seventh_is_turned_up():
    game = _six_each("tries")
    referee_deal(game, lay=["Bo"])
    assert game.state["phase"] == "over" and game.state["winners"] == ["Bo"]
    with pytest.raises(RuleError, match="over"):
        game.apply({"type": "done", "player": "Cy"})


# ---- ruling 10 (hidden information) is pinned in test_playthroughs.py ---------------------

# ---- seating, the deal cap, referee button ---------------------------------------------


def test_seating_highest_card_deals_and_ties_redraw():
    game = Game({"game": "sticks", "players": ["Ann", "Bo", "Cy"], "preset": "classic"})
    game.apply({"type": "seat_draw", "cards": {"Ann": "KS", "Bo": "KH", "Cy": "3C"}})
    assert game.state["seat_pending"] == ["Ann", "Bo"]
    with pytest.raises(RuleError, match="drawn by Ann, Bo"):
        game.apply({"type": "seat_draw", "cards": {"Cy": "AS"}})
    game.apply({"type": "seat_draw", "cards": {"Ann": "5D", "Bo": "AH"}})
    state = game.state
    assert state["seats"] == ["Bo", "Ann", "Cy"] and state["seats"][state["dealer"]] == "Bo"
    assert state["queue"][0][0] == "Ann"  # left of the dealer draws first


def test_seats_as_they_sit_with_another_first_dealer():
    game = Game({"game": "sticks", "players": ["Ann", "Bo", "Cy"], "mode": "referee"})
    state = game.apply({"type": "seats", "order": "Cy,Ann,Bo", "dealer": "Ann"})
    assert state["seats"] == ["Cy", "Ann", "Bo"] and state["queue"][0][0] == "Bo"
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    state = game.apply({"type": "deal"})
    assert rules_game.turn_player(state) == "Bo" and game.rules.display(state).turn == 2
    with pytest.raises(RuleError, match="not at the table"):
        Game(game.header).apply({"type": "seats", "order": ["Ann", "Bo", "Cy"], "dealer": "Zed"})


def test_deal_length_is_capped():
    game = new_game("classic", max_turns=2, hand_size=6)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    rig_deal(game, {})
    for _ in range(2):
        player = rules_game.turn_player(game.state)
        act(game, player, "draw", **{"from": "stock"})
        act(game, player, "discard", card=rules_game.legal_discards(game.state, player)[0])
    assert game.state["deal_end"] == "turn limit reached" and game.state["phase"] == "deal"


def test_referee_button_ends_the_turn_and_lay_downs_are_checked():
    game = new_game("classic", mode="referee")
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    game.apply({"type": "deal"})
    rules = game.rules
    assert rules.interpret(game.state, {"k": "button", "seat": 2, "long": False}) == []
    assert rules.interpret(game.state, {"k": "fell", "n": 1}) == []
    assert rules.interpret(game.state, None) == [] and rules.interpret(game.state, []) == []
    events = rules.interpret(game.state, {"k": "button", "seat": 1, "long": False})
    assert events == [{"type": "done", "player": "Bo"}]
    game.apply(events[0])
    with pytest.raises(RuleError, match="not stick 9"):
        act(game, "Cy", "laydown", cards="9C 10C JC QS KS AS 3H 4H 6H".split())
    state = act(game, "Cy", "laydown", cards="9C 10C JC QS KS AS 3H JK 5H".split())
    assert state["completed"]["Cy"] == [9] and game.rules.display(state).scores == (0, 0, 1)


@pytest.mark.parametrize("preset", ["tries", "classic"])
def test_flipped_wild_goes_to_the_starter_in_tries_only(preset):
    game = new_game(preset, hand_size=5)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    rig_deal(game, {}, flip="JK")
    state = game.state
    if preset == "tries":
        assert "JK" in state["hands"]["Bo"] and len(state["hands"]["Bo"]) == 6
        assert state["discard"] == [] and state["phase"] == "play"
    else:
        assert state["discard"] == ["JK"] and state["phase"] == "draw"


def test_a_hand_of_wilds_only_may_shed_a_wild():
    game = new_game("classic", hand_size=4)
    give_sticks(game, {"Bo": 5, "Cy": 9, "Ann": 21})
    rig_deal(game, {"Bo": ["3C", "4C", "5C", "JK"]}, stock=["2D"])
    act(game, "Bo", "draw", **{"from": "stock"})
    act(game, "Bo", "laydown", cards=["3C", "4C", "5C"])
    assert rules_game.legal_discards(game.state, "Bo") == ["2D", "JK"]
    assert act(game, "Bo", "discard", card="JK")["discard"][-1] == "JK"
