"""Random but legal games of every variant (seeded), played to the end: money, scoring,
termination, endings. (Invariants, replay, undo and the listed actions at every moment are
tests/engine/test_random_play.py's, for every game.)"""

import copy
from collections import Counter

import pytest
from bloodsticks_helpers import random_game

from sticktable.engine import Game, RuleError
from sticktable.games.bloodsticks.drop import POSTURE_POINTS
from sticktable.games.bloodsticks.ledger import HOUSE, balance

CONFIGS = {
    "standard-3": {"players": ["Ann", "Bo", "Cy"], "house_cut_pct": 5},
    "standard-4-host": {"players": ["Ann", "Bo", "Cy", "Dee"], "first_dropper": "host"},
    "standard-5-round-scope": {
        "players": ["A", "B", "C", "D", "E"],
        "henki_scope": "round",
        "dead_sticks_cancel": False,
        "cap": 9,
        "min_bet": 2,
    },
    "standard-6-totals": {"players": list("ABCDEF"), "entry": "totals", "max_tiebreaks": 1},
    "standard-3-totals-no-tiebreaks": {
        "players": ["Ann", "Bo", "Cy"],
        "entry": "totals",
        "max_tiebreaks": 0,
    },
    "challenge": {"players": ["Ann", "Bo"], "variant": "challenge", "counter": "Ref"},
    "challenge-totals": {"players": ["Ann", "Bo"], "variant": "challenge", "entry": "totals"},
    "house-side-pots": {
        "players": list("ABCDEFGHIJ"),
        "variant": "house",
        "side_pots": True,
        "house_cut_pct": 10,
        "stake": 2,
    },
    "house-totals-highest": {
        "players": ["Ann", "Bo", "Cy", "Dee"],
        "variant": "house",
        "side_pots": True,
        "house_score": "highest",
        "entry": "totals",
    },
}
SEEDS = range(6)


def money_in(game: Game) -> int:
    """The coins staked, re-added from the raw event log (independently of the ledger)."""
    total, bet, settings = 0, 0, game.state["settings"]
    for event in game.events:
        if event["type"] == "bet":
            bet = event["amount"]
            total += bet
        elif event["type"] == "match":
            total += bet
        elif event["type"] == "collect" and settings["variant"] == "house":
            total += settings["stake"] * len(game.state["players"])
    return total


def check_scores(state: dict) -> None:
    most = max(POSTURE_POINTS.values()) * 4 * state["settings"]["sticks_each"]
    for record in state["rounds"] + state["tiebreaks"]:
        if record["layout"] is None or record["override"] is not None:
            continue
        for player, points in record["points"].items():
            if record["careless"] and player == record["dropper"]:
                assert points >= -(8 * 2 * len(state["players"]) + 30)
            else:
                assert 0 <= points <= most + 8 * state["settings"]["sticks_each"]


def check_moment(game: Game) -> None:
    """What every state must offer: each player's actions in their view, the seat buttons."""
    state, rules = game.state, game.rules
    for player in state["players"]:
        assert rules.view(state, player)["actions"] == rules.legal_actions(state, player)
    for seat, player in enumerate(state["players"]):
        for long in (False, True):
            events = rules.interpret(state, {"k": "button", "seat": seat, "long": long})
            assert bool(events) == (player in state["pending"][:1])  # G3: in turn
            for event in events:
                rules.apply(copy.deepcopy(state), event)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", CONFIGS)
def test_random_playthrough(name, seed):
    header = {"game": "bloodsticks", **CONFIGS[name]}
    game, states = random_game(header, seed=seed * 7919 + len(name))
    state = game.state
    assert game.finished and state["winners"]
    # Money: the pot paid out (less the house's cut) is exactly what was staked.
    cut = sum(e["amount"] for e in state["ledger"]["entries"] if e["why"] == "house cut")
    assert sum(state["payouts"].values()) + cut == money_in(game)
    for player in state["players"]:
        net = state["payouts"].get(player, 0) - state["stakes"][player]
        side = sum(
            b.get("paid", 0) - b["stake"] for b in state["side_bets"] if b["bettor"] == player
        )
        assert balance(state["ledger"], player) == net + side
    side_net = sum(b["stake"] - b["paid"] for b in state["side_bets"])
    assert balance(state["ledger"], HOUSE) == cut + side_net
    check_scores(state)
    with pytest.raises(RuleError, match="over"):
        game.apply({"type": "collect"})


@pytest.mark.parametrize("name", ["standard-3", "challenge", "house-side-pots"])
def test_every_moment_offers_views_and_buttons(name):
    header = {"game": "bloodsticks", **CONFIGS[name]}
    game, _ = random_game(header, seed=3)
    replayed = Game(header)
    for event in game.events:
        check_moment(replayed)
        replayed.apply(event)
    check_moment(replayed)
    assert replayed.rules.legal_actions(replayed.state) == []


def test_random_games_reach_every_ending():
    """The playthroughs are not all alike: games end by the pot, a split, a last player."""
    endings: Counter = Counter()
    for name in ("standard-3-totals-no-tiebreaks", "standard-6-totals", "standard-3"):
        for seed in range(40):
            game, _ = random_game({"game": "bloodsticks", **CONFIGS[name]}, seed=seed)
            endings[game.state["end"]] += 1
            endings["tiebreak"] += bool(game.state["tiebreaks"])
            endings["careless"] += any(r["careless"] for r in game.state["rounds"])
    assert {"highest", "split", "last_standing", "tiebreak", "careless"} <= set(+endings)
