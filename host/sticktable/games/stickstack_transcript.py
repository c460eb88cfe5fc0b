"""Stick Stack transcripts (host/docs/formats/stick-stack-transcript.md): read, score, write.

A transcript line maps one to one onto a rule event; the rules (stickstack.py) decide
legality, so a transcript is refused exactly where the live game would refuse the event.
One project extension: `{"touch": true}` (a foul, ruling 5). It is only written when the
header's `foul_penalty` makes it count, so default games export strictly to the spec.
"""

from __future__ import annotations

import json

from sticktable.engine.core import Event, Game, RuleError, effective_log
from sticktable.games.stickstack import RULES, validate_header
from sticktable.jsonlines import json_lines, refusal

# Lines that are one key set to true, named like the rule event they stand for.
_FLAGS = ("placed", "unplaceable", "topple", "touch")


def _event(line: dict) -> Event:
    """The rule event a transcript line stands for; ValueError saying why it is not one."""
    keys = set(line)
    if keys == {"turn", "take"}:
        if not isinstance(line["turn"], str):
            raise ValueError(f'"turn" must be a player\'s name, not {line["turn"]!r}')
        if line["take"] not in ("bag", "front"):
            raise ValueError(f'"take" must be "bag" or "front", not {line["take"]!r}')
        return {"type": "take", "player": line["turn"], "from": line["take"]}
    if keys == {"fell"}:
        count = line["fell"]
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError(f'"fell" must be a whole number of at least 1, not {count!r}')
        return {"type": "fell", "count": count}
    if len(keys) == 1 and (key := next(iter(keys))) in _FLAGS:
        if line[key] is not True:
            raise ValueError(f'"{key}" must be true, not {line[key]!r}')
        return {"type": key}
    raise ValueError(f"not a transcript line: {json.dumps(line)}")


class _Standings:
    """A game folded without its log (`read_game(..., keep_log=False)`): what `score` needs,
    in memory that does not grow with the transcript. No copy of the state per event: an
    illegal event ends the reading anyway."""

    def __init__(self, header: dict):
        self.header = dict(header)
        self.state = RULES.initial(self.header)
        RULES.check(self.state)

    def apply(self, event: Event) -> None:
        self.state = RULES.apply(self.state, event)
        RULES.check(self.state)


def read_game(lines, keep_log: bool = True) -> Game:
    """The game a transcript records; InputRefused("line N: ...") for anything the spec refuses.
    `lines` may be any iterable (a file read as it goes); keep_log=False folds the events
    without keeping them, enough for `result()`."""
    game = None
    for number, line in json_lines(lines):
        if not isinstance(line, dict):
            raise refusal(number, "not a JSON object")
        if game is None:
            if "game" not in line:
                raise refusal(number, 'missing header: the first line must be {"game": ...}')
            try:
                validate_header(line)
                game = Game(line) if keep_log else _Standings(line)
            except RuleError as err:
                raise refusal(number, f"bad header: {err}") from None
            continue
        try:
            game.apply(_event(line))
        except (ValueError, RuleError) as err:
            raise refusal(number, str(err)) from None
    if game is None:
        raise refusal(1, "missing header: the transcript has no header line")
    return game


def parse(lines) -> tuple[dict, list[Event]]:
    """(header, events) of a transcript; InputRefused("line N: ...") if the spec refuses it."""
    game = read_game(lines)
    return game.header, game.events


def result(game: Game) -> dict:
    """The spec's output object. The end of the transcript closes a round that cannot go on."""
    return RULES.summary(game.state)


def _line(event: Event, header: dict) -> dict | None:
    kind = event["type"]
    if kind == "take":
        return {"turn": event["player"], "take": event["from"]}
    if kind == "fell":
        return {"fell": event["count"]}
    if kind == "touch" and not header.get("foul_penalty"):
        return None  # a foul that costs nothing changes no score: keep the export spec-pure
    if kind in _FLAGS:
        return {kind: True}
    return None  # end_round: round ends are not written


def to_lines(header: dict, events: list[Event]) -> list[str]:
    """The effective log (corrections applied, metadata dropped) as transcript lines."""
    lines = [json.dumps(header)]
    for event in effective_log(events):
        line = _line(event, header)
        if line is not None:
            lines.append(json.dumps(line))
    return lines
