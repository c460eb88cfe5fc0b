# The topple watch (issue 10), for the detector (tablefw/detect.py): the base leans away from
# the reference captured at arm(), past ~4 degrees, steadily, in one direction and growing (a
# knock shakes, a topple leans and keeps leaning); and, once toppled, whether it stands again.
# Functions on the Detector's own state, kept apart from detect.py (as ringfit.py is) so that
# compiling it from source fits a small heap; called from Detector.feed, so integers only and
# no allocation.

from tablefw.compat import const
from tablefw.schema import TOPPLE

# As in detect.py:
_RMASK = const(31)  # history of the base (power of two, minus one)
_WIN = const(8)  # samples a stable state needs
# Its own:
_TILT_RUN = const(4)  # consecutive leaning samples that make a topple
_TILTING_MG = const(50)  # past ~3 degrees weight loss is the tower's, not sticks'
_UPRIGHT_MG = const(52)  # within ~3 degrees of the reference: standing


def watch_tilt(det, t):
    """Topple: the base leans past ~4 degrees from the armed reference, steadily and growing,
    for _TILT_RUN samples. Also counts the episode's shaken samples, and whether the tower
    tilts (det._tilting: its weight loss is its own, never sticks)."""
    j = (det._ri - 1) & _RMASK
    j2 = (j - 1) & _RMASK
    # Mean of the last two readings takes the edge off sensor noise.
    dx = (det._ax[j] + det._ax[j2]) // 2 - det._rx
    dy = (det._ay[j] + det._ay[j2]) // 2 - det._ry
    dz = (det._az[j] + det._az[j2]) // 2 - det._rz
    e2 = dx * dx + dy * dy + dz * dz
    if e2 > det._shake2 and det._ep:
        det._ep_shake += 1
    # A lean keeps its direction from sample to sample; a knock's vibration does not.
    steady = dx * det._pdx + dy * det._pdy + dz * det._pdz >= e2 // 2
    # A lean grows (or holds) from sample to sample; a knock's swing comes and goes.
    growing = e2 >= det._pe2 - det._pe2 // 8
    det._pe2 = e2
    det._pdx = dx
    det._pdy = dy
    det._pdz = dz
    det._tilting = e2 >= _TILTING_MG * _TILTING_MG
    if e2 >= det._tilt2 and steady and growing and _upright_g(det, dx, dy, dz):
        det._tilt_run += 1
    else:
        det._tilt_run = 0
    if det._tilt_run >= _TILT_RUN:
        det._emit(TOPPLE, t, 1, 0)
        det._armed = False  # fallen: re-baseline once it stands still and upright again
        det._run = 0
        det._quiet = 0
        det._tilt_run = 0


def _upright_g(det, dx, dy, dz):
    """A lean keeps |a| roughly 1 g (the tower's own rotation adds some); a hard knock does
    not."""
    x = det._rx + dx
    y = det._ry + dy
    z = det._rz + dz
    a2 = x * x + y * y + z * z
    r2 = det._rx * det._rx + det._ry * det._ry + det._rz * det._rz
    r2 = r2 // 100
    return a2 >= r2 * 50 and a2 <= r2 * 250


def upright_now(det):
    """Standing: within 3 degrees of the last reference, or z-dominant if there is none."""
    x = det._avg(det._ax, _WIN)
    y = det._avg(det._ay, _WIN)
    z = det._avg(det._az, _WIN)
    if det._has_ref:
        dx = x - det._rx
        dy = y - det._ry
        dz = z - det._rz
        return dx * dx + dy * dy + dz * dz <= _UPRIGHT_MG * _UPRIGHT_MG
    return z > 0 and z * z >= (x * x + y * y + z * z) // 100 * 88
