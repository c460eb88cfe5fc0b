"""How a Bloodsticks game moves on: the events, the phases they are legal in, and what follows.

Phases: "setup" (the host names the first dropper), "collect" (a round begins, the sticks are
gathered), "pick_counter" (house games), "bet", "answer" (every other active player matches or
falls out), "drop", "count" (the counter enters the layout, or the totals), "confirm" (the
counter accepts the engine's proposal or overrides it), "over".

Every drop (the opening drop, a round's drop, a tiebreak drop) runs drop -> count [-> confirm];
`stage` says which one it is and `pool` whose sticks are in it. Seats are the header's order,
clockwise: a player's left is the next seat, their right the previous one (ruling 5).
"""

from __future__ import annotations

from sticktable.engine.core import RuleError

from . import sidebets
from .drop import BLOOD, EXTRAS, DropError, DropRules, score_layout
from .ledger import HOUSE, POT, SIDE, balance, move, new_ledger, split

STYLES = ("high", "low", "bounce", "flip")  # ruling 10: recorded, no effect on scoring
VOTES = ("ban", "keep")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def new_state(players: list[str], settings: dict) -> dict:
    state = {
        "players": players,
        "settings": settings,
        "phase": "setup",
        "stage": None,
        "round": 0,
        "dropper": None,
        "counter": None,
        "bet": None,
        "matched": [],
        "pending": [],
        "active": list(players),
        "fell_out": [],
        "dropped": [],
        "counted": [],
        "totals": {p: 0 for p in players},
        "stakes": {p: 0 for p in players},
        "pool": [],
        "attempt": 1,
        "styles": [],
        "redos": 0,
        "proposal": None,
        "layout": None,
        "drops_thrown": 0,
        "openings": [],
        "rounds": [],
        "tiebreaks": [],
        "bans": [],
        "side_bets": [],
        "ledger": new_ledger(),
        "over": False,
        "end": None,
        "winners": [],
        "payouts": {},
    }
    if settings["variant"] == "house":
        _begin_round(state, None)
    elif settings["first_dropper"] == "drop":
        _begin_drop(state, "opening", list(players), None, _table_counter(settings))
    return state


# --- seats and roles -----------------------------------------------------------------------


def seat_of(state: dict, player: str) -> int:
    return state["players"].index(player)


def active_neighbour(state: dict, player: str, step: int) -> str | None:
    """The next active player from `player` going left (step 1) or right (step -1)."""
    players, seat = state["players"], seat_of(state, player)
    for k in range(1, len(players)):
        other = players[(seat + step * k) % len(players)]
        if other in state["active"]:
            return other
    return None


def _table_counter(settings: dict) -> str | None:
    """Who counts the opening and tiebreak drops: a challenge's neutral counter, else the host
    (None: any name is accepted)."""
    return settings["counter"] if settings["variant"] == "challenge" else None


def round_counter(state: dict) -> str | None:
    """Who counts the current round's drop (ruling 5 and the variants of ruling 8)."""
    variant = state["settings"]["variant"]
    if variant == "challenge":
        return _table_counter(state["settings"])  # the neutral counter counts every drop
    if variant == "house":
        return state["counter"]  # picked by the house for this round
    return active_neighbour(state, state["dropper"], 1)


def owners_of(state: dict) -> dict:
    """The stick ids of each player in the current drop (one each in the opening drop)."""
    return _owners(state["settings"], state["stage"], state["pool"])


def _owners(settings: dict, stage: str, pool) -> dict:
    count = 1 if stage == "opening" else settings["sticks_each"]
    return {p: settings["sticks"][p][:count] for p in pool}


def score_drop(settings: dict, stage: str, pool, sticks, careless: bool, dropper):
    """Score a layout of this game's drop: the opening has no henki; a round's or a tiebreak's
    drop done over is careless and charges its dropper. DropError when malformed."""
    return score_layout(
        _owners(settings, stage, pool),
        sticks,
        careless=careless,
        dropper=dropper if stage != "opening" else None,
        extras=(BLOOD,) if stage == "opening" else EXTRAS,
        rules=DropRules(settings["henki_scope"], settings["dead_sticks_cancel"]),
    )


# --- events ----------------------------------------------------------------------------------


def ban_vote(state: dict, event: dict) -> dict:
    """The stick-ban vote: before the first drop; majority of the votes cast bans, a tie keeps."""
    if state["drops_thrown"]:
        raise RuleError("sticks can only be challenged before the first drop is thrown")
    owner, votes = event.get("owner"), event.get("votes")
    if owner not in state["players"]:
        raise RuleError(f"no player {owner!r} owns a set in this game")
    if any(b["owner"] == owner for b in state["bans"]):
        raise RuleError(f"{owner}'s set has been voted on already")
    if not isinstance(votes, dict) or not votes:
        raise RuleError('a ban vote needs "votes": {player: "ban" or "keep"}')
    for voter, vote in votes.items():
        if voter not in state["players"] or vote not in VOTES:
            raise RuleError(f'bad vote {voter!r}: {vote!r} (players vote "ban" or "keep")')
    ban = sum(v == "ban" for v in votes.values())
    keep = len(votes) - ban
    state["bans"].append({"owner": owner, "banned": ban > keep, "ban": ban, "keep": keep})
    return state


def first_dropper(state: dict, event: dict) -> dict:
    _need_phase(state, "setup", "the first dropper is chosen before the first round")
    player = event.get("player")
    if player not in state["players"]:
        raise RuleError(f"no player {player!r} to drop first")
    _begin_round(state, player)
    return state


def collect(state: dict, event: dict) -> dict:
    """The sticks are gathered: a round starts. House games take everyone's fixed stake."""
    _need_phase(state, "collect", "the sticks are collected at the start of a round")
    if state["settings"]["variant"] == "house":
        stake = state["settings"]["stake"]
        for player in state["active"]:
            _stake(state, player, stake, f"round {state['round']} stake")
        state["bet"] = stake
        state["matched"] = list(state["active"])
        state["phase"] = "pick_counter"
    else:
        state["phase"] = "bet"
    return state


def pick_counter(state: dict, event: dict) -> dict:
    """House games: the house picks this round's counter, any player, again or not (G5)."""
    _need_phase(state, "pick_counter", "the house picks a counter at the start of a round")
    player = event.get("player")
    if player not in state["players"]:
        raise RuleError(f"no player {player!r} to count")
    state["counted"].append(player)
    state["counter"] = player
    _begin_drop(state, "round", list(state["active"]), dropper=None, counter=player)
    return state


def bet(state: dict, event: dict) -> dict:
    _need_phase(state, "bet", "the dropper bets after collecting the sticks")
    _need_actor(state, event, state["dropper"])
    amount, settings = event.get("amount"), state["settings"]
    cap, low = settings["cap"], settings["min_bet"]
    if not _is_int(amount) or amount < low or (cap is not None and amount > cap):
        limit = f"{low} to {cap}" if cap is not None else f"at least {low}"
        raise RuleError(f"a bet is a whole number of coins, {limit}, not {amount!r}")
    _stake(state, state["dropper"], amount, f"round {state['round']} bet")
    state["bet"] = amount
    state["matched"] = [state["dropper"]]
    state["pending"] = _clockwise_from(state, state["dropper"])
    state["phase"] = "answer"
    return state


def match(state: dict, event: dict) -> dict:
    player = _answering(state, event)
    _stake(state, player, state["bet"], f"round {state['round']} match")
    state["matched"].append(player)
    return _after_answer(state)


def fall_out(state: dict, event: dict) -> dict:
    """Ruling 6: the player loses what they put in and takes no further part."""
    player = _answering(state, event)
    state["active"].remove(player)
    state["fell_out"].append(player)
    if len(state["active"]) == 1:
        return finish(state, list(state["active"]), "last_standing")
    state["counter"] = round_counter(state)
    return _after_answer(state)


def drop(state: dict, event: dict) -> dict:
    _need_phase(state, "drop", "no drop is due now")
    style = event.get("style")  # None: not recorded (a paper game's record may leave it out)
    if style is not None and style not in STYLES:
        raise RuleError(f"a drop's style is one of {', '.join(STYLES)}, not {style!r}")
    state["styles"].append(style)
    state["drops_thrown"] += 1
    state["phase"] = "count"
    return state


def layout(state: dict, event: dict) -> dict:
    """The counter's layout: the engine scores it and proposes the points (or calls a redo)."""
    _need_counting(state, event, "layout")
    sticks = event.get("sticks")
    if sticks is None:
        raise RuleError('a layout needs "sticks" (see host/docs/formats/bloodsticks-drop.md)')
    careless = state["attempt"] == 2
    try:
        result = score_drop(
            state["settings"], state["stage"], state["pool"], sticks, careless, state["dropper"]
        )
    except DropError as err:
        raise RuleError(f"layout refused: {err}") from None
    if result.redo:
        return _redo(state)
    state["layout"] = sticks
    state["proposal"] = result.points
    state["phase"] = "confirm"
    return state


def totals(state: dict, event: dict) -> dict:
    """Totals entry: the counter says each player's points; the counter's word is final."""
    _need_counting(state, event, "totals")
    return _scored(state, _checked_points(state, event.get("points")), override=None)


def redo(state: dict, event: dict) -> dict:
    """Totals entry: a player's stick left the surface on a drop that may be done over."""
    _need_counting(state, event, "totals")
    if state["attempt"] == 2:
        raise RuleError("the drop done over is not redone again: count it as careless")
    return _redo(state)


def confirm(state: dict, event: dict) -> dict:
    _need_phase(state, "confirm", "there is no proposal to confirm")
    _need_actor(state, event, state["counter"])
    return _scored(state, dict(state["proposal"]), override=None)


def override(state: dict, event: dict) -> dict:
    """The counter's word is absolute: their points replace the proposal, and the log says so."""
    _need_phase(state, "confirm", "there is no proposal to override")
    _need_actor(state, event, state["counter"])
    points = _checked_points(state, event.get("points"))
    why = event.get("why", "")
    return _scored(state, points, override={"proposed": state["proposal"], "why": str(why)})


def side_bet(state: dict, event: dict) -> dict:
    """G7: any bettor, any time before the game ends; a drop bet is on the next drop that
    counts (its number among the counted round and tiebreak drops)."""
    if not state["settings"].get("side_pots"):
        raise RuleError("this game has no secondary pots (house games with side_pots)")
    placed = sidebets.checked_bet(event, len(state["rounds"]) + len(state["tiebreaks"]) + 1)
    move(state["ledger"], placed["bettor"], SIDE, placed["stake"], f"side bet {placed['kind']}")
    state["side_bets"].append(placed)
    return state


APPLY = {
    "ban_vote": ban_vote,
    "first_dropper": first_dropper,
    "collect": collect,
    "pick_counter": pick_counter,
    "bet": bet,
    "match": match,
    "fall_out": fall_out,
    "drop": drop,
    "layout": layout,
    "totals": totals,
    "redo": redo,
    "confirm": confirm,
    "override": override,
    "side_bet": side_bet,
}


# --- helpers -------------------------------------------------------------------------------


def _need_phase(state: dict, phase: str, why: str) -> None:
    if state["phase"] != phase:
        raise RuleError(f"{why} (now: {state['phase']})")


def _need_actor(state: dict, event: dict, actor: str | None) -> None:
    """An event may name who makes it; if it does, it must be the right person."""
    named = event.get("player")
    if named is not None and actor is not None and named != actor:
        raise RuleError(f"it is {actor}'s to do, not {named}'s")


def _need_counting(state: dict, event: dict, mode: str) -> None:
    _need_phase(state, "count", "no drop is waiting to be counted")
    if state["settings"]["entry"] not in (mode, "any"):
        raise RuleError(f"this table enters drops as {state['settings']['entry']}, not {mode}")
    _need_actor(state, event, state["counter"])


def _answering(state: dict, event: dict) -> str:
    _need_phase(state, "answer", "nobody is answering a bet now")
    player = event.get("player")
    if player not in state["pending"]:
        raise RuleError(f"{player!r} has no bet to answer")
    if player != state["pending"][0]:  # G3: clockwise from the dropper's left
        raise RuleError(f"{state['pending'][0]} answers before {player}")
    state["pending"].remove(player)
    return player


def _after_answer(state: dict) -> dict:
    if not state["pending"]:
        _begin_drop(state, "round", list(state["active"]), state["dropper"], round_counter(state))
    return state


def _clockwise_from(state: dict, player: str) -> list[str]:
    """The other active players in seat order starting at `player`'s left."""
    seat, players = seat_of(state, player), state["players"]
    order = [players[(seat + k) % len(players)] for k in range(1, len(players))]
    return [p for p in order if p in state["active"]]


def _stake(state: dict, player: str, amount: int, why: str) -> None:
    move(state["ledger"], player, POT, amount, why)
    state["stakes"][player] += amount


def _checked_points(state: dict, points) -> dict:
    pool = state["pool"]
    if not isinstance(points, dict) or set(points) != set(pool):
        raise RuleError(f"points are needed for exactly: {', '.join(pool)}")
    if not all(_is_int(v) for v in points.values()):
        raise RuleError("points are whole numbers")
    return {p: points[p] for p in pool}


def _begin_round(state: dict, dropper: str | None) -> None:
    state.update(
        round=state["round"] + 1,
        dropper=dropper,
        bet=None,
        matched=[],
        pending=[],
        stage=None,
        pool=[],
        proposal=None,
        layout=None,
        phase="collect",
    )
    state["counter"] = round_counter(state) if dropper is not None else None


def _begin_drop(state: dict, stage: str, pool: list, dropper, counter) -> None:
    state.update(
        stage=stage,
        pool=pool,
        dropper=dropper,
        counter=counter,
        attempt=1,
        styles=[],
        redos=0,
        proposal=None,
        layout=None,
        phase="drop",
    )


def _redo(state: dict) -> dict:
    """Ruling 4: drop again (a round's or tiebreak's drop done over is the careless one)."""
    state["redos"] += 1
    if state["stage"] != "opening":
        state["attempt"] = 2
    state["phase"] = "drop"
    return state


def _scored(state: dict, points: dict, override: dict | None) -> dict:
    """A drop's final points: record them and move the game on."""
    record = {
        "stage": state["stage"],
        "round": state["round"] if state["stage"] == "round" else None,
        "dropper": state["dropper"],
        "counter": state["counter"],
        "bet": state["bet"] if state["stage"] == "round" else None,
        "matched": list(state["matched"]) if state["stage"] == "round" else [],
        "styles": list(state["styles"]),
        "redos": state["redos"],
        "careless": state["attempt"] == 2,
        "layout": state["layout"],
        "points": points,
        "override": override,
    }
    stage = state["stage"]
    if stage == "opening":
        state["openings"].append(record)
        best = max(points.values())
        leaders = [p for p in state["pool"] if points[p] == best]
        if len(leaders) == 1:
            _begin_round(state, leaders[0])
        else:  # ruling 5: ties redrop (the tied players)
            _begin_drop(state, "opening", leaders, None, _table_counter(state["settings"]))
        return state
    for player, value in points.items():
        state["totals"][player] += value
    if stage == "tiebreak":
        state["tiebreaks"].append(record)
        return _settle_or_tiebreak(state, list(state["active"]))  # G4: over all active players
    state["rounds"].append(record)
    state.update(bet=None, matched=[])  # this round's stakes are now in its record
    if state["dropper"] is not None:
        state["dropped"].append(state["dropper"])
    return _next_round(state)


def _next_round(state: dict) -> dict:
    settings = state["settings"]
    variant = settings["variant"]
    if variant == "standard":
        # Roles pass to the right until every active player has dropped (ruling 5).
        nxt = active_neighbour(state, state["dropper"], -1)
        if nxt is None or nxt in state["dropped"]:
            return _settle_or_tiebreak(state, list(state["active"]))
        _begin_round(state, nxt)
    elif state["round"] >= settings["rounds"]:
        return _settle_or_tiebreak(state, list(state["active"]))
    elif variant == "challenge":
        _begin_round(state, active_neighbour(state, state["dropper"], 1))  # droppers alternate
    else:
        _begin_round(state, None)
    return state


def _settle_or_tiebreak(state: dict, contenders: list[str]) -> dict:
    """Ruling 7: the highest total wins; ties redrop (no betting) until broken or the limit."""
    best = max(state["totals"][p] for p in contenders)
    tied = [p for p in state["players"] if p in contenders and state["totals"][p] == best]
    if len(tied) == 1:
        return finish(state, tied, "highest")
    if len(state["tiebreaks"]) < state["settings"]["max_tiebreaks"]:
        dropper = _tiebreak_dropper(state, tied)
        _begin_drop(state, "tiebreak", tied, dropper, _table_counter(state["settings"]))
        return state
    return finish(state, tied, "split")


def _tiebreak_dropper(state: dict, tied: list[str]) -> str | None:
    """G4: the first tied player to the right of the previous drop's dropper (house: the
    house, None)."""
    previous = (state["rounds"] + state["tiebreaks"])[-1]["dropper"]
    if previous is None:
        return None
    players, seat = state["players"], seat_of(state, previous)
    for k in range(1, len(players) + 1):
        if players[(seat - k) % len(players)] in tied:
            return players[(seat - k) % len(players)]
    return None


def finish(state: dict, winners: list[str], end: str) -> dict:
    """Pay the pot (less the house's cut) and settle the side bets: the game is over."""
    ledger = state["ledger"]
    pot = balance(ledger, POT)
    cut = pot * state["settings"]["house_cut_pct"] // 100  # rounded down, in the players' favour
    move(ledger, POT, HOUSE, cut, "house cut")
    payouts = split(pot - cut, winners)
    for player, amount in payouts.items():
        move(ledger, POT, player, amount, "pot")
    _settle_side_bets(state)
    state.update(
        over=True, phase="over", end=end, winners=winners, payouts=payouts, pending=[], stage=None
    )
    return state


def _settle_side_bets(state: dict) -> None:
    ledger = state["ledger"]
    if not state["side_bets"]:
        return
    how = state["settings"]["house_score"]
    drops = state["rounds"] + state["tiebreaks"]
    scores = {n: sidebets.house_score(r["points"], how) for n, r in enumerate(drops, 1)}
    finals = list(state["totals"].values())
    owed = [(b, sidebets.payout(b, sidebets.target(b, scores, finals))) for b in state["side_bets"]]
    shortfall = sum(pay for _, pay in owed) - balance(ledger, SIDE)
    move(ledger, HOUSE, SIDE, shortfall, "house covers the side pot")
    for bet, pay in owed:
        bet["paid"] = pay
        move(ledger, SIDE, bet["bettor"], pay, f"side bet {bet['kind']} won")
    move(ledger, SIDE, HOUSE, balance(ledger, SIDE), "side pot to the house")
