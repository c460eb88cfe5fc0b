# The median of three readings: how both the HX711 driver and the detector drop a single wild
# value. Plain integer compares: no allocation, cheap enough for the sampling loop. Also the
# detector's finer checks for one: a lone wild value under the spike limit, and the four
# cells' twist (Twist), which shows one the median passes.

from array import array

from tablefw.compat import const


def median3(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b = c
    return a if a > b else b


_GROSS_X = const(16)  # a reading this many spike limits (400 g) off the last in a sample
_GROSS_RUN = const(2)  # ... is no reading, unless it stays there longer


def gross(v, last, spike, far, i):
    """Has cell i's new raw reading v jumped from its last by over 16 spike limits (the
    detector's 25 g: 400 g), the first or second time in a row (`far[i]` counts them)? An
    HX711 bit error that high (bits 20-23) is no load: a knock swings a cell by less in a
    sample. Such a reading is dropped like a missing one, so the median of three never takes
    the reading next to it for the truth: a lesser bit error beside it (63 g, then 2,018 g on
    one cell: independent 1036 at 90.2 s) passed the median as its middle value for two
    samples, and a stick was placed and fell. A jump that holds a third reading is the load."""
    d = v - last
    if d // _GROSS_X > spike or -d // _GROSS_X > spike:
        if far[i] < _GROSS_RUN:
            far[i] += 1
            return True
    far[i] = 0
    return False


def lone_wild(det, mi):
    """The cell (else -1) whose previous reading stood out the same way from both its neighbours
    (themselves within half that of each other) by over a third of a stick, while the other
    cells together came back three times less and moved less: a wild value under the spike
    limit (an HX711 bit error of 4-15 g), which the median of three passes when it is not the
    middle one. A weight arriving or leaving does not come back within a sample; a hand's
    tremor and the plate's ringing move every cell under the tower at once, the nearest at
    most about twice the others together. (The detector's three readings a cell: the newest
    at (mi + 2) % 3, the previous at (mi + 1) % 3.)"""
    med = det._med
    j1 = (mi + 1) % 3
    j2 = (mi + 2) % 3
    at = -1
    for i in range(det.ncells):  # (cheap first: most samples have no such cell)
        k = 3 * i
        b = med[k + j1]
        d1 = b - med[k + mi]
        d2 = b - med[k + j2]
        least = det._spike[i] // 7500 * det._stick  # a third of a stick (the spike limit: 25 g)
        if d1 > least and d2 > least or d1 < -least and d2 < -least:
            if 3 * _grams(det, i, min(abs(d1), abs(d2))) > det._stick:
                if at >= 0:
                    return -1
                at = i
    if at < 0:
        return -1
    top = 0
    apart = 0
    rest = 0  # the other cells' out-and-back, summed, and their largest moves
    moved = 0
    for i in range(det.ncells):
        k = 3 * i
        b = med[k + j1]
        d1 = b - med[k + mi]
        d2 = b - med[k + j2]
        back = _grams(det, i, _out_and_back(d1, d2))
        if i == at:
            top = back
            apart = _grams(det, i, abs(d1 - d2))
        else:
            rest += back
            moved += _grams(det, i, max(abs(d1), abs(d2)))
    return -1 if top <= 3 * rest or top <= moved or top < 2 * apart else at


def _grams(det, i, counts):
    """|counts| of cell i in g x100 (counts within the cell's limit: a small int)."""
    return abs(_g100(det, i, counts))


def _g100(det, i, counts):
    """Cell i's counts in g x100, signed, the counts held within the cell's limit."""
    lim = det._lim[i]
    return max(-lim, min(lim, counts)) * det._num[i] // det._den[i]


def _out_and_back(d1, d2):
    """How far a reading stood out the same way from both its neighbours (d1, d2: it less
    each), else 0."""
    return min(abs(d1), abs(d2)) if (d1 > 0) == (d2 > 0) else 0


_TWIST_X = const(6)  # the twist out and back by this many times its own noise: a wild reading
_GUESS_X = const(4)  # ... this many, where a missing reading was guessed halfway
_TWIST_W = const(16)  # the largest of the twist's integer weights


class Twist:
    """A rigid plate on four cells moves three ways (its total and two moments): one combination
    of the cells' grams, the twist (weights orthogonal to 1, x_i, y_i; c0 - c1 + c2 - c3 round a
    rectangle), stays put under any load, however it rings or a hand trembles. A wild reading
    on one cell (a bit error of 4-16 g under the spike limit, a missing one guessed halfway
    through a fast ringing swing) throws it out and back in one sample, which its own noise
    does not (judged by the out-and-back, not its level: a real plate's twist may move slowly
    with the load). Three cells have no such redundancy: `w` is None."""

    def __init__(self, det):
        self.w = None
        self._n = 0  # samples the noise was learned on (up to 32)
        self._noise = 0  # typical |second difference| of the twist, g x100 x weight
        if det is None or det.ncells != 4:
            return
        x = det._cx
        y = det._cy
        w = [0] * 4
        for i in range(4):  # the cofactors of the rows 1, x, y: the null vector
            a, b, c = [j for j in range(4) if j != i]
            d = x[b] * y[c] - x[c] * y[b] - x[a] * y[c] + x[c] * y[a] + x[a] * y[b] - x[b] * y[a]
            w[i] = -d if i % 2 else d
        top = max(abs(v) for v in w)
        if top:
            self.w = array("i", [int(round(_TWIST_W * v / top)) for v in w])
            self._noise = max(1, det._stick // 10) * _TWIST_W  # (until learned)

    def jumped(self, det):
        """Did the Detector's previous readings (those its next values are made of) throw the
        twist out and back against the readings either side? Unknown (False) while a reading
        either side is missing; a missing one in between is taken halfway, as detect.py does."""
        w = self.w
        if w is None:
            return False
        med = det._med
        gap = det._gap
        mi = det._mi
        j1 = (mi + 1) % 3
        j2 = (mi + 2) % 3
        d1 = 0
        d2 = 0
        guess = False
        for i in range(4):
            k = 3 * i
            if gap[k + mi] or gap[k + j2]:
                return False
            a = med[k + mi]
            c = med[k + j2]
            b = det._reading(k, mi, i, False)  # (as the Detector takes it: a spike's median)
            guess = guess or gap[k + j1]
            d1 += w[i] * _g100(det, i, b - a)
            d2 += w[i] * _g100(det, i, b - c)
        e = abs(d1 + d2)
        back = _out_and_back(d1, d2)
        if (
            self._n >= 16
            and 2 * back > (_GUESS_X if guess else _TWIST_X) * self._noise
            and 8 * back > det._stick * _TWIST_W  # (an eighth of a stick: one that matters)
        ):
            return True
        if self._n < 32:
            self._n += 1
        self._noise += (min(e, 2 * self._noise) - self._noise) // self._n
        return False
