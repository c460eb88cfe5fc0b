# The median of three readings: how both the HX711 driver and the detector drop a single wild
# value. Plain integer compares: no allocation, cheap enough for the sampling loop.


def median3(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b = c
    return a if a > b else b


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
    top = 0  # the largest out-and-back, g x100 ...
    apart = 0  # ... how far that cell's neighbours stand apart, and its largest move
    moved = 0
    back_rest = 0  # the other cells' out-and-back and largest move, summed
    moved_rest = 0
    at = -1
    for i in range(det.ncells):
        k = 3 * i
        b = med[k + (mi + 1) % 3]
        lim = det._lim[i] >> 1  # (the two differences' sum is a small int too)
        d1 = max(-lim, min(lim, b - med[k + mi]))
        d2 = max(-lim, min(lim, b - med[k + (mi + 2) % 3]))
        num = det._num[i]
        den = det._den[i]
        back = abs(min(abs(d1), abs(d2)) * num // den) if (d1 > 0) == (d2 > 0) else 0
        move = abs(max(abs(d1), abs(d2)) * num // den)
        if back > top:
            back_rest += top
            moved_rest += moved
            top = back
            moved = move
            apart = abs((d1 - d2) * num // den)
            at = i
        else:
            back_rest += back
            moved_rest += move
    if 3 * top <= det._stick or top <= 3 * back_rest or top <= moved_rest or top < 2 * apart:
        return -1
    return at
