"""The ESP32 board (firmware/tablefw/board_esp32.py) and the board pick of firmware/main.py on
fake machine/neopixel modules (tests/firmware/mpfakes_esp32) and datasheet-like fake HX711
chips (tests/firmware/mpfakes/fake_hx711.py).

The board's clock is the fake chips' clock (board_base.time and hx711.time are replaced), so
"a fault within a second" is measured in the chips' time, and "never a hang" is a bound on the
pin accesses (1 us of chip time each) one read_sample call makes.
"""

import json
from pathlib import Path

import pytest
from micropython_runner import SOURCE_HEAP

FAKES = Path(__file__).parent / "mpfakes_esp32"
RP2_FAKES = Path(__file__).parent / "mpfakes_rp2"
HX711_FAKES = Path(__file__).parent / "mpfakes"
MAIN = Path(__file__).resolve().parents[2] / "firmware" / "main.py"

SCRIPT = r"""
import array, asyncio, json, micropython, time
import machine
import tablefw.board_base as board_base
import tablefw.hx711 as hx711
from fake_hx711 import bus
from tablefw import pins_esp32 as pins, rings
from tablefw.app import App, NO_SAMPLE
from tablefw.board_base import FAULT_CELLS, FAULT_ACCEL, WDT_MS
from tablefw.detect import MISSING

VALUES = [[100000, 100003], [-100000, -100004], [8388000, 8388002], [5, 7]]
clock, chips, sck, douts = bus(VALUES, phases=[0, 3000, 6000, 9000])


class ChipTime:
    # The board's `time`: the fake chips' clock.
    def __init__(self):
        self.ticks_ms = clock.ms
        self.ticks_diff = time.ticks_diff


class Tally:
    # Stands for a fake chip's record lists: counts without allocating (heap_lock).
    def __init__(self):
        self.n = 0

    def append(self, v):
        self.n += 1


board_base.time = ChipTime()
hx711.time = board_base.time
machine.hooks[pins.HX711_SCK] = sck
for n, pin in zip(pins.HX711_DOUT, douts):
    machine.hooks[n] = pin
for i, v in enumerate((5, -7, 1003)):  # the accelerometer's registers, mg << 4
    raw = (v << 4) & 0xFFFF
    machine.I2C.regs[0x28 + 2 * i] = raw & 0xFF
    machine.I2C.regs[0x29 + 2 * i] = raw >> 8
machine.cause[0] = machine.WDT_RESET

from tablefw.board_esp32 import ESP32Board

board = ESP32Board()
res = {"info": board.info, "config": board.config, "paced": board.paced}
res["i2c"] = machine.I2C.made[-1]
res["np"] = [board._np.pin.n, board._np.n]
res["pulls"] = [machine.pulls[n] == machine.Pin.PULL_UP for n in pins.BUTTONS]
res["wdt"] = [w.timeout for w in machine.wdts] == [WDT_MS]
cells = array.array("i", [0] * 4)
accel = array.array("i", [0, 0, 0])
longest = [0]


def read():
    # One read_sample call; the chips' time it took (1 us per pin access) is its cost.
    t0 = clock.us
    t = board.read_sample(cells, accel)
    if clock.us - t0 > longest[0]:
        longest[0] = clock.us - t0
    return t


def until(cond, limit_ms, step_us=1000):
    # Move the chips' time on until cond(t) is true for a read_sample result; its time in ms.
    start = clock.us
    while clock.us - start < limit_ms * 1000:
        clock.advance(step_us)
        t = read()
        if cond(t):
            return (clock.us - start) // 1000
    return None


res["empty"] = read() == NO_SAMPLE
res["first_ms"] = until(lambda t: t >= 0, 500)  # after the chips settle (hx711.SETTLE_MS)
res["cells"] = list(cells)
res["accel"] = list(accel)
res["faults"] = board.faults
n = 0
while n < 40:
    clock.advance(1000)
    if read() >= 0:
        n += 1
res["irq"] = [machine.irq[0] == machine.irq[1] > 0, machine.irq[2], machine.unmasked_high[0]]
res["sck_high_us"] = max(c.max_high_us for c in chips)
res["power_downs"] = sum(c.power_downs for c in chips)
res["midconversion"] = sum(c.midconversion for c in chips)
res["gain_pulses"] = sorted(set(chips[0].gain_pulses))
machine.levels[pins.BUTTONS[1]] = 0
machine.levels[pins.BUTTONS[7]] = 0
res["buttons"] = board.buttons()
machine.levels[pins.BUTTONS[1]] = 1
machine.levels[pins.BUTTONS[7]] = 1
board.watchdog_feed()
res["feeds"] = machine.feeds[0]

# The heap: 40 samples read with the heap locked (the fake chips' lists cannot grow there).
for chip in chips:
    chip.read_delays = Tally()
    chip.gain_pulses = Tally()
got = 0
micropython.heap_lock()
try:
    for _ in range(600):
        clock.advance(1000)
        if board.read_sample(cells, accel) >= 0:
            board.buttons()
            got += 1
    res["heap_lock"] = got
except MemoryError:
    res["heap_lock"] = "allocated"
finally:
    micropython.heap_unlock()

# The accelerometer stops answering: the `accel` fault, the last reading kept; then back.
machine.I2C.dead = True
until(lambda t: t >= 0, 100)
res["accel_dead"] = [board.faults, list(accel)]
machine.I2C.dead = False
res["accel_back_ms"] = until(lambda t: not board.faults & FAULT_ACCEL, 3000)

# Chip 3 (index 2) dies: the others go on without it, the `cells` fault within a second.
dead_at = clock.us
chips[2].dead = True
longest[0] = 0
fault_ms = until(lambda t: board.faults & FAULT_CELLS, 2000)
res["dead"] = [fault_ms, board._bus.dead, list(cells), longest[0]]
until(lambda t: t >= 0, 100)
res["dead_cells"] = list(cells)
chips[2].dead = False
res["revived_ms"] = until(lambda t: not board.faults & FAULT_CELLS, 2000)
until(lambda t: t >= 0, 100)
res["revived_cells"] = list(cells)
for chip in chips:  # every chip dead: no sample ever, the fault, and still no call waits
    chip.dead = True
longest[0] = 0
res["all_dead"] = [until(lambda t: t >= 0, 1500), board.faults & FAULT_CELLS, longest[0]]
for chip in chips:
    chip.dead = False

# The rings: the app's own renderer, the brightest modes; the chain gets the capped frame.
app = App(board)
res["app"] = [app.seats, len(app.frame)]
sums = []


async def rings_for(mode):
    app.display.update({"mode": mode, "sc": [12] * 8, "scale": 12, "win": list(range(8))})
    task = asyncio.create_task(app.render_rings())
    await asyncio.sleep_ms(60)
    task.cancel()
    sums.append([sum(board._np.sent), max(board._np.sent)])


for mode in ("over", "topple", "idle"):
    asyncio.run(rings_for(mode))
res["leds"] = [sums, board._np.writes, rings.SUM_CAP, len(board._np.buf)]

# An accelerometer absent at start: the fault, then configured before its first read.
machine.I2C.dead = True
b2 = ESP32Board(watchdog=False)
absent = b2.faults
machine.I2C.dead = False
machine.I2C.regs[0x20] = 0
for _ in range(100):
    clock.advance(1000)
    if b2.read_sample(cells, accel) >= 0:
        break
res["absent"] = [absent, b2.faults, machine.I2C.regs[0x20], len(machine.wdts)]
res["masks"] = [FAULT_CELLS, FAULT_ACCEL, MISSING]
print(json.dumps(res))
"""


def test_esp32_board_on_fakes(mp, tmp_path):
    script = tmp_path / "esp32_script.py"
    script.write_text(SCRIPT)
    # SOURCE_HEAP: compiling the whole firmware from source on the board's heap fragments it;
    # the board runs precompiled .mpy (make firmware), whose RAM bench_ram.py measures.
    proc = mp(script, heap=SOURCE_HEAP, extra_path=[FAKES, HX711_FAKES])
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    fault_cells, fault_accel, missing = res["masks"]
    info = res["info"]
    assert info["board"] == "esp32-240ac4123456" and len(info["boot"]) == 8
    assert info["reset"] == "watchdog" and info["seats"] == 8 and info["cells"] == 4
    assert res["config"]["stick_g"] == 8.0 and len(res["config"]["counts_per_gram"]) == 4
    assert res["paced"] is False
    assert res["i2c"] == [0, 22, 21, 400_000]  # I2C0, SCL GPIO22, SDA GPIO21
    assert res["np"] == [13, 96] and all(res["pulls"]) and res["wdt"]
    # Four chips read: each its own value (the first readings, or medians of 3 once there).
    assert res["empty"] is True and 65 <= res["first_ms"] <= 100
    assert res["cells"][0] in (100000, 100003) and res["cells"][1] in (-100000, -100004)
    assert res["cells"][2] in (8388000, 8388002) and res["cells"][3] in (5, 7)
    assert res["accel"] == [5, -7, 1003] and res["faults"] == 0
    # Interrupts off around every clock-high and only there; never a power-down.
    assert res["irq"] == [True, 0, 0]
    assert res["sck_high_us"] < 60 and res["power_downs"] == 0
    assert res["midconversion"] == 0 and res["gain_pulses"] == [25]
    assert res["buttons"] == (1 << 1) | (1 << 7)  # active low, bit i = seat i
    assert res["feeds"] == 1
    assert isinstance(res["heap_lock"], int) and res["heap_lock"] >= 40  # ~80/s for 600 ms
    # I2C error: the accel fault, the last good reading kept; cleared on the next retry.
    assert res["accel_dead"] == [fault_accel, [5, -7, 1003]]
    assert res["accel_back_ms"] is not None and res["accel_back_ms"] <= 1100
    # A dead chip: the fault within a second (of the chips' time), no call waiting for it.
    fault_ms, dead_mask, _, longest_us = res["dead"]
    # (CELL_TIMEOUT_MS after its last reading, which came at most one period before it died)
    assert fault_ms is not None and 950 <= fault_ms <= 1001 and dead_mask == 1 << 2
    assert longest_us < 1000  # the most one read_sample call spent (a reading: ~300 accesses)
    assert res["dead_cells"][2] == missing and res["dead_cells"][0] in (100000, 100003)
    assert res["revived_ms"] is not None and res["revived_ms"] <= 200
    assert res["revived_cells"][2] in (8388000, 8388002)
    assert res["all_dead"][:2] == [None, fault_cells] and res["all_dead"][2] < 1000
    # LEDs: what reaches the chain is the app's frame, within the power cap, in every mode.
    sums, writes, sum_cap, nbuf = res["leds"]
    assert res["app"] == [8, nbuf] and writes >= 3
    assert all(0 < total <= sum_cap for total, _ in sums)
    assert sums[0][0] > sum_cap // 2  # the cap scales down, it does not blank
    assert res["absent"] == [fault_accel, 0, 0x57, 1]  # watchdog=False: none started


MAIN_SCRIPT = r"""
import sys, json


class Platform:
    # Stands for `sys` in main.py: another platform, the same streams.
    def __init__(self, name):
        self.platform = name
        self.stdin = sys.stdin
        self.stdout = sys.stdout


real_sys = sys
sys.modules["sys"] = Platform(real_sys.argv[1])
import machine
from tablefw import app

started = []
app.main = lambda board: started.append(type(board).__name__)
if real_sys.argv[2] == "held":
    machine.levels[int(real_sys.argv[3])] = 0
with open(real_sys.argv[4]) as f:
    exec(f.read(), {"__name__": "main"})
real_sys.modules["sys"] = real_sys
print(json.dumps(started))
"""


@pytest.mark.parametrize(
    "platform, fakes, seat1, board",
    [
        ("esp32", FAKES, 18, "ESP32Board"),
        ("rp2", RP2_FAKES, 10, "RP2Board"),
        ("linux", FAKES, 18, None),
    ],
)
@pytest.mark.parametrize("button", ["free", "held"])
def test_main_picks_the_board_by_platform(mp, tmp_path, platform, fakes, seat1, board, button):
    script = tmp_path / "main_script.py"
    script.write_text(MAIN_SCRIPT)
    args = (platform, button, str(seat1), str(MAIN))
    proc = mp(script, *args, heap=SOURCE_HEAP, extra_path=[fakes, HX711_FAKES])
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    started = json.loads(lines[-1])
    if board is None:
        assert started == [] and "no board driver for platform linux" in lines[0]
    elif button == "held":  # seat 1's button (the board's own pin) held: the REPL, no app
        assert started == [] and "seat 1 button held" in lines[0]
    else:
        assert started == [board]
