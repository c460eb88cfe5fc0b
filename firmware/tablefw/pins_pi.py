# Pin map of the Raspberry Pi 3/4/Zero 2 (BCM GPIO numbers, Blinka under CPython) table board.
# GENERATED from hardware/pinmap.json by `python -m hardware.pinmap --write`:
# edit the JSON, not this file (tests/hardware checks the two agree).

HX711_SCK = 5  # shared clock, bit-banged through Blinka's digitalio (long pulses detected)
HX711_DOUT = (6, 12, 13, 16)  # one data line per HX711
I2C_ID = 1  # /dev/i2c-1: GPIO2 = SDA, GPIO3 = SCL (the header's 1.8k pull-ups)
I2C_SDA = 2
I2C_SCL = 3
ACCEL_ADDR = 0x18  # LIS3DH with SDO/SA0 tied low
NEOPIXEL = 10  # the rings: SPI0 MOSI (rpi_ws281x's SPI mode), through the 74AHCT125
BUTTONS = (17, 22, 23, 24, 25, 26, 27, 4)  # one per seat, active low, internal pull-up
SCOREBOARD = 18  # the room scoreboard strip: PWM0 (rpi_ws281x's DMA), through the 74AHCT125
SEATS = 8
LEDS_PER_RING = 12
LEDS_SUPPLY_MA = 4000  # the LED strip's and rings' own 5 V 4 A supply; its GND joined to the Pi's
