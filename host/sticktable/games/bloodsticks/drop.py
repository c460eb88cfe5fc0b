"""Scoring one Bloodsticks drop from the counter's layout (rulings 1-4,
host/docs/formats/bloodsticks-drop.md).

Pure functions over the spec's JSON shapes: the game's rule set and `sticktable bloodsticks
score-drop` both call `score_layout`, so a drop is counted one way only.

A layout maps stick ids to {"posture", "off", "on", "touch"}. Player sticks belong to owners;
the extras are the bloodstick and the henki (the opening drop has no henki). Relations to or
from a stick that left the surface are ignored: that stick is not in play.
"""

from __future__ import annotations

from dataclasses import dataclass

BLOOD, HENKI = "blood", "henki"
EXTRAS = (BLOOD, HENKI)
POSTURE_POINTS = {"flat": 1, "thin": 2, "thick": 4, "center": 8}

# Careless drop (ruling 4): what each other player's fallen stick earns its owner (and costs the
# dropper), and what the dropper loses for the bloodstick and the henki leaving the surface.
CARELESS_STICK = 8
CARELESS_EXTRA = {BLOOD: 10, HENKI: 20}

# Henki multipliers (ruling 3): touching, henki lying on the stick, the stick lying on the henki.
TOUCH_X, HENKI_ON_X, ON_HENKI_X = 2, 3, 4
HENKI_SCOPES = ("stick", "round")


class DropError(ValueError):
    """A layout that is not well formed; the message says what is wrong."""


@dataclass(frozen=True)
class DropRules:
    """The house rules that change how a drop counts (defaults = the rulings' defaults)."""

    henki_scope: str = "stick"  # ruling 3: "round" puts x3/x4 on the player's drop total
    # ruling 1 / G8: a stick the bloodstick kills still cancels the one below (a stick cancelled
    # by another always does)
    dead_sticks_cancel: bool = True


@dataclass(frozen=True)
class DropResult:
    redo: bool
    points: dict  # owner -> points of this drop (empty when redo)


def score_layout(
    owners: dict,
    sticks: dict,
    *,
    careless: bool,
    dropper: str | None,
    extras: tuple = EXTRAS,
    rules: DropRules = DropRules(),
) -> DropResult:
    """The points of one drop. `careless`: this is the drop done over (ruling 4); `dropper`:
    who pays the careless penalties (None: the house or the table, nobody pays)."""
    owner_of = _stick_owners(owners, extras)
    layout = _checked_layout(sticks, owner_of, extras)
    off = {sid for sid, entry in layout.items() if entry["off"]}
    if not careless and any(sid in off for sid in owner_of):
        return DropResult(redo=True, points={})
    table = _Table(layout, owner_of, off, rules)
    points = table.owner_points(owners)
    if careless:
        _careless_penalties(points, owner_of, off, dropper)
    return DropResult(redo=False, points=points)


def _careless_penalties(points: dict, owner_of: dict, off: set, dropper: str | None) -> None:
    for sid in sorted(off):
        owner = owner_of.get(sid)
        if owner is not None and owner != dropper:
            points[owner] += CARELESS_STICK
            if dropper in points:
                points[dropper] -= CARELESS_STICK
        elif owner is None and dropper in points:
            points[dropper] -= CARELESS_EXTRA[sid]
        # The dropper's own fallen stick is dead: no points, no penalty.


class _Table:
    """The sticks in play and who lies on / touches whom."""

    def __init__(self, layout: dict, owner_of: dict, off: set, rules: DropRules):
        self.layout, self.owner_of, self.rules = layout, owner_of, rules
        live = set(layout) - off
        self.on = {s: {t for t in layout[s]["on"] if t in live} for s in live}
        self.touching = {s: set(self.on[s]) for s in live}
        for s in live:
            self.touching[s] |= {t for t in layout[s]["touch"] if t in live}
        for s in live:  # touching is mutual, and lying on a stick touches it
            for t in self.touching[s]:
                self.touching[t].add(s)
        self.live = live

    def multiplier(self, sid: str) -> int:
        """The henki's multiplier for a live player stick (1 when none applies)."""
        touches = self.touching[sid]
        if HENKI not in touches or BLOOD in touches:
            return 1  # ruling 2: henki and bloodstick together are ignored for this stick
        if HENKI in self.on[sid]:
            return ON_HENKI_X
        if sid in self.on.get(HENKI, ()):
            return HENKI_ON_X
        return TOUCH_X

    def killed(self, sid: str) -> bool:
        touches = self.touching[sid]
        return BLOOD in touches and HENKI not in touches

    def cancelled(self, sid: str) -> bool:
        """Ruling 1: a player stick lying directly on this one (never transitively); G8: with
        `dead_sticks_cancel` off, one the bloodstick kills does not cancel."""
        return any(
            sid in self.on[top]
            and top in self.owner_of
            and (self.rules.dead_sticks_cancel or not self.killed(top))
            for top in self.live
        )

    def alive(self, sid: str) -> bool:
        return not self.killed(sid) and not self.cancelled(sid)

    def owner_points(self, owners: dict) -> dict:
        points = {}
        for owner, ids in owners.items():
            total, round_x = 0, 1
            for sid in ids:
                if sid not in self.live:
                    continue
                x = self.multiplier(sid)
                if self.rules.henki_scope == "round" and x > TOUCH_X:
                    # G8: x3/x4 multiply the player's drop total; the stick brings it even when
                    # cancelled (only the bloodstick touching it, in `multiplier`, takes it away)
                    round_x = max(round_x, x)
                    x = 1
                if self.alive(sid):
                    total += POSTURE_POINTS[self.layout[sid]["posture"]] * x
            points[owner] = total * round_x
        return points


def _stick_owners(owners: dict, extras: tuple) -> dict:
    if not isinstance(owners, dict) or not owners:
        raise DropError('"players" must map each player to a list of stick ids')
    owner_of: dict = {}
    for owner, ids in owners.items():
        if not isinstance(ids, list) or not all(isinstance(s, str) and s for s in ids):
            raise DropError(f"player {owner!r} needs a list of stick ids")
        for sid in ids:
            if sid in EXTRAS or sid in extras:
                raise DropError(f"player {owner!r} cannot own the stick id {sid!r}")
            if sid in owner_of:
                raise DropError(f"stick {sid!r} is listed twice")
            owner_of[sid] = owner
    return owner_of


def _checked_layout(sticks: dict, owner_of: dict, extras: tuple) -> dict:
    """Every stick's entry normalised, or DropError naming the first thing wrong."""
    if not isinstance(sticks, dict):
        raise DropError('"sticks" must be an object mapping stick ids to what the counter sees')
    known = set(owner_of) | set(extras)
    for sid in sticks:
        if sid not in known:
            raise DropError(f"unknown stick id {sid!r} in sticks")
    for sid in owner_of:
        if sid not in sticks:
            raise DropError(f"stick {sid!r} is missing from sticks")
    layout = {}
    for sid in [*owner_of, *extras]:
        layout[sid] = _checked_entry(sid, sticks.get(sid, {}), sid in owner_of, known)
    _refuse_on_cycles(layout)
    return layout


ENTRY_KEYS = ("posture", "off", "on", "touch")


def _checked_entry(sid: str, entry, player_stick: bool, known: set) -> dict:
    if not isinstance(entry, dict):
        raise DropError(f"stick {sid!r} must be an object")
    unknown = [k for k in entry if k not in ENTRY_KEYS]
    if unknown:  # a misspelt relation must not silently change the points
        raise DropError(
            f"stick {sid!r}: unknown key {unknown[0]!r} (one of {', '.join(ENTRY_KEYS)})"
        )
    off = entry.get("off", False)
    if not isinstance(off, bool):
        raise DropError(f'stick {sid!r}: "off" must be true or false')
    posture = entry.get("posture")
    if posture is not None and (not isinstance(posture, str) or posture not in POSTURE_POINTS):
        choices = ", ".join(POSTURE_POINTS)
        raise DropError(f"stick {sid!r}: unknown posture {posture!r} (one of {choices})")
    if player_stick and not off and posture is None:
        raise DropError(f"stick {sid!r} is on the surface but has no posture")
    relations = {}
    for key, verb in (("on", "lies on"), ("touch", "touches")):
        targets = entry.get(key, [])
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            raise DropError(f'stick {sid!r}: "{key}" must be a list of stick ids')
        for target in targets:
            if target == sid:
                raise DropError(f"stick {sid!r} {verb} itself")
            if target not in known:
                raise DropError(f"stick {sid!r} {verb} an unknown stick {target!r}")
        relations[key] = list(targets)
    return {"posture": posture, "off": off, **relations}


def _refuse_on_cycles(layout: dict) -> None:
    """Sticks cannot lie on each other in a ring (a on b on ... on a)."""
    done: set = set()
    for start in layout:
        if start in done:
            continue
        path, on_path = [], set()
        stack = [(start, iter(layout[start]["on"]))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, below = stack[-1]
            nxt = next(below, None)
            if nxt is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif nxt in on_path:
                ring = path[path.index(nxt) :] + [nxt]
                ring = " on ".join(repr(sid) for sid in ring)  # repr: one line whatever the ids
                raise DropError(f"sticks lie on each other in a cycle: {ring}")
            elif nxt not in done:
                stack.append((nxt, iter(layout[nxt]["on"])))
                path.append(nxt)
                on_path.add(nxt)


def score_drop_document(doc, rules: DropRules = DropRules()) -> dict:
    """The spec's output object for the spec's input object (DropError when malformed)."""
    if not isinstance(doc, dict):
        raise DropError("a drop must be a JSON object")
    for key in ("players", "dropper", "drop", "sticks"):
        if key not in doc:
            raise DropError(f'the drop has no "{key}"')
    owners = doc["players"]
    _stick_owners(owners, EXTRAS)
    dropper = doc["dropper"]
    if not isinstance(dropper, str) or dropper not in owners:
        raise DropError(f"the dropper {dropper!r} is not one of the players")
    drop = doc["drop"]
    if isinstance(drop, bool) or drop not in (1, 2) or not isinstance(drop, int):
        raise DropError(f'"drop" must be 1 or 2, not {drop!r}')
    result = score_layout(owners, doc["sticks"], careless=drop == 2, dropper=dropper, rules=rules)
    return {"redo": result.redo, "points": result.points}
