"""A Bloodsticks header -> the complete settings of one game (variants and house rules).

Header: {"game": "bloodsticks", "players": [names in seat order, clockwise], "variant": ...,
<house rules>}. Every house rule is named here with its default; a key that is not (a typo)
is refused rather than silently ignored, because these settings move money.
"""

from __future__ import annotations

from sticktable.engine.core import RuleError

from .drop import EXTRAS, HENKI_SCOPES

NAME = "bloodsticks"
VARIANTS = ("standard", "challenge", "house")
RESERVED_PREFIX = "@"  # ledger accounts of the table ("@pot", "@side", "@house")

# variant -> (min players, max players, sticks each, rounds (None: one per player))
SHAPE = {
    "standard": (3, 6, 2, None),
    "challenge": (2, 2, 5, 4),
    "house": (2, 10, 2, 3),  # ruling G5: 2-10 players
}
# The challenge has no cap unless the header sets one (bloodsticks-game.md).
NO_CAP_BY_DEFAULT = ("challenge",)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _flag(value):
    """Booleans also arrive as typed words or 0/1 from `--house key=value`."""
    words = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}
    if isinstance(value, bool):
        return value
    if _is_int(value) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in words:
        return words[value.lower()]
    return None


def _int_at_least(low):
    return lambda v: v if _is_int(v) and v >= low else None


def _choice(*options):
    return lambda v: v if v in options else None


# name -> (default, parse (None when invalid), what a valid value is, variants it applies to)
HOUSE_RULES = {
    "cap": (5, _int_at_least(1), "a whole number of at least 1 or null", ("standard", "challenge")),
    "min_bet": (1, _int_at_least(1), "a whole number of at least 1", ("standard", "challenge")),
    "henki_scope": ("stick", _choice(*HENKI_SCOPES), '"stick" or "round"', VARIANTS),
    "dead_sticks_cancel": (True, _flag, "yes or no", VARIANTS),
    "max_tiebreaks": (10, _int_at_least(0), "a whole number of at least 0", VARIANTS),
    "house_cut_pct": (
        0,
        lambda v: v if _is_int(v) and 0 <= v <= 100 else None,
        "0 to 100",
        VARIANTS,
    ),
    # "any": each drop as a layout or as totals (game records, bloodsticks-game.md)
    "entry": (
        "layout",
        _choice("layout", "totals", "any"),
        '"layout", "totals" or "any"',
        VARIANTS,
    ),
    "first_dropper": (
        "drop",
        _choice("drop", "host"),
        '"drop" or "host"',
        ("standard", "challenge"),
    ),
    "counter": (
        "neutral",
        lambda v: v if isinstance(v, str) and v else None,
        "a name",
        ("challenge",),
    ),
    "stake": (1, _int_at_least(1), "a whole number of at least 1", ("house",)),
    "side_pots": (False, _flag, "yes or no", ("house",)),
    "house_score": ("sum", _choice("sum", "highest"), '"sum" or "highest"', ("house",)),
}


# What each house rule changes (the setup screen shows it with its default).
NOTES = {
    "variant": "standard (3-6 players), challenge (2, with a neutral counter) or house "
    "(2-10, the house drops)",
    "cap": "the largest bet (null: no cap)",
    "min_bet": "the smallest bet",
    "henki_scope": "x3/x4 multiply the stick (stick) or the player's whole drop (round)",
    "dead_sticks_cancel": "a stick scoring 0 still cancels the one below it",
    "max_tiebreaks": "tie-break drops before the pot is split",
    "house_cut_pct": "the house's share of the pot, in percent",
    "entry": "how drops are entered: the layout (the table scores it), the counted totals, "
    "or either",
    "first_dropper": "who drops first: decided by a drop, or the host",
    "counter": "the challenge's neutral counter",
    "stake": "the fixed stake of a house game",
    "side_pots": "house games: side pots on high/low drop and score",
    "house_score": "a drop's house score: the sum of its points, or the highest",
}


def house_rules():
    from sticktable.engine import HouseRule

    rules = [HouseRule("variant", VARIANTS[0], " or ".join(VARIANTS), NOTES["variant"])]
    for key, (default, _parse, what, variants) in HOUSE_RULES.items():
        where = "" if variants == VARIANTS else f" ({', '.join(variants)} only)"
        rules.append(HouseRule(key, default, what, NOTES[key] + where))
    return tuple(rules)


def settings_from_header(header: dict) -> tuple[list[str], dict]:
    """The players and settings of a header, or RuleError saying what is wrong."""
    if not isinstance(header, dict):
        raise RuleError("the header must be a JSON object")
    if header.get("game") != NAME:
        raise RuleError(f'not a Bloodsticks header: "game" is {header.get("game")!r}')
    unknown = sorted(set(header) - {"game", "players", "variant", "sticks"} - set(HOUSE_RULES))
    if unknown:
        known = ", ".join(sorted(HOUSE_RULES))
        raise RuleError(
            f"unknown header key {unknown[0]!r} (known: players, variant, sticks, {known})"
        )
    variant = header.get("variant", "standard")
    if variant not in VARIANTS:
        raise RuleError(f'"variant" must be one of {", ".join(VARIANTS)}, not {variant!r}')
    players = _players(header.get("players"), variant)
    settings: dict = {"variant": variant}
    for key, (default, parse, what, variants) in HOUSE_RULES.items():
        if variant not in variants:
            if key in header:
                raise RuleError(f'"{key}" does not apply to a {variant} game')
            continue
        if key == "cap" and variant in NO_CAP_BY_DEFAULT:
            default = None
        if key == "cap" and header.get(key, default) is None:
            settings[key] = None  # null: no cap
            continue
        value = parse(header.get(key, default))
        if value is None:
            raise RuleError(f'"{key}" must be {what}, not {header.get(key)!r}')
        settings[key] = value
    cap = settings.get("cap")
    if cap is not None and settings["min_bet"] > cap:
        raise RuleError(f"the minimum bet {settings['min_bet']} is above the cap {settings['cap']}")
    if variant == "challenge" and settings["counter"] in players:
        raise RuleError("the challenge's counter must be a neutral third party, not a player")
    if "house_score" in header and not settings.get("side_pots"):
        raise RuleError('"house_score" only applies with side_pots')
    low, high, sticks, rounds = SHAPE[variant]
    settings["cap"] = cap  # None: no cap; house games have a fixed stake instead
    settings["sticks_each"] = sticks
    settings["sticks"] = _sticks(header.get("sticks"), players, sticks)
    settings["rounds"] = rounds if rounds is not None else len(players)
    return players, settings


def _players(players, variant: str) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise RuleError('"players" must be a list of names (non-empty strings)')
    if len(set(players)) != len(players):
        raise RuleError("two players have the same name")
    if any(p.startswith(RESERVED_PREFIX) for p in players):
        raise RuleError(f"player names cannot start with {RESERVED_PREFIX!r}")
    low, high = SHAPE[variant][:2]
    if not low <= len(players) <= high:
        if variant == "standard" and len(players) == 2:
            raise RuleError(
                'two players play a challenge: variant "challenge" '
                "(sticktable run: --house variant=challenge)"
            )
        raise RuleError(f"a {variant} game needs {low} to {high} players, not {len(players)}")
    return list(players)


def stick_ids(player: str, count: int) -> list[str]:
    """A player's stick ids in layouts: "Ann-1", "Ann-2", ... (unique for unique names)."""
    return [f"{player}-{k}" for k in range(1, count + 1)]


def _sticks(sticks, players: list[str], count: int) -> dict:
    """Each player's stick ids: the header's "sticks" (a game record may name them), else
    `stick_ids`. Ids are distinct and never the bloodstick's or the henki's."""
    if sticks is None:
        return {p: stick_ids(p, count) for p in players}
    if not isinstance(sticks, dict) or set(sticks) != set(players):
        raise RuleError('"sticks" must map every player, and only them, to their stick ids')
    seen: set = set()
    for player in players:
        ids = sticks[player]
        if not isinstance(ids, list) or len(ids) != count:
            raise RuleError(f'"sticks": {player} needs a list of {count} stick ids')
        for sid in ids:
            if not isinstance(sid, str) or not sid or sid in EXTRAS or sid in seen:
                raise RuleError(f'"sticks": {sid!r} cannot be a stick id (used twice or reserved)')
            seen.add(sid)
    return {p: list(sticks[p]) for p in players}
