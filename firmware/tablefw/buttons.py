# Seat buttons: debounce a bitmask of held buttons and turn it into short and long presses.
#
# The board samples the buttons (bit i = seat i held down) and calls update(t_ms, mask) with the
# time of that sample; in the app that happens once per load-cell sample (every ~12.5 ms), so
# simulated and real time behave alike. A press is debounced (stable for DEBOUNCE_MS), then:
#   - released before LONG_MS: a short press, reported at the release;
#   - still held at LONG_MS: a long press, reported at once (the release is then ignored).
# No allocation per update: state lives in preallocated arrays, presses in an IntQueue.
# Times are compared with ticks_diff: board ticks wrap at 2**30.

import array

from tablefw.compat import const, ticks_diff
from tablefw.intqueue import IntQueue

DEBOUNCE_MS = const(30)
LONG_MS = const(600)
_QUEUE = const(8)  # presses waiting to be popped
_IDLE = const(0)
_HELD = const(1)  # down, not yet long
_LONG = const(2)  # long press already reported, waiting for the release


class Buttons:
    def __init__(self, count, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS):
        self.count = count
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._stable = 0  # debounced mask
        self._raw = 0  # last raw mask
        self._since = array.array("i", [0] * count)  # when each raw bit last changed
        self._down_at = array.array("i", [0] * count)  # when each debounced press began
        self._state = bytearray(count)
        self.presses = IntQueue(_QUEUE, 3)  # seat, long, t per press; .lost: dropped ones

    def update(self, t_ms, mask):
        """Take the held-buttons mask sampled at t_ms; returns how many presses are waiting."""
        changed = mask ^ self._raw
        self._raw = mask
        for seat in range(self.count):
            bit = 1 << seat
            if changed & bit:
                self._since[seat] = t_ms
            elif (mask ^ self._stable) & bit and ticks_diff(
                t_ms, self._since[seat]
            ) >= self.debounce_ms:
                self._stable ^= bit
                if mask & bit:
                    self._state[seat] = _HELD
                    self._down_at[seat] = t_ms
                else:
                    if self._state[seat] == _HELD:
                        self.presses.push(seat, 0, t_ms)
                    self._state[seat] = _IDLE
            if self._state[seat] == _HELD and ticks_diff(t_ms, self._down_at[seat]) >= self.long_ms:
                self._state[seat] = _LONG
                self.presses.push(seat, 1, t_ms)
        return self.presses.count

    def pop(self, out):
        """Fill out[0:3] with (seat, long 0/1, t_ms) of the oldest press; False when none."""
        return self.presses.pop(out)
