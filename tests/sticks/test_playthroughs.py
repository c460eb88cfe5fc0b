"""Random digital games of both presets, start to finish: every card and stick in exactly
one place at every event (the engine runs the rules' check after each), hidden information
(ruling 10) in views and exports, replay equality, undo, termination."""

import copy
import json
import random

import pytest

from sticktable.engine import Game
from sticktable.games.sticks import views
from sticktable.games.sticks.stick_lists import get_stick

from .bots import next_event

GAMES = [
    ("classic", ["Ann", "Bo", "Cy", "Di"], 1),
    ("tries", ["Ann", "Bo", "Cy"], 2),
    ("classic", ["Ann", "Bo"], 3),
    ("tries", ["Ann", "Bo", "Cy", "Di", "Ed"], 4),
]
MAX_EVENTS = 6000


def hide_others(state, player, rng):
    """The same game with everything `player` may not see changed: other hands swapped with
    stock cards, other face-down sticks replaced, the stock reshuffled."""
    other = copy.deepcopy(state)
    for name in other["players"]:
        if name == player or not other["hands"]:
            continue
        hand = other["hands"][name]
        swap = min(len(hand), len(other["stock"]))
        hand[:swap], other["stock"][:swap] = other["stock"][:swap], hand[:swap]
        if other["stick"][name] is not None:
            other["stick"][name] = 1 if other["stick"][name] != 1 else 2
    rng.shuffle(other["stock"])
    return other


def check_hidden(state, rng):
    for player in state["players"]:
        seen = views.view(state, player)
        assert seen["hand"] == sorted(state["hands"][player])
        assert all(
            set(p) == {"cards", "has_stick", "completed", "tries", "down"}
            for p in seen["players"].values()
        )
        assert isinstance(seen["stock"], int)
        assert views.view(hide_others(state, player, rng), player) == seen
    assert "hand" not in views.view(state, None) and "stick" not in views.view(state, None)


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-{len(g[1])}p")
def played(request):
    preset, players, seed = request.param
    game = Game({"game": "sticks", "players": players, "preset": preset})
    rng, check_rng = random.Random(seed), random.Random(seed + 100)
    while not game.finished and len(game.events) < MAX_EVENTS:
        game.apply(next_event(game, rng))
        if len(game.events) % 97 == 0:
            check_hidden(game.state, check_rng)
    return game


def test_game_terminates_with_one_winner_at_seven(played):
    state = played.state
    assert played.finished, f"no winner after {len(played.events)} events"
    (winner,) = state["winners"]
    assert len(state["completed"][winner]) >= 7
    assert all(len(state["completed"][p]) <= 7 for p in state["players"])
    shown = played.rules.display(state)
    assert shown.mode == "over" and shown.scale == 7
    assert shown.win == (views.seats(state).index(winner),)


def test_the_game_actually_happened(played):
    kinds = {e["type"] for e in played.events}
    assert {"deal", "draw", "laydown", "discard", "stick"} <= kinds
    assert sum(e["type"] == "deal" for e in played.events) >= 2


def test_export_for_a_player_hides_what_they_may_not_see(played):
    player = played.state["players"][0]
    preset = played.state["settings"]["preset"]
    exported = views.export_log(played.header, played.events, player)
    assert len(exported) == len(played.events)
    for raw, seen in zip(played.events, exported, strict=True):
        assert "order" not in seen
        if raw["type"] == "stick" and raw["player"] != player:
            free = get_stick(preset, raw["stick"]).kind == "free"
            assert ("stick" in seen) == free
        if raw["type"] == "draw":
            assert ("card" in seen) == (raw["player"] == player and raw["from"] == "stock")
        if raw["type"] == "deal":  # "tries": a flipped wild joins the starter's hand
            assert len(seen["hand"]) - played.state["settings"]["hand_size"] in (0, 1)
    spectator = views.export_log(played.header, played.events, None)
    assert not any("hand" in e or "card" in e and e["type"] == "draw" for e in spectator)


def test_game_export_lines_use_the_hiding_export(played):
    lines = played.export(played.state["players"][-1])
    assert json.loads(lines[0]) == played.header and len(lines) == len(played.events) + 1
    assert not any('"order"' in line for line in lines)
    assert not any('"order"' in line for line in played.export(None))


def test_views_hide_other_hands_sticks_and_the_stock(played):
    check_hidden(played.state, random.Random(1))


def test_export_drops_secrets_a_client_wrote_into_hidden_events():
    # The rules ignore extra keys, so a client could log a drawn card or a stick's text in an
    # event; another player's export must show only the public keys of those events.
    from .helpers import give_sticks, new_game, rig_deal

    game = new_game()
    give_sticks(game, {"Ann": 1, "Bo": 2, "Cy": 3})
    game.events[-1]["text"] = "One Run of Five & Three Jacks"  # Ann's stick, in words
    rig_deal(game, {}, stock=["KS"])
    game.events[-1]["hands"] = game.state["hands"]
    game.apply({"type": "draw", "player": "Bo", "from": "stock", "card": "KS", "src": "key"})
    for player in ("Ann", "Cy", None):
        exported = views.export_log(game.header, game.events, player)
        text = json.dumps(exported)
        assert '"KS"' not in text and "hands" not in text and "Jacks" not in text
        assert exported[-1] == {"type": "draw", "player": "Bo", "from": "stock", "src": "key"}
    assert views.export_log(game.header, game.events, "Bo")[-1]["card"] == "KS"
