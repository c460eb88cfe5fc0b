"""`sticktable run ... --scoreboard`: the scoreboard in the terminal beside a simulated game,
and one-line errors for a scoreboard that cannot be had."""

import subprocess
import sys

import pytest

STICKTABLE = [sys.executable, "-m", "sticktable"]


def run(tmp_path, *args, timeout=180):
    journal = tmp_path / "journal.sqlite"
    return subprocess.run(
        [*STICKTABLE, "run", *args, "--journal", str(journal)],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_sim_game_shows_the_scoreboard_in_the_terminal(tmp_path):
    result = run(
        tmp_path, "--sim", "--seed", "3", "--players", "Ann,Bo", "--house", "end_score=1",
        "--scoreboard", "sim",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "exactly as scripted" in result.stdout
    boards = [line.split()[1:] for line in result.stdout.splitlines() if "scoreboard" in line]
    assert boards[0] == ["Ann", "●" * 12, "Bo", "●" * 12]  # idle: every LED dim white
    winner = next(line.split()[0] for line in result.stdout.splitlines() if "winner" in line)
    last = dict(zip(boards[-1][::2], boards[-1][1::2], strict=True))
    assert last[winner] == "g" * 12  # the game is over: the winner's LEDs green
    assert all(leds != "g" * 12 for name, leds in last.items() if name != winner)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("neopixel:18", "use neopixel:PIN,COUNT"),
        ("lamp", "use neopixel:PIN,COUNT"),
        ("neopixel:40,60", "BCM GPIO 0-27"),
        ("neopixel:18,60", "no NeoPixel scoreboard on GPIO18"),  # this PC is no Raspberry Pi
    ],
)
def test_a_scoreboard_that_cannot_be_had_is_one_line(tmp_path, spec, words):
    result = run(tmp_path, "--sim", "--players", "Ann,Bo", "--scoreboard", spec, timeout=60)
    assert result.returncode != 0
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr and "game 1" not in result.stdout
