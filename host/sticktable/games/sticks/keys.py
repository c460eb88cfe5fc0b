"""Sticks typed at the keyboard: short commands for whoever's turn it is.

`draw stock`, `laydown 3C,3D,3H,5S,5C,JK`, `layoff 0 5H`, `discard 7H`: the words after the
command fill its fields in order, `KEY=VALUE` words name them (the long form, `draw
player=Bo from=stock`, still works), and the player is whose turn it is unless named. A
steal plays the wild at once: `steal MELD GIVE WILD meld CARDS` or `... layoff MELD CARDS`.
"""

from __future__ import annotations

from sticktable.engine import RuleError
from sticktable.keyvalue import parse_pairs, parse_value

# The fields each command's plain words fill, in order.
FIELDS = {
    "draw": ("from",),
    "laydown": ("cards",),
    "meld": ("cards",),
    "layoff": ("meld", "cards"),
    "steal": ("meld", "give", "wild"),
    "discard": ("card",),
    "done": (),
    "out": (),
    "stick": ("stick",),
    "seats": ("order", "dealer"),
    "deal": (),
}
TURN_EVENTS = ("draw", "laydown", "meld", "layoff", "steal", "discard", "done", "out", "stick")


def parse_key(line: str, turn_player: str | None) -> dict:
    """One typed line as a Sticks event (RuleError with the usage when it cannot be one)."""
    words = line.split()
    if not words:
        raise RuleError("type a command (`help` lists them)")
    kind, rest = words[0], words[1:]
    if kind not in FIELDS:
        raise RuleError(f"Sticks has no command {kind!r} (`help` lists them)")
    event: dict = {"type": kind}
    then = _then(rest) if kind == "steal" else None
    plain = [w for w in rest if "=" not in w]
    if len(plain) > len(FIELDS[kind]):
        raise RuleError(f"{kind} takes {_usage(kind)}")
    event.update({key: parse_value(w) for key, w in zip(FIELDS[kind], plain, strict=False)})
    try:
        event.update(parse_pairs([w for w in rest if "=" in w]))
    except ValueError as err:
        raise RuleError(str(err)) from None
    if kind == "laydown" and "/" in str(event.get("cards", "")):
        event["melds"] = event.pop("cards")  # "No Discard": melds=3D,4D,5D/8S,8C,8D
    if then is not None:
        event["then"] = then
    if kind in TURN_EVENTS and "player" not in event and turn_player is not None:
        event["player"] = turn_player
    return event


def _then(rest: list[str]) -> dict | None:
    """The meld or lay-off a steal plays its wild in (cut from `rest`)."""
    for index, word in enumerate(rest):
        if word in ("meld", "layoff"):
            then_words, rest[index:] = rest[index + 1 :], []
            fields = FIELDS[word]
            if len(then_words) != len(fields):
                raise RuleError("steal MELD GIVE WILD meld CARDS | ... layoff MELD CARDS")
            return {
                "type": word,
                **{k: parse_value(w) for k, w in zip(fields, then_words, strict=True)},
            }
    return None


def _usage(kind: str) -> str:
    return " ".join(f.upper() for f in FIELDS[kind]) or "no words"
