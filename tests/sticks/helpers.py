"""Rigged games for scenario tests: seat the players, hand out chosen sticks, deal chosen
cards (the deal event's order is built so the dealing pops exactly these cards)."""

from __future__ import annotations

from collections import Counter

from sticktable.engine import Game
from sticktable.games.sticks.cards import RANKS, SUITS

PLAYERS = ("Ann", "Bo", "Cy")


def new_game(preset="classic", players=PLAYERS, mode="digital", **house) -> Game:
    game = Game(
        {"game": "sticks", "players": list(players), "preset": preset, "mode": mode, **house}
    )
    game.apply({"type": "seats", "order": list(players)})  # Ann deals first, Bo starts
    return game


def give_sticks(game: Game, sticks: dict) -> None:
    """Each player in the stick queue draws the stick given for them (a list: draws in turn)."""
    wanted = {p: list(v) if isinstance(v, list) else [v] for p, v in sticks.items()}
    while game.state["phase"] == "sticks":
        player = game.state["queue"][0][0]
        game.apply({"type": "stick", "player": player, "stick": wanted[player].pop(0)})


def deal_order(game: Game, hands: dict, flip: str, stock=()) -> list[str]:
    """A deal order giving each player `hands[p]` (filled up with plain cards), flipping
    `flip`, with `stock` the next cards drawn from the stock (first drawn first)."""
    state = game.state
    size = state["settings"]["hand_size"]
    rest = Counter(state["deck"])
    chosen = [c for h in hands.values() for c in h] + [flip, *stock]
    rest.subtract(chosen)
    assert min(rest.values()) >= 0, "more copies than the decks hold"
    used_ranks = {c[:-1] for c in chosen if c != "JK"}
    fresh = [r for r in RANKS if r != "2" and r not in used_ranks]
    # Plain cards that make no meld: ranks the test does not use first, suits changing every
    # card, at most two of a rank per hand.
    order = []
    for ranks in (fresh, fresh + sorted(used_ranks - {"2"})):
        order += [
            ranks[k % len(ranks)] + SUITS[(k + k // len(ranks)) % 4] for k in range(4 * len(ranks))
        ]
    full = {}
    for index, player in enumerate(state["seats"]):
        hand = list(hands.get(player, []))
        for card in order[index:] + order[:index]:
            if len(hand) == size:
                break
            if rest[card] > 0 and [c[:-1] for c in hand].count(card[:-1]) < 2:
                rest[card] -= 1
                hand.append(card)
        assert len(hand) == size, "no plain cards left to fill the hand"
        full[player] = hand
    rest = Counter(state["deck"])
    n = len(state["seats"])
    clockwise = [state["seats"][(state["dealer"] + 1 + i) % n] for i in range(n)]
    pops = [full[p][r] for r in range(size) for p in clockwise] + [flip, *stock]
    rest.subtract(pops)
    return list(rest.elements()) + pops[::-1]


def rig_deal(game: Game, hands: dict, flip="9C", stock=()) -> None:
    game.apply({"type": "deal", "order": deal_order(game, hands, flip, stock)})


def act(game: Game, player: str, kind: str, **fields) -> dict:
    event = {"type": kind, "player": player, **fields}
    game.apply(event)
    return game.state
