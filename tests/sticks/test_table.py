"""Melds on the table: new melds and lay-offs (runs keep their wilds where they stand)."""

import pytest

from sticktable.games.sticks.laydown import solve
from sticktable.games.sticks.stick_lists import Part
from sticktable.games.sticks.table import MeldError, extend, extends_any, standard_meld


def meld(kind, cards, size=None):
    found = solve([Part(kind, size or len(cards))], cards, False)
    assert found, cards
    return found[0].to_json()


def test_run_extends_at_both_ends_and_wilds_fill_gaps():
    run = meld("run", ["5H", "6H", "7H"])
    assert extend(run, ["9H", "JK"])["as"] == ["5H", "6H", "7H", "8H", "9H"]
    assert extend(run, ["3H", "2C"])["as"] == ["3H", "4H", "5H", "6H", "7H"]
    wild = extend(run, ["JK"])  # a lone wild goes on the high end first
    assert wild["as"][-1] == "8H" and wild["high"] == 8
    with pytest.raises(MeldError):
        extend(run, ["9S"])
    with pytest.raises(MeldError):
        extend(run, ["5H"])  # that place is taken


def test_run_ace_is_high_or_low_never_both():
    high = meld("run", ["QD", "KD", "AD"])
    assert high["high"] == 14
    with pytest.raises(MeldError):
        extend(high, ["3D"])  # no wrap-around
    assert extend(high, ["2D"])["as"][0] == "JD"  # a 2 there is only a wild
    assert extend(high, ["JK"])["as"][0] == "JD"  # nowhere above the ace: goes low
    low = meld("run", ["AS", "2S", "3S"])
    assert low["as"] == ["AS", "2S", "3S"] and extend(low, ["4S"])["high"] == 4
    long = meld("run", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC".split())
    assert extend(long, ["KC"])["high"] == 13
    with pytest.raises(MeldError):
        extend(extend(long, ["KC"]), ["AC"])  # A..K..A would use the ace twice


def test_natural_two_extends_its_own_run_and_is_wild_elsewhere():
    run = meld("run", ["3H", "4H", "5H"])
    assert extend(run, ["2H"])["as"][0] == "2H"  # the natural 2 below the 3
    assert extend(run, ["2S"])["as"][-1] == "6H"  # another suit's 2 is a wild: high end


def test_alternating_run_keeps_alternating():
    alt = meld("alternating_run", ["5S", "6D", "7C"])
    assert extend(alt, ["8H"])["high"] == 8
    with pytest.raises(MeldError):
        extend(alt, ["8S"])
    lower = extend(alt, ["4D"])
    assert lower["low"] == 4 and lower["colour"] == "red"
    assert extend(lower, ["3C"])["low"] == 3


def test_set_takes_its_rank_and_wilds():
    threes = meld("set", ["3H", "3S", "3D"])
    assert extend(threes, ["3H", "JK"])["as"][-2:] == ["3H", "3"]
    with pytest.raises(MeldError):
        extend(threes, ["4H"])


def test_extends_any_is_the_discard_limit_question():
    table = [meld("run", ["5H", "6H", "7H"]), meld("set", ["9S", "9C", "9D"])]
    assert extends_any(table, "8H") and extends_any(table, "9H")
    assert not extends_any(table, "6H") and not extends_any(table, "10C")


def test_standard_meld_is_a_set_or_a_run_of_three_or_more():
    assert standard_meld(["KS", "KS", "JK"], True).shape.kind == "set"
    assert standard_meld(["10C", "JK", "QC", "KC"], True).shape.kind == "run"
    with pytest.raises(MeldError, match="at least 3"):
        standard_meld(["KS", "KH"], False)
    with pytest.raises(MeldError, match="neither"):
        standard_meld(["KS", "QH", "JK"], False)
