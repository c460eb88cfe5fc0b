"""What the boards keep across a reset (firmware/tablefw/keep.py) for the hello's `prev`: on the
RP2040 in the watchdog scratch registers, on the ESP32 in RTC memory (fake `machine` modules
that behave like the chips: a watchdog or soft reset keeps them, a power-on clears them), and
through the link: the last event sent, the last acknowledged, the kinds not acknowledged."""

import json
import random
import subprocess
import time
from pathlib import Path

import pytest
from micropython_runner import MICROPYTHON, micropython_env

from tablefw import keep

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


SAVING = r"""
import sys
from tablefw import keep

store = keep.FileStore(sys.argv[1])
keeper = keep.Keeper(store, "0badcafe")
print("saving")
s = 0
while True:  # as a board sending events as fast as it can, until it is reset
    s += 1
    keeper.save(s, s - 1, keep.kind_bit("fell"))
"""


def test_a_reset_in_the_middle_of_a_save_leaves_a_whole_record(tmp_path):
    # The simulated board keeps its record in a file; its resets are SIGKILLs that may land
    # anywhere in a save. Each time, the file must hold a whole record (the one before or the
    # new one), never an emptied or half-written one (the next hello would then have no prev).
    script = tmp_path / "saving.py"
    script.write_text(SAVING)
    store = tmp_path / "scratch"
    rng = random.Random(16)
    last = 0
    for _ in range(25):
        proc = subprocess.Popen(
            [MICROPYTHON, str(script), str(store)],
            stdout=subprocess.PIPE,
            env=micropython_env(None),
        )
        assert proc.stdout.readline() == b"saving\n"
        time.sleep(rng.uniform(0.001, 0.02))
        proc.kill()
        proc.wait()
        proc.stdout.close()
        record = keep.unpack(keep.FileStore(str(store)).read())
        assert record is not None, store.read_bytes()
        assert record[0] == "0badcafe" and record[1] >= 0 and record[3] in ([], ["fell"])
        last = max(last, record[1])
    assert last > 0  # the kills did land among the saves
