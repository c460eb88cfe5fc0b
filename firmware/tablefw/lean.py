# Someone leaning on the table (issue 10), seen for the detector (tablefw/detect.py).
#
# Leaning on the table tilts the plate: the tower's centre of pressure moves (its weight sits
# above the plate) while the weight stays the same, over a few hundred ms; it holds, and moves
# back when they let go. A tilt too small for the accelerometer's noise still moves the
# moments by a stick's worth, so a lean is seen in the moments: they move with the total
# steady and no hand on the tower. The table counts as leant on until the moments are back
# where they were (less what sticks placed or fallen meanwhile changed them by), or the base
# turns out not to have tilted (a stick slid), for at most _LEAN_MAX_MS, and for _LEAN_HOLD_MS
# into an episode; meanwhile the moments tell no stick leaving (Detector._base_level).
# Functions on the Detector's own state (kept apart, as ringfit.py, so that compiling
# detect.py from source fits a small heap); called from Detector.feed, so integers only and
# no allocation.

from tablefw.compat import const

# As in detect.py:
_RING = const(32)  # history of the plate total, moments and base (power of two)
_RMASK = const(31)
_WIN = const(8)  # samples a stable state needs
_TREND = const(24)  # samples between the windows compared to see a level moving one way
_LEAN_NOISE_X = const(7)  # the moments moving this many times their typical move: a lean
# Its own:
_LEAN_TILT_MG = const(4)  # a lean tilts the base at least this much (half a degree is 9 mg)


def watch(det):
    """Once a sample: start, follow and end the table being leant on (det._lean_left > 0)."""
    if det._lean_left:
        det._lean_left -= 1
        det._lean_end -= 1
        if det._lean_end <= 0:
            det._lean_left = 0  # leant on this long: the moments' new place is the norm
    else:  # the base's tilt before a lean (x16, over ~64 samples)
        j = (det._ri - 1) & _RMASK
        det._lean_ax += (16 * det._ax[j] - det._lean_ax) >> 6
        det._lean_ay += (16 * det._ay[j] - det._lean_ay) >> 6
    if det._ep or det._quiet < _RING or det._ri & 3:
        return  # (both windows compared quiet; checked every 4th sample: a lean is slow)
    band = det._band // 2
    moved = det._moved()
    if moved > band or moved < -band:
        return
    mx = det._avg(det._mxr, _WIN)
    my = det._avg(det._myr, _WIN)
    if det._lean_left:
        lv = det._level - det._lean_lv
        if lv > det._same or lv < -det._same:  # a stick placed or fallen meanwhile
            det._lean_x += mx - det._lean_mx
            det._lean_y += my - det._lean_my
        det._lean_mx = mx
        det._lean_my = my
        det._lean_lv = det._level
        back = _back(det, mx, my)
        if _moved(det, mx, my) <= det._lean_mom and (back or not _leant(det)):
            det._lean_left = 0  # back, or moved with the base level (a stick slid)
        else:
            det._lean_left = det._lean_hold
        return
    dm = _moved(det, mx, my)
    if dm > det._lean_mom and dm > det._lean16 * _LEAN_NOISE_X // 16:
        if _tilts_back(det):
            return  # a lean let go (its own end already seen, or never seen): no new lean
        det._lean_left = det._lean_hold
        det._lean_end = det._lean_max
        det._lean_x = det._avg(det._mxr, _WIN, _TREND)  # the moments before the lean
        det._lean_y = det._avg(det._myr, _WIN, _TREND)
        det._lean_mx = mx
        det._lean_my = my
        det._lean_lv = det._level
        det._lean_px = 0  # (the furthest the lean took the moments from there)
        det._lean_py = 0
        return
    # The moments' own noise (cells, what the ringing filter leaves): learned as the total's
    # is, so a noisy board's moments are no lean.
    cap = 2 * det._lean16
    det._lean16 += ((dm * 16 if dm * 16 < cap else cap) - det._lean16) >> 5
    if det._lean16 < 16:
        det._lean16 = 16


def _back(det, mx, my):
    """The moments are back where they were before the lean, or beyond: along the way the
    lean took them (it may have been seen only halfway), at most a lean's move short."""
    ox = _clamp(mx - det._lean_x)  # (products stay below 2**30)
    oy = _clamp(my - det._lean_y)
    lx = det._lean_px
    ly = det._lean_py
    if _dist(ox, oy) > _dist(lx, ly):
        det._lean_px = ox  # the furthest the lean took them
        det._lean_py = oy
        return False
    return ox * lx + oy * ly <= det._lean_mom * _dist(lx, ly)


def _leant(det):
    """The base tilts away from where it stood before the lean (averaged over _RING
    samples): a stick that slid moves the moments too, but tilts nothing."""
    dx = 16 * det._avg(det._ax, _RING) - det._lean_ax
    dy = 16 * det._avg(det._ay, _RING) - det._lean_ay
    return _dist(dx, dy) >= 16 * _LEAN_TILT_MG


def _tilts_back(det):
    """The base stands at its rest (the armed reference), or tilted back toward it over the
    windows the moments moved in: someone letting go of the table, not leaning on it.
    Without this the tail of a release (the lean ended early on a reference taken mid-ramp,
    or was never seen under a placement) started a new lean whose reference was the leaning
    table: the moments never came back there, so it held until _LEAN_MAX_MS and hid every
    fall under a press. (Twice the tilt a lean needs: the base's noise alone stays below.)"""
    then = _dist(
        det._avg(det._ax, _WIN, _TREND) - det._rx, det._avg(det._ay, _WIN, _TREND) - det._ry
    )
    now = _dist(det._avg(det._ax, _WIN) - det._rx, det._avg(det._ay, _WIN) - det._ry)
    return now < 2 * _LEAN_TILT_MG or then - now >= _LEAN_TILT_MG // 2


def _moved(det, mx, my):
    """How far the moments (now mx, my) moved over _TREND samples."""
    return _dist(mx - det._avg(det._mxr, _WIN, _TREND), my - det._avg(det._myr, _WIN, _TREND))


def _dist(dx, dy):
    """|dx| + |dy|: how far the moments moved."""
    return (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)


def _clamp(v):
    return 16383 if v > 16383 else (-16383 if v < -16383 else v)
