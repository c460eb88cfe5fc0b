# Pin map of the Raspberry Pi Pico (RP2040) table board.
# GENERATED from hardware/pinmap.json by `python -m hardware.pinmap --write`:
# edit the JSON, not this file (tests/hardware checks the two agree).
from tablefw.compat import const

HX711_SCK = const(2)  # shared clock of the four HX711s
HX711_DOUT = (3, 4, 5, 6)  # consecutive, so one PIO `in pins, 4` samples all four
I2C_ID = const(1)  # I2C1: GP14 = SDA, GP15 = SCL
I2C_SDA = const(14)
I2C_SCL = const(15)
ACCEL_ADDR = const(0x18)  # LIS3DH with SDO/SA0 tied low
NEOPIXEL = const(22)  # through the 74AHCT125 level shifter and a 330 ohm resistor
BUTTONS = (10, 11, 12, 13, 18, 19, 20, 21)  # one per seat, active low, internal pull-up
SEATS = const(8)
LEDS_PER_RING = const(12)
