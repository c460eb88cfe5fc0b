"""A table with no microcontroller, end to end: `sticktable run --board pi` starts the firmware
under CPython on Blinka (tablefw/board_blinka.py) and plays a whole simulated Stick Stack game,
the fake pins below Blinka fed by the virtual tower in real time; the table scores it as the
script says."""

import json
import subprocess
import sys

from e2e.journal_checks import assert_no_board_event_twice, assert_scored_as_scripted
from pienv import pi_command, pi_env

from sticktable.sim.game import SimGame
from sticktable.sim.runner import pack_sample

PLAYERS = ["Ann", "Bo"]
SEED = 3  # a short game: ~16 s of tower time, played in real time
HOUSE = {"end_score": 1}
GAME_TIMEOUT_S = 120  # the tower plays 16 s; the rest is starting up, and a loaded machine


def tower_file(path, script: SimGame):
    """The tower's samples for the fake world (it plays them out in real time)."""
    path.write_bytes(b"".join(pack_sample(sample) for sample in script.samples()))
    return path


def test_pi_table_plays_a_simulated_game_scored_as_scripted(tmp_path):
    script = SimGame(PLAYERS, seed=SEED, **HOUSE)
    meta = script.meta
    calibration = tmp_path / "calibration.json"  # the table was calibrated (sticktable calibrate)
    calibration.write_text(
        json.dumps(
            {k: meta[k] for k in ("counts_per_gram", "zero_counts", "cell_xy_mm", "stick_g")}
        )
    )
    tower = tower_file(tmp_path / "tower", script)
    command = [sys.executable, "-m", "sticktable", "run", "--board", "pi"]
    command += ["--players", ",".join(PLAYERS), "--house", "end_score=1"]
    command += ["--journal", str(tmp_path / "journal.sqlite")]
    try:
        result = subprocess.run(
            pi_command(command, tmp_path / "ns"),
            env=pi_env(FAKEPI_SAMPLES=str(tower), STICKTABLE_PI_CALIBRATION=str(calibration)),
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as late:
        shown = (late.stdout or b"").decode(errors="replace")[-3000:]
        raise AssertionError(f"the game did not end in {GAME_TIMEOUT_S} s:\n{shown}") from None
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "board pi-" in result.stdout  # it was the Pi's board that played
    journal = str(tmp_path / "journal.sqlite")
    assert_scored_as_scripted(journal, script)
    assert_no_board_event_twice(journal)
