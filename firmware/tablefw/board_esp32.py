# The ESP32 table board (ESP32-DevKitC, ESP32-WROOM-32): the Board interface of tablefw/app.py
# over the real parts, the same as the RP2040's (board_base.PinBoard) but for the load cells.
# Pins come from tablefw/pins_esp32.py (generated from hardware/pinmap.json; listed by
# firmware/boards/esp32/manifest.py).
#
#   load cells     4 HX711 on one clock (GPIO4), DOUT on the input-only GPIO34/35/36/39. There
#                  is no PIO: hx711.HX711Bus bit-bangs them, interrupts off only around each
#                  clock-high (machine.disable_irq/enable_irq), so no interrupt can hold SCK
#                  high past the chips' 60 us power-down. It never waits: it reads once every
#                  answering chip has data, and reads around (MISSING) a chip whose DOUT has
#                  not fallen for DEAD_MS. Validation and the `cells` fault: PinBoard.
#   accelerometer  LIS3DH on I2C0 (GPIO21 SDA, GPIO22 SCL).
#   rings          NeoPixel chain on GPIO13 through the built-in `neopixel` module (RMT).
#   buttons        one per seat, active low with internal pull-ups.
#   host link      stdin/stdout: the DevKitC's USB-UART bridge (UART0, the REPL's).
#   watchdog       machine.WDT (WDT_MS), fed by the app's ticker task.
#   kept           the link's boot id and sequence numbers in RTC memory (tablefw/keep.py): a
#                  watchdog or soft reset keeps them, a power-on clears them.
# Import touches no hardware; ESP32Board() does.

import machine

from tablefw import keep
from tablefw import pins_esp32 as pin_map
from tablefw.board_base import FAULT_ACCEL, FAULT_CELLS, PinBoard, gpio_bus  # noqa: F401 - faults


class ESP32Board(PinBoard):
    def __init__(self, watchdog=True):
        self._bus = gpio_bus(pin_map)
        PinBoard.__init__(self, "esp32", pin_map, watchdog, keep.RTCMemory(machine.RTC()))

    def read_cells(self, raw, now):
        return self._bus.read(raw)
