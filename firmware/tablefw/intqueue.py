# A first-in first-out queue of small-integer records (up to 4 fields each) in a preallocated
# array: push and pop never allocate, so the sampling path can queue events (heap_lock tests).
# Used by the app (events for the sender), the detector (its events) and the seat buttons.

from array import array


class IntQueue:
    """`size` records of `width` (1-4) ints. When full, push() drops the new record, or with
    keep_newest=True the oldest one; either way `lost` counts the records dropped."""

    def __init__(self, size, width=4, keep_newest=False):
        self.size = size
        self.width = width
        self.keep_newest = keep_newest
        self.count = 0  # records waiting
        self.lost = 0
        self._q = array("i", [0] * (size * width))
        self._head = 0

    def push(self, a, b=0, c=0, d=0):
        """Queue (a, b, c, d)[:width]; False if the queue was full and the record dropped."""
        if self.count == self.size:
            self.lost += 1
            if not self.keep_newest:
                return False
            self._head = (self._head + 1) % self.size
            self.count -= 1
        w = self.width
        i = (self._head + self.count) % self.size * w
        q = self._q
        q[i] = a
        if w > 1:
            q[i + 1] = b
            if w > 2:
                q[i + 2] = c
                if w > 3:
                    q[i + 3] = d
        self.count += 1
        return True

    def pop(self, out):
        """Fill out[0:width] with the oldest record; False (out untouched) if none waits."""
        if not self.count:
            return False
        w = self.width
        i = self._head * w
        q = self._q
        for k in range(w):
            out[k] = q[i + k]
        self._head = (self._head + 1) % self.size
        self.count -= 1
        return True

    def clear(self):
        self._head = 0
        self.count = 0
