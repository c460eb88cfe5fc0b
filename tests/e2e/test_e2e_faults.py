"""A sensor failing mid-game: the board reports it, the rings show it, the daemon pauses.

The firmware runs under MicroPython on the simulated table (a pty, pyserial); the daemon is the
real one in process: the table service (`sticktable run`'s) over a `BoardLink`. A load
cell stops answering for two seconds, later the accelerometer's reads fail for a moment; seat
buttons pressed meanwhile must be journaled as held, not applied, and play must go on when the
sensors answer again.
"""

from sticktable.engine import Game
from sticktable.journal import Journal
from sticktable.link import BoardLink
from sticktable.sim.registry import Simulation
from sticktable.sim.runner import SimTable, sensor_fault
from sticktable.sim.tower import Sample
from sticktable.table import Table
from sticktable.terminal import TerminalOutput

PLAYERS = ["Ann", "Bo", "Cy"]
HEADER = {"game": "stick-stack", "players": PLAYERS}
META = {
    "rate_hz": 80,
    "cells": 4,
    "counts_per_gram": [2000.0, 2100.0, -1900.0, 2200.0],
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
    "stick_g": 8.0,
    "sticks": 36,
}
ZERO = (120000, -40000, 5000, 250000)
PERIOD_MS = 12
CELL_SILENT = (3000, 5000)  # cell 1 gives no reading
ACCEL_FAILS = (5600, 5900)
PRESSES = {2400: 0, 4400: 2, 5700: 1}  # t_ms -> seat (short presses)
STICK_AT = 6500  # one 8 g stick placed on the tower
END_MS = 8500


def table_samples():
    stick = tuple(z + round(2.0 * c) for z, c in zip(ZERO, META["counts_per_gram"], strict=True))
    for t in range(PERIOD_MS, END_MS, PERIOD_MS):
        pressed = any(at <= t < at + 96 for at in PRESSES)
        seat = next((s for at, s in PRESSES.items() if at <= t < at + 96), 0)
        yield Sample(
            t, stick if t >= STICK_AT else ZERO, 2, -3, 1001, (1 << seat) if pressed else 0
        )


def is_fault_frame(frame: bytes) -> bool:
    """Every LED the same amber (the rings' fault blink, lit half)."""
    g, r, b = frame[:3]
    return frame == bytes((g, r, b)) * (len(frame) // 3) and r > g > 0 and b == 0


def test_a_failing_sensor_pauses_the_game_until_it_answers(tmp_path):
    samples = sensor_fault(table_samples(), *CELL_SILENT, cells=[1])
    samples = sensor_fault(samples, *ACCEL_FAILS, accel=True)
    frames: list[bytes] = []
    said: list[str] = []
    shown: list[dict] = []
    with (
        Journal(tmp_path / "journal.sqlite") as journal,
        SimTable(samples, META, speed=2, seats=3, on_frame=frames.append) as table,
    ):
        link = BoardLink.open(table.port)
        try:
            game_id = journal.new_game(HEADER, "sim")

            send = link.send

            def show(kind, **fields):
                if kind == "show":
                    shown.append(fields)
                return send(kind, **fields)

            link.send = show
            service = Table(journal, game_id, Game(HEADER), link, Simulation(table))
            service.subscribe(TerminalOutput(say=said.append))
            service.run()
        finally:
            link.close()
        facts = journal.facts(game_id)
        events = journal.events(game_id)
        assert table.resets == 0 and table.error is None

    faults = [f["message"] for f in facts if f["message"]["k"] == "fault"]
    assert [(f["what"], f["ok"]) for f in faults] == [
        ("cells", False),
        ("cells", True),
        ("accel", False),
        ("accel", True),
    ]
    # Reported within a second of the cell's last reading (board time), and as it answers.
    last_reading = CELL_SILENT[0] - PERIOD_MS
    assert 1000 < faults[0]["t"] - last_reading <= 1000 + PERIOD_MS
    assert CELL_SILENT[1] <= faults[1]["t"] < CELL_SILENT[1] + PERIOD_MS
    assert ACCEL_FAILS[0] <= faults[2]["t"] < ACCEL_FAILS[0] + PERIOD_MS
    assert ACCEL_FAILS[1] <= faults[3]["t"] < ACCEL_FAILS[1] + PERIOD_MS

    # The presses made while a sensor failed are journaled as held; play went on after each.
    buttons = [
        (f["message"]["seat"], f["decision"]) for f in facts if f["message"]["k"] == "button"
    ]
    assert [seat for seat, _ in buttons] == [0, 2, 1]
    assert not buttons[0][1].startswith("held")
    assert all(decision.startswith("held: paused (sensor fault") for _, decision in buttons[1:])
    assert [(e["type"], e.get("player")) for e in events] == [("take", "Ann"), ("placed", None)]
    assert all(e["src"] == "board" for e in events)

    # The rings: the daemon showed the fault and then play again; the board blinked amber.
    modes = [s["mode"] for s in shown]
    assert modes.index("fault") < len(modes) - 1 and modes[-1] == "play"
    assert modes.count("fault") >= 2  # once per fault
    assert any(is_fault_frame(f) for f in frames)
    assert not is_fault_frame(frames[-1]) and any(frames[-1])
    assert any("sensor fault: cells" in line for line in said)
