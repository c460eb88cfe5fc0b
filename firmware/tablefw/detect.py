# Event detector: raw HX711 counts of the plate's load cells and the base accelerometer in,
# physical events out (placed, fell with a count, topple, touch). Runs on the board (MicroPython)
# and on the host (`sticktable detect`), so the two always agree.
#
# Principles:
# - Events are differences between stable states, never absolute tare: slow drift and warm-up
#   are followed while the plate is still and never become events. "Stable" is measured against
#   the board's own noise, learned while the plate is quiet.
#   A level that keeps moving one way is never followed (a slow hand's stick arrives over
#   most of a second, each window looking still: after 2 s still, the level is re-taken only
#   while it moves no faster than a cell drifts), nor one that came within a still run.
# - placed: a stable rise of about one stick (hands shake; a rise of two is a hand, not two
#   sticks); a stick weighed while a hand still held part of it, or rested on it, is
#   corrected when the rest arrives, or the hand lifts. fell: a lower level held 50 ms,
#   counted from the masses weighed when each stick was placed (and "all of them" when the
#   tower is back to its empty level). touch: pressure that goes away leaving the level
#   unchanged. A stick let go that rests a moment and drops at once (its weight leaving within
#   _LEAVE_MS) is a placement and a fall, told once the level is back and still over a quick
#   window (its rest is looked for on the raw total too: a ringing learned from a hand's
#   tremor smears a short one; a rest holds, where a hand easing off slides through one
#   stick's level).
# - Touch and fall in one episode: a stick that leaves while a hand presses is seen off the
#   hand's line in total and moments (tablefw/pressfall.py) and reported at once; a press
#   that then ends at its old level placed a stick. One nearer the hand's spot is told once
#   its residual has held a while as the hand presses on; seen only maybe (held briefly, or
#   as the hand lets go), it is told once the hand has gone: back at the old level, the
#   moments (a window's average, against the level's) stay moved (a stick on here, another
#   off there; settle.swapped: one a stick 6 mm off need not have been seen at all (unless a
#   knock moved them)); after a touch they come back. Once a stick was seen leaving, a level back
#   where it was is told as a placement at once, through the ringing (a stick falling just
#   after is a fall of its own); one down by just the sticks told, a touch. One a stick up is
#   placed (a stick resting there looks the same), but its hand may still hold it, pressing:
#   its drop back by about that stick soon after (the hand pressing on meanwhile or not) is
#   that hand letting go, no fall (settle.let_go).
#   A touch is reported once the hand has gone and the level, averaged over two windows, is
#   back, though the plate still rings (heavy ringing takes a second to die away; one not
#   learned yet too: the windows' average takes out most of it), unless the moments stand
#   moved as after a swap.
# - An episode always ends once the plate is still, whatever the level: one over 3 s old whose
#   level holds within a few bands for 0.8 s is settled as a stable window would be, else its
#   level is taken as it is (a slow plate's unlearned ringing can keep every window from
#   being stable until the next hand comes, and the episode would run on over many sticks).
# - A fall is reported at its onset through the nulled ringing (or on a plate that has shown no
#   ringing to learn), each stick as 60 % of its weight has gone, held a few samples (the count
#   told is the least they showed), going one way (a ringing's leftover swings above the level
#   too; after a knock, or a kick the base hardly felt, a drop must hold half a period, counted
#   through the knock's hush, and the load before the boxcar must still show it, unless on a
#   slow plate it grew over the last period (and each half of it, after a jump) going one way:
#   a knock's leftover comes back each period, a kick's pulse steps the boxcar and holds it
#   flat; once a fall is under way, its further sticks are counted over a whole period of the
#   ringing, where what the filter leaves of a heavy knock's ringing averages out, and held a
#   window); the count is settled at the final level, and a further drop soon after with no
#   hand (a fall's tail, or what a ringing hid) is counted on the whole drop less what was
#   reported: a partial drop is never an extra stick.
# - A knock jolts the base: while it shakes (and briefly after) no level counts as stable. A
#   stick landing on the table beside the tower jolts it less and holds back no fall's onset,
#   nor the press watch.
# - The plate rings at its resonance after any sudden load change (a stick leaving, a hand
#   letting go, a knock). The detector learns the ringing as a damped sinusoid from the free
#   ringing it sees (a second-order linear prediction fitted on the sample differences, while
#   it swings about its level also on the same smoothed 1-2-1, which the cells' noise biases
#   less: a slow plate's first free ringing; a hand's tremor rides off the level, and off
#   it no fit replaces a ringing proved by a fit with no hand on the plate; a knock's
#   ringing, the plate's own, replaces at once one learned from a tremor) and nulls
#   it with the inverse second-order filter, averaged over 4 samples or, for a slow ringing
#   (10+ samples a period), over one period: there noise biases the fitted damping and the
#   inverse filter's noise gain is high, and the period's average nulls what it leaves. Every
#   level decision is made on the nulled total (and moments). Where a ringing was seen, a level
#   one stick up that holds within a few bands is placed without waiting for what the filter
#   leaves of it to die away. Before the ringing is learned (a slow plate's first sticks, the
#   hand's tremor ringing it), a whole stick's level averaged over 2-3 periods is placed. A kick
#   (a knock the base may hardly feel) is no load: the inverse filter turns it into a pulse two
#   samples long that the next sample leaves again, taken out before the boxcar would spread it
#   into what looks like a level.
# - topple: the base tilts away from the reference captured at arm(), past ~4 degrees, steadily,
#   in one direction and growing (a knock shakes, a topple leans and keeps leaning). A tilting
#   tower's weight loss is never counted as sticks.
# - Per sample: integers only, preallocated buffers, no allocation (heap_lock test). Values stay
#   inside +-2**30 so they remain small ints on 32-bit ports. Short windows count samples
#   (tuned for the HX711's 78-92 Hz); the long runs are set in ms and turned into samples at the
#   nominal `rate_hz`. Thresholds on weight are in % of the nominal stick (the _PCT consts).
# - Some parts live beside this file so that compiling it from source fits a small heap:
#   ringfit.py (the ringing's fit, the fall onset's jump and lead), onset.py (a fall told at
#   its onset, the kick test), pressfall.py (a stick leaving under a press), lean.py (the
#   table leant on), settle.py (levels between events), tilt.py (the topple watch) and
#   count.py (how many sticks a drop is).
# - The path of a sample through these, how to change them against the bench, and what the
#   detector cannot tell today: firmware/DETECTOR.md.

from array import array

from tablefw.compat import const, ticks_diff
from tablefw.count import count
from tablefw.intqueue import IntQueue
from tablefw.lean import LeanWatch
from tablefw.median import gross, lone_wild, median3
from tablefw.onset import kick_passed
from tablefw.onset import tell as tell_onset
from tablefw.pressfall import PressWatch
from tablefw.reading import MISSING  # noqa: F401 - a cell without a reading
from tablefw.ringfit import (
    cos2_table,
    fit,
    onset_open,
    seed,
    track,
)
from tablefw.schema import FELL, KIND_NAMES, PLACED, TOPPLE, TOUCH  # noqa: F401 - event kinds
from tablefw.settle import (
    LooseRest,
    SlowRing,
    back_after_fell,
    back_after_let_go,
    back_over_windows,
    fall_rest,
    filtered_rest,
    hand_again,
    hold_lapsed,
    let_go,
    loose_holds,
    loose_rest,
    place_through_ring,
    rest_before_fall,
    swapped,
    swung,
    tail_of,
)
from tablefw.tilt import upright_now, watch_tilt

_WILD_HI = const(8388607)  # a saturated HX711 reading: treated like a missing one
_WILD_LO = const(-8388608)
_RING = const(32)  # history of the plate total (power of two)
_RMASK = const(31)
_WIN = const(8)  # samples a stable state needs (100 ms at 80/s)
_QUICK = const(4)  # samples a lower level needs before a fall is reported (50 ms)
_ARM_NOW_MS = const(500)  # arm() while the plate has been still this long: baseline at once
_ARM_MS = const(1500)  # otherwise the baseline waits for this long a stillness
_HOLD_MS = const(1500)  # an unexplained level held this long is accepted
_STUCK_MS = const(3000)  # an episode this old (a stick or a touch is settled by then) ...
_STILL_MS = const(800)  # ... whose level held this still (within _LOOSE_X bands) this long ends
_RESYNC_MS = const(2000)  # after this long a stillness a small offset is the new level
_TREND = const(24)  # samples between the windows compared to see a level moving one way
_PRESS_MS = const(100)  # a touch presses this long in a row
_SHAKE_MS = const(100)  # after the base shook, a new level must hold the full window
_ALONE_MS = const(150)  # a stick resting alone this long in an episode: its hand has gone
_LEAVE_MS = const(180)  # a stick let go that falls at once: its weight leaves within this
_REST_MS = const(800)  # a small change this soon after a placement is the rest of its stick
_LOOSE_X = const(3)  # a level this many bands still, twice alike, is good enough to place
_SHORT_MS = const(500)  # what a fall's level caught short of its count leaves this soon after
_KNOCK_MG = const(50)  # a base jump above this is a knock, below it maybe a stick landing
_KNOCK_RING_MS = const(1000)  # a knock rings the plate (and its moments) this long
_LEAN_MG = const(3)  # the base tilting this much since an episode began: the table leant on
_JOLT_MS = const(450)  # a jolt this recent is in the base's sums over _RING samples (~400 ms)
_MAX_STICKS = const(64)
_QUEUE = const(16)
_CLAMP_G100 = const(500000)  # 5 kg per cell: keeps moments inside small ints
_CLAMP_MM = const(255)
_CLAMP_TOTAL = const(1000000)  # 10 kg: the resonance filter's products stay small ints
_CLAMP_MOM = const(500000)  # g x mm: 5 kg at 100 mm, ditto
_CH = const(3)  # ints of state per filtered channel: y[n-1], y[n-2], sum of the boxcar
_UH = const(32)  # filtered values kept per channel for the boxcar (power of two)
_UMASK = const(31)
# Plate resonance: coefficients of the ringing's linear prediction in Q8 (x256).
_Q = const(256)
_RW = const(24)  # samples the ringing is fitted over
_FIT_EVERY = const(4)
_FREE_MS = const(150)  # the base shook this long ago: the plate now rings freely
_KICK_REF = const(8)  # filtered values a kick's pulse is judged against
_SMOOTH = const(4)  # filtered totals averaged over this many samples (or a slow ringing's period)
_OLD_MS = const(60000)  # a time older than this is kept at this age (see _young)
_D_CLAMP = const(2047)  # sample differences (g x100 / 2) kept inside 11 bits for the fit
_TILT_MG = const(70)  # topple: the base leans past ~4 degrees ...
# Weights in % of the nominal stick.
_SAME_PCT = const(35)  # level changes below this are no event
_EXC_PCT = const(40)  # a departure from the level that opens an episode
_BAND_PCT = const(15)  # a stable window's spread: learned from the noise, first this ...
_BAND_LO_PCT = const(12)  # ... and kept between these
_BAND_HI_PCT = const(45)
_ONE_LO_PCT = const(75)  # a rise this size is one stick ...
_ONE_HI_PCT = const(130)
_HAND_PCT = const(160)  # ... and above this a hand
_WHOLE_LO_PCT = const(85)  # a stick weighed in two parts adds up to this ...
_WHOLE_HI_PCT = const(120)
_QUICK_DROP_PCT = const(60)  # a lower level held _QUICK samples: a fall
_RING_MIN_PCT = const(15)  # ringing this big is worth fitting


class Detector:
    def __init__(
        self, counts_per_gram, cell_xy_mm, stick_g, rate_hz=80, zero_counts=None, ring=None
    ):
        n = len(counts_per_gram)
        self.ncells = n
        # grams x100 = (raw - base) * num // den, both ints with den ~ counts per 0.01 g * q.
        self._num = array("i", [0] * n)
        self._den = array("i", [1] * n)
        self._lim = array("i", [0] * n)
        # A reading this far (25 g) from the median of it and its neighbours is a wild value.
        self._spike = array("i", [min(1 << 29, int(abs(float(c)) * 25)) for c in counts_per_gram])
        for i in range(n):
            cpg = float(counts_per_gram[i])
            q = 1
            while abs(cpg) * q < 1000 and q < 1000000:
                q *= 10
            self._num[i] = 100 * q
            self._den[i] = int(round(cpg * q)) or 1
            self._lim[i] = (1 << 30) // (100 * q) - 1
        self._cx = array("i", [max(-_CLAMP_MM, min(_CLAMP_MM, int(p[0]))) for p in cell_xy_mm])
        self._cy = array("i", [max(-_CLAMP_MM, min(_CLAMP_MM, int(p[1]))) for p in cell_xy_mm])
        self._zero = array("i", [int(z) for z in zero_counts]) if zero_counts else None
        self._stick = max(1, int(stick_g * 100))  # nominal stick mass, grams x100
        stick = self._stick
        # Max spread of a stable window: 1.75 x the learned typical spread of a quiet window
        # (the board's own noise), kept between 12 % and 45 % of a stick.
        self._band_lo = max(_pct(stick, _BAND_LO_PCT), 30)
        self._band_hi = _pct(stick, _BAND_HI_PCT)
        self._band = max(_pct(stick, _BAND_PCT), 40)
        self._noise16 = self._band * 64 // 7  # typical spread of a quiet window, x16
        self._same = _pct(stick, _SAME_PCT)
        self._exc = _pct(stick, _EXC_PCT)
        self._one_lo = _pct(stick, _ONE_LO_PCT)
        self._one_hi = _pct(stick, _ONE_HI_PCT)
        self._hand = _pct(stick, _HAND_PCT)
        self._whole_lo = _pct(stick, _WHOLE_LO_PCT)
        self._whole_hi = _pct(stick, _WHOLE_HI_PCT)
        self._quick_drop = _pct(stick, _QUICK_DROP_PCT)
        self._touch_min = stick  # a touch presses at least one stick's weight
        self._press = PressWatch(stick, self)  # a stick falling while a hand presses
        # Runs of samples, from their time at the nominal rate.
        self._arm_at_once = _samples(rate_hz, _ARM_NOW_MS)
        self._arm_run = _samples(rate_hz, _ARM_MS)
        self._hold_run = _samples(rate_hz, _HOLD_MS)
        self._resync_run = _samples(rate_hz, _RESYNC_MS)
        self._press_run = _samples(rate_hz, _PRESS_MS)
        self._still_run = _samples(rate_hz, _STILL_MS)
        self._lean = LeanWatch(rate_hz, stick)  # the table leant on (tablefw/lean.py)
        self._slow = SlowRing()  # a stick placed through a ringing not learned (settle.py)
        self._rest = LooseRest()  # a stick resting loosely, then falling (settle.py)
        # Accelerometer thresholds (milli-g squared): topple leaning past ~4 degrees, knocks.
        self._tilt2 = _TILT_MG * _TILT_MG
        self._jolt2 = 40 * 40  # a knock: a base jump above this (mg^2) and 8x the noise
        self._jnoise = 200  # mean squared sample-to-sample jump of the base (mg^2), learned
        self._shake_t = -100000
        self._knock_t = -100000
        self._jog_t = -100000  # the last jump of a noisy base too small to call a knock
        self._hand_t = -100000  # the last sample a hand pressed (above the level, base calm)
        self._shake2 = 150 * 150
        # Buffers.
        self._med = array("i", [0] * (3 * n))  # last three raw readings per cell
        self._gap = array("b", [0] * (3 * n))  # ... which of them had no reading (repeated)
        self._far = bytearray(n)  # readings in a row a cell's jumped far off (median.gross)
        self._base = array("i", [0] * n)  # raw readings of the armed state
        self._ring = array("i", [0] * _RING)  # plate total (g x100 over the base)
        self._ax = array("i", [0] * _RING)
        self._ay = array("i", [0] * _RING)
        self._az = array("i", [0] * _RING)
        self._mxr = array("i", [0] * _RING)  # moments (g x mm), nulled as the total is
        self._myr = array("i", [0] * _RING)
        self._mass = array("i", [0] * _MAX_STICKS)  # masses of the sticks on the tower
        self._events = IntQueue(_QUEUE, 4, keep_newest=True)  # nobody pops: drop the oldest
        # Plate resonance: raw totals, their differences and the fit's running sums.
        self._dr = array("i", [0] * _RING)
        self._di = 0
        # Per channel (total, moment x, moment y): the last two raw values and the sum of the
        # boxcar over the filtered ones (see _inverse), and the last _UH filtered values.
        self._ch = array("i", [0] * (3 * _CH))
        self._uh = array("i", [0] * (3 * _UH))
        self._cos2 = cos2_table()  # (tablefw/ringfit.py: the fit and the period)
        self._bn = _SMOOTH  # the boxcar: whole samples and sixteenths of one more
        self._bf = 0
        self._ms_per_sample = 1000 // max(1, int(rate_hz))
        # After a jolt, levels wait this long: what a knock's kick leaves through the inverse
        # filter is spread over the boxcar, so a longer boxcar waits longer.
        self._hush = _SHAKE_MS
        self._p0 = 0  # sums over _RW samples of d[n]*d[n], d[n]*d[n-1], d[n]*d[n-2]
        self._p1 = 0
        self._p2 = 0
        self._h0 = 0  # sum of d[n]*d[n] over the newer half of the window
        self._pq = 0  # the cells' noise in _p0: its floor (falls at once, rises slowly)
        # The same over the differences smoothed 1-2-1 (_sr): fitted on while the plate swings
        # about its level (tablefw/ringfit.py fit).
        self._sr = array("i", [0] * _RING)
        self._s0 = 0
        self._s1 = 0
        self._s2 = 0
        self._g0 = 0
        self._fa1 = 0  # the last fit's coefficients
        self._fa2 = 0
        self._si = 0  # where the next filtered value goes in each channel's history
        self._kick = False  # the total's last two filtered values were a kick's pulse
        self._a1 = 0  # learned prediction y[n] ~ a1 y[n-1] + a2 y[n-2] of the ringing (Q8)
        self._a2 = 0
        self._fits = 0  # fits agreeing with the candidate (c1, c2: Q16) and their weight
        self._c1 = self._c2 = self._cw = self._ce = 0
        self._odd = 0  # fits since the last one that agreed
        self._proved = False  # a fit with no hand on the plate agreed with it (ringfit)
        self._ring_min = _pct(stick, _RING_MIN_PCT) ** 2 * 3  # a ring's energy over _RW
        self._seen = 0  # readings per cell so far (for the median warm-up)
        self._mi = 0
        self._ri = 0
        self._nring = 0
        self._run = 0
        self._run_from = 0  # the window's mean as the run of stable windows began
        self._quiet = 0
        self._has_ref = False
        self._rx = 0
        self._ry = 0
        self._rz = 1000
        self._reset_play()
        self._armed = False
        self._standing = None  # sticks the next baseline has on it (arm(sticks))
        if ring:  # [samples per cycle, damping ratio] of the plate, from the calibration's tap
            seed(self, ring[0], ring[1])

    # -- control -----------------------------------------------------------------------------

    def arm(self, sticks=None):
        """Empty tower, standing still: capture a new baseline and tilt reference.

        Taken at once if the plate has been still for half a second, else as soon as it has
        been still and upright for 1.5 s (no events meanwhile: the tower is being rebuilt);
        once there is a reference, 0.5 s with the level going nowhere will do (feed()).
        `sticks` (after a board reset mid-round): the tower stands with these sticks, their
        masses in g x10 bottom first (None: not weighed, the nominal mass); the baseline is
        the plate with them on it, and falls are counted against them."""
        self._armed = False
        self._standing = sticks
        if self._quiet >= self._arm_at_once and upright_now(self):
            self._arm_now()

    def _reset_play(self):
        self._level = 0
        self._floor = 0
        self._mx = 0
        self._my = 0
        self._wt = 0  # the total at the level, averaged (see _keep_origin)
        self._nsticks = 0
        self._sum = 0
        self._mean = self._stick
        self._placed_n = 0
        self._placed_sum = 0
        self._last_place_t = -100000
        self._rest_n = 0  # the sticks on the tower once the last one weighed was placed
        self._let_t = -100000  # when the rest of the last stick arrived (its hand let go)
        self._last_fall_t = -100000
        self._last_loose = 0
        self._held = False  # the last placement may be its hand still holding (settle.let_go)
        self._fall_drop = 0  # the last fall: its drop and its count, until its tail is in
        self._fall_n = 0
        self._tilt_run = 0
        self._lean.left = 0  # (a lean is not carried over a new baseline)
        self._fk = 0  # sticks of the fall under way already reported at their onset
        self._fk_run = 0
        self._fk_low = 0  # the least count the hold has seen
        self._tilting = False
        self._pe2 = 0
        self._pdx = 0
        self._pdy = 0
        self._pdz = 0
        self._ep_reset()

    def _ep_reset(self):
        self._ep = False
        self._ep_fell = 0  # sticks seen leaving while a hand pressed (reported at once)
        self._ep_ax = 0
        self._ep_ay = 0
        self._ep_jolted = False  # ... taken with a jolt in them: taken again once it has gone
        self._ep_touch = False  # the episode's touch was reported already
        self._press.reset()
        self._slow.reset()
        self._rest.reset()
        self._ep_t = 0
        self._ep_pos = 0
        self._ep_neg = 0
        self._ep_peak = 0
        self._ep_press = 0  # consecutive calm samples pressed above the level, and the most
        self._ep_hold = 0
        self._ep_shake = 0
        self._still = 0  # samples the episode's level has held still (loosely)
        self._pl_level = 0  # a short plateau about one stick up (stick let go, then fell)
        self._pl_on = False
        self._pl_run = 0
        self._pl_last = 0
        self._pl_back = 0
        self._pl_from = 0  # when the stick seen resting alone was first seen
        self._pl_tail = False  # ... that rest began soon after a fall's level was taken

    def raw_total(self):
        """The plate's last total as read (g x100 over the first readings)."""
        return self._ch[0]

    def total(self):
        """The last total the detector works on: the plate's ringing nulled."""
        return self._ring[(self._ri - 1) & _RMASK]

    def resonance(self):
        """The plate's ringing as learned: (a1, a2) of y[n] = a1 y[n-1] + a2 y[n-2], x256;
        (0, 0) until enough ringing agreed (`sticktable selftest` turns it into Hz)."""
        return self._a1, self._a2

    def pop(self, out):
        """Fill out[0:4] with (kind, t_ms, count, grams x10) of the oldest event; False if none."""
        return self._events.pop(out)

    def _emit(self, kind, t, count, g100):
        self._events.push(kind, t, count, (g100 + 5) // 10)

    # -- per sample --------------------------------------------------------------------------

    def feed(self, t_ms, cells, ax, ay, az):
        """One sample period; returns how many events wait in the queue."""
        n = self.ncells
        med = self._med
        mi = self._mi
        fresh = self._seen < 3
        for i in range(n):
            v = cells[i]
            k = 3 * i
            gap = v >= _WILD_HI or v <= _WILD_LO
            if not gap and not fresh:
                gap = gross(v, med[k + (mi + 2) % 3], self._spike[i], self._far, i)
            self._gap[k + mi] = 1 if gap and not fresh else 0
            if gap:  # missing, saturated or no HX711 value at all
                # No reading: repeat the previous one, unless it was a wild value (repeated,
                # two alike would pass the median): then the median of the last three.
                v = med[k + (mi + 2) % 3]
                m = median3(med[k], med[k + 1], med[k + 2])
                if v - m > self._spike[i] or m - v > self._spike[i]:
                    v = m
                if fresh and self._seen == 0:
                    v = 0
            if fresh:
                med[k] = v
                med[k + 1] = v
                med[k + 2] = v
            else:
                med[k + mi] = v
        self._seen += 1
        self._mi = (mi + 1) % 3
        if self._seen == 3:  # first full median: the offsets everything is measured from
            for i in range(n):
                self._base[i] = self._median(3 * i)
            self._nring = 0
        total = 0
        mx = 0
        my = 0
        mi = self._mi  # the newest reading sits at (mi + 2) % 3, the one before at (mi + 1) % 3
        odd = lone_wild(self, mi) if self._seen > 3 else -1
        for i in range(n):
            d = self._reading(3 * i, mi, i, i == odd) - self._base[i]
            lim = self._lim[i]
            if d > lim:
                d = lim
            elif d < -lim:
                d = -lim
            g = d * self._num[i] // self._den[i]
            if g > _CLAMP_G100:
                g = _CLAMP_G100
            elif g < -_CLAMP_G100:
                g = -_CLAMP_G100
            total += g
            mx += g * self._cx[i]
            my += g * self._cy[i]
        total = self._null_ring(t_ms, total)
        # Moments in g x mm, their ringing nulled the same way (the plate rings as one).
        mx = self._inverse(_CH, _clamp(mx // 100, _CLAMP_MOM))
        my = self._inverse(2 * _CH, _clamp(my // 100, _CLAMP_MOM))
        self._si = (self._si + 1) & _UMASK
        ri = self._ri
        self._ring[ri] = total
        self._ax[ri] = ax
        self._ay[ri] = ay
        self._az[ri] = az
        self._mxr[ri] = mx
        self._myr[ri] = my
        self._ri = (ri + 1) & _RMASK
        if self._nring < _RING:
            self._nring += 1
        self._step(t_ms, total, mx, my)
        return self._events.count

    def _null_ring(self, t, y):
        """The total with the plate's learned ringing removed (inverse second-order filter,
        unit gain for a steady load); learns the ringing on the way."""
        y = _clamp(y, _CLAMP_TOTAL)
        if self._seen <= 3:
            return self._inverse(0, y)
        di = self._di
        track(self, _clamp((y - self._ch[0]) >> 1, _D_CLAMP))
        if di & (_FIT_EVERY - 1) == 0 and self._p0 > self._ring_min:
            if ticks_diff(t, self._shake_t) > _FREE_MS:
                # (no hand pressed since before the fit's window began)
                handless = ticks_diff(t, self._hand_t) > _RW * self._ms_per_sample
                fit(self, di, handless and self._rung(t), handless)
        return self._inverse(0, y)

    def _rung(self, t):
        """Does a knock ring the plate over the whole fit window with the base still since
        before the window began (the knock's own shaking drives the plate, and a fit over it
        comes out damped more than the plate is)? The caller has checked no hand pressed
        meanwhile (a touch often follows a knock)."""
        return (
            ticks_diff(t, self._knock_t) <= _KNOCK_RING_MS
            and ticks_diff(t, self._shake_t) > _RW * self._ms_per_sample
        )

    def _inverse(self, k, y):
        """Channel k's value through the inverse of the learned ringing (unit gain for a steady
        load), averaged over one period of the ringing (at least _SMOOTH samples): the average
        nulls what the inverse leaves of a lightly damped ringing whose damping the fit cannot
        tell from noise, and the cells' noise the inverse filter raises."""
        ch = self._ch
        uh = self._uh
        b = (k // _CH) * _UH
        if self._seen <= 3:
            ch[k] = y
            ch[k + 1] = y
            ch[k + 2] = y * self._bn
            for j in range(_UH):
                uh[b + j] = y
            return y
        a1 = self._a1
        a2 = self._a2
        u = y
        if a1 or a2:
            u = _clamp((_Q * y - a1 * ch[k] - a2 * ch[k + 1]) // (_Q - a1 - a2), _CLAMP_TOTAL)
        ch[k + 1] = ch[k]
        ch[k] = y
        si = self._si
        n = self._bn
        old = uh[b + ((si - n) & _UMASK)]
        ch[k + 2] += u - old
        uh[b + si] = u
        if not (a1 or a2):
            return u
        self._unkick(k, b, si, n)
        f = self._bf
        return (16 * ch[k + 2] + f * old) // (16 * n + f)

    def _unkick(self, k, b, si, n):
        """Takes a kick's pulse out of channel k's boxcar. A knock (the base may hardly feel
        it) kicks the plate into ringing: no load, but the inverse filter, fitted to a
        ringing driven by loads, turns it into a pulse two samples long, and the boxcar
        would spread that over its length, flat, like a level held (a stick's weight gone,
        or one more). A load that comes or goes stays: a pulse that the newest sample
        leaves again, standing far out of the values before it, was a kick, and its two
        samples are taken as their mean. Not while a hand is on the tower: it moves the
        load faster than the filter follows (a brisk release leaves pulses of its own).
        Judged on the total, and done to the moments alike (the plate rings as one)."""
        uh = self._uh
        if k == 0:
            # (a quick look at the boxcar first: most samples are no pulse)
            before = (self._ch[2] - uh[si] - uh[(si - 1) & _UMASK] - uh[(si - 2) & _UMASK]) // (
                n - 3
            )
            # (a pulse up has pressed the level for its own two samples)
            self._kick = (
                self._ep_pos <= 2 and self._pulse(b, si, n, before) and self._was_kick(b, si, n)
            )
        if self._kick:
            before = _mean_before(uh, b, si)
            i1 = b + ((si - 1) & _UMASK)
            i2 = b + ((si - 2) & _UMASK)
            self._ch[k + 2] -= uh[i1] + uh[i2] - 2 * before
            uh[i1] = before
            uh[i2] = before

    def _pulse(self, b, si, n, before):
        """Do the total's two filtered values before the newest stand out from `before`, on
        the same side, by enough to move the boxcar by a band, with the newest back within
        a quarter of them? Returns the smaller of the two (how far out), else 0."""
        uh = self._uh
        p1 = uh[b + ((si - 1) & _UMASK)] - before
        p2 = uh[b + ((si - 2) & _UMASK)] - before
        if p1 < 0:
            p1 = -p1
            p2 = -p2
        if p2 <= 0 or p1 + p2 < n * self._band or 4 * abs(uh[b + si] - before) > p1 + p2:
            return 0
        return p1 if p1 < p2 else p2

    def _was_kick(self, b, si, n):
        """A pulse (_pulse) against the _KICK_REF values before it, each of its two values
        at least twice as far out as any of those strays from their mean (what the filter
        leaves of a ringing it nulls only roughly, and the inverse filter's noise, which
        the boxcar averages away)."""
        uh = self._uh
        before = _mean_before(uh, b, si)
        out = self._pulse(b, si, n, before)
        if not out:
            return False
        for j in range(3, 3 + _KICK_REF):
            if 2 * abs(uh[b + ((si - j) & _UMASK)] - before) > out:
                return False
        return True

    def _median(self, k):
        med = self._med
        return median3(med[k], med[k + 1], med[k + 2])

    def _between(self, k, mi):
        """Halfway between a cell's readings before and after the previous one: what it read
        then, had it read at all (a load on its way moves it a lot from sample to sample)."""
        return (self._med[k + mi] + self._med[k + (mi + 2) % 3]) // 2

    def _near(self, k, mi, i):
        """Are a cell's readings before and after the previous one within half the spike limit
        of each other (neither of them a wild value that halfway would carry: a bit error of
        16 g passes the spike limit)?"""
        d = 2 * (self._med[k + mi] - self._med[k + (mi + 2) % 3])
        return -self._spike[i] <= d <= self._spike[i]

    def _reading(self, k, mi, i, odd):
        """The previous reading of a cell (one missing, or `odd`, a wild value on this cell
        alone: halfway between its neighbours), unless it is a lone spike against its
        neighbours (a wild value): then the median of the three. Linear otherwise, so the
        plate's ringing keeps its shape for the resonance filter."""
        med = self._med
        b = med[k + (mi + 1) % 3]
        # (pressfall._guessed tells the press watch which readings this repeated: alike)
        gap = self._gap[k + (mi + 1) % 3] and not self._gap[k + (mi + 2) % 3]
        if odd or (gap and self._near(k, mi, i)):
            # No reading then (the one before repeated): halfway between its neighbours. A
            # load on its way (a hand pressing) moves the other cells meanwhile, and one cell
            # held back is a step of the moments off the hand's line, a stick leaving.
            b = self._between(k, mi)
        m = median3(med[k], med[k + 1], med[k + 2])
        lim = self._spike[i]
        if b - m > lim or m - b > lim:
            return m
        return b

    def _spread(self, count):
        """(max - min) of the last `count` totals."""
        ring = self._ring
        j = (self._ri - 1) & _RMASK
        hi = ring[j]
        lo = hi
        for _ in range(count - 1):
            j = (j - 1) & _RMASK
            v = ring[j]
            if v > hi:
                hi = v
            elif v < lo:
                lo = v
        return hi - lo

    def _avg(self, buf, count, back=0):
        j = self._ri - back  # (the window ending `back` samples ago)
        s = 0
        for _ in range(count):
            j = (j - 1) & _RMASK
            s += buf[j]
        return s // count

    def _step(self, t, total, mx, my):
        # Jumps of the base: a knock (or a stick landing on the table). A shaking plate can
        # look still through the median filter: it is not.
        j = (self._ri - 1) & _RMASK
        j2 = (j - 1) & _RMASK
        jx = self._ax[j] - self._ax[j2]
        jy = self._ay[j] - self._ay[j2]
        jz = self._az[j] - self._az[j2]
        e = jx * jx + jy * jy + jz * jz
        rate = 7 if self._armed else 4  # learn the noise fast before the first baseline
        if (2 * self._jnoise > self._jolt2 and e > 4 * self._jnoise) or (
            self._bn == _SMOOTH and 16 * self._jnoise > self._jolt2 and e > 6 * self._jnoise
        ):
            # (a base so noisy (jumps of 28 mg rms and over) that a knock's jump can stay
            # under 8x its noise: one over 4x may be a knock, and the cells are asked to show
            # a fall's drop stands, onset.was_kicked. Not on a quieter base, whose own noise and a
            # stick landing make such jumps within falls: on every base, real's fell p95
            # went 166 -> 176 ms on 96 tuning games; from 20 mg rms, noisy's 182 -> 184.
            # From 10 mg rms a jump over 6x may be one too, where the boxcar is the fast
            # one, whose kick's pulse the newest load shows passed (onset.kick_passed):
            # noisy 1043 at 194.16 s, a knock at 6.9x told "fell 1". Not behind a slow
            # boxcar: a stick clipping the base 140 ms into its fall held it 38 ms there,
            # independent 1033 at 145.74 s)
            self._jog_t = t
        if e > self._jolt2 and e > 8 * self._jnoise:
            self._shake_t = t
            if e > _KNOCK_MG * _KNOCK_MG:
                self._knock_t = t  # more than a stick landing on the table beside it
        cap = 4 * self._jnoise
        self._jnoise += ((e if e < cap else cap) - self._jnoise) >> rate
        if self._jnoise < 4:
            self._jnoise = 4
        spread = self._spread(_WIN) if self._nring >= _WIN else 0
        # Old times stay young enough to survive the tick wrap, however long it is still.
        self._shake_t = _young(t, self._shake_t)
        self._last_place_t = _young(t, self._last_place_t)
        self._last_fall_t = _young(t, self._last_fall_t)
        self._let_t = _young(t, self._let_t)
        self._knock_t = _young(t, self._knock_t)
        self._jog_t = _young(t, self._jog_t)
        self._hand_t = _young(t, self._hand_t)
        shaken = ticks_diff(t, self._shake_t)
        if not self._ep and self._nring >= _WIN and shaken > self._hush:
            self._learn_noise(spread, rate)
        calm = self._nring >= _WIN and shaken > self._hush
        stable = calm and spread <= self._band
        if stable:
            self._run += 1
            if self._run == 1:
                self._run_from = self._avg(self._ring, _WIN)
        else:
            self._run = 0
        # How long the plate has been quiet (for baselines: a rare noisy window is no motion).
        if calm and spread <= self._band * 3 // 2:
            self._quiet += 1
        else:
            self._quiet = 0
        if not self._armed:
            # Re-arming after a topple (a reference to stand up to): the game goes on as soon
            # as the tower stands again, and a noisy board's stillness seldom lasts _ARM_MS
            # unbroken, so the first placements came before the baseline and were lost.
            # Standing back where it stood, level and not on its way anywhere, is enough.
            if self._quiet >= self._arm_run or self._stood_back():
                if upright_now(self):
                    self._arm_now()
            return
        watch_tilt(self, t)
        if not self._armed:
            return
        self._lean.watch(self)
        hold_lapsed(self, t)
        level = self._level
        dev = total - level
        self._track_episode(t, dev)
        if self._tilting:
            return  # a leaning tower's weight loss is its own, never sticks
        knocked = ticks_diff(t, self._knock_t)
        # (a stick let go that rested loosely and now falls: placed, its fall judged from it)
        if calm and self._ep and knocked > _KNOCK_RING_MS and self._rest.watch(self, t):
            return
        # The press watch pauses for a knock's ringing only. A stick landing on the table beside
        # the tower (often the one that fell, 200-300 ms after it left) jolts the base less than
        # a knock and does not ring the plate: what its jolt shakes into the cells jitters about
        # zero, which the watch's stillness test rejects.
        if self._ep and knocked > _KNOCK_RING_MS and not self._ep_fell:
            span = self._bn + 2 if self._a2 else 0  # (a wild reading's pulse, averaged)
            if (
                self._press.feed(total - self._wt, mx - self._mx, my - self._my, span)
                and self._base_level()
            ):
                self._ep_fell = 1  # a stick left from elsewhere while the hand pressed
                self._fk += 1
                self._emit(FELL, t, 1, self._mean)
        if self._ep and self._still_level(calm, spread) and ticks_diff(t, self._ep_t) > _STUCK_MS:
            self._end_still(t)
            return
        if stable:
            self._settled(t, self._avg(self._ring, _WIN) - level)
            return
        if calm and self._ep and knocked > _KNOCK_RING_MS and self._slow.place(self, t, level):
            return
        ringing = self._a2 or self._c2  # a ringing seen (confirmed or a candidate)
        if calm and self._ep and not self._ep_fell:
            self._touch_through_ring(t, level)
            if ringing and place_through_ring(self, t, level):
                return
        if calm and self._ep_fell and back_after_fell(self, level):
            self._fk = 0  # (told at once: a new fall counts afresh)
            self._one_for_one(t)
            self._keep_origin()
            return
        # (_pl_back first: set only once a rest was seen and left, so most samples ask no more)
        if calm and self._ep and self._pl_back and not self._ep_fell and self._let_go_fell():
            if back_after_let_go(self, level):
                self._episode_end(t)  # (let go, rested, fell off: told once back, still)
                self._keep_origin()
                return
        loose = ringing and not self._ep_fell and spread <= self._band * _LOOSE_X
        if calm and self._ep and loose:
            # What the ringing filter leaves of a stick's landing keeps the window from being
            # stable for a few hundred ms: a level one stick up that holds this well, going
            # nowhere (loose_holds), is placed.
            d = self._avg(self._ring, _WIN) - level
            slope = self._avg(self._ring, _QUICK) - level - d
            if (
                self._one_lo < d < self._one_hi
                and not self._same_hand(t)
                and self._last_loose == d // self._same
                and loose_holds(self, d, slope)
            ):
                self._place(t, d)
                self._commit(d)
                return
            self._last_loose = d // self._same
        if shaken > self._hush and self._nring >= _QUICK and self._spread(_QUICK) <= self._band:
            d = self._avg(self._ring, _QUICK) - level
            if d < -self._quick_drop:
                if not self._ep_pos and self._short(t):
                    self._fall_tail(t, d, _QUICK)  # (counted on the whole drop)
                # (a kick's pulse, 4-5 samples through the inverse filter, holds the boxcar
                # as low as a level for 50 ms: kick_passed asks the newest load)
                elif not swung(self, knocked) and not kick_passed(self, t, level, -d):
                    self._fell(t, -d, _QUICK)  # a lower level held 50 ms: report the fall now
                return
        # Falling sticks land on the table and jolt the base: that blocks no fall's onset.
        # (Also before any ringing is learned: a ringing not nulled swings above the level,
        # which holds the onset back, and a plate that does not ring needs no filter.)
        # (Within the hush after a knock the onset's hold is counted, never reported: a stick
        # the knock sent off, seen leaving meanwhile, is told as the hush ends. A hand in the
        # episode: see onset_open.)
        opened = onset_open(self, t, knocked)
        if opened:
            tell_onset(self, t, level, level - self._avg(self._ring, 2), knocked, opened > 1)

    def _rest_may_leave(self, t):
        """May what the last fall's level lacked still be leaving? Within _SHORT_MS of the
        fall; and, in an episode opened within _SHORT_MS of it, until _SHORT_MS after the
        total last stood above that level (`_hand_t`). What holds it up may be a hand pressing
        on (a stick placed while another fell under its hand: independent 1053, 41.5 s) or
        the rest itself, still on the plate (a level caught in a trough: noisy 1061, 6.7 s);
        the rest leaves when that ends. Both were told as one more stick."""
        last = self._last_fall_t
        if (
            self._ep
            and 0 <= ticks_diff(self._ep_t, last) < _SHORT_MS
            and ticks_diff(self._hand_t, last) > 0
        ):
            last = self._hand_t
        return ticks_diff(t, last) < _SHORT_MS

    def _short(self, t):
        """What the last fall's level lacked of its count (g x100, negative), if that level was
        taken just now, else 0: a level caught mid-ring or mid-slide, whose rest leaving now
        is no extra stick. Against the typical stick."""
        if not self._rest_may_leave(t):
            return 0
        short = self._fall_drop - self._fall_n * self._mean
        return short if short < 0 else 0

    def _above(self, level, count):
        """How far the last `count` totals went above `level` (0 if none did)."""
        ring = self._ring
        j = self._ri
        hi = 0
        for _ in range(count):
            j = (j - 1) & _RMASK
            v = ring[j] - level
            if v > hi:
                hi = v
        return hi

    def _learn_noise(self, spread, rate):
        spread *= 16
        cap = 2 * self._noise16
        self._noise16 += ((spread if spread < cap else cap) - self._noise16) >> rate
        if self._noise16 < 16:
            self._noise16 = 16
        band = self._noise16 * 7 // 64
        if band < self._band_lo:
            band = self._band_lo
        elif band > self._band_hi:
            band = self._band_hi
        self._band = band

    def _base_level(self):
        """The base tilts as it did when the episode began, and the table was not leant on
        lately: a table leant on shifts the moments, and that is no stick leaving."""
        if self._lean.left:
            return False
        # Over the whole history (32 samples) at both ends, against the accelerometer's own
        # noise: two 8-sample means of a noisy base differ by more than _LEAN_MG by chance.
        dx = _sum(self._ax) - self._ep_ax
        dy = _sum(self._ay) - self._ep_ay
        lim = (_jitter(self._ax, self._ri) + _jitter(self._ay, self._ri)) * 2 // 5
        if lim < _RING * _LEAN_MG:  # (the jitter is ~70 sigma of a reading: this is 3.5
            lim = _RING * _LEAN_MG  # sigma of the difference of the two sums)
        return -lim <= dx <= lim and -lim <= dy <= lim

    def _unmoving(self, part=2):
        """The level is not on its way anywhere: the last window and the one _TREND samples
        before it agree within 1/`part` of a band. A slow hand's stick arrives over most of a
        second, smoothly enough to look still window by window; following it would lose the
        stick. (An eighth of a band, no faster than a cell drifts, for the level re-taken after
        a long stillness: its first grams pass for still at half a band, and the level, re-taken
        at every sample, walked up with them.)"""
        moved = self._moved()
        return -self._band // part <= moved <= self._band // part

    def _held_since_run(self):
        """The level now is the level the run of stable windows began at. A slow hand's stick
        arrives smoothly enough for each window to be stable (the more so on a band grown wide
        on a rebuild's hands): a level that came within the run was not held for it, and taking
        it as the plate's (a resync, or an unexplained level held 4.5 s) loses the stick."""
        came = self._avg(self._ring, _WIN) - self._run_from
        return -self._band // 2 <= came <= self._band // 2

    def _moved(self):
        """How far the level moved over _TREND samples (the last window against the one
        before)."""
        return self._avg(self._ring, _WIN) - self._avg(self._ring, _WIN, _TREND)

    def _still_level(self, calm, spread):
        """An episode ends once the plate is still, whatever the level. A plate ringing
        slowly, with a ringing not (yet) learned, stays outside the stable band for seconds
        after each stick: the next hand comes first, the episode runs on over several sticks
        and no stable window explains its level any more (and after a fall seen under a hand
        nothing but a return to the old level did). True once the level has held within
        _LOOSE_X bands, not moving, for _STILL_MS."""
        if not calm or spread > self._band * _LOOSE_X:
            self._still = 0
            return False
        moved = self._moved()
        if moved > self._band or moved < -self._band:
            self._still = 0
            return False
        self._still += 1
        return self._still >= self._still_run

    def _end_still(self, t):
        """The episode's still level is settled as a stable window would be where that explains
        it, else taken as it is."""
        d = self._avg(self._ring, _WIN) - self._level
        self._settled(t, d)
        if self._ep:
            self._commit(d)

    def _stood_back(self):
        """A tower stood back up after a topple (there is a reference): still for half a
        second, the level going nowhere (not a hand on it, nor a stick on its way)."""
        return self._has_ref and self._quiet >= self._arm_at_once and self._unmoving()

    def _arm_now(self):
        self._reset_play()
        sticks = self._standing
        if sticks is not None:
            self._standing = None  # once: a later re-baseline (after a topple) is empty
            for i in range(len(sticks)):
                g = sticks[i]
                self._place_standing(g * 10 if isinstance(g, int) and g > 0 else self._stick)
        self._armed = True
        self._level = self._avg(self._ring, _WIN)
        self._floor = self._level - self._sum  # the plate with no stick on it
        self._keep_origin()
        self._rx = self._avg(self._ax, _WIN)
        self._ry = self._avg(self._ay, _WIN)
        self._rz = self._avg(self._az, _WIN)
        self._has_ref = True

    def _track_episode(self, t, dev):
        # Pressure counts only while the base is calm: a knock's swing is no hand.
        calm = ticks_diff(t, self._shake_t) > _SHAKE_MS
        if dev > self._exc or dev < -self._exc:
            if not self._ep:
                self._ep = True
                self._ep_t = t
                self._ep_ax = _sum(self._ax)  # the base's tilt as the episode began (x _RING)
                self._ep_ay = _sum(self._ay)
                self._ep_jolted = ticks_diff(t, self._shake_t) <= _JOLT_MS
        if self._ep_jolted and ticks_diff(t, self._shake_t) > _JOLT_MS:
            # (a knock that opens an episode leaves its swing in those sums: against them the
            # base, back as it was, looked tilted all episode, and a stick leaving during the
            # next press was taken for the table leant on)
            self._ep_jolted = False
            self._ep_ax = _sum(self._ax)
            self._ep_ay = _sum(self._ay)
        if dev > self._exc and calm:
            self._ep_pos += 1
            self._hand_t = t
            self._ep_press += 1
            if self._ep_press > self._ep_hold:
                self._ep_hold = self._ep_press
            if dev > self._ep_peak:
                self._ep_peak = dev
        else:
            self._ep_press = 0
            if dev < -self._exc and calm:
                self._ep_neg += 1
        if self._ep and self._nring >= _QUICK:
            ringing = self._a2 or self._c2
            if (
                ticks_diff(t, self._shake_t) <= _SHAKE_MS
                or ticks_diff(t, self._knock_t) <= _KNOCK_RING_MS
            ):
                self._pl_on = False  # a shaking plate (or one a knock rings) shows no resting stick
            elif self._spread(_QUICK) <= self._band or (ringing and loose_rest(self)):
                # (what the ringing filter leaves after a brisk release is looser)
                self._resting(t, self._avg(self._ring, _QUICK) - self._level)
            elif ringing and self._raw_resting(t):
                # A ringing learned from a hand's tremor (the fit cannot tell it from the
                # plate's) smears a short rest on a plate that hardly rings; the raw total,
                # still within a band, shows it (a plate that rings is not still raw).
                pass
            elif filtered_rest(self, t):
                pass  # (a slow plate: what its boxcar hides)
            else:
                self._pl_run = 0
                if self._pl_on and hand_again(self, dev):
                    self._pl_on = False
                elif self._pl_on and not self._pl_back:
                    self._still_resting(t)
            if self._pl_on and self._pl_back == 0 and dev < self._exc:
                self._pl_back = t  # back down: a stick drops off at once, a hand eases off
            if self._pl_on and self._pl_last == t and ticks_diff(t, self._pl_from) >= _ALONE_MS:
                self._watch_from_rest()

    def _resting(self, t, d):
        """A still window `d` over the level within an episode: a stick resting alone?"""
        if self._one_lo < d < self._one_hi:
            self._pl_run += 1
            if self._pl_run >= 2:  # held 60 ms: a stick resting alone, hand gone
                if not self._pl_on:
                    self._pl_from = t
                    self._pl_tail = 0 <= ticks_diff(t, self._last_fall_t) <= _SHORT_MS
                self._pl_level = d
                self._pl_on = True
                self._pl_last = t
                self._pl_back = 0
        else:
            self._pl_run = 0
            if d > self._hand:
                self._pl_on = False  # a hand again

    def _raw_resting(self, t):
        """If the raw total's last _QUICK values (before the ringing filter) held within a
        band, their average over the level is judged as a still window (_resting): True."""
        dr = self._dr
        v = 0
        lo = 0
        hi = 0
        s = 0
        for j in range(1, _QUICK):
            v -= 2 * dr[(self._di - j) & _RMASK]  # (dr holds half the sample differences)
            s += v
            if v < lo:
                lo = v
            elif v > hi:
                hi = v
        if hi - lo > self._band:
            return False
        self._resting(t, self._ch[0] + s // _QUICK - self._level)
        return True

    def _settled(self, t, d):
        """A stable window: compare it with the last stable state."""
        s = self._stick
        mean = self._mean
        if -self._same <= d <= self._same:
            self._fk = 0
            calm = not self._ep
            if self._ep_fell:
                self._one_for_one(t)
            elif self._ep:
                self._episode_end(t)
            if calm and self._rest_due(t, d) and self._rest_of_last(t, d):
                self._level += d  # still settling after a placement: the same stick
            elif calm and d < -self._band and fall_rest(self, t):
                self._fall_tail(t, d)  # the rest of a fall's weight, gone since
                return
            elif self._run >= self._resync_run and self._unmoving(8) and self._held_since_run():
                self._level += d  # still for 2 s, nothing to explain: this is the level
            elif self._run & 7 == 0:
                # Creep after slow drift (<= 0.1 g/s), never fast enough to follow a hand.
                if d > 0:
                    self._level += 1
                elif d < 0:
                    self._level -= 1
            self._keep_origin()
            return
        if tail_of(self, t, d):
            self._fall_tail(t, d)  # (however far: the count is on the whole drop)
            return
        if d < -s // 2:
            self._fell(t, -d)
            return
        # One stick per placement: a level ~2 sticks up is a hand, not two sticks.
        fits = self._one_lo < d < self._one_hi and not self._same_hand(t)
        # (held: every window stable for _HOLD_MS, and the level going nowhere: a slow hand's
        # stick arrives smoothly enough for each window to be stable)
        held = self._run >= self._hold_run and self._unmoving()
        if fits or (held and d > mean // 2 and d < mean * 3 // 2):
            self._place(t, d)
            self._held = fits and self._ep_fell
            self._commit(d)
        elif d < self._one_lo and self._settling_rest(t) and self._rest_of_last(t, d):
            self._commit(d)
        elif self._run >= self._hold_run * 3 and self._held_since_run():
            self._commit(d)  # held 4.5 s and explained by nothing: take it as it is

    def _same_hand(self, t):
        """A rise of a stick this soon after a placement is the hand that placed it pressing
        on (its press wanders by most of a stick), not a new stick: the next stick is fetched
        and brought by a hand, which takes longer. A stick placed while its hand still held
        part of it was let go only when that rest arrived: the same from then. (Held for
        _HOLD_MS, a level is taken.)"""
        return ticks_diff(t, self._last_place_t) < _REST_MS or ticks_diff(t, self._let_t) < _REST_MS

    def _one_for_one(self, t):
        """Back where it was though a stick fell during the press: the hand placed one."""
        self._emit(PLACED, t, 1, self._mean)  # one on, one off: the sticks' count holds
        self._last_place_t = t
        self._rest_n = 0  # (unweighed: no later change is the rest of it)
        self._ep_reset()

    def _fall_tail(self, t, d, n=_WIN):
        """A change soon after a fall with no hand on the tower (the rest of a fall whose level
        was caught mid-slide or mid-ring, or more sticks): the count is settled on the whole
        drop less what was told, so a partial drop is never an extra stick, and a stick
        counted short is added. `n`: the window the change was judged on, the origin's."""
        unit = self._unit(self._fall_n, self._fall_drop)
        drop = self._fall_drop - d
        k = (drop + unit // 2) // unit
        most = self._fall_n + self._nsticks
        if k > most:
            k = most
        told = self._fall_n + self._fk  # reported: the fall and onsets since
        self._fk = 0
        if k > told:
            self._emit(FELL, t, k - told, -d)
        if k > self._fall_n:
            self._forget(k - self._fall_n, -d)
            self._fall_n = k
        elif d < 0:
            self._sum = self._sum + d if self._sum + d > 0 else 0
        if told > self._fall_n:
            self._fall_n = told
        self._last_fall_t = t
        self._fall_drop = drop
        self._commit(d, n)

    def _settling_rest(self, t):
        """Can a level that was not calm still be the rest of the last stick? Soon after its
        placement, however it moves; later only once it stopped rising: a level still rising
        that long after is the first grams of a slow hand's next stick."""
        return ticks_diff(t, self._last_place_t) < _REST_MS or self._moved() <= self._band // 2

    def _rest_of_last(self, t, d):
        """Was `d` the rest of the stick placed just before (it was weighed while a hand still
        held or pressed it)? Then that stick's mass is corrected. Not once a fall came since:
        a slow hand's first grams are no rest of a stick that may have gone. Nor after a
        placement told unweighed, one on for one off (the one the mass would be added to is
        an older stick: independent 1081, 307.9 s, a slow hand's first 5 g 2.4 s after one
        taken as an old stick's rest, its stick then missed)."""
        n = self._nsticks
        if ticks_diff(t, self._last_place_t) > 3000 or n == 0 or n > _MAX_STICKS:
            return False
        if n != self._rest_n:
            return False
        if ticks_diff(self._last_fall_t, self._last_place_t) > 0:
            return False
        whole = self._mass[n - 1] + d
        if whole < self._whole_lo or whole > self._whole_hi:
            return False
        self._mass[n - 1] = whole
        self._sum += d
        if d > self._band:
            self._let_t = t  # (its hand let go of it only now)
        if self._placed_n:  # (the typical stick is learned from whole sticks too)
            self._learn_mass(d)
        return True

    def _rest_due(self, t, d):
        """Can a small change with no hand on the tower be the rest of the last stick? Soon
        after its placement; later, a change the level holds (going nowhere): a rise is the
        hand that held part of it letting go after a long hold, a drop the hand that rested on
        it lifting (none once a fall came since: _rest_of_last). Left to the creep, the stick
        stays weighed wrong, and so does the typical stick, against which a fall's count and
        rest are judged; and the next stick is weighed from a wrong level."""
        if ticks_diff(t, self._last_place_t) < _REST_MS:
            return True
        return (d > self._band or d < -self._band) and self._unmoving()

    def _commit(self, d, n=_WIN):
        self._level += d
        self._keep_origin(n)
        self._ep_reset()

    def _keep_origin(self, n=_WIN):
        """The total and moments at the level, averaged over its last n samples: the press
        watch's origin (one sample of a noisy plate's moments strays by 100 g x mm, and a line
        fitted through an origin that far off is tilted: see pressfall.py), and settle.swapped's
        (a touch's end, compared sample to sample, looked like a stick swapped). The total is
        averaged with the moments, not taken from the level: that may lag the plate by a third
        of a stick (the creep)."""
        self._wt = self._avg(self._ring, n)
        self._mx = self._avg(self._mxr, n)
        self._my = self._avg(self._myr, n)

    def _episode_end(self, t):
        """Back at the same level: a touch, a stick that was let go and fell, or nothing."""
        if self._let_go_fell():
            self._place(t, self._pl_level)  # let go, rested, then fell off
            self._emit(FELL, t, 1, self._pl_level)
            self._forget(1, self._pl_level)
        elif self._touched() and swapped(self):
            self._place(t, self._mean)  # pressed one on while another fell elsewhere
            self._emit(FELL, t, 1, self._mean)
            self._forget(1, self._mean)
        elif self._touched() and not self._ep_touch:
            self._emit(TOUCH, t, 1, self._ep_peak)
        self._ep_reset()

    def _touch_fell(self, t, drop):
        """A hand pressed and has gone, and the sticks seen leaving meanwhile (told at once) are
        all the level lost: the hand added nothing, it touched."""
        if (
            self._ep_fell
            and not self._ep_touch
            and self._touched()
            and self._count(drop) <= self._fk
        ):
            self._emit(TOUCH, t, 1, self._ep_peak)
            self._ep_touch = True

    def _still_resting(self, t):
        """A stick seen resting alone rests on while the level holds one stick within a few
        bands: a slow hand's stick, caught resting as it arrived, sways looser than a stable
        window until it drops, and its fall is timed from then, not from its arrival."""
        if self._spread(_QUICK) <= self._band * _LOOSE_X:
            d = self._avg(self._ring, _QUICK) - self._level
            if self._one_lo < d < self._one_hi:
                self._pl_last = t

    def _watch_from_rest(self):
        """A stick has rested alone a while within the episode (its hand gone): the press
        watch measures the next press from here, else that stick, at its own spot, is a step
        off the next hand's line (a stick leaving)."""
        if self._pl_from:
            d = self._avg(self._ring, _QUICK) - self._wt
            mx = self._avg(self._mxr, _QUICK) - self._mx
            self._press.rebase(d, mx, self._avg(self._myr, _QUICK) - self._my)
            self._pl_from = 0  # (once per rest)

    def _let_go_fell(self):
        back = ticks_diff(self._pl_back, self._pl_last) if self._pl_back else 0
        return (
            self._pl_on
            and self._ep_pos >= 2
            and 0 < back <= _LEAVE_MS
            and not self._same_hand(self._ep_t)  # (the placing hand's press wandering)
            # (a stick resting from within _SHORT_MS after a fall's level was taken, then gone,
            # is that fall's: one of a burst caught on the tower's edge a moment as it slid
            # off; no hand places one that soon. Slow-hands 1054 at 35.5 s: "placed", "fell 1")
            and not self._pl_tail
        )

    def _touched(self):
        return (
            self._ep_peak >= self._touch_min
            and self._ep_hold >= self._press_run  # a hand holds; a ringing plate swings both ways
            and self._ep_shake * 3 <= self._ep_pos
        )

    def _touch_through_ring(self, t, level):
        """A hand pressed and has gone: the level, averaged over the last two windows, is
        back where it was and steady, though the plate still rings too much for a stable
        window (heavy ringing takes a second to die away; one the fits have not learned yet
        swings the total itself, and the two windows' average takes out most of it). The
        touch is reported now; the episode runs on until the plate is still (it holds back
        onsets meanwhile). Not while the moments stand moved as a stick swapped leaves them:
        the stable window tells (DETECTOR.md, limit 1)."""
        if self._ep_touch or not self._touched() or self._let_go_fell() or self._press.maybe:
            return  # (maybe a stick fell during the press: the stable level tells)
        if back_over_windows(self, level) and not swapped(self):
            self._emit(TOUCH, t, 1, self._ep_peak)
            self._ep_touch = True

    def _place_standing(self, g100):
        # A stick already on the tower when armed: counted, not reported, not learned from.
        if self._nsticks < _MAX_STICKS:
            self._mass[self._nsticks] = g100
        self._nsticks += 1
        self._sum += g100

    def _place(self, t, g100):
        self._place_standing(g100)
        self._rest_n = self._nsticks
        self._placed_n += 1
        self._learn_mass(g100)
        self._last_place_t = t
        self._emit(PLACED, t, 1, g100)

    def _learn_mass(self, g100):
        # Learned typical stick mass: the nominal one until a few were weighed.
        self._placed_sum += g100
        if self._placed_n >= 3:
            self._mean = self._placed_sum // self._placed_n

    def _fell(self, t, drop, n=_WIN):
        """The level after a fall: the count from the weight that left, less what onset.tell told
        (more told: the level was caught short, its rest leaves soon). `n`: the origin's window."""
        if let_go(self, t, -drop, n):
            return  # (no fall: a hand letting go of the stick it placed)
        drop += rest_before_fall(self, t)
        self._touch_fell(t, drop)
        k = self._count(drop)
        if k > self._fk:
            self._emit(FELL, t, k - self._fk, drop)
        elif self._fk > k:
            k = self._fk
        self._fk = 0
        self._last_fall_t = t
        self._fall_drop = drop
        self._fall_n = k
        self._forget(k, drop)
        self._commit(-drop, n)

    def _unit(self, n=0, g100=0):
        """Typical mass of the sticks on the tower (weighed when placed), with `n` more sticks
        weighing `g100` (those of the fall whose tail is counted: the tower left after a fall
        weighs what was there less the weight measured leaving, light when its sticks were
        weighed short, a hand still holding part of each; against it a big fall's tail came
        out several sticks)."""
        on = self._nsticks + n
        if 0 < on and self._nsticks <= _MAX_STICKS and (self._sum + g100) // on >= self._stick // 2:
            return (self._sum + g100) // on
        return self._mean

    def _count(self, drop):
        """How many sticks weigh `drop`, judged against the sticks weighed on the tower."""
        return count(self, drop)

    def _forget(self, n, drop):
        """n sticks weighing `drop` left: what stays weighs what was there less what was
        measured leaving (which sticks went is unknown; the top ones are forgotten)."""
        self._nsticks = self._nsticks - n if self._nsticks > n else 0
        self._sum = self._sum - drop if self._nsticks else 0
        if self._sum < 0:
            self._sum = 0


def _pct(v, p):
    return v * p // 100


def _mean_before(uh, b, si):
    """Mean of the _KICK_REF filtered values of a channel (history at b, newest at si)
    before the last three."""
    s = 0
    for j in range(3, 3 + _KICK_REF):
        s += uh[b + ((si - j) & _UMASK)]
    return s // _KICK_REF


def _sum(buf):
    """Sum of a whole history ring (_RING samples)."""
    s = 0
    for i in range(_RING):
        s += buf[i]
    return s


def _jitter(buf, ri):
    """Sum of |sample-to-sample change| over a history ring whose oldest sample is at `ri`:
    ~1.13 sigma of its noise per change, unmoved by a slow tilt."""
    s = 0
    prev = buf[ri]
    for k in range(1, _RING):
        v = buf[(ri + k) & _RMASK]
        s += v - prev if v >= prev else prev - v
        prev = v
    return s


def _samples(rate_hz, ms):
    """Samples in `ms` at the nominal rate (at least one)."""
    n = int(rate_hz * ms) // 1000
    return n if n > 0 else 1


def _young(t, then):
    """`then`, or a minute before `t` if it is older: a minute is older than any window here,
    and ticks_diff stays right up to 2**29 ms apart only."""
    return then if ticks_diff(t, then) <= _OLD_MS else t - _OLD_MS


def _clamp(v, lim):
    if v > lim:
        return lim
    if v < -lim:
        return -lim
    return v
