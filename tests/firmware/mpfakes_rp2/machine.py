# Fake `machine` for importing tablefw.board_rp2 on the unix port (tests only).
from fake_lis3dh_bus import LIS3DHBus

PWRON_RESET = 1
WDT_RESET = 3
cause = [PWRON_RESET]  # what reset_cause() says
levels = {}  # pin number -> level read back (tests set buttons here)
hooks = {}  # pin number -> an object whose value() stands for the pin (e.g. fake_hx711 pins)
irq = [0, 0]  # disable_irq, enable_irq calls
feeds = []


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, n, mode=-1, pull=-1, value=None):
        self.n = n
        if value is not None:
            levels[n] = value
        elif pull == Pin.PULL_UP:
            levels.setdefault(n, 1)

    def value(self, v=None):
        if self.n in hooks:
            return hooks[self.n].value(v)
        if v is None:
            return levels.get(self.n, 0)
        levels[self.n] = v


class I2C(LIS3DHBus):
    # The LIS3DH of fake_lis3dh_bus; `I2C.dead = True` makes every transfer fail.
    def __init__(self, bus_id, sda=None, scl=None, freq=0):
        self._reset()


class WDT:
    def __init__(self, timeout=0):
        self.timeout = timeout

    def feed(self):
        feeds.append(1)


def disable_irq():
    irq[0] += 1
    return 1


def enable_irq(state):
    irq[1] += state


def reset_cause():
    return cause[0]


class _Mem32:
    # machine.mem32 over the watchdog's 8 scratch registers (WATCHDOG_BASE + 0x0C..0x28), the
    # only words the firmware touches: 32 bits each, 0 after a power-on.
    BASE = 0x4005800C

    def __init__(self):
        self.words = [0] * 8

    def _index(self, addr):
        i = (addr - self.BASE) // 4
        if addr % 4 or not 0 <= i < 8:
            raise ValueError("fake mem32: only the watchdog scratch registers")
        return i

    def __getitem__(self, addr):
        return self.words[self._index(addr)]

    def __setitem__(self, addr, value):
        self.words[self._index(addr)] = value & 0xFFFFFFFF


mem32 = _Mem32()


def reset(kind):
    # What the chip's resets do to what the fakes hold: a watchdog or soft reset keeps the
    # scratch registers, a power-on clears them (RP2040 datasheet, 4.7 Watchdog).
    if kind == PWRON_RESET:
        mem32.words[:] = [0] * 8
    cause[0] = kind


def unique_id():
    return b"\xe6\x61\x38\x52\x83\x2c\x1a\x2f"
