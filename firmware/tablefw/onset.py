# A fall's onset, told through the nulled ringing as each stick's weight goes (issue 10: fell
# p95 <= 200 ms), and the kick tests: called by the Detector (detect.py) on each sample of an
# episode once onset_open says it may (ringfit.py); kick_passed by its quick level too. It
# lives beside detect.py so that compiling that from source fits a small heap (as ringfit.py,
# settle.py and the rest do).
#
# Each stick is told once 60 % of its weight has gone, held a few samples (the count told is
# the least they showed); the count is settled at the final level (Detector._fell). A weight
# leaving goes one way: what the filter leaves of a ringing (a knock's, one not learned right)
# swings above the level too. After a knock, or a kick the base hardly felt (kicked), a drop
# must hold half a period and the load before the boxcar still show it (gone), unless it grew
# over the last period going one way (ringfit.lasting). firmware/DETECTOR.md tells the cases.
# Integers only; no allocation.

from tablefw.compat import const, ticks_diff
from tablefw.ringfit import ahead, cycle_drop, lasting, raw_jump, runs_on
from tablefw.schema import FELL

# (the Detector's own values: MicroPython folds a const() only within its module)
_WIN = const(8)  # samples a stable state needs
_QUICK = const(4)  # samples a lower level needs before a fall is reported
_SMOOTH = const(4)  # filtered totals averaged over this many samples (or a slow ringing's period)
_SHAKE_MS = const(100)  # after the base shook, a new level must hold the full window
_KNOCK_RING_MS = const(1000)  # a knock rings the plate (and its moments) this long
_RMASK = const(31)  # the raw total's differences kept (power of two) - 1
_UMASK = const(31)  # the inverse filter's output kept (before the boxcar) - 1
_D_CLAMP = const(2047)  # sample differences (g x100 / 2) kept inside 11 bits for the fit


def tell(det, t, level, drop, knocked, pre=False):
    """Through a nulled ringing a stick's weight is seen going as it goes: each stick is
    reported once 60 % of its weight has gone; the count is settled at the final level
    (Detector._fell). A weight leaving goes one way: what the filter leaves of a ringing (a
    knock's, or one it has not learned right) swings above the level too."""
    unit = det._unit()
    hold = 2
    back = _WIN
    kicked = was_kicked(det, t, drop)
    knock = knocked <= _KNOCK_RING_MS  # (`knocked`: ms since the base's last knock)
    # (where the drop is run on (ringfit.runs_on), a drop grown over the last period, going
    # one way, is a weight leaving, no knock's leftover nor a kick's pulse: told as any fall,
    # in the hush too)
    lasts = (knock or kicked) and ticks_diff(t, det._shake_t) > _SHAKE_MS
    if lasts:
        lasts = lasting(det, level, drop, unit, kicked)
    if (kicked or knock) and not lasts:
        # What is left of a knock's ringing dips for under half a period, and the load
        # before the boxcar shows it gone again; the kick's own swing above the level
        # (which the hold and that cover) need not hold the onset back the full window.
        if det._fk and knock and det._bn == _SMOOTH and det._a2:
            # (how many more of a fall under way: counted over a whole period, and held a
            # window, as even that average swings after a heavy knock: ring-heavy 1094, by
            # 1.5 sticks over 0.3 s; "fell 1" one too many there at 178.47 s and in 1077 at
            # 170.34 s)
            drop = cycle_drop(det, level)
            hold = _WIN
        else:
            hold = _QUICK if det._bn < 2 * _QUICK else det._bn // 2
            drop = gone(det, level, drop)
        back = hold
    elif det._fk and knocked <= 2 * _KNOCK_RING_MS:
        # (a heavy knock's ringing can outlast _KNOCK_RING_MS: a further stick of the fall
        # it set off is one the newest load shows gone too. Real 1090, 163.57 s: "fell 1"
        # for a 2.8-stick trough after both sticks the knock sent off were told.)
        drop = gone(det, level, drop)
    if drop > level - det._floor:
        # (no weight leaving takes the plate below its empty weight: a ringing not yet
        # learned swings it there; independent 1067 at 5.86 s, "fell 1" from 5 g on it)
        drop = level - det._floor
    short = det._short(t)
    if short:
        unit = det._mean  # (the short fall left its shortfall in the tower's sum)
    k = (drop + short + unit * 2 // 5) // unit
    if k < 1 and not det._fk and back == _WIN and runs_on(det):
        # (not a fall's rest, counted on the fall's whole drop: that leaves while
        # _rest_may_leave; later a stick falls on its own, often within a turn's 3 s)
        if not det._rest_may_leave(t):
            k = ahead(det, level, drop, unit)
            if det._bn > _SMOOTH:
                hold = 1  # (a period's boxcar has averaged the noise the hold is for)
    if det._nsticks and k > det._nsticks:
        k = det._nsticks
    # (a lasting drop asks what went above the level of the quick window only: the
    # knock's swing up can still be among the window's 8 totals, in a slow boxcar's as in
    # the fast one's; independent 1061 at 111.26 s was told 56 ms later. `back` stays the
    # window, so on the fast boxcar too such a drop may have been run on by `ahead`, as on a
    # slow one)
    above = _QUICK if lasts else back
    if k <= det._fk or (not det._fk and det._above(level, above) > det._band):
        det._fk_run = 0
        return
    if not det._a2 and 2 * det._dr[(det._di - 1) & _RMASK] > unit:
        # A weight leaving goes one way: the raw total rising by over a stick in one
        # sample is a plate whose ringing is not learned yet swinging back (a knock).
        det._fk_run = 0
        return
    det._fk_run += 1
    if det._fk_run == 1 or k < det._fk_low:
        det._fk_low = k  # (held through a knock's hush: the least since the run began)
    if pre and not lasts and det._fk_run >= hold:
        det._fk_run = hold - 1  # (in a knock's hush: held, told once the hush ends)
    if det._fk_run < hold:
        return  # held for two samples (longer after a knock)
    # The count told is the least the hold saw: a drop still swinging deeper on the last
    # sample is no stick held (overlap 1049 at 69.57 s: "fell 2" for a third stick).
    k = det._fk_low
    det._emit(FELL, t, k - det._fk, drop)
    det._fk = k
    det._fk_run = 0


def was_kicked(det, t, drop):
    """Was the plate kicked just now (a knock the base hardly felt)? The inverse filter
    turns a kick into a dip of the load for a few samples, which the boxcar spreads over
    its length: it looks like a stick's weight going. Kicked: the base jolted within
    _SHAKE_MS (a stick landing on the table does so 200-300 ms after it left, long after
    its onset), a noisy base jogged (noisy 1059 at 371.8 s: a knock told "fell 1"),
    or the raw total jumped by more than 1.5 times the drop in one sample (a
    weight leaving moves it by about the weight at most). On a plate ringing 8 samples a
    cycle or more (ringfit.runs_on), the jump beyond what the learned ringing predicts:
    its own swing moves the total by more than a stick a sample for seconds."""
    if ticks_diff(t, det._shake_t) <= _SHAKE_MS or ticks_diff(t, det._jog_t) <= _SHAKE_MS:
        return True
    # A jump stays in the nulled total through the inverse filter's two taps and the
    # boxcar: a glitch of two wild readings dips it that long.
    jump = raw_jump(det, det._bn + 2)
    if det._bn == _SMOOTH and jump > det._band and runs_on(det):
        # (the fast boxcar shows a kick's pulse whole within two samples, a drop as deep as
        # the jump: a step two bands beyond the ringing is taken as a kick there, and a
        # fall then held as after a knock; a stick leaving over 150-220 ms steps a tenth of
        # its weight a sample. Independent 1089 at 244.75 s: a knock the base did not
        # feel, told "fell 1")
        return True
    # (a jump the fit's clamp cut, 41 g in one sample, is more than any burst leaves)
    return jump >= _D_CLAMP or 4 * jump > 3 * drop + 2 * det._band


def gone(det, level, drop):
    """The drop the newest load still shows: a weight that left stays gone, a kick's dip
    has passed the inverse filter (before the boxcar) within a few samples. Only for a
    fast ringing's short boxcar: a slow one's inverse filter is too noisy alone."""
    if det._bn != _SMOOTH:
        return drop
    # (the filter's taps carry a kick two samples on: each of the last three)
    for j in range(1, 4):
        now = level - det._uh[(det._si - j) & _UMASK]
        if now < drop:
            drop = now
    return drop


def kick_passed(det, t, level, drop):
    """A lower level held _QUICK samples just after a kick (was_kicked, as the onset asks) that
    the newest load no longer shows (gone): a kick's pulse, which the fast boxcar holds as long
    as a level while the inverse filter has passed it (noisy 1043 at 194.23 s: told "fell 1"
    from the quick level after the onset held it back as kicked)."""
    return was_kicked(det, t, drop) and gone(det, level, drop) < det._quick_drop
