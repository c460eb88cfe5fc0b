"""End to end: a whole Stick Stack game on the simulated table.

The firmware runs under the real MicroPython interpreter on a virtual tower; the daemon talks
to it through a pty with pyserial; the journal is real SQLite. The journal's standings must
equal what the simulated game's script says happened.
"""

import json
import subprocess
import sys

import pytest

from sticktable.sim.game import SimGame

PLAYERS = ["Ann", "Bo", "Cy"]


def sticktable(*args, timeout=600):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *args], capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize("seed", [3, 11])
def test_a_simulated_game_is_scored_as_scripted(tmp_path, seed):
    journal = str(tmp_path / "journal.sqlite")
    played = sticktable(
        "run", "--sim", "--seed", str(seed), "--players", ",".join(PLAYERS), "--journal", journal
    )
    assert played.returncode == 0, played.stdout[-3000:] + played.stderr[-3000:]
    assert "exactly as scripted" in played.stdout

    expected = SimGame(PLAYERS, seed=seed).game.summary()  # the spec object, as replay prints
    replayed = sticktable("replay", "1", "--json", "--journal", journal)
    assert replayed.returncode == 0, replayed.stderr
    standings = json.loads(replayed.stdout)
    assert standings["finished"] is True
    assert standings["totals"] == expected["totals"]
    assert standings["winners"] == expected["winners"]
    assert [r["ended_by"] for r in standings["rounds"]] == [
        r["ended_by"] for r in expected["rounds"]
    ]

    exported = sticktable("export", "1", "--journal", journal)
    transcript = tmp_path / "game.jsonl"
    transcript.write_text(exported.stdout)
    scored = sticktable("score", str(transcript))
    assert json.loads(scored.stdout)["totals"] == expected["totals"]
