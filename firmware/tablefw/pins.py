# Pin map of the Raspberry Pi Pico (RP2040) table board.
# The source of truth is hardware/pinmap.json; a test checks the two agree.
from micropython import const

HX711_SCK = const(2)  # shared clock of the four HX711s
HX711_DOUT = (3, 4, 5, 6)  # consecutive, so one PIO `in pins, 4` samples all four
I2C_ID = const(1)
I2C_SDA = const(14)
I2C_SCL = const(15)
ACCEL_ADDR = const(0x18)  # LIS3DH with SDO low
NEOPIXEL = const(22)
BUTTONS = (10, 11, 12, 13, 18, 19, 20, 21)  # one per seat, active low, internal pull-up
SEATS = const(8)
LEDS_PER_RING = const(12)
