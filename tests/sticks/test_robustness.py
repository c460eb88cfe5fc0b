"""Whatever a keyboard or a buggy client sends, the rules answer with a RuleError (which the
daemon reports) or a state that still conserves every card; and every action
`legal_actions` lists is accepted."""

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sticktable.engine import Game, RuleError
from sticktable.games.sticks import views

from .bots import next_event

TYPES = [
    "seat_draw",
    "seats",
    "stick",
    "deal",
    "restock",
    "draw",
    "laydown",
    "meld",
    "layoff",
    "steal",
    "discard",
    "done",
    "out",
    "correct",
    "nonsense",
]
CARDS = ["3C", "4C", "5C", "JK", "2H", "AS", "KD", "10H", "1Z", "", "jk"]


def _states():
    """States at every phase of a short random game (both presets, both modes)."""
    out = []
    for preset in ("classic", "tries"):
        game = Game({"game": "sticks", "players": ["Ann", "Bo", "Cy"], "preset": preset})
        rng = random.Random(5)
        while len(game.events) < 400 and not game.finished:
            game.apply(next_event(game, rng))
            if len(game.events) % 23 == 0 or game.state["phase"] in ("sticks", "restock"):
                out.append(copy.deepcopy(game.state))
    referee = Game({"game": "sticks", "players": ["Ann", "Bo"], "mode": "referee"})
    out.append(copy.deepcopy(referee.state))
    referee.apply({"type": "seats", "order": ["Ann", "Bo"]})
    out.append(copy.deepcopy(referee.state))
    return out


STATES = _states()
RULES = Game({"game": "sticks", "players": ["Ann", "Bo"]}).rules

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.sampled_from(CARDS),
    st.sampled_from(["Ann", "Bo", "Cy", "Zed", "stock", "discard", "3C,4C,5C"]),
    st.lists(st.sampled_from(CARDS), max_size=6),
    st.lists(st.lists(st.sampled_from(CARDS), max_size=4), max_size=3),
    st.dictionaries(st.sampled_from(["Ann", "Bo", "x"]), st.sampled_from(CARDS)),
)
fields = st.dictionaries(
    st.sampled_from(
        [
            "player",
            "cards",
            "card",
            "from",
            "stick",
            "meld",
            "order",
            "melds",
            "give",
            "wild",
            "then",
        ]
    ),
    values,
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(STATES))), st.sampled_from(TYPES), fields, fields)
def test_any_event_is_applied_or_refused_with_a_rule_error(index, kind, extra, then):
    event = {"type": kind, **extra}
    if "then" in event:
        event["then"] = {"type": "meld", **then}
    state = copy.deepcopy(STATES[index])
    try:
        after = RULES.apply(state, event)
    except RuleError:
        return
    RULES.check(after)


def test_views_and_display_are_json_data_in_every_phase():
    for state in STATES:
        for player in [*state["players"], None]:
            json.dumps(views.view(state, player))
        shown = views.display(state)
        assert len(shown.scores) == len(state["players"]) and shown.scale == 7
        assert shown.turn is None or 0 <= shown.turn < len(state["players"])
