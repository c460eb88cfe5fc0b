"""What the boards keep across a reset (firmware/tablefw/keep.py) for the hello's `prev`: on the
RP2040 in the watchdog scratch registers, on the ESP32 in RTC memory (fake `machine` modules
that behave like the chips: a watchdog or soft reset keeps them, a power-on clears them), and
through the link: the last event sent, the last acknowledged, the kinds not acknowledged."""

import json
from pathlib import Path

import pytest

FAKES = Path(__file__).parent
SCRIPT = r"""
import json, sys
import machine
from tablefw import keep
from tablefw.link import Link

PLATFORM = sys.argv[1]
if PLATFORM == "rp2":
    from tablefw.board_rp2 import RP2Board as Board
else:
    from tablefw.board_esp32 import ESP32Board as Board

res = {}


def boot_board():
    board = Board(watchdog=False)
    sent = []
    link = Link(sent.append, lambda m: None, dict(board.info), keep=board.keep)
    return board, link


board, link = boot_board()
res["first"] = board.info.get("prev")
link.event("fell", t=1, n=1, g=80)
link.event("placed", t=2, g=81)
link.event("button", t=3, seat=1, long=False)
from tablefw import proto
link.feed(proto.encode({"k": "ack", "s": 0, "a": 1, "b": board.info["boot"]}))
res["boot1"] = board.info["boot"]

machine.reset(machine.WDT_RESET)
board2, link2 = boot_board()
res["after_watchdog"] = board2.info.get("prev")
res["reset"] = board2.info["reset"]
res["boot2"] = board2.info["boot"]

machine.reset(machine.WDT_RESET)  # a second reset before any event of boot 2
board3, link3 = boot_board()
res["again"] = board3.info.get("prev")

machine.reset(machine.PWRON_RESET)
board4, link4 = boot_board()
res["after_power_on"] = board4.info.get("prev")
res["garbage"] = keep.unpack([1, 2, 3, 4])
print(json.dumps(res))
"""


@pytest.mark.parametrize("platform", ["rp2", "esp32"])
def test_the_link_state_survives_a_watchdog_reset_not_a_power_on(mp, tmp_path, platform):
    script = tmp_path / "keep_script.py"
    script.write_text(SCRIPT)
    fakes = [FAKES / f"mpfakes_{platform}", FAKES / "mpfakes"]
    proc = mp(script, platform, extra_path=fakes)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    assert res["first"] is None  # a power-on: nothing kept
    # Three events sent, the first acknowledged: 2 and 3 (placed, button) would be lost.
    assert res["after_watchdog"] == [res["boot1"], 3, 1, ["placed", "button"]]
    assert res["reset"] == "watchdog"
    assert res["again"] == [res["boot2"], 0, 0, []]
    assert res["after_power_on"] is None
    assert res["garbage"] is None
