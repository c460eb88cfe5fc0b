"""The event-sourced engine core (engine/core.py), exercised through the Stick Stack rules."""

import pytest

from sticktable.engine import Game, RuleError, effective_log, get_rules

STEPS = ["Ann bag", "placed", "Bo bag", "placed", "fell 1", "Cy bag", "placed", "Ann bag"]


def test_state_is_the_fold_of_the_log(ss):
    game = ss.play(STEPS)
    folded = game.fold([ss.event(step) for step in STEPS])
    assert folded == game.state
    assert game.state["piles"] == [0, 1, 0] and game.state["tower"] == 2


def test_replay_rebuilds_the_same_state(ss):
    game = ss.play(STEPS)
    assert game.replay() == game.state
    assert Game(game.header, game.events).state == game.state


def test_undo_is_the_prefix_replayed(ss):
    game = ss.play(STEPS)
    for count in range(len(STEPS) + 1):
        assert game.undo(count).state == ss.play(STEPS[: len(STEPS) - count]).state
    with pytest.raises(RuleError, match="cannot undo"):
        game.undo(len(STEPS) + 1)


def test_an_illegal_event_leaves_the_log_unchanged(ss):
    game = ss.play(STEPS)
    before_events, before_state = list(game.events), game.state
    for bad in [ss.event("Cy bag"), ss.event("fell 9"), {"type": "shuffle"}, {"count": 1}]:
        with pytest.raises(RuleError):
            game.apply(bad)
    assert game.events == before_events and game.state == before_state


def test_a_correction_replaces_an_event(ss):
    game = ss.play(STEPS)
    game.apply({"type": "correct", "target": 4, "events": [ss.event("fell 1"), {"type": "touch"}]})
    assert game.state["fouls"] == [0, 1, 0] and game.replay() == game.state
    game = ss.play(STEPS[:5])
    game.apply({"type": "correct", "target": 4, "events": [ss.event("fell 2")], "why": "two"})
    # Bo's turn began with 1 stick and now both fell: the correction makes it a topple.
    assert game.state["rounds"][0]["toppler"] == 1


def test_a_correction_can_void_an_event(ss):
    game = ss.play(STEPS)
    game.apply({"type": "correct", "target": 4, "events": []})
    assert game.state["piles"] == [0, 0, 0] and game.state["tower"] == 3
    assert effective_log(game.events) == [ss.event(s) for s in STEPS[:4] + STEPS[5:]]


def test_a_correction_making_later_events_illegal_is_refused(ss):
    game = ss.play(STEPS)
    before_events, before_state = list(game.events), game.state
    swap = {"type": "correct", "target": 0, "events": [ss.event("Ann front")]}
    with pytest.raises(RuleError, match="no sticks in front"):
        game.apply(swap)
    void_take = {"type": "correct", "target": 2, "events": []}  # Bo never took: Bo can't place
    with pytest.raises(RuleError):
        game.apply(void_take)
    assert game.events == before_events and game.state == before_state


def test_corrections_must_target_an_earlier_plain_event(ss):
    game = ss.play(STEPS)
    game.apply({"type": "correct", "target": 4, "events": []})
    for bad in [
        {"type": "correct", "target": 99, "events": []},
        {"type": "correct", "target": len(STEPS), "events": []},  # the correction itself
        {"type": "correct", "target": "4", "events": []},
        {"type": "correct", "target": 1, "events": {"type": "placed"}},
    ]:
        with pytest.raises(RuleError):
            game.apply(bad)
    assert len(game.events) == len(STEPS) + 1


def test_events_may_carry_metadata_the_rules_ignore(ss):
    plain = ss.play(STEPS)
    tagged = Game(plain.header)
    for seq, event in enumerate(plain.events):
        tagged.apply({**event, "src": "board", "seq": seq, "t": 1000 * seq})
    assert tagged.state == plain.state


def test_unknown_game_is_refused():
    with pytest.raises(RuleError, match="unknown game 'chess'"):
        get_rules("chess")
    assert get_rules("stick-stack").name == "stick-stack"
