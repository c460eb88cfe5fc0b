"""HX711 driver (firmware/tablefw/hx711.py) against datasheet-like pin fakes, under MicroPython."""

import json
from pathlib import Path

FAKES = Path(__file__).parent / "mpfakes"

SCRIPT = r"""
import array, json
from fake_hx711 import bus
from tablefw.hx711 import HX711Bus, unpack_pio, signed24

VALUES = [[123456, 1], [-1, 2], [-8388608, 3], [8388607, -4]]
out = array.array("i", [0] * 4)
res = {}

# Four chips on one clock, slightly out of phase: nothing is clocked until all have data.
clock, chips, sck, douts = bus(VALUES, phases=[0, 300, 900, 2000])
irq = {"off": 0, "on": 0}
def irq_off():
    irq["off"] += 1
    return 7
def irq_on(state):
    irq["on"] += state == 7
hx = HX711Bus(sck, douts, irq_off, irq_on)
res["early"] = hx.read(out)  # before the first conversion completes
clock.advance(12500 + 1000)
res["partial"] = hx.read(out)  # chip 3 (phase 2000 us) still converting
clock.advance(2000)
res["first"] = hx.read(out) and list(out)
clock.advance(12500)
res["second"] = hx.read(out) and list(out)
res["again"] = hx.read(out)  # the same conversion is never read twice
res["pulses"] = [c.gain_pulses for c in chips]
res["midconversion"] = sum(c.midconversion for c in chips)
res["max_high_us"] = max(c.max_high_us for c in chips)
res["irq"] = dict(irq)

# SCK held high > 60 us powers the chips down; after SCK falls they settle for 4 periods.
hx.power_down()
clock.advance(100)
hx.power_up()
res["power_downs"] = [c.power_downs for c in chips]
clock.advance(12500 * 2)
res["settling"] = hx.read(out)
clock.advance(12500 * 4)
res["after_settling"] = hx.read(out) and list(out)

# The PIO words: 24 bits per word, one 4-bit group per clock (bit k = chip k), MSB first.
vals = [123456, -1, -8388608, 8388607]
bits = [v & 0xFFFFFF for v in vals]
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


def test_hx711_driver(mp, tmp_path):
    script = tmp_path / "hx_script.py"
    script.write_text(SCRIPT)
    proc = mp(script, extra_path=[FAKES])
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    assert res["early"] is False and res["partial"] is False
    assert res["first"] == [123456, -1, -8388608, 8388607]
    assert res["second"] == [1, 2, 3, -4]
    assert res["again"] is False
    assert res["pulses"] == [[25, 25, 25]] * 4  # 3 reads of 25 pulses: channel A, gain 128
    assert res["midconversion"] == 0  # never clocked a chip that was converting
    assert res["max_high_us"] < 60
    assert res["irq"] == {"off": 50, "on": 50}  # interrupts off only around each clock-high
    assert res["power_downs"] == [1] * 4
    assert res["settling"] is False
    assert res["after_settling"] == [1, 2, 3, -4] or res["after_settling"] == [
        123456,
        -1,
        -8388608,
        8388607,
    ]
    assert res["pio"] == [123456, -1, -8388608, 8388607]
    assert res["max_word"] < 2**24  # small ints on the RP2040: reading a word never allocates
    assert res["signed"] == [-8388608, 8388607, -1, 0]
