"""The firmware's main loop stuck mid-game: the watchdog resets the board, the daemon recovers.

The simulated table plays the RP2040's watchdog (see sticktable/sim/runner.py): the firmware
feeds it from its ticker; an accelerometer read that never returns (a stuck I2C bus) blocks the
whole scheduler, the feeds stop, and after the timeout the table kills the firmware and starts
it again on the same pty (reset cause "watchdog", a new boot id). `sticktable run --port` runs
as a subprocess with a terminal for the referee's keys: it must see the new hello, report the
gap and pause; the referee (this test) types `ok` and the game is played to the end, scored as
scripted, no board event journaled twice.

The hang is placed while the empty tower is held still between two rounds (the new boot's
detector needs a still, empty tower to find its baseline, as after power-on), and the players
wait for the referee: the samples after the hang come once the referee has said `ok`.
"""

import json
import os
import sqlite3
import subprocess
import sys
import threading

from journal_checks import assert_no_board_event_twice, assert_scored_as_scripted

from sticktable.sim.game import STILL_MS, SimGame
from sticktable.sim.runner import ACCEL_STUCK, SimTable, hang_at

PLAYERS = ["Ann", "Bo", "Cy"]
TIMEOUT = 20


def gated_after_hang(samples, gate):
    """The samples; those after the hanging one only once `gate` is set."""
    hung = False
    for sample in samples:
        if hung:
            gate.wait(TIMEOUT)
        hung = hung or sample.ax == ACCEL_STUCK
        yield sample


class Referee:
    """Reads the daemon's output; types `ok` at the first gap, opens the gate once it is taken."""

    def __init__(self, proc, keys_fd, gate):
        self.lines: list[str] = []
        self._proc, self._keys_fd, self._gate = proc, keys_fd, gate
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        for line in self._proc.stdout:
            self.lines.append(line)
            if "referee, check the tower" in line and not self._gate.is_set():
                os.write(self._keys_fd, b"ok\n")
            if "referee: play goes on" in line:
                self._gate.set()

    def join(self):
        self._thread.join(10)


def test_a_stuck_main_loop_is_reset_by_the_watchdog(tmp_path):
    journal = str(tmp_path / "journal.sqlite")
    script = SimGame(PLAYERS, seed=3)
    still = next(e for e in script.truth_events() if e["kind"] == "clear")  # after round 1
    hang = still["end_ms"] - STILL_MS + 300  # 2.2 s of still, empty tower follow
    gate = threading.Event()
    samples = gated_after_hang(hang_at(script.samples(), hang), gate)
    keys, terminal = os.openpty()  # the daemon reads keys only from a terminal
    try:
        with SimTable(samples, script.meta) as table:
            daemon = subprocess.Popen(
                [sys.executable, "-m", "sticktable", "run", "--journal", journal]
                + ["--port", table.port, "--players", ",".join(PLAYERS)],
                stdin=terminal,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            referee = Referee(daemon, keys, gate)
            try:
                try:
                    code = daemon.wait(TIMEOUT)
                except subprocess.TimeoutExpired:
                    code = None
            finally:
                if daemon.poll() is None:
                    daemon.kill()
                referee.join()
            output = "".join(referee.lines)
            assert code == 0, output[-3000:] + table.stderr_text()
            assert table.resets == 1 and table.watchdog_s == 2.0
    finally:
        os.close(keys)
        os.close(terminal)

    # The daemon saw the new boot, reported the gap and paused until the referee's ok.
    assert "reset watchdog" in output
    assert "(reboot)" in output and "referee: play goes on (gap)" in output
    with sqlite3.connect(journal) as db:
        facts = [
            (boot, seq, json.loads(message), decision)
            for boot, seq, message, decision in db.execute(
                "SELECT boot, seq, message, decision FROM facts ORDER BY id"
            )
        ]
    hellos = [m for _, _, m, _ in facts if m["k"] == "hello"]
    assert [h["reset"] for h in hellos] == ["power-on", "watchdog"]
    assert hellos[0]["boot"] != hellos[1]["boot"]
    gaps = [m for _, _, m, _ in facts if m["k"] == "gap"]
    assert len(gaps) == 1 and gaps[0]["reset"] == "watchdog"
    assert gaps[0]["n"] == 0  # a paced board had every event acknowledged when it hung
    # Play went on in the new boot; nothing was applied twice, nothing was held for good.
    assert_no_board_event_twice(journal)
    board_facts = [(b, s) for b, s, m, d in facts if not d.startswith("link:")]
    assert sum(1 for b, _ in board_facts if b == hellos[1]["boot"]) > 10
    assert not any(d.startswith("held") for _, _, _, d in facts)

    assert_scored_as_scripted(journal, script)
