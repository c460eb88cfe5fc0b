"""The house's MQTT topics and payloads, version 1 (host/docs/formats/mqtt.md says the same).

Every topic starts with `sticktable/v1/tables/TABLE/`, TABLE being the name given with
`sticktable run --table`. Payloads are JSON objects; each carries `"v": 1`.

  status                 retained  online/offline (the offline one is the last will), the
                                   game in play, its players and house rules
  games/GAME/header      retained  the game's header, where it came from, finished or not
  games/GAME/events      QoS 1     one journaled rule event: {"index": N, "event": {...}}
  games/GAME/standings   retained  the standings after the first `events` events
  control/resend         to table  {"game": GAME, "from": N}: publish GAME again from event N

A parsed message is a `Message`; anything that is not one of these raises `Malformed` with a
reason, and the house counts and logs it instead of applying it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

VERSION = 1
ROOT = f"sticktable/v{VERSION}/tables"
# What the house subscribes to: every table's every topic.
ALL_TABLES = f"{ROOT}/+/#"

# A table name is one topic level: no wildcards, no separators, no control characters.
TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
KINDS = ("status", "header", "events", "standings", "resend")


class Malformed(ValueError):
    """A message on a house topic that does not follow this layout."""


@dataclass(frozen=True)
class Message:
    """One parsed house message: which table, which kind, which game (if any), its payload."""

    table: str
    kind: str
    game: int | None
    payload: dict


def check_table_name(name: str) -> str:
    if not TABLE_NAME.match(name):
        raise ValueError(
            f"table name {name!r} must be 1-64 letters, digits, '.', '_' or '-' "
            "(it is one MQTT topic level)"
        )
    return name


def status_topic(table: str) -> str:
    return f"{ROOT}/{table}/status"


def game_topic(table: str, game: int, kind: str) -> str:
    return f"{ROOT}/{table}/games/{game}/{kind}"


def resend_topic(table: str) -> str:
    return f"{ROOT}/{table}/control/resend"


def encode(payload: dict) -> bytes:
    return json.dumps({"v": VERSION, **payload}, separators=(",", ":")).encode()


def parse(topic: str, raw: bytes) -> Message:
    """The message on `topic`, checked against the layout; Malformed says what is wrong."""
    parts = topic.split("/")
    if parts[:3] != ROOT.split("/") or len(parts) < 5:
        raise Malformed(f"not a house topic: {topic}")
    table, rest = parts[3], parts[4:]
    if not TABLE_NAME.match(table):
        raise Malformed(f"bad table name in {topic}")
    game: int | None = None
    if rest == ["status"]:
        kind = "status"
    elif rest == ["control", "resend"]:
        kind = "resend"
    elif len(rest) == 3 and rest[0] == "games" and rest[2] in ("header", "events", "standings"):
        if not rest[1].isdigit():
            raise Malformed(f"bad game id in {topic}")
        game, kind = int(rest[1]), rest[2]
    else:
        raise Malformed(f"unknown topic {topic}")
    if not raw and kind in ("header", "standings"):
        # An empty retained message deletes a retained one: a broker-side clean-up, not data.
        return Message(table, kind, game, {})
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        raise Malformed(f"{topic}: payload is not JSON") from None
    if not isinstance(payload, dict) or payload.get("v") != VERSION:
        raise Malformed(f"{topic}: payload is not a version {VERSION} object")
    _check_fields(topic, kind, payload)
    return Message(table, kind, game, payload)


def _check_fields(topic: str, kind: str, payload: dict) -> None:
    def need(key: str, kind: type) -> None:
        value = payload.get(key)
        # JSON's true/false are Python ints too: an index must not be a boolean.
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise Malformed(f"{topic}: field {key!r} missing or of the wrong type")

    if kind == "status":
        need("online", bool)
    elif kind == "header":
        need("header", dict)
        need("source", str)
        need("finished", bool)
        if not isinstance(payload["header"].get("game"), str):
            raise Malformed(f"{topic}: the header names no game")
    elif kind == "events":
        need("index", int)
        need("event", dict)
        if payload["index"] < 0 or not isinstance(payload["event"].get("type"), str):
            raise Malformed(f"{topic}: an event needs an index >= 0 and a type")
    elif kind == "standings":
        need("events", int)
        need("standings", dict)
    elif kind == "resend":
        need("game", int)
        need("from", int)
