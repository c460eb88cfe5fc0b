"""The two presets as named settings (host/docs/rulings-sticks.md): every difference between
the seed texts is one key here, and a game header may override any of them (house rules)."""

from __future__ import annotations

from .stick_lists import stick_list

PRESETS: dict[str, dict] = {
    "classic": {
        "hand_size": 15,
        "decks": "by_players",  # 4 decks up to 5 players, 6 for 6 or 7 (ruling 1)
        "min_players": 2,
        "max_players": 7,
        "natural_per_meld": False,
        "discard_limit": "always",  # never discard a card that could extend a table meld
        "tries": 0,  # 0: keep an unfinished stick for ever
        "win": "end_of_deal",
        "steal_wilds": False,
        "flipped_wild": "stays",
        "max_turns": 300,  # cap on one deal's length: then it ends with nobody out
    },
    "tries": {
        "hand_size": 14,
        "decks": 4,
        "min_players": 2,
        "max_players": 6,
        "natural_per_meld": True,
        "discard_limit": "until_down",  # the limit binds only a player who has not laid down
        "tries": 3,
        "win": "at_once",
        "steal_wilds": True,
        "flipped_wild": "starter_takes",  # a flipped 2/joker goes to the first player's hand
        "max_turns": 300,
    },
}
MODES = ("digital", "referee")
FLAGS = {True: True, False: False, "yes": True, "no": False, "true": True, "false": False}


def _count(low: int):
    return lambda v: v if isinstance(v, int) and not isinstance(v, bool) and v >= low else None


def _flag(value):
    return FLAGS.get(value) if isinstance(value, bool | int | str) else None


def _choice(*options):
    return lambda v: v if isinstance(v, str) and v in options else None


# Every setting a header may override: its parser (None: not a valid value) and, for the
# refusal, what a valid value is. Typed values (`--house key=value`) arrive as words or ints.
HOUSE = {
    "hand_size": (_count(1), "a whole number of at least 1"),
    "decks": (lambda v: _choice("by_players")(v) or _count(1)(v), '"by_players" or at least 1'),
    "min_players": (_count(2), "a whole number of at least 2"),
    "max_players": (_count(2), "a whole number of at least 2"),
    "natural_per_meld": (_flag, "yes or no"),
    "discard_limit": (_choice("always", "until_down"), '"always" or "until_down"'),
    "tries": (_count(0), "a whole number of at least 0 (0: keep the stick)"),
    "win": (_choice("end_of_deal", "at_once"), '"end_of_deal" or "at_once"'),
    "steal_wilds": (_flag, "yes or no"),
    "flipped_wild": (_choice("stays", "starter_takes"), '"stays" or "starter_takes"'),
    "max_turns": (_count(1), "a whole number of at least 1"),
}


# What each setting changes (the setup screen shows it; the default is the preset's).
NOTES = {
    "preset": 'the rules: "classic" or "tries" (a preset sets every key below)',
    "mode": "digital: the engine deals and players play from their phones; referee: real cards, "
    "the table checks what is laid down",
    "hand_size": "cards dealt to each player",
    "decks": "54-card decks shuffled together",
    "min_players": "fewest players",
    "max_players": "most players",
    "natural_per_meld": "every meld needs a natural (not wild) card",
    "discard_limit": "when a card that could extend a meld on the table may not be discarded",
    "tries": "tries at a stick before it is given up (0: keep it)",
    "win": "the game ends at the end of the deal, or as soon as someone completes their sticks",
    "steal_wilds": "a wild on the table may be taken for its natural card",
    "flipped_wild": "a 2 or joker turned up at the start stays on the pile or goes to the starter",
    "max_turns": "a deal ends with nobody out after this many turns",
}


def house_rules():
    """The setup screen's list: preset and mode, then every key a header may override, with
    the classic preset's defaults."""
    from sticktable.engine import HouseRule

    rules = [
        HouseRule("preset", "classic", '"classic" or "tries"', NOTES["preset"]),
        HouseRule("mode", MODES[0], '"digital" or "referee"', NOTES["mode"]),
    ]
    rules += [
        HouseRule(key, PRESETS["classic"][key], what, NOTES[key])
        for key, (_parse, what) in HOUSE.items()
    ]
    return tuple(rules)


class SettingsError(ValueError):
    pass


def resolve(header: dict) -> dict:
    """Preset defaults overridden by the header's house rules, checked: a bad value or an
    unknown key (a typo) is refused here rather than misbehaving in the middle of a game."""
    preset = header.get("preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise SettingsError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    unknown = sorted(set(header) - {"game", "players", "preset", "mode", *HOUSE})
    if unknown:
        known = ", ".join(["players", "preset", "mode", *HOUSE])
        raise SettingsError(f"unknown header key {unknown[0]!r} (known: {known})")
    settings = dict(PRESETS[preset], preset=preset, mode=header.get("mode", "digital"))
    for key, (parse, what) in HOUSE.items():
        if key in header:
            settings[key] = parse(header[key])
            if settings[key] is None:
                raise SettingsError(f'"{key}" must be {what}, not {header[key]!r}')
    if settings["mode"] not in MODES:
        raise SettingsError(f"unknown mode {settings['mode']!r} (digital or referee)")
    players = header.get("players")
    if (
        not isinstance(players, list)
        or len(set(players)) != len(players)
        or not all(isinstance(p, str) and p for p in players)
    ):
        raise SettingsError("players must be a list of distinct names")
    if not settings["min_players"] <= len(players) <= settings["max_players"]:
        raise SettingsError(
            f"{preset!r} is for {settings['min_players']} to "
            f"{settings['max_players']} players, not {len(players)}"
        )
    if settings["decks"] == "by_players":
        settings["decks"] = 4 if len(players) <= 5 else 6
    if settings["decks"] * 54 < len(players) * settings["hand_size"] + 2:
        raise SettingsError("not enough cards for that many players and that hand size")
    stick_list(preset)
    return settings
