# The RP2040 table board (Raspberry Pi Pico): the Board interface of tablefw/app.py over the real
# parts. Pins come from tablefw/pins.py (generated from hardware/pinmap.json).
#
#   load cells     4 HX711 on one clock (GP2), DOUT on GP3-6, read by the PIO reader
#                  (tablefw/hx711_pio.py): it waits for all four to be ready and clocks them
#                  itself, so no interrupt can stretch a clock pulse; the CPU polls the FIFO.
#                  Every reading goes through hx711.Validator (rails, bit errors, stuck chips
#                  -> MISSING); a cell without a valid reading for
#                  CELL_TIMEOUT_MS is the `cells` fault. A chip whose DOUT never falls stalls
#                  the PIO program (it waits for all four): after DEAD_MS without a reading the
#                  board stops it and reads with the GPIO reader (hx711.HX711Bus, same API,
#                  interrupts off only around each clock-high), which reads around the dead chip.
#   accelerometer  LIS3DH on I2C1 (tablefw/accel.py), read once per load-cell sample.
#   rings          NeoPixel chain on GP22 through the built-in `neopixel` module; the frame is
#                  already GRB and power-capped by tablefw/rings.py.
#   buttons        one per seat, active low with internal pull-ups, read once per sample.
#   host link      USB CDC stdin/stdout (board_base.StreamHost).
#   watchdog       machine.WDT, fed by the app's ticker task.
#   kept           the link's boot id and sequence numbers in watchdog scratch registers 0-3
#                  (tablefw/keep.py): a watchdog or soft reset keeps them, a power-on clears.
# All but the PIO reader is board_base.PinBoard, shared with the ESP32 (board_esp32.py).
# Import only assembles the PIO program; hardware is touched when RP2Board() is made.

import machine

from tablefw import keep
from tablefw import pins as pin_map
from tablefw.board_base import FAULT_ACCEL, FAULT_CELLS, PinBoard, gpio_bus  # noqa: F401 - faults
from tablefw.hx711_pio import HX711PIO


class RP2Board(PinBoard):
    def __init__(self, watchdog=True):
        self._pio = HX711PIO(pin_map.HX711_SCK, pin_map.HX711_DOUT)
        self._bus = None  # the GPIO reader, once the PIO reader has been given up
        PinBoard.__init__(self, "rp2", pin_map, watchdog, keep.Scratch(machine.mem32))

    def read_cells(self, raw, now):
        bus = self._bus
        if bus is not None:
            return bus.read(raw)
        pio = self._pio
        if pio.read(raw):
            return True
        if pio.dead:
            # Allocates, once: the PIO program is stopped for good and the pins become GPIO.
            pio.stop()
            self._bus = gpio_bus(pin_map)
        return False
