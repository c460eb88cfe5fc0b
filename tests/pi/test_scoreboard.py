"""The room scoreboard: the pixels it puts on the wire, through Blinka and the CircuitPython
NeoPixel library down to the (fake) rpi_ws281x driver, are the firmware's own ring drawing
(run here under the real MicroPython) for the same display, capped for the pin map's supply."""

import json
import subprocess
import sys

import pytest
from pienv import ROOT, pi_command, pi_env

PINMAP = json.loads((ROOT / "hardware" / "pinmap.json").read_text())
PI = PINMAP["profiles"]["pi"]
SEATS = 3

DISPLAYS = [  # (t_ms, the `show` command's fields)
    (0, {"mode": "idle"}),
    (0, {"sc": [2, 7, 11], "scale": 11, "turn": 1, "mode": "play", "win": [], "mk": [1, 0, 0]}),
    (0, {"sc": [2, 7, 11], "scale": 11, "turn": 1, "mode": "topple", "win": []}),
    (130, {"sc": [2, 7, 11], "scale": 11, "turn": 1, "mode": "topple", "win": []}),
    (0, {"sc": [2, 7, 11], "scale": 11, "turn": None, "mode": "over", "win": [2]}),
    (0, {"sc": [], "scale": 1, "mode": "fault"}),
]

SCOREBOARD = """
import json, sys
import fakepi
from sticktable.scoreboard import NeoPixelStrip, Scoreboard, pi_sum_cap

count, seats = int(sys.argv[1]), int(sys.argv[2])
board = Scoreboard(seats, count, NeoPixelStrip(int(sys.argv[3]), count), pi_sum_cap(count))
out = {"limit": board.limit, "per_seat": board.per_seat, "wire": [], "gpio": []}
for t_ms, fields in json.loads(sys.stdin.read()):
    board.show(**fields)
    board.draw(t_ms)
    gpio, wire = fakepi.world().wire_frames[-1]
    out["gpio"].append(gpio)
    out["wire"].append(wire.hex())
print(json.dumps(out))
"""

RINGS = """
import json, sys
from tablefw import rings

count, seats, per_seat, limit = [int(a) for a in sys.argv[1:5]]
display = rings.Display(seats)
frame = bytearray(3 * count)
for t_ms, fields in json.loads(sys.stdin.read()):
    display.update(fields)
    rings.render(display, t_ms, frame, per_seat, limit)
    print(frame.hex() if hasattr(frame, "hex") else "".join("%02x" % b for b in frame))
"""


def scoreboard_wire(tmp_path, count: int) -> dict:
    script = tmp_path / "scoreboard.py"
    script.write_text(SCOREBOARD)
    pin = str(PI["pins"]["SCOREBOARD"])
    result = subprocess.run(
        pi_command([sys.executable, str(script), str(count), str(SEATS), pin], tmp_path / "ns"),
        env=pi_env(),
        input=json.dumps(DISPLAYS),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def firmware_frames(mp, tmp_path, count: int, per_seat: int, limit: int) -> list[str]:
    script = tmp_path / "rings.py"
    script.write_text(RINGS)
    args = (str(count), str(SEATS), str(per_seat), str(limit))
    result = mp(script, *args, input=json.dumps(DISPLAYS).encode())
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.decode().split()


def colours(wire_hex: str) -> list[tuple[int, int, int]]:
    """What WS2812s show for these wire bytes: they take green, then red, then blue."""
    wire = bytes.fromhex(wire_hex)
    return [(wire[i + 1], wire[i], wire[i + 2]) for i in range(0, len(wire), 3)]


@pytest.mark.parametrize("count", [SEATS * 12, 300])
def test_scoreboard_pixels_are_the_firmware_rings_drawing(mp, tmp_path, count):
    got = scoreboard_wire(tmp_path, count)
    assert got["per_seat"] == count // SEATS
    assert set(got["gpio"]) == {PI["pins"]["SCOREBOARD"]}
    expected = firmware_frames(mp, tmp_path, count, got["per_seat"], got["limit"])
    assert got["wire"] == expected


def test_the_strip_shows_the_colours_in_ws2812_order(tmp_path):
    wire = scoreboard_wire(tmp_path, SEATS * 12)["wire"]
    play, topple = colours(wire[1]), colours(wire[2])
    assert play[0] == (0, 0, 40)  # seat 1's score: blue
    assert play[11][0] == play[11][1] > 0 == play[11][2]  # seat 1's mark: yellow
    assert play[12 + 8] == (90, 90, 90)  # seat 2: 7 of 11 points = 8 LEDs, then its turn head
    assert topple[0][0] > 0 == topple[0][1] == topple[0][2]  # the topple flash: red, not green
    amber = colours(wire[5])[0]
    assert amber[0] > amber[1] > 0 == amber[2]


def test_a_long_strip_is_capped_for_the_pi_supply(tmp_path):
    count = 300
    got = scoreboard_wire(tmp_path, count)
    leds = PINMAP["table"]["seats"] * PINMAP["table"]["leds_per_ring"]
    rings_ma = 300 + leds * 1.0  # the table's rings at their own cap, plus their idle current
    for wire_hex in got["wire"]:
        drawn_ma = sum(bytes.fromhex(wire_hex)) * 20 / 255 + count * 1.0
        assert drawn_ma + rings_ma <= 0.9 * PI["supply"]["leds_ma"]
    topple = bytes.fromhex(got["wire"][2])
    assert max(topple) < 140  # the red flash at full level would draw more: the cap acts
    assert sum(topple) <= got["limit"]


def test_closing_draws_the_display_shown_last_one_line_per_frame():
    """The game-over display comes a moment before the table closes the scoreboard: it is
    drawn all the same, each frame as one line through the terminal's writer (so a frame
    never lands inside a line another thread is printing)."""
    from sticktable.scoreboard import Scoreboard, TerminalStrip

    lines = []
    strip = TerminalStrip(["Ann", "Bo"], say=lines.append)
    board = Scoreboard(2, 24, strip, limit=10_000, clock=lambda: 0.0).start()
    board.show(sc=[5, 0], scale=5, turn=None, mode="over", win=[1])
    board.close()
    assert lines and all("\n" not in line for line in lines)
    assert lines[-1].split() == ["scoreboard", "Ann", "b" * 12, "Bo", "g" * 12]
