# Levels between events (issue 10), for the detector (tablefw/detect.py): what a fall leaves
# after its level was taken, and a stick placed while the plate still rings after the hand.
# Functions on the Detector's own state, kept apart from detect.py (as ringfit.py is) so that
# compiling it from source fits a small heap; called from Detector.feed, so integers only and
# no allocation.

from tablefw.compat import const, ticks_diff

# As in detect.py:
_WIN = const(8)  # samples a stable state needs
_QUICK = const(4)  # samples a lower level needs before a fall is reported
_LOOSE_X = const(3)  # a level this many bands still, twice alike, is good enough to place
_TAIL_MS = const(3000)  # a small change this soon after a fall without a hand is its tail


def tail_of(det, d):
    """Can a level `d` off, soon after a fall with no hand, be that fall's tail? Any further
    drop; a rise only as far as the fall's level overshot its count (caught in the ringing's
    trough). A rise beyond is a hand holding part of the next stick on the tower (or a slow
    hand's first grams): taken as the tail, the level walked up with it and the stick weighed
    short, placed 1.5 s late as an unexplained level."""
    return d < 0 or det._fall_drop - d >= det._fall_n * det._mean - det._band


def fall_rest(det, t):
    """Can a small drop still be the rest of the last fall? Soon after it, when its level was
    taken short of its count (a stick sliding off for 200 ms is caught mid-slide): the rest
    leaves within a stick's third, inside the same-level band; left there, the level stays
    that low until a resync, and the next stick weighs short or is not placed at all."""
    if ticks_diff(t, det._last_fall_t) >= _TAIL_MS:
        return False
    return det._fall_drop < det._fall_n * det._mean


def place_through_ring(det, t, level):
    """A hand pressed a stick on and has gone: the level, averaged over the last two windows,
    is one stick up and steady, not on its way anywhere, though what the ringing filter leaves
    of the release (brisk, or a shaky hand's) keeps every window from being stable or loose
    for a few hundred ms more. Placed now. Only after a press well above one stick: a hand
    easing off a stick passes one stick on its way down, never holds there."""
    band = det._band
    if det._ep_peak < det._hand or det._spread(_WIN) > band * _LOOSE_X * 2:
        return False
    ring = det._ring
    d = det._avg(ring, _WIN) - level
    old = det._avg(ring, _WIN, _WIN) - level
    if not (det._one_lo < d < det._one_hi and det._one_lo < old < det._one_hi):
        return False
    slope = 2 * (det._avg(ring, _QUICK) - level - d)
    if d - old > band or old - d > band or slope > band or slope < -band:
        return False
    g = (d + old) // 2
    det._place(t, g)
    # (the moments, too, as the two windows average them: what is left of the ringing moves
    # them as well, and a later press is judged against them)
    det._commit(g, det._avg(det._mxr, 2 * _WIN), det._avg(det._myr, 2 * _WIN))
    return True
