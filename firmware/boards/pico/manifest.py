# Raspberry Pi Pico (RP2040): the common firmware, the RP2040 board with its PIO HX711 reader,
# the Pico's pin map, and main.py (kept as source: MicroPython runs main.py at power-up).
include("../../manifest.py")
package("tablefw", files=("board_rp2.py", "hx711_pio.py", "pins.py"), base_path="../..")
module("main.py", base_path="../..")
