"""Bloodsticks game records (host/docs/formats/bloodsticks-game.md): read, score, write.

A record line stands for one to three rule events (a `dropper` line is the round's collect and
bet, a `counter` line the house's collect and pick, a drop line its throw and its count), and
the one rule set decides what is legal: a record is refused exactly where the game would refuse
the event. The format's own checks (line kinds, keys, types, whose turn a name may be) are
here; rulings G1-G8 of the format live in the rule set.
"""

from __future__ import annotations

import json

from sticktable.engine.core import Event, Game, RuleError, effective_log
from sticktable.jsonlines import json_lines, refusal

from . import sidebets
from .drop import EXTRAS
from .flow import STYLES
from .settings import NAME, VARIANTS

# Header keys of the format: the house rules, and the variants each applies to.
HEADER_RULES = {
    "cap": ("standard", "challenge"),
    "stake": ("house",),
    "max_tiebreaks": VARIANTS,
    "house_cut_pct": VARIANTS,
    "dead_sticks_cancel": VARIANTS,
    "henki_scope": VARIANTS,
    "house_score": ("house",),
}
HEADER_KEYS = ("game", "players", "variant", "sticks", *HEADER_RULES)

# Line kind -> its keys (the kind's own key first); "style" may be added to a drop line.
LINES = {
    "first": ("first",),
    "opening": ("opening",),
    "dropper": ("dropper", "bet"),
    "match": ("match",),
    "fall_out": ("fall_out",),
    "counter": ("counter",),
    "sticks": ("sticks",),
    "points": ("points",),
    "override": ("override",),
    "side_bet": ("side_bet", "by", "guess", "stake"),
}
DROPS = ("sticks", "points")
HOUSE_ONLY, NOT_HOUSE = (
    ("counter", "side_bet"),
    ("first", "opening", "dropper", "match", "fall_out"),
)
HOUSE = "house"  # the dropper of a house game's drops, in the result


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def default_sticks(players: list[str], count: int) -> dict:
    """The format's stick ids when the header names none: "Ann1", "Ann2", ..."""
    return {p: [f"{p}{k}" for k in range(1, count + 1)] for p in players}


# --- reading ---------------------------------------------------------------------------------


def rule_header(header: dict) -> dict:
    """The rule set's header for a record header (ValueError/RuleError saying what is wrong):
    the format's keys, the stick ids made explicit, and a table that takes each drop as a layout
    or as totals. Whether the first dropper is chosen or drawn is settled by the first line."""
    unknown = [k for k in header if k not in HEADER_KEYS]
    if unknown:
        raise ValueError(f"unknown header key {unknown[0]!r}")
    if not isinstance(header.get("players"), list):
        raise ValueError('"players" must be a list of names')
    variant = header.get("variant", "standard")
    if variant not in VARIANTS:
        raise ValueError(f'"variant" must be one of {", ".join(VARIANTS)}, not {variant!r}')
    for key, variants in HEADER_RULES.items():
        if key in header and variant not in variants:
            raise ValueError(f'"{key}" does not apply to a {variant} game')
    if "dead_sticks_cancel" in header and not isinstance(header["dead_sticks_cancel"], bool):
        raise ValueError('"dead_sticks_cancel" must be true or false')
    rules = {k: v for k, v in header.items() if k != "sticks"}
    rules["entry"] = "any"
    if variant == "house":
        rules["side_pots"] = True
    else:
        rules["first_dropper"] = "host"
    count = 5 if variant == "challenge" else 2
    players = header["players"]
    names_ok = all(isinstance(p, str) for p in players) and len(set(players)) == len(players)
    sticks = header.get("sticks", default_sticks(players, count) if names_ok else None)
    Game({**rules, "sticks": sticks})  # the rule set checks players, house rules, stick ids
    return {**rules, "sticks": sticks}


class Reader:
    """Reads a record line by line into a game; `refused` raises InputRefused("line N: ...")."""

    def __init__(self):
        self.header: dict | None = None
        self.game: Game | None = None
        self.side_lines: list[int] = []

    def feed(self, number: int, line) -> None:
        if not isinstance(line, dict):
            raise refusal(number, "not a JSON object")
        try:
            if self.header is None:
                self._header(line)
            else:
                self._line(number, line)
        except (ValueError, RuleError) as err:
            raise refusal(number, str(err)) from None

    def close(self, number: int) -> Game:
        """The game at the end of the record: a layout not overridden stands."""
        if self.header is None:  # the header was due on the first line
            raise refusal(1, 'missing header: the first line must be {"game": "bloodsticks"}')
        game = self._started(None)
        if game.state["phase"] == "confirm":
            game.apply({"type": "confirm"})
        return game

    def _header(self, line: dict) -> None:
        if "game" not in line:
            raise ValueError('missing header: the first line must be {"game": "bloodsticks", ...}')
        if line["game"] != NAME:
            raise ValueError(f'bad header: not a Bloodsticks record ("game": {line["game"]!r})')
        try:
            self.header = rule_header(line)
        except (ValueError, RuleError) as err:
            raise ValueError(f"bad header: {err}") from None

    def _started(self, kind: str | None) -> Game:
        """The game, created at its first line: an `opening` line means the first dropper is
        drawn, else chosen (`first`) or the first player listed (G2)."""
        if self.game is None:
            header = dict(self.header)
            if kind == "opening":
                header["first_dropper"] = "drop"
            self.game = Game(header)
            state = self.game.state
            if state["phase"] == "setup" and kind not in ("first", None):
                self.game.apply({"type": "first_dropper", "player": state["players"][0]})
        return self.game

    def _line(self, number: int, line: dict) -> None:
        kind = _kind(line)
        game = self._started(kind)
        state = game.state
        if state["phase"] == "confirm" and kind != "override":
            game.apply({"type": "confirm"})  # the layout above stands
            state = game.state
        if state["over"]:
            raise ValueError("the game is over: nothing may follow its end")
        house = state["settings"]["variant"] == "house"
        if house and kind in NOT_HOUSE:
            raise ValueError(f"a house game has no {kind!r} lines (the house drops)")
        if not house and kind in HOUSE_ONLY:
            raise ValueError(f"{kind!r} lines are for house games")
        for event in _events(kind, line, state):
            game.apply(event)
        if kind == "side_bet":
            self.side_lines.append(number)


def _kind(line: dict) -> str:
    """The line's kind, its keys and their types checked (ValueError saying what is wrong)."""
    kinds = [k for k in LINES if k in line]
    if not kinds:
        raise ValueError(f"not a record line: {_short(line)}")
    if len(kinds) > 1:
        raise ValueError(f"one line is one thing, not {kinds[0]!r} and {kinds[1]!r}")
    kind = kinds[0]
    allowed = set(LINES[kind]) | ({"style"} if kind in DROPS else set())
    extra = [k for k in line if k not in allowed]
    if extra:
        raise ValueError(f"a {kind!r} line has no key {extra[0]!r}")
    missing = [k for k in LINES[kind] if k not in line]
    if missing:
        raise ValueError(f"a {kind!r} line needs {missing[0]!r}")
    for key in LINES[kind]:
        _check_value(kind, key, line[key])
    if "style" in line and line["style"] not in STYLES:
        raise ValueError(f'"style" is one of {", ".join(STYLES)}, not {line["style"]!r}')
    return kind


def _check_value(kind: str, key: str, value) -> None:
    if key in ("first", "dropper", "match", "fall_out", "counter", "by"):
        if not isinstance(value, str) or not value:
            raise ValueError(f'"{key}" must be a name, not {value!r}')
    elif key in ("bet", "stake"):
        if not _is_int(value) or value < 1:
            raise ValueError(f'"{key}" must be a whole number of at least 1, not {value!r}')
    elif key == "guess":
        if not _is_int(value):
            raise ValueError(f'"guess" must be a whole number, not {value!r}')
    elif key in ("opening", "points", "override"):
        if not isinstance(value, dict) or not value:
            raise ValueError(f'"{key}" must map players to points')
        for name, points in value.items():
            if not _is_int(points):
                raise ValueError(f'"{key}": {name}\'s points must be a whole number')
    elif key == "sticks" and not isinstance(value, dict):
        raise ValueError('"sticks" must map stick ids to what the counter sees')
    elif key == "side_bet" and value not in sidebets.KINDS:
        raise ValueError(f'"side_bet" is one of {", ".join(sidebets.KINDS)}, not {value!r}')


def _short(line: dict) -> str:
    text = json.dumps(line)
    return text if len(text) <= 60 else text[:57] + "..."


def _player(state: dict, name: str) -> str:
    if name not in state["players"]:
        raise ValueError(f"unknown player {name!r}")
    if name in state["fell_out"]:
        raise ValueError(f"{name} has fallen out")
    return name


def _events(kind: str, line: dict, state: dict) -> list[Event]:
    """The rule events a (checked) line stands for in `state`."""
    if kind == "first":
        if state["phase"] != "setup":
            raise ValueError("the first dropper is chosen before round 1 (and once)")
        return [{"type": "first_dropper", "player": _player(state, line["first"])}]
    if kind == "opening":
        if state["stage"] != "opening" or state["phase"] != "drop":
            raise ValueError("no opening drop is due")
        return [{"type": "drop"}, {"type": "totals", "points": line["opening"]}]
    if kind == "dropper":
        player = _player(state, line["dropper"])
        if state["phase"] != "collect":
            raise ValueError(f"no round starts now: {_due(state)} is due")
        if player != state["dropper"]:
            raise ValueError(f"it is {state['dropper']}'s turn to drop, not {player}'s")
        return [{"type": "collect"}, {"type": "bet", "player": player, "amount": line["bet"]}]
    if kind in ("match", "fall_out"):
        player = _player(state, line[kind])
        if state["phase"] != "answer":
            raise ValueError(f"no bet is waiting for an answer: {_due(state)} is due")
        return [{"type": kind, "player": player}]
    if kind == "counter":
        player = line["counter"]
        if player not in state["players"]:
            raise ValueError(f"unknown player {player!r}")
        if state["phase"] != "collect":
            raise ValueError(f"no round starts now: {_due(state)} is due")
        return [{"type": "collect"}, {"type": "pick_counter", "player": player}]
    if kind in DROPS:
        if state["stage"] == "opening":
            raise ValueError('the opening drop is written as an "opening" line')
        if state["phase"] != "drop":
            raise ValueError(f"no drop is due: {_due(state)} is due")
        if kind == "sticks":
            missing = [x for x in EXTRAS if x not in line["sticks"]]
            if missing:  # the table may leave them out; a record lists them (lying free: {})
                raise ValueError(f"stick {missing[0]!r} is missing from sticks")
            count = {"type": "layout", "sticks": line["sticks"]}
        else:
            count = {"type": "totals", "points": line["points"]}
        return [{"type": "drop", "style": line.get("style")}, count]
    if kind == "override":
        if state["phase"] != "confirm":
            raise ValueError("an override comes right after a layout drop that counts")
        outside = [p for p in line["override"] if p not in state["proposal"]]
        if outside:
            raise ValueError(f"{outside[0]!r} is not in the drop above")
        return [{"type": "override", "points": {**state["proposal"], **line["override"]}}]
    return [
        {
            "type": "side_bet",
            "bettor": line["by"],
            "kind": line["side_bet"],
            "guess": line["guess"],
            "stake": line["stake"],
        }
    ]


def _due(state: dict) -> str:
    """What the game waits for, in a refusal's words."""
    phase = state["phase"]
    if phase == "answer":
        return f"{state['pending'][0]}'s answer to the bet"
    if phase == "drop":
        return f"the {state['stage']} drop"
    if phase == "collect":
        if state["settings"]["variant"] == "house":
            return f"round {state['round']} (a counter line)"
        return f"round {state['round']} ({state['dropper']}'s dropper line)"
    return "the first dropper"


def read_record(lines) -> tuple[Game, list[int]]:
    """The game a record holds and the line of each side bet; InputRefused("line N: ...") for
    anything the format refuses. `lines`: str or bytes lines without their line breaks."""
    reader = Reader()
    number = 1
    for number, line in json_lines(lines):
        reader.feed(number, line)
    try:
        return reader.close(number), reader.side_lines
    except RuleError as err:
        raise refusal(number, str(err)) from None


# --- the result ------------------------------------------------------------------------------


def result(state: dict, side_lines: list[int]) -> dict:
    """The format's output object for a game's state (`side_lines`: each side bet's line)."""
    players, stakes = state["players"], state["stakes"]
    house = state["settings"]["variant"] == "house"
    pot = sum(stakes.values())
    cut = pot * state["settings"]["house_cut_pct"] // 100 if state["over"] else 0
    return {
        "finished": state["over"],
        "variant": state["settings"]["variant"],
        "first_dropper": _first_dropper(state),
        "rounds": _rounds(state, house),
        "tiebreaks": [
            {"dropper": HOUSE if house else r["dropper"], **_drop_facts(r)}
            for r in state["tiebreaks"]
        ],
        "totals": dict(state["totals"]),
        "active": list(state["active"]),
        "pot": pot,
        "cut": cut,
        "winners": list(state["winners"]),
        "net": {p: state["payouts"].get(p, 0) - stakes[p] for p in players},
        **_side_bets(state, side_lines),
    }


def _first_dropper(state: dict) -> str | None:
    if state["rounds"]:
        return state["rounds"][0]["dropper"]
    return state["dropper"] if state["round"] == 1 else None


def _drop_facts(record: dict) -> dict:
    layout = record["layout"] or {}
    return {
        "redo": record["redos"] > 0,
        "careless": record["careless"] and any(e.get("off") for e in layout.values()),
        "override": record["override"] is not None,
        "points": dict(record["points"]),
    }


def _rounds(state: dict, house: bool) -> list[dict]:
    rounds, before = [], list(state["players"])
    challenge = state["settings"]["variant"] == "challenge"
    for record in state["rounds"]:
        fell = [p for p in state["fell_out"] if p in before and p not in record["points"]]
        before = list(record["points"])
        rounds.append(
            {
                "round": record["round"],
                "dropper": HOUSE if house else record["dropper"],
                "counter": None if challenge else record["counter"],  # a neutral third party
                "bet": record["bet"],
                "fell_out": fell,
                **_drop_facts(record),
            }
        )
    return rounds


def _side_bets(state: dict, side_lines: list[int]) -> dict:
    """Each side bet settled once its drop counted (drop bets) or the game ended (score bets)."""
    how = state["settings"].get("house_score", "sum")
    drops = state["rounds"] + state["tiebreaks"]
    scores = {n: sidebets.house_score(r["points"], how) for n, r in enumerate(drops, 1)}
    finals = list(state["totals"].values())
    bets, net = [], {}
    for line, bet in zip(side_lines, state["side_bets"], strict=True):
        open_ = bet["kind"] in sidebets.SCORE_KINDS and not state["over"]
        score = None if open_ else sidebets.target(bet, scores, finals)
        paid = sidebets.payout(bet, score)
        bets.append(
            {
                "line": line,
                "by": bet["bettor"],
                "kind": bet["kind"],
                "guess": bet["guess"],
                "stake": bet["stake"],
                "score": score,
                "won": None if score is None else paid > 0,
                "paid": paid,
            }
        )
        net[bet["bettor"]] = net.get(bet["bettor"], 0) + paid - bet["stake"]
    return {"side_bets": bets, "side_net": net}


# --- writing ---------------------------------------------------------------------------------


def record_header(header: dict, settings: dict) -> dict:
    """A journaled game's header as the format writes it: its keys, normalised values, the
    stick ids when they are not the format's default."""
    out = {k: header[k] for k in ("game", "players", "variant") if k in header}
    for key in HEADER_RULES:
        if key in header:
            out[key] = settings[key]
    default = default_sticks(header["players"], settings["sticks_each"])
    if settings["sticks"] != default:
        out["sticks"] = settings["sticks"]
    return out


class Writer:
    """Turns a journaled game's rule events into record lines, folding them as it goes."""

    def __init__(self, header: dict):
        self.game = Game(header)
        state = self.game.state
        self.lines = [json.dumps(record_header(header, state["settings"]))]
        self.side_lines: list[int] = []
        self.held: dict | None = None  # a layout that counts once confirmed or overridden
        self.style = None

    def emit(self, line: dict | str) -> None:
        self.lines.append(line if isinstance(line, str) else json.dumps(line))

    def add(self, event: Event) -> None:
        before = self.game.state
        kind, stage = event["type"], before["stage"]
        self.game.apply(event)
        after = self.game.state
        if kind == "first_dropper":
            self.emit({"first": event["player"]})
        elif kind == "pick_counter":
            self.emit({"counter": event["player"]})
        elif kind == "bet":
            self.emit({"dropper": before["dropper"], "bet": event["amount"]})
        elif kind in ("match", "fall_out"):
            self.emit({kind: event["player"]})
        elif kind == "drop":
            self.style = event.get("style")
        elif kind == "side_bet":
            self.emit({"side_bet": event["kind"], "by": event["bettor"], **_guess(event)})
            self.side_lines.append(len(self.lines))
        elif kind in ("layout", "totals", "redo", "confirm", "override"):
            self._count(kind, event, before, after, stage)
        # ban_vote (not in the format: it scores nothing) and collect (part of the next line)

    def _count(self, kind: str, event: Event, before: dict, after: dict, stage: str) -> None:
        if stage == "opening":  # written once counted, as points (ties: the next opening line)
            if len(after["openings"]) > len(before["openings"]):
                self.emit({"opening": after["openings"][-1]["points"]})
            return
        if kind == "layout":
            sticks = event["sticks"]  # the extras the table left out lie free
            drop = self._drop({"sticks": {**sticks, **{x: sticks.get(x, {}) for x in EXTRAS}}})
            if after["phase"] == "drop":  # a redo: the drop done over follows
                self.emit(drop)
            else:
                self.held = drop
        elif kind == "totals":
            self.emit(self._drop({"points": event["points"]}))
        elif kind == "redo":  # totals entry: the layout was not entered
            self.emit("# the counter called a redo; no layout was entered: every stick is off")
            off = {sid: {"off": True} for ids in _owners(before).values() for sid in ids}
            self.emit(self._drop({"sticks": {**off, **{x: {} for x in EXTRAS}}}))
        else:
            self.emit(self.held)
            self.held = None
            if kind == "override":
                self.emit({"override": _changed(before["proposal"], event["points"])})

    def _drop(self, line: dict) -> dict:
        return {**line, "style": self.style} if self.style is not None else line


def _owners(state: dict) -> dict:
    return {p: state["settings"]["sticks"][p] for p in state["pool"]}


def _guess(event: Event) -> dict:
    return {"guess": event["guess"], "stake": event["stake"]}


def _changed(proposal: dict, points: dict) -> dict:
    """An override names the players whose points it changes (all of them if none)."""
    changed = {p: v for p, v in points.items() if proposal.get(p) != v}
    return changed or dict(points)


def write_record(header: dict, events: list[Event]) -> tuple[list[str], list[int]]:
    """A journaled game as record lines, and the line of each side bet. A step not finished
    (a layout not yet confirmed, a house round whose counter is not named) is left out."""
    writer = Writer(header)
    for event in effective_log(events):
        writer.add(event)
    return writer.lines, writer.side_lines


def summary(header: dict, events: list[Event]) -> dict:
    """What `replay` prints: the result of the game's record, as `score-game` prints it."""
    lines, _ = write_record(header, events)
    game, side_lines = read_record(lines)
    return result(game.state, side_lines)
