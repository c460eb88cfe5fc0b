"""Driving Bloodsticks games in tests: scripted rounds and random (but legal) playthroughs."""

from __future__ import annotations

import random

from sticktable.engine import Game
from sticktable.games.bloodsticks.drop import POSTURE_POINTS

POSTURES = list(POSTURE_POINTS)


def new_game(players=("Ann", "Bo", "Cy"), **house) -> Game:
    return Game({"game": "bloodsticks", "players": list(players), **house})


def current_sticks(game: Game) -> list[str]:
    view = game.rules.view(game.state)
    return [sid for ids in view["sticks"].values() for sid in ids] + view["extras"]


def layout(game: Game, **entries) -> dict:
    """Every stick of the current drop flat (extras lying free), then `entries` on top."""
    view = game.rules.view(game.state)
    sticks = {sid: {"posture": "flat"} for ids in view["sticks"].values() for sid in ids}
    sticks.update({extra: {} for extra in view["extras"]})
    sticks.update(entries)
    return sticks


def answer_bet(game: Game, bet: int, fall=()) -> None:
    game.apply({"type": "bet", "amount": bet})
    for player in list(game.state["pending"]):
        game.apply({"type": "fall_out" if player in fall else "match", "player": player})


def count(game: Game, points: dict | None = None, **entries) -> None:
    """Count the drop: totals entry with `points`, or the layout (+ confirm)."""
    if game.state["settings"]["entry"] == "totals":
        game.apply({"type": "totals", "points": points})
    else:
        game.apply({"type": "layout", "sticks": layout(game, **entries)})
        game.apply({"type": "confirm"})


def play_round(game: Game, bet: int = 1, fall=(), points=None, style="low", **entries) -> None:
    game.apply({"type": "collect"})
    if game.state["settings"]["variant"] == "house":
        free = [p for p in game.state["players"] if p not in game.state["counted"]]
        game.apply({"type": "pick_counter", "player": free[0]})
    else:
        answer_bet(game, bet, fall)
    if game.finished:
        return
    game.apply({"type": "drop", "style": style})
    count(game, points, **entries)


def random_layout(rng: random.Random, owners: dict, extras: list, p_off: float) -> dict:
    """A well-formed random layout: sticks only lie on sticks earlier in a shuffled order, so
    `on` never cycles; touching is written on either stick."""
    player_ids = [sid for ids in owners.values() for sid in ids]
    order = player_ids + list(extras)
    rng.shuffle(order)
    sticks = {}
    for i, sid in enumerate(order):
        entry: dict = {}
        if sid in player_ids:
            entry["posture"] = rng.choice(POSTURES)
        if rng.random() < (p_off if sid in player_ids else p_off / 2):
            entry["off"] = True
        if i and rng.random() < 0.35:
            entry["on"] = rng.sample(order[:i], k=min(i, rng.choice((1, 1, 2))))
        if rng.random() < 0.3:
            entry["touch"] = [rng.choice([s for s in order if s != sid])]
        sticks[sid] = entry
    return sticks


BYSTANDERS = ("Zed", "Yan")


def vary(rng: random.Random, game: Game, action: dict) -> dict:
    """A listed action, its open values (a layout, points, a bet, a side bet) varied at random
    half of the time, so playthroughs also meet messy layouts, ties and bystanders' bets."""
    if rng.random() < 0.5:
        return action
    event = dict(action)
    view = game.rules.view(game.state)
    kind = action["type"]
    if kind == "layout":
        event["sticks"] = random_layout(rng, view["sticks"], view["extras"], p_off=0.08)
    elif kind in ("totals", "override"):
        event["points"] = {p: rng.randint(-2, 6) for p in game.state["pool"]}
    elif kind == "bet" and game.state["settings"]["cap"] is None:
        event["amount"] = rng.randint(action["amount"], action["amount"] + 30)
    elif kind == "side_bet":
        event["bettor"] = rng.choice(list(game.state["players"]) + list(BYSTANDERS))
        event.update(guess=rng.randint(-5, 45), stake=rng.randint(1, 5))
    return event


SIDE_ACTIONS = ("ban_vote", "side_bet")


def choose(rng: random.Random, game: Game) -> dict:
    """One legal event, weighted so games move on (few fall-outs, overrides and side bets)."""
    actions = game.rules.legal_actions(game.state)
    side = [a for a in actions if a["type"] in SIDE_ACTIONS]
    main = [a for a in actions if a["type"] not in SIDE_ACTIONS]
    if side and rng.random() < 0.15:
        return vary(rng, game, rng.choice(side))
    weights = {"fall_out": 0.3, "override": 0.25, "redo": 0.1}
    picks = [rng.random() < weights.get(a["type"], 1.0) for a in main]
    pool = [a for a, ok in zip(main, picks, strict=True) if ok] or main
    if any(a["type"] in ("match", "fall_out") for a in pool):
        pool = [a for a in pool if a["type"] in ("match", "fall_out")]
    return vary(rng, game, rng.choice(pool))


def random_game(header: dict, seed: int, max_events: int = 400) -> tuple[Game, list]:
    """Play a whole game at random; returns the game and the state after every event."""
    rng = random.Random(seed)
    game = Game(header)
    states = [game.state]
    while not game.finished:
        assert len(game.events) < max_events, "the game did not end"
        game.apply(choose(rng, game))
        states.append(game.state)
    return game, states
