# Pin map of the ESP32-DevKitC (ESP32-WROOM-32) table board.
# GENERATED from hardware/pinmap.json by `python -m hardware.pinmap --write`:
# edit the JSON, not this file (tests/hardware checks the two agree).
from tablefw.compat import const

HX711_SCK = const(4)  # shared clock of the four HX711s
HX711_DOUT = (34, 35, 36, 39)  # input-only GPIOs (HX711 DOUT is push-pull, needs no pull-up)
I2C_ID = const(0)  # hardware I2C0 on the usual DevKitC pins
I2C_SDA = const(21)
I2C_SCL = const(22)
ACCEL_ADDR = const(0x18)  # LIS3DH with SDO/SA0 tied low
NEOPIXEL = const(13)  # through the 74AHCT125 level shifter and a 330 ohm resistor (RMT driver)
BUTTONS = (18, 19, 23, 25, 26, 27, 32, 33)  # one per seat, active low, internal pull-up
SEATS = const(8)
LEDS_PER_RING = const(12)
