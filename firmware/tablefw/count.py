# How many sticks a weight that left the tower is (tablefw/detect.py's falls), judged against
# the sticks weighed on it. A function on the Detector's own state (kept apart so that
# compiling detect.py from source fits the ESP32 fakes' 256 KB heap); called from
# Detector.feed, so integers only and no allocation.


def count(det, drop):
    on = det._nsticks
    total = det._sum
    unit = det._unit()
    # (the sticks' weighings add their errors: 30 sticks weighed 0.16 g short each left
    # 0.6 of a stick more than their sum; a fortieth of the sum is no stick of its own)
    slack = total // 40
    if on == 0 or drop > total + slack + unit * 6 // 10:
        extra = drop - total - slack if on > 0 else drop
        n = on + (2 * extra + unit) // (2 * unit)
        return n if n >= 1 else 1
    # Part of the tower: each stick against the mean of the tower's weighed sum per stick
    # (which carries every earlier fall's measuring error) and the mass learned from the
    # placements (noisy 1063, 192.9 s: 8 of 11 sticks, 62.5 g, counted 7 against 8.38 g a
    # stick; the placements' 7.96 g). 96 tuning games: 225 -> 224 lines, none new.
    unit = (unit + det._mean) // 2
    best = 1
    err = abs(drop - _est(det, 1, unit))
    for n in range(2, on + 1):
        e = abs(drop - _est(det, n, unit))
        if e < err:
            err = e
            best = n
    return best


def _est(det, n, unit):
    if n >= det._nsticks:
        return det._sum
    return n * unit
