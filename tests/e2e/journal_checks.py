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
    told = (standings["finished"], standings["totals"], standings["winners"])
    scripted = (True, expected.totals, expected.winners)
    assert told == scripted, (
        f"scored (finished, totals, winners) {told}, the script says {scripted}\n"
        + _side_by_side(journal, script)
    )


def _side_by_side(journal: str, script) -> str:
    """What the board told the table beside what the virtual tower did: to see which event a
    failed run lost or made up (a run on a loaded machine can fail where an idle one passes)."""
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT message, decision FROM facts ORDER BY id").fetchall()
    told = [
        f"  board {json.loads(message).get('t', '?'):>7} ms  {decision}"
        for message, decision in rows
        if not decision.startswith("link:")
    ]
    truth = [
        f"  tower {event['t_ms']:>7} ms  {event['kind']} {event.get('count', '')}".rstrip()
        for event in script.truth_events()
    ]
    return "\n".join(["the board's events, as journaled:", *told, "the tower's truth:", *truth])


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
