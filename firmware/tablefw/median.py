# The median of three readings: how both the HX711 driver and the detector drop a single wild
# value. Plain integer compares: no allocation, cheap enough for the sampling loop.

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
        back = _grams(det, i, min(abs(d1), abs(d2))) if (d1 > 0) == (d2 > 0) else 0
        if i == at:
            top = back
            apart = _grams(det, i, abs(d1 - d2))
        else:
            rest += back
            moved += _grams(det, i, max(abs(d1), abs(d2)))
    return -1 if top <= 3 * rest or top <= moved or top < 2 * apart else at


def _grams(det, i, counts):
    """|counts| of cell i in g x100 (counts within the cell's limit: a small int)."""
    return abs(min(counts, det._lim[i]) * det._num[i] // det._den[i])
