"""The lay-down rules one at a time, and the search against a brute-force checker."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sticktable.games.sticks.laydown import check_stick, solve
from sticktable.games.sticks.stick_lists import Part, get_stick

from .brute import brute_ok


def check(preset, number, cards):
    return check_stick(get_stick(preset, number), cards.split(), preset == "tries")


def test_every_card_used_once_and_parts_exact():
    # Classic 21 "One Run of Six": seven cards are one too many, even though six make it.
    result = check("classic", 21, "8H 9H 10H JH QH KH AH")
    assert not result["ok"] and "exactly 6 cards" in result["why"]
    assert not check("classic", 21, "8H 9H 10H JH QH")["ok"]


def test_ace_low_or_high_never_both_no_wrap():
    assert check("classic", 19, "AD 2D 3D 4D 5D JS QS KS")["ok"]  # ace low under a natural 2
    assert check("classic", 19, "10D JD QD KD AD QS KS AS")["ok"]  # ace high after a king
    wrap = check("classic", 19, "QD KD AD 2D 3D 4S 5S 6S")
    assert not wrap["ok"] and "round the corner" in wrap["why"]
    # A new meld of 14 spades would need the ace low and high at once.
    spades = [rank + "S" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    both_aces = [*spades, "JS", "QS", "KS", "AS"]
    assert solve([Part("run", 14)], both_aces) is None
    assert solve([Part("run", 13)], both_aces[1:]) and solve([Part("run", 13)], both_aces[:-1])


def test_two_is_natural_only_as_the_two_of_a_same_suit_run():
    # In "tries" each meld needs a natural: 2H counts as the hearts run's natural 2 ...
    ok = check("tries", 21, "3H JK JK")  # 3, 4, 5 of Hearts with two wilds
    assert ok["ok"]
    run = check_stick(get_stick("tries", 35), "2S JK JK".split(), True)  # 1 run of Spades
    assert run["ok"] and run["melds"][0]["as"][run["melds"][0]["cards"].index("2S")] == "2S"
    # ... but a 2 of another suit, or a 2 in a set, is only a wild.
    assert not check_stick(get_stick("tries", 35), "2H JK JK".split(), True)["ok"]
    assert not check("tries", 8, "2C 2D 2H 2S JK JK 2C")["ok"]  # 1 set of 7: no natural
    # An alternating run has no suit: its 2 is a wild too (tries 25, eight jokers and a 2).
    assert not check("tries", 25, "2H " + "JK " * 8)["ok"]
    assert check("tries", 25, "3S " + "JK " * 7 + "2H")["ok"]
    assert check("classic", 18, "2C 2D 2H 2S JK JK 2C")["ok"]  # classic needs none


def test_two_sets_of_one_stick_have_different_ranks():
    result = check("classic", 48, "AC AH AD AC AS AH AD AS")
    assert not result["ok"] and "different ranks" in result["why"]
    assert not check("classic", 41, "3H 3C 3S 3D 3C 3C 3H 3D")["ok"]  # set of five must not be 3s
    assert check("classic", 41, "KH KC KS KD KC 3C 3H 3D")["ok"]


def test_alternating_colours():
    assert check("classic", 4, "5S 6D 7C 8H 9S 10H JS QD KC")["ok"]
    assert check("classic", 4, "5H 6S 7D 8C 9H JK JD QC KD")["ok"]  # the joker as a black 10
    bad = check("classic", 4, "5S 6D 7C 8H 9S 10H JS QD KD")
    assert not bad["ok"] and "alternate" in bad["why"]


def test_ten_in_one_suit_naturals_only():
    assert check("classic", 31, "4D 4D 8D 6D 3D 5D 7D 10D 10D QD")["ok"]
    for wild in ("JK", "2D"):
        result = check("classic", 31, f"4D 4D 8D 6D 3D 5D 7D 10D {wild} QD")
        assert not result["ok"] and "no 2s or jokers" in result["why"]
    assert not check("classic", 31, "4D 4D 8D 6D 3D 5D 7D 10D 10H QD")["ok"]


def test_wild_only_melds():
    assert check("classic", 16, "JK 2C 2C JK")["ok"]
    result = check("tries", 40, "JK JK 2C 2D 3H")
    assert not result["ok"] and "only wild cards" in result["why"]


def test_tries_needs_a_natural_per_meld_classic_does_not():
    cards = "JK JK JK JK JK 8H"  # one natural card for two melds
    assert check("classic", 1, cards)["ok"]
    result = check("tries", 27, cards)
    assert not result["ok"] and "natural" in result["why"]


def test_wilds_stand_for_named_cards_and_say_so():
    result = check("classic", 2, "AH JK QH")  # Ace, King, Queen of hearts
    assert result["ok"] and result["wilds"] == [{"card": "JK", "as": "KH", "meld": 0}]
    result = check("classic", 6, "4D 5D JK 7D 8D JC JS 2H")
    assert {w["as"] for w in result["wilds"]} == {"6D", "J"}
    assert [m["part"] for m in result["melds"]] == ["a run of five", "a set of three Jacks"]


def test_explains_a_card_that_fits_nowhere():
    result = check("classic", 7, "8H 9H 10H AC AD AH KS")
    assert not result["ok"] and "KS fits nowhere" in result["why"]


def test_finder_picks_a_lay_down_out_of_a_hand():
    hand = "3C 4C 5C 8H 8C 8D KS QH 7D JK 2S 9C 9C 10D AS".split()
    melds = solve(get_stick("classic", 1).parts, hand, False, find=True)
    assert melds and sum(len(m.cards) for m in melds) == 6
    assert solve(get_stick("classic", 3).parts, hand, False, find=True) is None


# ---- property test: the search agrees with brute force on small hands ----------------------

POOL = [
    "AH",
    "2H",
    "3H",
    "4H",
    "5H",
    "QH",
    "KH",
    "AS",
    "3S",
    "4S",
    "KS",
    "3D",
    "4C",
    "2C",
    "JK",
    "QS",
    "5D",
]
SMALL_PARTS = [
    (Part("run", 3), Part("set", 3)),
    (Part("set", 3), Part("set", 3)),
    (Part("run", 3, suit="H"), Part("set", 3, rank="A")),
    (Part("run", 4),),
    (Part("alternating_run", 4),),
    (Part("run", 3, suit="H", low=12),),
    (Part("cards", 4, cards=("AH", "KH", "AS", "KS")),),
    (Part("wild", 3),),
    (Part("one_suit", 4),),
    (Part("run", 3), Part("run", 3)),
    (Part("set", 5),),
    (Part("run", 3, suit="S", low=3), Part("set", 2, rank="K")),
]

VALID = [
    "3H 4H 5H KS KH JK",
    "3H 3S 3D KS KH JK",
    "3H 4H 5H AH AS JK",
    "AH 2H 3H 4H",
    "3H 4S 5D JK",
    "QH KH AH",
    "AH KH AS JK",
    "JK 2C 2H",
    "AH 3H 4H QH",
    "AH 2H 3H 3S 4S JK",
    "3H 3S 3D JK 2C",
    "3S 4S JK KS KH",
]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(SMALL_PARTS) - 1), st.booleans(), st.data())
def test_search_agrees_with_brute_force_near_valid_hands(index, need_natural, data):
    cards = VALID[index].split()
    for _ in range(data.draw(st.integers(0, 2))):
        cards[data.draw(st.integers(0, len(cards) - 1))] = data.draw(st.sampled_from(POOL))
    parts = SMALL_PARTS[index]
    assert bool(solve(parts, cards, need_natural)) == brute_ok(parts, cards, need_natural), cards


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SMALL_PARTS), st.booleans(), st.data())
def test_search_agrees_with_brute_force(parts, need_natural, data):
    size = sum(p.size for p in parts)
    cards = data.draw(st.lists(st.sampled_from(POOL), min_size=size, max_size=size))
    found = solve(parts, cards, need_natural)
    assert bool(found) == brute_ok(parts, cards, need_natural), cards
    if found:
        assert sorted(c for m in found for c in m.cards) == sorted(cards)


@pytest.mark.parametrize("index", range(len(SMALL_PARTS)))
def test_brute_force_accepts_what_it_should(index):
    # The oracle itself must be able to say yes, or the property tests prove nothing.
    cards = VALID[index].split()
    assert brute_ok(SMALL_PARTS[index], cards, True) and solve(SMALL_PARTS[index], cards, True)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(SMALL_PARTS),
    st.booleans(),
    st.lists(st.sampled_from(POOL), min_size=3, max_size=9),
)
def test_finder_only_finds_true_lay_downs(parts, need_natural, hand):
    found = solve(parts, hand, need_natural, find=True)
    if found:
        used = [c for m in found for c in m.cards]
        assert all(used.count(c) <= hand.count(c) for c in used)
        assert brute_ok(parts, used, need_natural)


@pytest.mark.parametrize(
    "preset, number, cards, words",
    [
        ("classic", 17, "5S 6S 7S 8S 9S 10S JS QS AS", "span 10 ranks"),
        ("classic", 21, "8H 9H 10H JH QH KS", "all one suit"),
        ("classic", 18, "3C 3D 3S 3H 3H 3S 4D", "all one rank"),
        ("classic", 21, "8H 9H 9H JH QH KH", "not two 9s"),
        ("classic", 12, "JD JC JC 4C 6D KD 10H 9S 8H JK JK JK", "four runs of three"),
    ],
)
def test_why_is_said_in_a_players_words(preset, number, cards, words):
    result = check(preset, number, cards)
    assert not result["ok"] and words in result["why"]
