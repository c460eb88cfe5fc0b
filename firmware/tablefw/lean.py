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
# Kept apart from detect.py (as ringfit.py is) so that compiling it from source fits a small
# heap. LeanWatch holds its own state and reads the Detector's history; called from
# Detector.feed, so integers only and no allocation.

from tablefw.compat import const

# As in detect.py:
_RING = const(32)  # history of the plate total, moments and base (power of two)
_RMASK = const(31)
_WIN = const(8)  # samples a stable state needs
_TREND = const(24)  # samples between the windows compared to see a level moving one way
# Its own:
_LEAN_MM = const(12)  # the moments moving this far (x a stick, mm) with the weight unchanged ...
_LEAN_NOISE_X = const(7)  # ... and this many times their typical move: the table leant on ...
_LEAN_HOLD_MS = const(3000)  # ... until they are back (or this far into an episode) ...
_LEAN_MAX_MS = const(10000)  # ... or this long: then their new place is the norm
_LEAN_TILT_MG = const(4)  # a lean tilts the base at least this much (half a degree is 9 mg)


class LeanWatch:
    """The table leant on: `left` > 0 while it counts as leant on (samples still to go)."""

    def __init__(self, rate_hz, stick):
        self.hold = max(1, int(rate_hz * _LEAN_HOLD_MS) // 1000)  # (as detect._samples)
        self.max = max(1, int(rate_hz * _LEAN_MAX_MS) // 1000)
        self.mom = max(1, stick * _LEAN_MM // 100)  # a lean's move of the moments, g x mm
        self.noise16 = self.mom * 16 // _LEAN_NOISE_X  # their typical move, x16 (learned)
        self.left = 0
        self.end = 0  # samples until a lean's new place is the norm
        self.x = 0  # the moments before the lean (g x mm), as sticks since moved them
        self.y = 0
        self.mx = 0  # the moments and the level when last looked at
        self.my = 0
        self.lv = 0
        self.px = 0  # the furthest the lean took the moments from before it
        self.py = 0
        self.ax = 0  # the base's tilt before a lean, mg x16
        self.ay = 0

    def watch(self, det):
        """Once a sample: start, follow and end the table being leant on (`left`)."""
        if self.left:
            self.left -= 1
            self.end -= 1
            if self.end <= 0:
                self.left = 0  # leant on this long: the moments' new place is the norm
        else:  # the base's tilt before a lean (x16, over ~64 samples)
            j = (det._ri - 1) & _RMASK
            self.ax += (16 * det._ax[j] - self.ax) >> 6
            self.ay += (16 * det._ay[j] - self.ay) >> 6
        if det._ep or det._quiet < _RING or det._ri & 3:
            return  # (both windows compared quiet; checked every 4th sample: a lean is slow)
        band = det._band // 2
        moved = det._moved()
        if moved > band or moved < -band:
            return
        mx = det._avg(det._mxr, _WIN)
        my = det._avg(det._myr, _WIN)
        if self.left:
            lv = det._level - self.lv
            if lv > det._same or lv < -det._same:  # a stick placed or fallen meanwhile
                self.x += mx - self.mx
                self.y += my - self.my
            self.mx = mx
            self.my = my
            self.lv = det._level
            back = self.back(det, mx, my)
            if _moved(det, mx, my) <= self.mom and (back or not self.leant(det)):
                self.left = 0  # back, or moved with the base level (a stick slid)
            else:
                self.left = self.hold
            return
        dm = _moved(det, mx, my)
        if dm > self.mom and dm > self.noise16 * _LEAN_NOISE_X // 16:
            if self.letting_go(det):
                return  # a lean let go (its own end already seen, or never seen): no new lean
            self.left = self.hold
            self.end = self.max
            self.x = det._avg(det._mxr, _WIN, _TREND)  # the moments before the lean
            self.y = det._avg(det._myr, _WIN, _TREND)
            self.mx = mx
            self.my = my
            self.lv = det._level
            self.px = 0  # (the furthest the lean took the moments from there)
            self.py = 0
            return
        # The moments' own noise (cells, what the ringing filter leaves): learned as the total's
        # is, so a noisy board's moments are no lean.
        cap = 2 * self.noise16
        self.noise16 += ((dm * 16 if dm * 16 < cap else cap) - self.noise16) >> 5
        if self.noise16 < 16:
            self.noise16 = 16

    def back(self, det, mx, my):
        """The moments are back where they were before the lean, or beyond: along the way the
        lean took them (it may have been seen only halfway), at most a lean's move short."""
        ox = _clamp(mx - self.x)  # (products stay below 2**30)
        oy = _clamp(my - self.y)
        lx = self.px
        ly = self.py
        if _dist(ox, oy) > _dist(lx, ly):
            self.px = ox  # the furthest the lean took them
            self.py = oy
            return False
        return ox * lx + oy * ly <= self.mom * _dist(lx, ly)

    def letting_go(self, det):
        """Is someone letting go of the table, not leaning on it? The base tilted back toward
        its rest (the armed reference) over the windows the moments moved in; or it stands at
        its rest (within twice the tilt a lean needs: the base's noise alone stays below)
        having stood further from it over the last second (the tilt before a lean follows the
        base while no lean is seen, so after a lean never seen, begun under a placement, or
        one judged over halfway through its release, it still holds part of that tilt).
        Without this the tail of a release started a new lean whose reference was the leaning
        table: the moments never came back there, so it held until _LEAN_MAX_MS and hid every
        fall under a press. A base at its rest that stood there a second ago is a lean
        beginning, its first few mg of tilt within the base's noise (slow-hands 1083 at
        126.2 s: leant on 0.4 s before a touch, whose let-go was told as a stick swapped)."""
        now = _from_rest(det, 0)
        if _from_rest(det, _TREND) - now >= _LEAN_TILT_MG // 2:
            return True
        was = _dist(self.ax // 16 - det._rx, self.ay // 16 - det._ry)
        return now < 2 * _LEAN_TILT_MG and was - now >= _LEAN_TILT_MG

    def leant(self, det):
        """The base tilts away from where it stood before the lean (averaged over _RING
        samples): a stick that slid moves the moments too, but tilts nothing."""
        dx = 16 * det._avg(det._ax, _RING) - self.ax
        dy = 16 * det._avg(det._ay, _RING) - self.ay
        return _dist(dx, dy) >= 16 * _LEAN_TILT_MG


def _from_rest(det, back):
    """How far the base stood from its rest (mg, |x| + |y|) over the 8 samples `back` samples
    ago."""
    return _dist(det._avg(det._ax, _WIN, back) - det._rx, det._avg(det._ay, _WIN, back) - det._ry)


def _moved(det, mx, my):
    """How far the moments (now mx, my) moved over _TREND samples."""
    return _dist(mx - det._avg(det._mxr, _WIN, _TREND), my - det._avg(det._myr, _WIN, _TREND))


def _dist(dx, dy):
    """|dx| + |dy|: how far the moments moved."""
    return (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)


def _clamp(v):
    return 16383 if v > 16383 else (-16383 if v < -16383 else v)
