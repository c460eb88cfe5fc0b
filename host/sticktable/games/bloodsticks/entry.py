"""Typed Bloodsticks entry: one short command per line -> one rule event (keyboard play).

A JSON object is taken as the event itself. Names are players; points are NAME=N words.
"""

from __future__ import annotations

import json

from sticktable.engine.core import RuleError

ENTRY_HELP = """\
commands (one per line; or a rule event as JSON):
  first NAME                 the host names the first dropper
  ban OWNER NAME=ban|keep..  the stick-ban vote on OWNER's set (before the first drop)
  collect                    the sticks are gathered: the round starts
  pick NAME                  house games: the house picks this round's counter
  bet N                      the dropper bets N
  match NAME | fall NAME     NAME matches the bet | falls out
  drop high|low|bounce|flip  the drop is made, in that style
  layout {JSON}              the counter's layout: the "sticks" object of a drop
                             (host/docs/formats/bloodsticks-drop.md)
  confirm                    the counter accepts the proposed points
  override NAME=N... [why]   the counter's own points replace the proposal
  totals NAME=N...           totals entry: each player's points
  redo                       totals entry: a player's stick left the surface, drop again
  side BETTOR KIND GUESS STAKE [ROUND]   a secondary-pot bet (house games)"""


def _points(words: list[str]) -> tuple[dict, list[str]]:
    """NAME=N words -> points; the other words are returned (an override's reason)."""
    points, rest = {}, []
    for word in words:
        name, sep, value = word.rpartition("=")
        if sep and name and value.lstrip("-").isdigit():
            points[name] = int(value)
        else:
            rest.append(word)
    return points, rest


def _int(word: str, what: str) -> int:
    if not word.lstrip("-").isdigit():
        raise RuleError(f"{what} must be a whole number, not {word!r}")
    return int(word)


def parse_entry(line: str) -> dict:
    """The event a typed line means (RuleError when it means nothing)."""
    text = line.strip()
    if text.startswith("{"):
        try:
            event = json.loads(text)
        except ValueError as err:
            raise RuleError(f"not a JSON event: {err}") from None
        if not isinstance(event, dict):
            raise RuleError("a JSON event must be an object")
        return event
    words = text.split()
    if not words:
        raise RuleError("empty command")
    verb, args = words[0], words[1:]

    def need(count: int, usage: str) -> None:
        if len(args) < count:
            raise RuleError(f"usage: {usage}")

    if verb in ("collect", "confirm", "redo"):
        return {"type": verb}
    if verb in ("first", "pick", "match", "fall"):
        need(1, f"{verb} NAME")
        kind = {"first": "first_dropper", "pick": "pick_counter", "fall": "fall_out"}
        return {"type": kind.get(verb, verb), "player": args[0]}
    if verb == "bet":
        need(1, "bet N")
        return {"type": "bet", "amount": _int(args[0], "a bet")}
    if verb == "drop":
        need(1, "drop high|low|bounce|flip")
        return {"type": "drop", "style": args[0]}
    if verb == "layout":
        need(1, "layout {JSON}")
        try:
            sticks = json.loads(text.split(None, 1)[1])
        except ValueError as err:
            raise RuleError(f"the layout is not JSON: {err}") from None
        if isinstance(sticks, dict) and isinstance(sticks.get("sticks"), dict):
            sticks = sticks["sticks"]  # a whole drop document
        return {"type": "layout", "sticks": sticks}
    if verb in ("totals", "override"):
        points, rest = _points(args)
        event = {"type": verb, "points": points}
        if verb == "override":
            event["why"] = " ".join(rest)
        elif rest:
            raise RuleError(f"expected NAME=N, got {rest[0]!r}")
        return event
    if verb == "ban":
        need(2, "ban OWNER NAME=ban|keep ...")
        votes = dict(word.rpartition("=")[::2] for word in args[1:])
        return {"type": "ban_vote", "owner": args[0], "votes": votes}
    if verb == "side":
        need(4, "side BETTOR KIND GUESS STAKE [ROUND]")
        event = {
            "type": "side_bet",
            "bettor": args[0],
            "kind": args[1],
            "guess": _int(args[2], "a guess"),
            "stake": _int(args[3], "a stake"),
        }
        if len(args) > 4:
            event["round"] = _int(args[4], "a round")
        return event
    raise RuleError(f"unknown command {verb!r} (type `help`)")
