"""A game's standings for people: a line saying where the game is, then one row per player in
seat order (each round's score, what each player has, the winners marked), then the rest."""

from __future__ import annotations

from sticktable.texttable import table


def standings_lines(header: dict, summary: dict) -> list[str]:
    players = [str(p) for p in header.get("players", [])]
    winners = summary.get("winners") or []
    state = "finished" if summary.get("finished") else "not finished"
    lines = [f"{header.get('game', 'game')}: {state}"]
    if winners:
        lines[0] += "; winner" + ("s " if len(winners) > 1 else " ") + ", ".join(winners)
    columns: list[tuple[str, dict]] = []
    rounds = summary.get("rounds") or []
    for number, played in enumerate(rounds, 1):
        if isinstance(played, dict) and isinstance(played.get("scores"), dict):
            columns.append((f"R{number}", played["scores"]))
    per_player = {
        key: value
        for key, value in summary.items()
        if isinstance(value, dict) and value and set(value) <= set(players)
    }
    for key, value in per_player.items():  # totals, payouts, completed sticks, ...
        columns.append((key, value))
    header_row = ["player", *(name for name, _ in columns), ""]
    rows = [
        [
            name,
            *(column.get(name, "") for _, column in columns),
            "winner" if name in winners else "",
        ]
        for name in players
    ]
    numeric = tuple(range(1, len(columns) + 1))
    lines += table(header_row, rows, right=numeric)
    for key, value in summary.items():
        if key in per_player or key in ("finished", "winners", "rounds"):
            continue
        if value in (None, [], {}):
            continue
        lines.append(f"{key}: {_words(value)}")
    return lines


def _words(value) -> str:
    if isinstance(value, list):
        return ", ".join(_words(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    return str(value)
