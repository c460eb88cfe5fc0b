# Runs ON THE BOARD (MicroPython) for bring-up, with `mpremote run hardware/read_cells.py`:
# reads the four load cells' raw HX711 counts for ~2 s and prints each cell's median as one
# JSON line. Uses the GPIO reader (not the app's PIO program) so it works from the REPL; the
# board must be in REPL mode (hold seat 1's button while plugging it in: see main.py).
# Calibrating is `sticktable calibrate` over the app's normal link (hardware/calibration.md).
import json
import sys

import machine

from tablefw.hx711 import HX711Bus

if sys.platform == "esp32":
    from tablefw import pins_esp32 as pins
else:
    from tablefw import pins

SAMPLES = 160  # 2 s at 80 samples/s


def main():
    sck = machine.Pin(pins.HX711_SCK, machine.Pin.OUT, value=0)
    douts = [machine.Pin(n, machine.Pin.IN) for n in pins.HX711_DOUT]
    bus = HX711Bus(sck, douts, machine.disable_irq, machine.enable_irq)
    n = len(douts)
    raw = [0] * n
    history = [[] for _ in range(n)]
    got = 0
    while got < SAMPLES:
        if bus.read(raw):
            for i in range(n):
                history[i].append(raw[i])
            got += 1
    # The median of each cell: a wild sample (saturation, bit error) does not move it.
    print(json.dumps([sorted(h)[len(h) // 2] for h in history]))


main()
