"""Stick Stack (host/docs/sources/stick-stack-rulebook.txt, host/docs/rulings-stick-stack.md).

The state is a plain dict of counts, because the game has no hidden information and every
stick is like every other: only how many sit in the bag, on the tower, in the hand and in front
of each seat matters. Seats are indexes into the header's `players` (clockwise).

Rounds end by themselves: a topple ends one at once, and a round "with no more sticks" (the
next player has nothing in the bag nor in front of them) stays open while the turn holder's
turn lasts (ruling 3: sticks may still fall to them, the tower may still topple) and closes
when the next round's first player takes, or by an explicit `end_round` event (the daemon's
way to close it; `interpret` turns any button press into one). A closed round puts every
stick back in the bag and the next round starts at once.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field

from sticktable.engine import (
    ArmBoard,
    Display,
    HouseRule,
    RoundResult,
    RuleError,
    RuleSet,
    Standings,
    Turn,
    register,
    require,
)
from sticktable.engine.contract import Event

TOPPLE_POINTS = 5
MIN_SEATS, MAX_SEATS = 2, 8

# House rules (and the transcript's optional header keys): name -> (default, check, what).
HOUSE_RULES = {
    "sticks": (36, lambda v: _is_int(v) and v >= 1, "a whole number of at least 1"),
    # Capped: a larger target is a typo, and would make a simulated game run for hours.
    "end_score": (11, lambda v: _is_int(v) and 1 <= v <= 999, "a whole number from 1 to 999"),
    "unplaceable": ("to_front", lambda v: v in ("to_front", "to_bag"), '"to_front" or "to_bag"'),
    "foul_penalty": (0, lambda v: _is_int(v) and v >= 0, "a whole number of at least 0"),
    "topple_min_sticks": (1, lambda v: _is_int(v) and v >= 0, "a whole number of at least 0"),
    "tie": ("share", lambda v: v in ("share", "play_on"), '"share" or "play_on"'),
}


# What each house rule changes (the setup screen shows it with the default).
HOUSE_RULE_NOTES = {
    "sticks": "sticks in the game",
    "end_score": "the game ends after a round in which someone reaches this total",
    "unplaceable": "where a stick that cannot be placed goes: in front of the player, or back "
    "in the bag",
    "foul_penalty": "points for touching the tower (a foul)",
    "topple_min_sticks": "an emptied tower is a topple only if it had at least this many sticks",
    "tie": "a tie at the end: share the win, or play another round",
}


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_header(header: dict) -> tuple[list[str], dict]:
    """The players and the complete settings of a header, or RuleError saying what is wrong."""
    if not isinstance(header, dict):
        raise RuleError("the header must be a JSON object")
    if header.get("game") != "stick-stack":
        raise RuleError(f'not a Stick Stack header: "game" is {header.get("game")!r}')
    unknown = sorted(set(header) - {"game", "players"} - set(HOUSE_RULES))
    if unknown:
        known = ", ".join(sorted(HOUSE_RULES))
        raise RuleError(f"unknown header key {unknown[0]!r} (known: players, {known})")
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise RuleError('"players" must be a list of names (non-empty strings)')
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise RuleError(f"Stick Stack needs {MIN_SEATS} to {MAX_SEATS} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise RuleError("two players have the same name")
    settings = {}
    for key, (default, ok, what) in HOUSE_RULES.items():
        value = header.get(key, default)
        if not ok(value):
            raise RuleError(f'"{key}" must be {what}, not {value!r}')
        settings[key] = value
    return list(players), settings


# --- reading the state -------------------------------------------------------------------


def next_seat(state: dict) -> int:
    """The seat that takes the next stick: the round's first player, or the one after the holder."""
    if state["holder"] is None:
        return state["first"]
    return (state["holder"] + 1) % len(state["players"])


def can_take(state: dict, seat: int) -> bool:
    return state["bag"] > 0 or state["piles"][seat] > 0


def blocked(state: dict) -> bool:
    """The round cannot go on: the next player has no stick in the bag nor in front (ruling 2)."""
    return (
        not state["over"]
        and state["holder"] is not None
        and state["hand"] == 0
        and not can_take(state, next_seat(state))
    )


def running_scores(state: dict) -> list[int]:
    """What each seat scores in the running round if it ended now without a topple."""
    penalty = state["settings"]["foul_penalty"]
    return [
        pile + fouls * penalty for pile, fouls in zip(state["piles"], state["fouls"], strict=True)
    ]


def closed(state: dict) -> dict:
    """The state with a round that cannot go on closed (the end of a transcript does this)."""
    if not blocked(state):
        return state
    return _end_round(copy.deepcopy(state), "no_more_sticks", None)


# --- changing the state ------------------------------------------------------------------


def _reset_round(state: dict) -> None:
    """Every stick back in the bag, nobody's turn (ruling 2: a turn starts with a take)."""
    seats = len(state["players"])
    state.update(
        bag=state["settings"]["sticks"],
        tower=0,
        hand=0,
        piles=[0] * seats,
        fouls=[0] * seats,
        holder=None,
        turn_tower=0,
        turn_fell=0,
    )


def _end_round(state: dict, ended_by: str, toppler: int | None) -> dict:
    """Score the round (ruling 8), decide whether the game is over, start the next round."""
    scores = running_scores(state)
    if toppler is not None:
        scores[toppler] += TOPPLE_POINTS
    state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
    state["rounds"].append({"scores": scores, "ended_by": ended_by, "toppler": toppler})
    totals = state["totals"]
    if max(totals) >= state["settings"]["end_score"]:
        lowest = min(totals)
        tied = [seat for seat, total in enumerate(totals) if total == lowest]
        if len(tied) == 1 or state["settings"]["tie"] == "share":
            state["over"] = True
            state["winners"] = tied
    _reset_round(state)
    if not state["over"]:
        state["round"] += 1
        state["first"] = (state["first"] + 1) % len(state["players"])  # ruling 1
    return state


def _topple(state: dict) -> dict:
    """Ruling 7: this turn's fallen sticks, the hand and the tower go back to the bag; +5."""
    holder = state["holder"]
    state["piles"][holder] -= state["turn_fell"]
    state["bag"] += state["turn_fell"] + state["hand"] + state["tower"]
    state.update(tower=0, hand=0, turn_fell=0)
    return _end_round(state, "topple", holder)


def _holder(state: dict, what: str) -> int:
    if state["holder"] is None:
        raise RuleError(f"{what}, but no turn has started this round")
    return state["holder"]


def _take(state: dict, event: Event) -> dict:
    player, source = event.get("player"), event.get("from")
    if source not in ("bag", "front"):
        raise RuleError(f'a take is from "bag" or "front", not {source!r}')
    if player not in state["players"]:
        raise RuleError(f"{player!r} is not playing")
    if state["hand"]:
        name = state["players"][state["holder"]]
        raise RuleError(f"{name} still holds a stick: it must be placed or declared unplaceable")
    if blocked(state):
        _end_round(state, "no_more_sticks", None)
        if state["over"]:
            raise RuleError("the game is over")
    seat, expected = state["players"].index(player), next_seat(state)
    if seat != expected:
        raise RuleError(f"it is {state['players'][expected]}'s turn, not {player}'s")
    if source == "bag":
        if state["bag"] == 0:
            raise RuleError(f"{player} cannot take from the bag: it is empty")
        state["bag"] -= 1
    else:
        if state["piles"][seat] == 0:
            raise RuleError(f"{player} has no sticks in front of them to play")
        state["piles"][seat] -= 1
    state.update(holder=seat, hand=1, turn_tower=state["tower"], turn_fell=0)
    return state


def _in_hand(state: dict, what: str) -> int:
    holder = _holder(state, what)
    if not state["hand"]:
        raise RuleError(f"{what}, but {state['players'][holder]} holds no stick")
    return holder


def _placed(state: dict, event: Event) -> dict:
    _in_hand(state, "a stick was placed")
    state.update(hand=0, tower=state["tower"] + 1)
    return state


def _unplaceable(state: dict, event: Event) -> dict:
    holder = _in_hand(state, "a stick was declared unplaceable")
    state["hand"] = 0
    if state["settings"]["unplaceable"] == "to_bag":
        state["bag"] += 1
    else:
        state["piles"][holder] += 1  # ruling 4; not a fall, so a later topple leaves it there
    return state


def _fell(state: dict, event: Event) -> dict:
    count = event.get("count")
    if not _is_int(count) or count < 1:
        raise RuleError(f"a fall needs a count of at least 1, not {count!r}")
    holder = _holder(state, f"{count} stick(s) fell")
    if count > state["tower"]:
        raise RuleError(f"{count} stick(s) fell but the tower holds only {state['tower']}")
    state["tower"] -= count
    state["piles"][holder] += count  # ruling 3
    state["turn_fell"] += count
    if state["tower"] == 0 and state["turn_tower"] >= state["settings"]["topple_min_sticks"]:
        return _topple(state)  # ruling 6: the tower became empty
    return state


def _toppled(state: dict, event: Event) -> dict:
    _holder(state, "the tower fell over")
    return _topple(state)


def _touch(state: dict, event: Event) -> dict:
    holder = _holder(state, "the tower was touched")
    state["fouls"][holder] += 1  # ruling 5
    return state


def _close(state: dict, event: Event) -> dict:
    if not blocked(state):
        raise RuleError("the round can still go on")
    return _end_round(state, "no_more_sticks", None)


HANDLERS = {
    "take": _take,
    "placed": _placed,
    "unplaceable": _unplaceable,
    "fell": _fell,
    "topple": _toppled,
    "touch": _touch,
    "end_round": _close,
}


@dataclass(frozen=True)
class StickStackStandings(Standings):
    round: int = 1  # the running round
    running: Mapping[str, int] = field(default_factory=dict)  # its scores if it ended now
    fouls: Mapping[str, int] = field(default_factory=dict)  # its fouls so far


def _how(record: dict, names: list[str]) -> str:
    if record["ended_by"] == "topple":
        return f"topple by {names[record['toppler']]}"
    return "no more sticks"


class StickStack(RuleSet):
    """The Stick Stack rule set (see the module docstring for when rounds end)."""

    name = "stick-stack"
    title = "Stick Stack"
    # take: the next player takes a stick; place: the holder places it (or cannot);
    # round_end: nobody can take, the round waits to be closed
    phases = ("take", "place", "round_end", "over")
    handlers = HANDLERS
    keys_help = """\
Stick Stack (the sensors and seat buttons enter these by themselves; type them to correct):
  take player=NAME from=bag|front   a stick is taken (or: button SEAT [long])
  placed | unplaceable              the stick in hand is placed | cannot be placed
  fell count=N | topple | touch     sticks fell | the tower fell over | a foul
  end_round                         close a round that cannot go on"""
    house_rules = tuple(
        HouseRule(key, default, what, HOUSE_RULE_NOTES[key])
        for key, (default, _ok, what) in HOUSE_RULES.items()
    )
    variants = (
        {},
        {"unplaceable": "to_bag", "foul_penalty": 1, "tie": "play_on"},
        {"sticks": 6, "end_score": 3, "topple_min_sticks": 0},
    )

    def initial(self, header: dict) -> dict:
        players, settings = validate_header(header)
        seats = len(players)
        state = {
            "players": players,
            "settings": settings,
            "round": 1,
            "first": 0,  # ruling 1: the first name in the header starts round 1
            "totals": [0] * seats,
            "rounds": [],
            "over": False,
            "winners": [],
        }
        _reset_round(state)
        return state

    def check(self, state: dict) -> None:
        counts = [state["bag"], state["tower"], state["hand"], *state["piles"]]
        require(all(_is_int(c) and c >= 0 for c in counts), f"negative count: {counts}")
        require(sum(counts) == state["settings"]["sticks"], f"sticks not conserved: {counts}")
        require(state["hand"] in (0, 1), f"{state['hand']} sticks in hand")
        holder = state["holder"]
        if holder is None:
            idle = state["hand"] == state["tower"] == state["turn_fell"] == 0
            require(idle and not any(state["piles"]), "sticks in play before any turn")
            require(not any(state["fouls"]), "fouls before any turn")
        else:
            require(0 <= state["turn_fell"] <= state["piles"][holder], "turn falls not in front")
        seats = range(len(state["players"]))
        totals = [sum(r["scores"][s] for r in state["rounds"]) for s in seats]
        require(totals == state["totals"], "totals are not the sum of the rounds")
        require(state["over"] == bool(state["winners"]), "winners without a game end")

    def finished(self, state: dict) -> bool:
        return state["over"]

    def turn(self, state: dict) -> Turn:
        if state["over"]:
            return Turn("over")
        if state["hand"]:
            return Turn("place", state["players"][state["holder"]])
        if blocked(state):
            return Turn("round_end")
        return Turn("take", state["players"][next_seat(state)])

    def standings(self, state: dict) -> StickStackStandings:
        names = state["players"]

        def by_name(values):
            return dict(zip(names, values, strict=True))

        return StickStackStandings(
            finished=state["over"],
            totals=by_name(state["totals"]),
            winners=[names[s] for s in state["winners"]],
            rounds=[
                RoundResult(number, by_name(r["scores"]), _how(r, names))
                for number, r in enumerate(state["rounds"], start=1)
            ],
            lowest_wins=True,
            round=state["round"],
            running=by_name(running_scores(state)),
            fouls=by_name(state["fouls"]),
        )

    def summary(self, state: dict) -> dict:
        """What `sticktable replay` prints: the transcript spec's result object, with a round
        that cannot go on closed as the end of a transcript closes it."""
        state = closed(state)
        names = state["players"]

        def by_name(values):
            return dict(zip(names, values, strict=True))

        rounds = [
            {
                "scores": by_name(r["scores"]),
                "ended_by": r["ended_by"],
                "toppler": None if r["toppler"] is None else names[r["toppler"]],
            }
            for r in state["rounds"]
        ]
        return {
            "finished": state["over"],
            "totals": by_name(state["totals"]),
            "winners": [names[s] for s in state["winners"]],
            "rounds": rounds,
        }

    def effects(self, before: dict, after: dict) -> tuple[ArmBoard, ...]:
        """A new round starts on an empty, still tower: the board re-baselines."""
        return (ArmBoard(),) if after["round"] != before["round"] else ()

    def export(self, header: dict, events: list[Event], player: str | None = None) -> list[str]:
        """The game as a transcript (nothing is hidden, so every player sees the same)."""
        from sticktable.games.stickstack_transcript import to_lines  # it imports this module

        return to_lines(header, events)

    def reimport(self, lines: list[str]) -> tuple[dict, list[Event]]:
        from sticktable.games.stickstack_transcript import parse  # it imports this module

        return parse(lines)

    def legal_actions(self, state: dict, player: str | None = None) -> list[Event]:
        """Every event legal now; for a player only what they do (take, place, unplaceable)."""
        if state["over"]:
            return []
        seat = next_seat(closed(state))
        candidates = [
            {"type": "take", "player": state["players"][seat], "from": s} for s in ("bag", "front")
        ]
        if state["hand"]:
            candidates += [{"type": "placed"}, {"type": "unplaceable"}]
        if player is not None:
            actor = state["holder"] if state["hand"] else seat
            if state["players"][actor] != player:
                return []
        else:
            candidates += [{"type": "fell", "count": n} for n in range(1, state["tower"] + 1)]
            candidates += [{"type": "topple"}, {"type": "touch"}, {"type": "end_round"}]
        return [e for e in candidates if self.is_legal(state, e)]

    def view(self, state: dict, player: str | None = None) -> dict:
        """Everything is public in Stick Stack: counts, turns and scores."""
        after = closed(state)  # who takes next, if a stuck round closes
        return {
            "players": list(state["players"]),
            "settings": dict(state["settings"]),
            "round": state["round"],
            "bag": state["bag"],
            "tower": state["tower"],
            "hand": state["hand"],
            "piles": dict(zip(state["players"], state["piles"], strict=True)),
            "holder": None if state["holder"] is None else state["players"][state["holder"]],
            "next": None if after["over"] else state["players"][next_seat(after)],
            "round_over": blocked(state),
            "standings": self.standings(state).to_json(),
        }

    def display(self, state: dict) -> Display:
        """Rings: totals plus the running round's score so far (what it would be if it ended
        now, without a topple); `turn` is who must act next; `marks` are this round's fouls."""
        seats = len(state["players"])
        if state["over"]:
            return Display(
                scores=tuple(state["totals"]),
                scale=state["settings"]["end_score"],
                mode="over",
                win=tuple(state["winners"]),
                marks=(0,) * seats,
                names=tuple(state["players"]),
            )
        if state["hand"]:
            turn = state["holder"]
        elif blocked(state):
            turn = None
        else:
            turn = next_seat(state)
        last = state["rounds"][-1] if state["rounds"] else None
        just_toppled = state["holder"] is None and last and last["ended_by"] == "topple"
        running = zip(state["totals"], running_scores(state), strict=True)
        return Display(
            scores=tuple(t + r for t, r in running),
            scale=state["settings"]["end_score"],
            turn=turn,
            mode="topple" if just_toppled else "play",
            marks=tuple(state["fouls"]),
            names=tuple(state["players"]),
        )

    # chance: none (which stick comes out of the bag does not matter to the rules)

    def interpret(self, state: dict, fact: dict) -> list[Event]:
        """Board facts -> rule events; never raises, returns [] for what means nothing now."""
        try:
            events = _meaning(state, fact)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return []
        legal, probe = [], state
        for event in events:  # keep only the legal prefix, so the daemon can apply all of it
            try:
                probe = self.apply(copy.deepcopy(probe), event)
            except RuleError:
                break
            legal.append(event)
        return legal


def _meaning(state: dict, fact: dict) -> list[Event]:
    if not isinstance(fact, dict) or state["over"]:
        return []
    kind = fact.get("k")
    if kind == "button":
        return _button(state, fact)
    if state["holder"] is None:
        return []  # nothing is in play before a round's first take (the tower is empty)
    if kind == "placed":
        return [{"type": "placed"}] if state["hand"] else []
    if kind == "fell":
        count = fact.get("n")
        if not _is_int(count) or count < 1 or state["tower"] == 0:
            return []
        # The sensors saw more go than the rules count on the tower: all of it fell.
        return [{"type": "fell", "count": min(count, state["tower"])}]
    if kind == "topple":
        return [{"type": "topple"}]
    if kind == "touch":
        return [{"type": "touch"}]
    return []


def _button(state: dict, fact: dict) -> list[Event]:
    """Short press: take from the bag; long: from one's own pile (the other if that is empty)."""
    seat = fact.get("seat")
    if not _is_int(seat) or not 0 <= seat < len(state["players"]) or state["hand"]:
        return []
    if blocked(state):
        return [{"type": "end_round"}]  # any press closes a round that cannot go on
    if seat != next_seat(state):
        return []
    order = ("front", "bag") if fact.get("long") else ("bag", "front")
    for source in order:
        if (state["bag"] if source == "bag" else state["piles"][seat]) > 0:
            return [{"type": "take", "player": state["players"][seat], "from": source}]
    return []


RULES = register(StickStack())
