"""HX711 driver (firmware/tablefw/hx711.py) against datasheet-like pin fakes, under MicroPython:
reading four chips on one clock, the ~80/s data-ready timing, power-down and settling, gain
selection by pulse count, a chip that stops answering, the PIO word layout, and validation
(rails, bit errors, stuck chips) without allocation."""

import json
from pathlib import Path

FAKES = Path(__file__).parent / "mpfakes"

PRELUDE = r"""
import array, json, micropython
from fake_hx711 import bus, GARBAGE
from tablefw.hx711 import (HX711Bus, Validator, unpack_pio, signed24, MISSING, SETTLE_MS,
                           DEAD_MS, STUCK_N, PULSES_A64, PULSES_B32, PULSES_A128)

out = array.array("i", [0] * 4)
res = {}


def poll(hx, clock, ms, step_us=1000):
    # Call read() every step_us of fake time for ms; returns [(t_us, values)] of the readings.
    got = []
    end = clock.us + ms * 1000
    while clock.us < end:
        if hx.read(out):
            got.append((clock.us, list(out)))
        clock.advance(step_us)
    return got
"""

BASICS = r"""
VALUES = [[123456], [-1], [-8388608], [8388607]]
# Four chips on one clock, slightly out of phase: nothing is clocked until all have data.
clock, chips, sck, douts = bus(VALUES, phases=[0, 300, 900, 2000])
irq = {"off": 0, "on": 0}
def irq_off():
    irq["off"] += 1
    return 7
def irq_on(state):
    irq["on"] += state == 7
hx = HX711Bus(sck, douts, irq_off, irq_on, clock_ms=clock.ms)
res["early"] = hx.read(out)  # before the first conversion completes
clock.advance(12500 + 1000)
res["partial"] = hx.read(out)  # chip 3 (phase 2000 us) still converting
clock.advance(2000)
res["settling_at_start"] = hx.read(out)  # powered up just now: clocked out and dropped
clock.advance(SETTLE_MS * 1000)
res["first"] = hx.read(out) and list(out)
res["again"] = hx.read(out)  # the same conversion is never read twice
irq["off"] = irq["on"] = 0
# One second of polling every ms: the data-ready rate and when each read starts.
for c in chips:
    c.read_delays = []
got = poll(hx, clock, 1000)
res["per_second"] = len(got)
res["all_equal"] = all(v == [123456, -1, -8388608, 8388607] for _, v in got)
# Per read: the chip that became ready last was read at once (the others waited for it).
res["max_delay_us"] = max(min(c.read_delays[j] for c in chips) for j in range(len(got)))
res["pulses"] = sorted(set(p for c in chips for p in c.gain_pulses))
res["midconversion"] = sum(c.midconversion for c in chips)
res["max_high_us"] = max(c.max_high_us for c in chips)
res["irq"] = [irq["off"], irq["on"], 25 * len(got)]

# SCK held high > 60 us powers the chips down; after SCK falls they restart and their first
# 4 conversions are garbage: the driver clocks them out and drops them.
hx.power_down()
clock.advance(100)
res["down_dout"] = [d.value() for d in douts]
res["down_read"] = hx.read(out)
up_at = clock.us
reads_before = len(chips[0].gain_pulses)
hx.power_up()
got = poll(hx, clock, 200)
res["power_downs"] = [c.power_downs for c in chips]
res["dropped_while_settling"] = len(chips[0].gain_pulses) - reads_before - len(got)
res["first_after_us"] = got[0][0] - up_at
res["garbage_seen"] = any(GARBAGE in v or GARBAGE >> 1 in v for _, v in got)
res["after"] = got[-1][1]

# Gain by pulse count: 27 = A/64 (half the counts), 26 = channel B, 25 = A/128 again.
gains = {}
for name, pulses in (("a64", PULSES_A64), ("b32", PULSES_B32), ("a128", PULSES_A128)):
    before = len(chips[0].gain_pulses)
    hx.set_gain(pulses)
    got = poll(hx, clock, 300)
    gains[name] = {
        "pulses": chips[0].gain_pulses[before],
        "values": got[-1][1],
        "dropped": len(chips[0].gain_pulses) - before - len(got),
        "clean": all(v == got[-1][1] for _, v in got),
    }
res["gains"] = gains
print(json.dumps(res))
"""


def _run(mp, tmp_path, body, name):
    script = tmp_path / name
    script.write_text(PRELUDE + body)
    proc = mp(script, extra_path=[FAKES])
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    return json.loads(proc.stdout.decode().splitlines()[-1])


def test_reads_timing_power_down_settling_and_gain(mp, tmp_path):
    res = _run(mp, tmp_path, BASICS, "hx_basics.py")
    assert res["early"] is False and res["partial"] is False
    assert res["settling_at_start"] is False
    assert res["first"] == [123456, -1, -8388608, 8388607] and res["again"] is False
    # 80 conversions a second, each read once, started within a poll period of DOUT falling.
    assert 79 <= res["per_second"] <= 81 and res["all_equal"]
    assert res["max_delay_us"] <= 1000 + 200
    assert res["pulses"] == [25]  # channel A, gain 128
    assert res["midconversion"] == 0  # never clocked a chip that was converting
    assert res["max_high_us"] < 60
    off, on, pulses = res["irq"]
    assert off == on == pulses  # interrupts off only around each clock-high, every one
    assert res["down_dout"] == [1, 1, 1, 1] and res["down_read"] is False
    assert res["power_downs"] == [1] * 4
    assert res["dropped_while_settling"] >= 4  # the unsettled conversions were read and dropped
    assert res["first_after_us"] >= 4 * 12500
    assert res["garbage_seen"] is False
    assert res["after"] == [123456, -1, -8388608, 8388607]
    gains = res["gains"]
    assert gains["a64"]["pulses"] == 27 and gains["b32"]["pulses"] == 26
    assert gains["a128"]["pulses"] == 25
    assert gains["a64"]["values"] == [123456 >> 1, -1, -8388608 >> 1, 8388607 >> 1]
    assert gains["b32"]["values"] == [123456 >> 2, -1, -8388608 >> 2, 8388607 >> 2]
    assert gains["a128"]["values"] == [123456, -1, -8388608, 8388607]
    for g in gains.values():
        assert g["clean"] and g["dropped"] >= 4  # nothing unsettled ever comes out


DEAD = r"""
clock, chips, sck, douts = bus([[1000], [2000], [3000], [4000]])
hx = HX711Bus(sck, douts, clock_ms=clock.ms)
poll(hx, clock, 200)
chips[2].dead = True  # stops answering: DOUT never falls again
died = clock.us
longest = 0
got = []
end = clock.us + 1500 * 1000
while clock.us < end:
    t0 = clock.us
    if hx.read(out):
        got.append((clock.us, list(out)))
    longest = max(longest, clock.us - t0)
    clock.advance(1000)
res["first_after_ms"] = (got[0][0] - died) // 1000
res["resets"] = [c.power_downs for c in chips]
res["values"] = got[-1][1]
res["dead_mask"] = hx.dead
res["longest_call_us"] = longest
res["rate"] = len([g for g in got if g[0] >= died + 1000 * 1000]) * 2
chips[2].dead = False
got = poll(hx, clock, 100)
res["revived"] = got[-1][1]
res["dead_after"] = hx.dead
for c in chips:
    c.dead = True
res["all_dead"] = [g for g in poll(hx, clock, 1000)]
print(json.dumps(res))
"""


def test_a_chip_that_stops_answering_is_read_around_never_waited_for(mp, tmp_path):
    res = _run(mp, tmp_path, DEAD, "hx_dead.py")
    # After DEAD_MS (0.5 s) the chips are reset once (a power-down: one that was only out of
    # step answers again), and once they settle (SETTLE_MS) the others are read again, the
    # dead one MISSING; the board's fault follows after CELL_TIMEOUT_MS of MISSING
    # (tests/firmware/test_board_rp2.py).
    assert 500 <= res["first_after_ms"] <= 600
    assert res["resets"] == [1] * 4
    assert res["values"] == [1000, 2000, -(2**30), 4000] and res["dead_mask"] == 1 << 2
    assert res["longest_call_us"] < 400  # a read() call never waits
    assert 78 <= res["rate"] <= 82
    assert res["revived"] == [1000, 2000, 3000, 4000] and res["dead_after"] == 0
    assert res["all_dead"] == []


OUT_OF_STEP = r"""
clock, chips, sck, douts = bus([[1000], [2000], [3000], [4000]])
hx = HX711Bus(sck, douts, clock_ms=clock.ms)
poll(hx, clock, 200)
chips[1].pulses = 1  # it took a stray clock pulse: a read in progress that never ends
chips[1].bit = 1  # ... with DOUT high, so it never looks ready
got = poll(hx, clock, 1000)
res["values"] = got[-1][1]
res["dead"] = hx.dead
res["resets"] = chips[1].power_downs
print(json.dumps(res))
"""


def test_a_chip_out_of_step_is_reset_and_read_again(mp, tmp_path):
    res = _run(mp, tmp_path, OUT_OF_STEP, "hx_step.py")
    assert res["resets"] == 1 and res["dead"] == 0
    assert res["values"] == [1000, 2000, 3000, 4000]


VALIDATION = r"""
v = Validator(4)
seq = []
stream = [
    [100, 200, 300, 400],
    [101, 0x7FFFFF, 301, 401],  # saturated high on cell 1
    [102, 202, -0x800000, 402],  # saturated low on cell 2
    [103 ^ (1 << 18), 203, 303, 403],  # a single bit error on cell 0
    [104, 204, 304, MISSING],
    [105, 205, 305, 405],
    [106, 206, 306, 406],
]
for raw in stream:
    ok = v.filter(array.array("i", raw), out)
    seq.append([ok, list(out)])
res["seq"] = seq
# A lesser bit error beside a gross one (2**20 counts or more off the last reading), either way
# round; then a jump that holds.
one = array.array("i", [0])
for name, stream in (
    ("lesser_first", [500, 501, 502, 503 ^ (1 << 17), 504 ^ (1 << 22), 505, 506, 507]),
    ("gross_first", [600, 601, 602, 603 ^ (1 << 22), 604 ^ (1 << 17), 605, 606, 607]),
    ("held", [700, 701, 702] + [702 + (1 << 21)] * 4),
):
    pv = Validator(1)
    res[name] = []
    for x in stream:
        pv.filter(array.array("i", [x]), one)
        res[name].append(one[0])
stuck = []
for i in range(STUCK_N + 3):
    ok = v.filter(array.array("i", [107 + i, 0, 300 + i, 400 + i]), out)
    stuck.append(ok)
res["stuck_ok"] = stuck
res["rejected"] = v.rejected


class Pin:  # DOUT always low, SCK ignored: the driver's own allocations only
    def value(self, v=None):
        return 0


t = [0]
def ms():
    t[0] += 100
    return t[0]

hx = HX711Bus(Pin(), [Pin(), Pin(), Pin(), Pin()], clock_ms=ms)
raw = array.array("i", [0] * 4)
words = array.array("i", [0x123456, 0x654321, 0xABCDEF, 0x0F0F0F])


def locked():
    micropython.heap_lock()
    try:
        n = 0
        for i in range(200):
            if hx.read(raw):
                n += 1
            raw[1] = 0x7FFFFF if i % 7 == 0 else i
            v.filter(raw, out)
            unpack_pio(words, raw)
            v.filter(raw, out)
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        micropython.heap_unlock()
    return result, n


res["heap_lock"], res["locked_reads"] = locked()

# The PIO words: 24 bits per word, one 4-bit group per clock (bit k = chip k), MSB first.
vals = [123456, -1, -8388608, 8388607]
bits = [x & 0xFFFFFF for x in vals]
words = array.array("i", [0] * 4)
for i in range(24):
    nib = 0
    for k in range(4):
        nib |= ((bits[k] >> (23 - i)) & 1) << k
    words[i // 6] = (words[i // 6] << 4) | nib
unpack_pio(words, out)
res["pio"] = list(out)
res["max_word"] = max(words)
res["signed"] = [signed24(0x800000), signed24(0x7FFFFF), signed24(0xFFFFFF), signed24(0)]
print(json.dumps(res))
"""


def test_validation_rejects_wild_values_and_stuck_chips_without_allocating(mp, tmp_path):
    res = _run(mp, tmp_path, VALIDATION, "hx_valid.py")
    missing = -(2**30)
    seq = res["seq"]
    assert seq[0] == [0b1111, [100, 200, 300, 400]]
    assert seq[1] == [0b1101, [101, missing, 301, 401]]  # a rail value is no reading
    assert seq[2] == [0b1011, [101, 202, missing, 401]]  # 2 valid so far on cell 1: newest
    # The bit error (cell 0, sample 3) never comes out: medians of 3 around it.
    assert [s[1][0] for s in seq] == [100, 101, 101, 102, 104, 105, 105]
    assert seq[4][1][3] == missing and seq[4][0] == 0b0111
    # Two bit errors in a row: the gross one is no reading, the lesser never comes out (the
    # median of three passed it twice when the gross one was in the window with it).
    assert res["lesser_first"] == [500, 501, 501, 502, missing, 505, 506, 506]
    assert res["gross_first"] == [600, 601, 601, missing, 602, 605, 606, 606]
    jump = 702 + 2**21  # a jump that holds is the load from its third reading on
    assert res["held"] == [700, 701, 701, missing, missing, 702, jump]
    stuck = res["stuck_ok"]  # cell 1 repeats 0 forever: no reading from the STUCK_N-th on
    assert all(ok & 0b10 for ok in stuck[:40]) and not any(ok & 0b10 for ok in stuck[40:])
    assert all(ok & 0b1101 == 0b1101 for ok in stuck)
    assert res["rejected"] >= 2 + 3
    assert res["heap_lock"] == "ok" and res["locked_reads"] > 100
    assert res["pio"] == [123456, -1, -8388608, 8388607]
    assert res["max_word"] < 2**24  # small ints on the RP2040: reading a word never allocates
    assert res["signed"] == [-8388608, 8388607, -1, 0]
