"""What every end-to-end test asks of a journal after a simulated game."""

import json
import sqlite3
import subprocess
import sys


def assert_scored_as_scripted(journal: str, script) -> None:
    """`sticktable replay` of game 1 gives the standings the simulated game's script says."""
    replayed = subprocess.run(
        [sys.executable, "-m", "sticktable", "replay", "1", "--json", "--journal", journal],
        capture_output=True,
        text=True,
        check=True,
    )
    standings = json.loads(replayed.stdout)
    expected = script.expected_standings()
    assert standings["finished"] is True
    assert (standings["totals"], standings["winners"]) == (expected.totals, expected.winners)


def assert_no_board_event_twice(journal: str) -> None:
    """Every board event (boot, seq) is journaled once, whatever the link went through."""
    with sqlite3.connect(journal) as db:
        seqs = [
            (boot, seq)
            for boot, seq, decision in db.execute("SELECT boot, seq, decision FROM facts")
            if not decision.startswith("link:")
        ]
    assert seqs, "no board event was journaled"
    assert len(seqs) == len(set(seqs)), "a board event was journaled twice"
