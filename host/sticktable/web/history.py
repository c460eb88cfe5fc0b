"""Games from the journal for the console: read-only, one short connection per request.

The console never writes the journal itself (inputs go through the table), and a reader
never takes SQLite's write lock, so a browser can never hold up the daemon's commits.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from sticktable.commands.games import row_json
from sticktable.engine import Game, RuleError
from sticktable.errors import UserError
from sticktable.journal import Journal, default_path
from sticktable.journal_db import EmptyJournal
from sticktable.web import model


class History:
    """Everything the history pages ask of one journal file."""

    def __init__(self, path: Path | str | None):
        self.path = Path(path) if path else default_path()

    def _open(self) -> Journal:
        return Journal(self.path, read_only=True)

    def exists(self) -> bool:
        return self.path.exists()

    def games(self) -> list[dict]:
        if not self.exists():
            return []
        try:
            with self._open() as journal:
                rows = journal.games()
        except EmptyJournal:  # the table is creating it this moment
            return []
        return [row_json(row) for row in rows]

    def load(self, game_id: int) -> Game:
        """The game folded from its journaled events (UserError if absent or unreplayable)."""
        if not self.exists():
            raise UserError("no games yet")
        with self._open() as journal:
            row = journal.game(game_id)
            events = journal.events(row.id)
        try:
            return Game(row.header, events)
        except RuleError as err:
            raise UserError(f"game {row.id} does not replay: {err}") from None

    def detail(self, game_id: int) -> dict:
        game = self.load(game_id)
        with self._open() as journal:
            traces = journal.traces(game_id)
        log = model.numbered_log(game)
        model.link_traces(game, log, traces)
        return {
            "id": game_id,
            "header": game.header,
            "summary": model.game_summary(game),
            "log": log,
            "traces": traces,
        }

    def trace(self, game_id: int, trace_id: int) -> dict:
        """One sensed event's samples (event-traces.md), to plot."""
        if not self.exists():
            raise UserError("no games yet")
        with self._open() as journal:
            return journal.trace(game_id, trace_id)

    def step(self, game_id: int, step: int) -> dict:
        game = self.load(game_id)
        if not 0 <= step <= len(game.events):
            raise UserError(f"step must be between 0 and {len(game.events)}")
        return model.step_view(game, step)

    def export_text(self, game_id: int) -> str:
        """`sticktable export GAME`: the transcript (Stick Stack) or public JSON lines."""
        return "".join(line + "\n" for line in self.load(game_id).export(None))

    def export_json(self, game_id: int) -> str:
        game = self.load(game_id)
        return json.dumps(
            {
                "id": game_id,
                "header": game.header,
                "summary": model.game_summary(game),
                "events": [model.public_event(game, e) for e in game.events],
            },
            indent=1,
        )

    def export_csv(self, game_id: int) -> str:
        """One row per round and player: the round's score and the running total."""
        game = self.load(game_id)
        summary = model.game_summary(game)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["round", "player", "score", "total"])
        for number, (scores, totals) in enumerate(
            zip(summary["rounds"], summary["by_round"][1:], strict=True), start=1
        ):
            for player in summary["players"]:
                writer.writerow([number, player, scores.get(player, 0), totals.get(player, 0)])
        return out.getvalue()

    def stats(self) -> dict:
        """Per player across every game that replays, one leaderboard per rule set (points
        mean different things in each: in Stick Stack the fewest win)."""
        per_rules: dict[str, list[dict]] = {}
        skipped = []
        for row in self.games():
            try:
                stats = model.player_stats(self.load(row["id"]))
            except UserError:
                skipped.append(row["id"])
                continue
            per_rules.setdefault(row["game"], []).append(stats)
        boards = {rules: model.merge_stats(games) for rules, games in sorted(per_rules.items())}
        return {"leaderboards": boards, "skipped": skipped}
