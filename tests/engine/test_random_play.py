"""Random play over every registered game and each of its variants (OpenSpiel's basic test):
chance drawn by the rules, every other event picked at random from `legal_actions`. After
every event: the invariants (the engine runs the rule set's check), every listed action
applies, the turn, display, standings and views are well-formed; undo takes back exactly that
event. After the game: replay equals live, the log dumped and loaded equals live, and the
game's export re-imported scores the same (where the export holds everything)."""

from __future__ import annotations

import json
import random

import pytest

from sticktable.engine import Display, Game, RuleSet, Standings, Turn, registered

PLAYERS = ["Ann", "Bo", "Cy"]
MAX_EVENTS = 100  # long enough to pass through every phase; a whole game is not needed

CASES = [
    pytest.param(rules, variant, index + 1, id=f"{rules.name}-{index}")
    for rules in registered()
    for index, variant in enumerate(rules.variants)
]


def header_of(rules: RuleSet, variant: dict) -> dict:
    return {"game": rules.name, "players": list(PLAYERS), **variant}


def check_moment(game: Game) -> list[dict]:
    """The well-formedness of one moment of the game; returns the legal actions."""
    rules, state = game.rules, game.state
    players = game.header["players"]
    turn = rules.turn(state)
    assert isinstance(turn, Turn) and turn.phase in rules.phases
    assert turn.player is None or isinstance(turn.player, str)  # a neutral counter, too
    assert (turn.phase == "over") == game.finished

    shown = rules.display(state)
    assert isinstance(shown, Display) and len(shown.scores) == len(players)
    assert shown.turn is None or 0 <= shown.turn < len(players)
    assert set(shown.win) <= set(range(len(players)))
    assert (shown.mode == "over") == game.finished
    json.dumps(shown.wire())

    standings = rules.standings(state)
    assert isinstance(standings, Standings) and set(standings.totals) == set(players)
    assert standings.finished == game.finished and set(standings.winners) <= set(players)
    assert game.finished == bool(standings.winners)
    assert sorted(standings.ranking()) == sorted(players)
    json.dumps(standings.to_json())
    json.dumps(rules.summary(state))

    actions = rules.legal_actions(state)
    for player in [*players, None]:
        json.dumps(rules.view(state, player))
        assert all(a in actions for a in rules.legal_actions(state, player))
    assert all(rules.is_legal(state, a) for a in actions), "a listed action is refused"
    return actions


def pick(rng: random.Random, actions: list[dict]) -> dict:
    """A random action: first its type, then one of that type (so that a phase listing many
    side bets or amounts does not drown the moves that take the game on)."""
    kind = rng.choice(sorted({a["type"] for a in actions}))
    return rng.choice([a for a in actions if a["type"] == kind])


@pytest.mark.parametrize("rules, variant, seed", CASES)
def test_random_play(rules: RuleSet, variant: dict, seed: int):
    rng = random.Random(seed)
    game = Game(header_of(rules, variant))
    states = [game.state]
    while not game.finished and len(game.events) < MAX_EVENTS:
        actions = check_moment(game)
        event = rules.chance(game.state, rng)
        if event is None:
            assert actions, f"stuck: nothing to do in phase {rules.turn(game.state).phase}"
            event = pick(rng, actions)
        game.step(event)
        states.append(game.state)
        assert game.undo(1).state == states[-2], f"undo of {event} is not the state before"
    check_moment(game)

    assert game.replay() == game.state
    assert Game(game.header, game.events).state == game.state
    loaded = Game.load(game.dump())
    assert (loaded.header, loaded.events, loaded.state) == (game.header, game.events, game.state)
    if rules.export_is_complete:
        header, events = rules.reimport(game.export())
        assert Game(header, events).summary() == game.summary()


def test_every_game_and_variant_is_covered():
    names = {p.values[0].name for p in CASES}
    assert {"stick-stack", "bloodsticks", "sticks"} <= names
    assert all(len(r.variants) >= 2 for r in registered())
