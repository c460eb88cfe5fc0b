"""The RP2040 board (firmware/tablefw/board_rp2.py) on fake machine/rp2/neopixel modules.

The real board cannot run here; this checks the module imports and wires the Board interface:
PIO words -> cells, I2C -> accel, pins -> buttons, frames -> NeoPixel buffer, faults, watchdog.
"""

import json
from pathlib import Path

from micropython_runner import SOURCE_HEAP

FAKES = Path(__file__).parent / "mpfakes_rp2"
HX711_FAKES = Path(__file__).parent / "mpfakes"

SCRIPT = r"""
import array, json, micropython
import machine, rp2
from tablefw import pins
from tablefw.app import App, NO_SAMPLE
from tablefw.board_rp2 import RP2Board, FAULT_CELLS, FAULT_ACCEL

def pio_words(values):
    # What the PIO program pushes: per clock one 4-bit group (bit k = chip k), 24 bits a word.
    bits = [v & 0xFFFFFF for v in values]
    words = [0, 0, 0, 0]
    for i in range(24):
        nib = 0
        for k in range(4):
            nib |= ((bits[k] >> (23 - i)) & 1) << k
        words[i // 6] = (words[i // 6] << 4) | nib
    return words

for i, v in enumerate((5, -7, 1003)):  # the accelerometer's registers, mg << 4
    raw = (v << 4) & 0xFFFF
    machine.I2C.regs[0x28 + 2 * i] = raw & 0xFF
    machine.I2C.regs[0x29 + 2 * i] = raw >> 8

import time
board = RP2Board()
time.sleep_ms(70)  # the chips settle after power-up (hx711.SETTLE_MS): readings dropped
sm = rp2.machines[0]
res = {"info": board.info, "config": board.config, "active": sm.active(), "freq": sm.freq,
       "kw": sm.program[1]}
cells = array.array("i", [0] * 4)
accel = array.array("i", [0, 0, 0])
res["empty"] = board.read_sample(cells, accel) == NO_SAMPLE
sm.fifo.extend(pio_words([100000, -100000, 8388606, -8388607]))
res["t"] = board.read_sample(cells, accel) >= 0
res["cells"] = list(cells)
res["accel"] = list(accel)
res["faults"] = board.faults
machine.levels[pins.BUTTONS[1]] = 0
machine.levels[pins.BUTTONS[7]] = 0
res["buttons"] = board.buttons()
frame = bytearray(range(256)) + bytearray(32)
board.show(frame)
res["np"] = [board._np.n, board._np.buf == frame, board._np.writes]
board.watchdog_feed()
res["feeds"] = len(machine.feeds)

def locked():
    sm.fifo.extend(pio_words([1, 2, 3, 4]) * 20)
    micropython.heap_lock()
    try:
        while board.read_sample(cells, accel) != NO_SAMPLE:
            board.buttons()
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        micropython.heap_unlock()
    return result

res["heap_lock"] = locked()
sm.fifo.extend(pio_words([1, 2, 8388607, -8388608]))  # rails: no reading from cells 2, 3
board.read_sample(cells, accel)
res["rails"] = list(cells)
machine.I2C.dead = True
sm.fifo.extend(pio_words([1, 2, 3, 4]))
board.read_sample(cells, accel)
res["accel_dead"] = board.faults
res["accel_kept"] = list(accel)
machine.I2C.dead = False

# Chip 3 (index 2) stops answering: the PIO program (which waits for all four) gets nothing.
# The pins now lead to datasheet-like fake chips; real time and the chips' time run together.
from fake_hx711 import bus
import time
VALUES = [[1000, 1003], [2000, 2005], [3000, 3007], [4000, 4001]]
clock, chips, sck, douts = bus(VALUES)
machine.hooks[pins.HX711_SCK] = sck
for n, pin in zip(pins.HX711_DOUT, douts):
    machine.hooks[n] = pin
chips[2].dead = True
start = time.ticks_ms()
fell_back = fault = resumed = None
longest = 0
while time.ticks_diff(time.ticks_ms(), start) < 1500:
    clock.advance(1000)
    t0 = time.ticks_us()
    t = board.read_sample(cells, accel)
    longest = max(longest, time.ticks_diff(time.ticks_us(), t0))
    now = time.ticks_diff(time.ticks_ms(), start)
    if fell_back is None and board._bus is not None:
        fell_back = now
    if fault is None and board.faults & FAULT_CELLS:
        fault = now
    if resumed is None and t >= 0:
        resumed = now
        res["resumed_cells"] = list(cells)
    time.sleep_ms(1)
res["last_cells"] = list(cells)
res["dead"] = [fell_back, fault, resumed, sm.active(), board._bus.dead]
res["longest_read_us"] = longest
res["irq_pairs"] = machine.irq[0] == machine.irq[1] > 0

# An accelerometer absent at start: the fault, then configured before its first read.
machine.hooks.clear()
machine.I2C.dead = True
b2 = RP2Board(watchdog=False)
time.sleep_ms(70)
absent = b2.faults
machine.I2C.dead = False
machine.I2C.regs[0x20] = 0
rp2.machines[-1].fifo.extend(pio_words([1, 2, 3, 4]))
b2.read_sample(cells, accel)
res["absent"] = [absent, b2.faults, machine.I2C.regs[0x20]]
app = App(board)
res["app_seats"] = app.seats
res["masks"] = [FAULT_CELLS, FAULT_ACCEL]
print(json.dumps(res))
"""


def test_rp2_board_on_fakes(mp, tmp_path):
    script = tmp_path / "rp2_script.py"
    script.write_text(SCRIPT)
    # SOURCE_HEAP: compiling the whole firmware from source on the board's heap fragments it;
    # the board runs precompiled .mpy (make firmware), whose RAM bench_ram.py measures.
    proc = mp(script, heap=SOURCE_HEAP, extra_path=[FAKES, HX711_FAKES])
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    info = res["info"]
    assert info["board"] == "rp2-e6613852832c1a2f" and len(info["boot"]) == 8
    assert info["reset"] == "power-on" and info["seats"] == 8 and info["cells"] == 4
    assert res["config"]["stick_g"] == 8.0 and len(res["config"]["counts_per_gram"]) == 4
    assert res["active"] is True and res["freq"] == 1_000_000
    assert res["kw"]["push_thresh"] == 24 and res["kw"]["autopush"] is True
    assert res["empty"] is True and res["t"] is True
    assert res["cells"] == [100000, -100000, 8388606, -8388607]
    assert res["accel"] == [5, -7, 1003] and res["faults"] == 0
    assert res["buttons"] == (1 << 1) | (1 << 7)  # active low, bit i = seat i
    assert res["np"] == [96, True, 1]
    assert res["feeds"] == 1
    assert res["heap_lock"] == "ok"
    fault_cells, fault_accel = res["masks"]
    assert res["rails"][2:] == [-(2**30)] * 2  # hx711.Validator: MISSING
    assert res["accel_dead"] == fault_accel  # cells fine, accelerometer failing
    fell_back, fault, resumed, pio_on, dead = res["dead"]
    assert 480 <= fell_back <= 600  # PIO given up after DEAD_MS without a reading
    assert 950 <= fault <= 1100  # the `cells` fault within about a second, never a hang
    assert fell_back < resumed <= 1200 and pio_on is False and dead == 1 << 2
    assert res["resumed_cells"][2] == -(2**30)
    assert res["last_cells"][2] == -(2**30) and res["last_cells"][0] in (1000, 1003)
    assert res["longest_read_us"] < 50_000  # no read_sample call waits for the dead chip
    assert res["irq_pairs"]  # the GPIO reader: interrupts off and on around each clock-high
    assert res["accel_kept"] == [5, -7, 1003]  # the last good reading stays
    assert res["app_seats"] == 8
    assert res["absent"] == [fault_accel, 0, 0x57]
