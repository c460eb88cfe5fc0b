"""Seeded random Stick Stack games played to the end with every house rule: invariants,
replay, termination, the transcript, board facts, corrections. (Undo at every step and the
listed actions are tests/engine/test_random_play.py's, for every game.)"""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticktable.engine import Game, RuleError
from sticktable.errors import InputRefused
from sticktable.games.stickstack import RULES
from sticktable.games.stickstack_transcript import read_game, result, to_lines

HOUSE = [
    {},
    {"unplaceable": "to_bag", "foul_penalty": 1},
    {"topple_min_sticks": 0, "tie": "play_on", "end_score": 6},
    {"sticks": 8, "end_score": 4, "topple_min_sticks": 3},
    {"sticks": 3, "end_score": 3},
]
# How often a random player does each thing; big falls are rarer than small ones.
WEIGHTS = {"take": 10, "placed": 10, "unplaceable": 1, "fell": 2, "topple": 0.2, "touch": 0.5,
           "end_round": 5}  # fmt: skip
MAX_EVENTS = 3000
MODES = {"idle", "play", "topple", "over", "fault", "paused"}


def new_game(rng: random.Random) -> Game:
    players = [f"P{i}" for i in range(rng.randint(2, 8))]
    return Game({"game": "stick-stack", "players": players, **rng.choice(HOUSE)})


def choose(rng: random.Random, actions: list[dict]) -> dict:
    weights = [WEIGHTS[a["type"]] / a.get("count", 1) ** 2 for a in actions]
    return rng.choices(actions, weights)[0]


def random_fact(rng: random.Random, seats: int) -> dict:
    return rng.choice([
        {"k": "button", "seat": rng.randrange(seats), "long": rng.random() < 0.3},
        {"k": "placed", "t": 1, "g": 70},
        {"k": "fell", "n": rng.choice([1, 1, 1, 2, 3, 40]), "t": 2, "g": -70},
        {"k": "topple", "t": 3},
        {"k": "touch", "t": 4},
        {"k": "hb", "t": 5},
    ])  # fmt: skip


def check_invariants(game: Game, before: dict) -> None:
    state, rules = game.state, game.rules
    rules.check(state)
    settings = state["settings"]
    held = state["bag"] + state["tower"] + state["hand"] + sum(state["piles"])
    assert held == settings["sticks"]
    assert all(now >= then for now, then in zip(state["totals"], before["totals"], strict=True))
    shown = rules.display(state)
    seats = len(state["players"])
    assert len(shown.scores) == seats and shown.scale == settings["end_score"]
    assert shown.turn is None or 0 <= shown.turn < seats
    assert shown.mode in MODES and set(shown.win) <= set(range(seats))
    assert (shown.mode == "over") == game.finished == bool(shown.win)
    json.dumps([rules.view(state), rules.standings(state).to_json()])  # JSON-safe for the UI
    assert rules.chance(state, random.Random(0)) is None
    everyone = rules.legal_actions(state)
    for player in state["players"]:
        assert all(a in everyone for a in rules.legal_actions(state, player))
    assert game.finished or everyone, "a game that is not over always has a legal event"


def interpret_is_safe(game: Game, rng: random.Random) -> None:
    """Whatever the board reports, interpret's events apply in order without error."""
    state = game.state
    for event in game.rules.interpret(state, random_fact(rng, len(state["players"]))):
        state = game.rules.apply(copy.deepcopy(state), event)


def play_random(seed: int) -> tuple[Game, list[dict]]:
    rng = random.Random(seed)
    game = new_game(rng)
    states = [game.state]
    while not game.finished:
        interpret_is_safe(game, rng)
        game.apply(choose(rng, game.rules.legal_actions(game.state)))
        check_invariants(game, states[-1])
        states.append(game.state)
        assert len(game.events) < MAX_EVENTS, "the game does not end"
    return game, states


@pytest.mark.parametrize("seed", range(40))
def test_random_game_keeps_invariants_and_replays(seed):
    game, states = play_random(seed)
    assert game.replay() == game.state
    assert Game(game.header, game.events).state == game.state
    winners = game.standings().winners
    totals = game.standings().totals
    assert winners and all(totals[w] == min(totals.values()) for w in winners)
    # The transcript export says the same.
    assert result(read_game(to_lines(game.header, game.events))) == result(game)


@pytest.mark.parametrize("seed", range(200, 220))
def test_random_board_facts_play_a_whole_game(seed):
    """The daemon's path: only board facts, turned into events by the rules."""
    rng = random.Random(seed)
    game = new_game(rng)
    seats = len(game.header["players"])
    facts = 0
    while not game.finished:
        before = game.state
        for event in game.rules.interpret(game.state, random_fact(rng, seats)):
            game.apply(event)
        check_invariants(game, before)
        facts += 1
        assert facts < 20 * MAX_EVENTS, "the game does not end"
    assert game.replay() == game.state


@pytest.mark.parametrize("seed", range(300, 310))
def test_random_corrections_are_applied_or_refused_whole(seed):
    game, _ = play_random(seed)
    rng = random.Random(seed)
    for _ in range(20):
        target = rng.randrange(len(game.events))
        if game.events[target]["type"] == "correct":
            continue
        replacement = rng.choice(
            [[], [{"type": "touch"}], [game.events[rng.randrange(target + 1)]]]
        )
        before = (list(game.events), game.state)
        try:
            game.apply({"type": "correct", "target": target, "events": replacement})
        except RuleError:
            assert (game.events, game.state) == before
        else:
            assert game.replay() == game.state
            assert result(read_game(to_lines(game.header, game.events))) == result(game)


# --- nothing a board or a file can say makes the rules raise anything unexpected ---------

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.floats(allow_nan=True), st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
)  # fmt: skip
FACTS = st.fixed_dictionaries(
    {"k": st.sampled_from(["button", "placed", "fell", "topple", "touch", "hb", "fault", None])},
    optional={"seat": JUNK, "long": JUNK, "n": JUNK, "t": JUNK, "g": JUNK},
)
SOME_STATES = [state for seed in (1, 2, 3) for state in play_random(seed)[1][::5]]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SOME_STATES), FACTS)
def test_interpret_never_raises_and_returns_legal_events(state, fact):
    for event in RULES.interpret(state, fact):
        state = RULES.apply(copy.deepcopy(state), event)


LINES = st.one_of(
    st.text(max_size=30),
    st.builds(json.dumps, st.dictionaries(
        st.sampled_from(["turn", "take", "placed", "unplaceable", "fell", "topple", "touch", "x"]),
        st.one_of(JUNK, st.sampled_from(["Ann", "Bo", "bag", "front"])), max_size=2)),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12))
def test_any_transcript_is_scored_or_refused_with_a_line_number(lines):
    try:
        game = read_game(['{"game": "stick-stack", "players": ["Ann", "Bo"]}', *lines])
    except InputRefused as err:
        assert str(err).startswith("line ")
    else:
        json.dumps(result(game))
