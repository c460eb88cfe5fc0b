# What the board keeps across a reset, so that the next boot's hello says exactly what the reset
# lost (PROTOCOL.md section 3, hello `prev`): this boot's id, the last event number it used, the
# last one the host acknowledged, and which kinds of event were sent but not acknowledged.
#
# Four 32-bit words in memory that a watchdog or soft reset leaves alone and a power-on clears:
# the RP2040's watchdog scratch registers 0-3 (the SDK uses 4-7), the ESP32's RTC memory, a file
# on the unix port (the simulated table keeps it across its simulated resets). A check word tells
# what was kept from what a power-on left there.
#
#   store.read() -> [w0, w1, w2, w3] or None;  store.write(words)
#   keeper = Keeper(store, boot)   keeper.prev: [boot, s, a, kinds] of the boot before, or None
#   keeper.save(s, a, mask)        (the link calls it: its `keep` argument)

from tablefw.compat import const

# Event kinds as bits of the mask (PROTOCOL.md section 5); others are not told apart.
KINDS = ("placed", "fell", "topple", "touch", "button", "fault", "gap", "cal")
_MAGIC = const(0x5717)
_SCRATCH = const(0x4005800C)  # RP2040 WATCHDOG_BASE + SCRATCH0


def kind_bit(kind):
    for i in range(len(KINDS)):
        if KINDS[i] == kind:
            return 1 << i
    return 0


def _check(w0, w1, w2):
    return (_MAGIC ^ w0 ^ (w0 >> 16) ^ w1 ^ (w1 >> 16) ^ w2 ^ (w2 >> 16)) & 0xFFFF


def pack(boot, s, a, mask):
    w0 = int(boot, 16) & 0xFFFFFFFF
    w1 = s & 0xFFFFFFFF
    w2 = a & 0xFFFFFFFF
    return [w0, w1, w2, _check(w0, w1, w2) << 16 | (mask & 0xFFFF)]


def unpack(words):
    """[boot, s, a, kinds] from four words, or None if they are not what a board kept."""
    if not words or len(words) != 4:
        return None
    w0, w1, w2, w3 = [w & 0xFFFFFFFF for w in words]
    if w3 >> 16 != _check(w0, w1, w2) or w2 > w1:
        return None
    kinds = [KINDS[i] for i in range(len(KINDS)) if w3 & (1 << i)]
    return ["%08x" % w0, w1, w2, kinds]


class Keeper:
    def __init__(self, store, boot):
        self._store = store
        self._boot = boot
        self.prev = unpack(store.read())
        self.save(0, 0, 0)  # a reset before the first event still says which boot it ended

    def save(self, s, a, mask):
        self._store.write(pack(self._boot, s, a, mask))


class Scratch:
    """The RP2040's watchdog scratch registers 0-3 (machine.mem32)."""

    def __init__(self, mem32):
        self._mem = mem32

    def read(self):
        return [self._mem[_SCRATCH + 4 * i] & 0xFFFFFFFF for i in range(4)]

    def write(self, words):
        for i in range(4):
            self._mem[_SCRATCH + 4 * i] = words[i]


class RTCMemory:
    """The ESP32's RTC memory (machine.RTC().memory()), 16 bytes little-endian."""

    def __init__(self, rtc):
        self._rtc = rtc

    def read(self):
        return _words(self._rtc.memory())

    def write(self, words):
        self._rtc.memory(_bytes(words))


class FileStore:
    """A file standing for such memory (the unix port; the simulated table keeps it)."""

    def __init__(self, path):
        self._path = path

    def read(self):
        try:
            with open(self._path, "rb") as f:
                return _words(f.read())
        except OSError:
            return None

    def write(self, words):
        # Overwritten in place with one write: a reset at any moment leaves the old record or
        # the new one. ("wb" would empty the file first: a reset just then, and the next
        # hello would have no prev, its loss count a mere lower bound.)
        data = _bytes(words)
        try:
            try:
                f = open(self._path, "r+b")
            except OSError:
                f = open(self._path, "wb")  # the first record since power-on
            with f:
                f.write(data)
        except OSError:
            pass  # nothing kept: the next hello has no prev, the host's count is a lower bound


def _words(data):
    if not data or len(data) < 16:
        return None
    return [int.from_bytes(data[4 * i : 4 * i + 4], "little") for i in range(4)]


def _bytes(words):
    out = bytearray(16)
    for i in range(4):
        w = words[i]
        for j in range(4):
            out[4 * i + j] = (w >> (8 * j)) & 0xFF
    return bytes(out)


def attach(info, store):
    """Keep this boot's link state in `store` (None: nothing to keep it in): `info` (the
    hello's fields) gets the boot before's `prev` if it was kept. Returns the link's `keep`
    callable, or None."""
    if store is None:
        return None
    keeper = Keeper(store, info["boot"])
    if keeper.prev is not None:
        info["prev"] = keeper.prev
    return keeper.save
