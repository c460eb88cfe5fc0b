# Fake `machine` of the ESP32 port for tablefw.board_esp32 on the unix port (tests only).
# Pins follow the ESP32-WROOM-32's rules: GPIO 6-11 (the flash) do not exist, 34-39 are input
# only (no output, no pull-up). Pin levels and I2C registers are plain data tests set;
# `hooks` routes a pin to an object whose value() stands for it (e.g. fake_hx711 pins).
# Nothing here allocates once made (pin reads, I2C reads, IRQ calls): heap_lock tests use it.
from fake_lis3dh_bus import LIS3DHBus

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
cause = [PWRON_RESET]  # what reset_cause() says
levels = {}  # pin number -> level read back (tests set buttons here)
hooks = {}  # pin number -> an object whose value() stands for the pin
pulls = {}  # pin number -> pull given when it was made
irq = [0, 0, 0]  # disable_irq calls, enable_irq calls, 1 while interrupts are off
unmasked_high = [0]  # pins set high while interrupts were on (via hooks: SCK pulses)
wdts = []
feeds = [0]
_FLASH = (6, 7, 8, 9, 10, 11)
_INPUT_ONLY = (34, 35, 36, 37, 38, 39)


class Pin:
    IN = 1
    OUT = 3
    PULL_UP = 2
    PULL_DOWN = 1

    def __init__(self, n, mode=-1, pull=-1, value=None):
        if not 0 <= n <= 39 or n in _FLASH or n in (20, 24, 28, 29, 30, 31):
            raise ValueError("invalid pin")
        if n in _INPUT_ONLY and (mode == Pin.OUT or pull != -1):
            raise ValueError("pin can only be input")
        self.n = n
        self.mode = mode
        pulls[n] = pull
        if value is not None:
            self.value(value)
        elif pull == Pin.PULL_UP:
            levels.setdefault(n, 1)

    def value(self, v=None):
        hook = hooks.get(self.n)
        if v is not None and v and not irq[2] and hook is not None:
            unmasked_high[0] += 1
        if hook is not None:
            return hook.value(v)
        if v is None:
            return levels.get(self.n, 0)
        levels[self.n] = v


class I2C(LIS3DHBus):
    # The LIS3DH of fake_lis3dh_bus; `I2C.dead = True` makes every transfer fail.
    errno = 19  # ENODEV, as the ESP32 port says for a device that NACKs
    made = []

    def __init__(self, bus_id, scl=None, sda=None, freq=400000):
        I2C.made.append((bus_id, scl.n if scl else None, sda.n if sda else None, freq))
        self._reset()


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        wdts.append(self)

    def feed(self):
        feeds[0] += 1


def disable_irq():
    irq[0] += 1
    state = 1 - irq[2]  # the previous state: 1 = interrupts were on
    irq[2] = 1
    return state


def enable_irq(state):
    irq[1] += 1
    if state:
        irq[2] = 0


def reset_cause():
    return cause[0]


class RTC:
    # RTC slow memory for the user (2 KB on the ESP32 port): kept through deep sleep, soft and
    # watchdog resets, lost at power-on.
    _memory = [b""]

    def memory(self, data=None):
        if data is None:
            return RTC._memory[0]
        if len(data) > 2048:
            raise ValueError("buffer too long")
        RTC._memory[0] = bytes(data)


def reset(kind):
    # What the chip's resets do to what the fakes hold: a power-on clears RTC memory.
    if kind == PWRON_RESET:
        RTC._memory[0] = b""
    cause[0] = kind


def unique_id():
    return b"\x24\x0a\xc4\x12\x34\x56"  # the Wi-Fi MAC
