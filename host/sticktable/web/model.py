"""What the console shows of a game, as JSON-safe values.

The one place in the web package that reads the rule sets' standings and views: everything
else (pages, history, statistics, the live feed) goes through these functions, so a change in
a game's standings touches only this file.
"""

from __future__ import annotations

import copy
import dataclasses

from sticktable.daemon import describe_event
from sticktable.engine import Game
from sticktable.engine.core import effective_log

# Keys of an event anyone may see in a game with hidden information (cards): who did what
# kind of thing, when, and the referee's bookkeeping. Anything else might be a card.
PUBLIC_KEYS = ("type", "player", "from", "src", "seq", "t", "target", "why", "meld")


def hides_information(game: Game) -> bool:
    """A game whose rules write out a per-player log has something to hide (Sticks' cards)."""
    return hasattr(game.rules, "export_log")


def public_event(game: Game, event: dict) -> dict:
    """The event as a spectator may see it: chance outcomes and hidden games' cards dropped."""
    if event.get("type") == "correct":
        seen = {k: v for k, v in event.items() if k != "events"}
        seen["events"] = [public_event(game, e) for e in event.get("events", [])]
        return seen
    if event.get("src") == "chance" or hides_information(game):
        return {k: v for k, v in event.items() if k in PUBLIC_KEYS}
    return dict(event)


def numbered_log(game: Game) -> list[dict]:
    """The raw log as the referee numbers it (`fix N`), each entry public and described,
    with whether a later correction replaced it."""
    corrected = {
        e.get("target"): i for i, e in enumerate(game.events) if e.get("type") == "correct"
    }
    out = []
    for number, event in enumerate(game.events):
        seen = public_event(game, event)
        entry = {"n": number, "type": event.get("type"), "text": describe_event(seen)}
        if event.get("type") == "correct":
            entry["text"] = f"correction of {event.get('target')} ({event.get('why', '')})"
        if number in corrected:
            entry["corrected_by"] = corrected[number]
        entry["src"] = event.get("src")
        out.append(entry)
    return out


def link_traces(game: Game, log: list[dict], traces: list[dict]) -> None:
    """Pair each journaled trace with the log entries its board fact became (same board
    sequence number and time): the entry gets `trace`, the trace the first entry's `n`."""
    by_fact = {(t["seq"], t["t"]): t for t in traces}
    for entry, event in zip(log, game.events, strict=True):
        trace = (
            by_fact.get((event.get("seq"), event.get("t"))) if event.get("src") == "board" else None
        )
        if trace is not None:
            entry["trace"] = trace["id"]
            trace.setdefault("n", entry["n"])


def as_json(value) -> dict:
    """A rule set's answer (a dict, or a typed value with `to_json`/a dataclass) as a dict."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if dataclasses.is_dataclass(value):
        return dataclasses.asdict(value)
    return dict(value)


def display_json(game: Game) -> dict:
    """What the score rings show now (scores per seat, whose turn, the mode)."""
    return as_json(game.rules.display(game.state))


def ring_scores(game: Game) -> list[int]:
    return list(display_json(game).get("scores", []))


def seat_names(game: Game) -> list[str]:
    """The players in ring order (Sticks seats players as they drew; others as listed)."""
    seats = game.rules.view(game.state, None).get("seats")
    return list(seats) if isinstance(seats, list) and seats else list(game.header["players"])


def totals(standings: dict) -> dict[str, int]:
    """Each player's score: points (Stick Stack, Bloodsticks) or completed sticks (Sticks)."""
    if "totals" in standings:
        return dict(standings["totals"])
    return dict(standings.get("completed", {}))


def round_scores(standings: dict) -> list[dict[str, int]]:
    """Each finished round's score per player (a Bloodsticks result: each round's "points")."""
    return [
        dict(r.get("scores", r.get("points", r))) if isinstance(r, dict) else {}
        for r in standings.get("rounds", [])
    ]


def round_notes(standings: dict) -> list[str]:
    """How each round ended, where the game says (a topple, and by whom)."""
    notes = []
    for r in standings.get("rounds", []):
        note = str(r.get("how") or r.get("ended_by") or "") if isinstance(r, dict) else ""
        if isinstance(r, dict) and r.get("toppler"):
            note += f" by {r['toppler']}"
        notes.append(note.strip())
    return notes


def totals_by_round(players: list[str], standings: dict) -> list[dict[str, int]]:
    """Running totals after each round (the plot's series), starting from zero."""
    running = {p: 0 for p in players}
    series = [dict(running)]
    for scores in round_scores(standings):
        for player, points in scores.items():
            running[player] = running.get(player, 0) + points
        series.append(dict(running))
    return series


def game_summary(game: Game) -> dict:
    """Standings of a whole game for the pages: players, totals, rounds, winners, the plot."""
    standings = as_json(game.summary())
    players = list(game.header.get("players", []))
    return {
        "game": game.header.get("game"),
        "players": players,
        "finished": bool(game.finished),
        "totals": totals(standings),
        "winners": list(standings.get("winners", [])),
        "rounds": round_scores(standings),
        "round_notes": round_notes(standings),
        "by_round": totals_by_round(players, standings),
    }


def step_view(game: Game, step: int) -> dict:
    """The game as it stood after its first `step` raw events: what a spectator saw then."""
    before = Game(game.header, game.events[:step])
    view = before.rules.view(before.state, None)
    return {
        "step": step,
        "of": len(game.events),
        "event": numbered_log(game)[step - 1] if step else None,
        "summary": game_summary(before),
        "facts": scalar_facts(view),
    }


def scalar_facts(view: dict) -> dict:
    """The view's simple values (counts, phase, whose turn), which any game's page can list."""
    out = {}
    for key, value in view.items():
        if isinstance(value, (str, int, float, bool)) or value is None:
            out[key] = value
        elif isinstance(value, dict) and all(isinstance(v, (int, str)) for v in value.values()):
            if key != "settings":
                out[key] = ", ".join(f"{k} {v}" for k, v in value.items())
    return out


def player_stats(game: Game) -> dict[str, dict]:
    """What one game adds to each player's statistics."""
    standings = as_json(game.summary())
    players = list(game.header.get("players", []))
    stats = {
        p: {"games": 1, "wins": 0, "round_points": [], "topples": 0, "fell": 0, "turns": 0}
        for p in players
    }
    if game.finished:
        for winner in standings.get("winners", []):
            stats[winner]["wins"] += 1
    for scores in round_scores(standings):
        for player, points in scores.items():
            stats[player]["round_points"].append(points)
    for r in standings.get("rounds", []):
        if isinstance(r, dict) and r.get("toppler") in stats:
            stats[r["toppler"]]["topples"] += 1
    # Bloodsticks: what each player won or lost (the game record's "net")
    for player, won in standings.get("net", {}).items():
        stats[player]["winnings"] = stats[player].get("winnings", 0) + won
    final_view = game.rules.view(game.state, None)
    seen_players = final_view.get("players")
    for player, seen in (seen_players if isinstance(seen_players, dict) else {}).items():
        if isinstance(seen, dict) and "tries" in seen and player in stats:
            stats[player]["tries"] = seen["tries"]
    _count_turns_and_falls(game, stats)
    return stats


def _count_turns_and_falls(game: Game, stats: dict[str, dict]) -> None:
    """Stick Stack: sticks that fell in each player's turns, and how many turns they had."""
    state = game.rules.initial(game.header)
    for event in effective_log(game.events):
        kind = event.get("type")
        if kind == "take" and event.get("player") in stats:
            stats[event["player"]]["turns"] += 1
        elif kind == "fell":
            holder = game.rules.view(state, None).get("holder")
            if holder in stats:
                stats[holder]["fell"] += int(event.get("count", 0))
        state = game.rules.apply(copy.deepcopy(state), event)


def merge_stats(per_game: list[dict[str, dict]]) -> list[dict]:
    """Per player across games, ranked for the leaderboard: most wins, then best win rate."""
    merged: dict[str, dict] = {}
    for stats in per_game:
        for player, s in stats.items():
            m = merged.setdefault(
                player,
                {"games": 0, "wins": 0, "round_points": [], "topples": 0, "fell": 0, "turns": 0},
            )
            for key in ("games", "wins", "topples", "fell", "turns"):
                m[key] += s[key]
            m["round_points"] += s["round_points"]
            for key in ("winnings", "tries"):
                if key in s:
                    m[key] = m.get(key, 0) + s[key]
    table = []
    for player, m in merged.items():
        points = m.pop("round_points")
        row = {"player": player, **m}
        row["avg_round"] = round(sum(points) / len(points), 2) if points else None
        row["fell_per_turn"] = round(m["fell"] / m["turns"], 2) if m["turns"] else None
        row["win_rate"] = round(m["wins"] / m["games"], 2)
        table.append(row)
    table.sort(key=lambda r: (-r["wins"], -r["win_rate"], r["player"]))
    for rank, row in enumerate(table, start=1):
        row["rank"] = rank
    return table
