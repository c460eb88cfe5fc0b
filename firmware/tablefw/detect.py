# Event detector: raw HX711 counts of the plate's load cells and the base accelerometer in,
# physical events out (placed, fell with a count, topple, touch). Runs on the board (MicroPython)
# and on the host (`sticktable detect`), so the two always agree.
#
# Principles:
# - Events are differences between stable states, never absolute tare: slow drift and warm-up
#   are followed while the plate is still and never become events. "Stable" is measured against
#   the board's own noise, learned while the plate is quiet.
# - placed: a stable rise of about one stick (hands shake; a rise of two is a hand, not two
#   sticks); a stick weighed while a hand still held part of it is corrected when the rest
#   arrives. fell: a lower level held 50 ms, counted from the masses weighed when each stick
#   was placed (and "all of them" when the tower is back to its empty level). touch: pressure
#   that goes away leaving the level unchanged. A stick let go that rests a moment and drops at
#   once is a placement and a fall.
# - A knock jolts the base: while it shakes (and briefly after) no level counts as stable.
# - topple: the base tilts away from the reference captured at arm(), past ~4 degrees, steadily,
#   in one direction and at about 1 g (a knock shakes, a topple leans); with `zero_counts` the
#   centre of pressure must have moved with it (~2.6 mm per degree).
# - Per sample: integers only, preallocated buffers, no allocation (heap_lock test). Values stay
#   inside +-2**30 so they remain small ints on 32-bit ports. Windows count samples (tuned for
#   the HX711's 78-92 Hz); `rate_hz` is accepted for the API and not needed.

from array import array

from tablefw.compat import const
from tablefw.median import median3
from tablefw.reading import MISSING  # noqa: F401 - a cell without a reading
from tablefw.schema import FELL, KIND_NAMES, PLACED, TOPPLE, TOUCH  # noqa: F401 - event kinds

_WILD_HI = const(8388607)  # a saturated HX711 reading: treated like a missing one
_WILD_LO = const(-8388608)
_RING = const(16)  # history of the plate total (power of two)
_WIN = const(8)  # samples a stable state needs (100 ms at 80/s)
_QUICK = const(4)  # samples a lower level needs before a fall is reported (50 ms)
_ARM_NOW = const(40)  # arm() while the plate has been still this long: baseline at once
_ARM_RUN = const(120)  # otherwise the baseline waits for this many still samples (1.5 s)
_HOLD_RUN = const(120)  # an unexplained level held this long (1.5 s) is accepted
_RESYNC_RUN = const(160)  # after 2 s of stillness a small offset is the new level
_SHAKE_MS = const(100)  # after the base shook, a new level must hold the full window
_TILT_RUN = const(4)  # consecutive leaning samples that make a topple
_MAX_STICKS = const(64)
_QUEUE = const(16)
_CLAMP_G100 = const(500000)  # 5 kg per cell: keeps moments inside small ints
_CLAMP_MM = const(255)
_TICKS_MASK = const(0x3FFFFFFF)  # board ticks wrap at 2**30
_TICKS_HALF = const(0x1FFFFFFF)


class Detector:
    def __init__(self, counts_per_gram, cell_xy_mm, stick_g, rate_hz=80, zero_counts=None):
        n = len(counts_per_gram)
        self.ncells = n
        # grams x100 = (raw - base) * num // den, both ints with den ~ counts per 0.01 g * q.
        self._num = array("i", [0] * n)
        self._den = array("i", [1] * n)
        self._lim = array("i", [0] * n)
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
        self._band_lo = max(stick * 12 // 100, 30)
        self._band_hi = stick * 45 // 100
        self._band = max(stick * 15 // 100, 40)
        self._noise16 = self._band * 64 // 7  # typical spread of a quiet window, x16
        self._same = stick * 35 // 100  # level changes below this are no event
        self._exc = stick * 40 // 100  # departure from the level that opens an episode
        self._touch_min = stick  # a touch presses at least one stick's weight
        # Accelerometer thresholds (milli-g squared): topple leaning past ~4 degrees, knocks.
        self._tilt2 = 70 * 70
        self._jolt2 = 40 * 40  # a knock: a base jump above this (mg^2) and 8x the noise
        self._jnoise = 200  # mean squared sample-to-sample jump of the base (mg^2), learned
        self._shake_t = -100000
        self._shake2 = 150 * 150
        # Buffers.
        self._med = array("i", [0] * (3 * n))  # last three raw readings per cell
        self._base = array("i", [0] * n)  # raw readings of the armed state
        self._ring = array("i", [0] * _RING)  # plate total (g x100 over the base)
        self._ax = array("i", [0] * _RING)
        self._ay = array("i", [0] * _RING)
        self._az = array("i", [0] * _RING)
        self._mass = array("i", [0] * _MAX_STICKS)  # masses of the sticks on the tower
        self._q = array("i", [0] * (4 * _QUEUE))
        self._qhead = 0
        self._qlen = 0
        self._seen = 0  # readings per cell so far (for the median warm-up)
        self._mi = 0
        self._ri = 0
        self._nring = 0
        self._run = 0
        self._quiet = 0
        self._momx = 0
        self._momy = 0
        self._has_ref = False
        self._rx = 0
        self._ry = 0
        self._rz = 1000
        self._reset_play()
        self._armed = False
        self._standing = None  # sticks the next baseline has on it (arm(sticks))

    # -- control -----------------------------------------------------------------------------

    def arm(self, sticks=None):
        """Empty tower, standing still: capture a new baseline and tilt reference.

        Taken at once if the plate has been still for half a second, else as soon as it has
        been still and upright for 1.5 s (no events meanwhile: the tower is being rebuilt).
        `sticks` (after a board reset mid-round): the tower stands with these sticks, their
        masses in g x10 bottom first (None: not weighed, the nominal mass); the baseline is
        the plate with them on it, and falls are counted against them."""
        self._armed = False
        self._standing = sticks
        if self._quiet >= _ARM_NOW and self._upright_now():
            self._arm_now()

    def _reset_play(self):
        self._level = 0
        self._mx = 0
        self._my = 0
        self._nsticks = 0
        self._sum = 0
        self._mean = self._stick
        self._placed_n = 0
        self._placed_sum = 0
        self._last_place_t = -100000
        self._tilt_run = 0
        self._pdx = 0
        self._pdy = 0
        self._pdz = 0
        self._ep_reset()

    def _ep_reset(self):
        self._ep = False
        self._ep_t = 0
        self._ep_pos = 0
        self._ep_neg = 0
        self._ep_peak = 0
        self._ep_shake = 0
        self._pl_level = 0  # a short plateau about one stick up (stick let go, then fell)
        self._pl_on = False
        self._pl_run = 0
        self._pl_last = 0
        self._pl_back = 0

    def pop(self, out):
        """Fill out[0:4] with (kind, t_ms, count, grams x10) of the oldest event; False if none."""
        if self._qlen == 0:
            return False
        j = self._qhead * 4
        q = self._q
        out[0] = q[j]
        out[1] = q[j + 1]
        out[2] = q[j + 2]
        out[3] = q[j + 3]
        self._qhead = (self._qhead + 1) % _QUEUE
        self._qlen -= 1
        return True

    def _emit(self, kind, t, count, g100):
        if self._qlen == _QUEUE:  # nobody pops: drop the oldest
            self._qhead = (self._qhead + 1) % _QUEUE
            self._qlen -= 1
        j = ((self._qhead + self._qlen) % _QUEUE) * 4
        q = self._q
        q[j] = kind
        q[j + 1] = t
        q[j + 2] = count
        q[j + 3] = (g100 + 5) // 10
        self._qlen += 1

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
            if v >= _WILD_HI or v <= _WILD_LO:  # missing, saturated or no HX711 value at all
                v = med[k + (mi + 2) % 3]  # no reading: repeat the previous one
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
        for i in range(n):
            d = self._median(3 * i) - self._base[i]
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
        ri = self._ri
        self._ring[ri] = total
        self._ax[ri] = ax
        self._ay[ri] = ay
        self._az[ri] = az
        self._ri = (ri + 1) & (_RING - 1)
        if self._nring < _RING:
            self._nring += 1
        self._momx = mx
        self._momy = my
        self._step(t_ms, total, mx, my)
        return self._qlen

    def _median(self, k):
        med = self._med
        return median3(med[k], med[k + 1], med[k + 2])

    def _spread(self, count):
        """(max - min) of the last `count` totals."""
        ring = self._ring
        j = (self._ri - 1) & (_RING - 1)
        hi = ring[j]
        lo = hi
        for _ in range(count - 1):
            j = (j - 1) & (_RING - 1)
            v = ring[j]
            if v > hi:
                hi = v
            elif v < lo:
                lo = v
        return hi - lo

    def _avg(self, buf, count):
        j = self._ri
        s = 0
        for _ in range(count):
            j = (j - 1) & (_RING - 1)
            s += buf[j]
        return s // count

    def _step(self, t, total, mx, my):
        # Sample-to-sample jumps of the base: a knock (or a stick landing on the table). A
        # shaking plate can look still through the median filter: it is not.
        j = (self._ri - 1) & (_RING - 1)
        j2 = (j - 1) & (_RING - 1)
        jx = self._ax[j] - self._ax[j2]
        jy = self._ay[j] - self._ay[j2]
        jz = self._az[j] - self._az[j2]
        e = jx * jx + jy * jy + jz * jz
        rate = 7 if self._armed else 4  # learn the noise fast before the first baseline
        if e > self._jolt2 and e > 8 * self._jnoise:
            self._shake_t = t
        cap = 4 * self._jnoise
        self._jnoise += ((e if e < cap else cap) - self._jnoise) >> rate
        if self._jnoise < 4:
            self._jnoise = 4
        spread = self._spread(_WIN) if self._nring >= _WIN else 0
        shaken = _age(t, self._shake_t)
        if shaken > 60000:  # keep old times young enough to survive the board's tick wrap
            self._shake_t = t - 60000
        if _age(t, self._last_place_t) > 60000:
            self._last_place_t = t - 60000
        if not self._ep and self._nring >= _WIN and shaken > _SHAKE_MS:
            self._learn_noise(spread, rate)
        calm = self._nring >= _WIN and shaken > _SHAKE_MS
        stable = calm and spread <= self._band
        if stable:
            self._run += 1
        else:
            self._run = 0
        # How long the plate has been quiet (for baselines: a rare noisy window is no motion).
        if calm and spread <= self._band * 3 // 2:
            self._quiet += 1
        else:
            self._quiet = 0
        if not self._armed:
            if self._quiet >= _ARM_RUN and self._upright_now():
                self._arm_now()
            return
        self._watch_tilt(t, mx, my)
        if not self._armed:
            return
        level = self._level
        dev = total - level
        self._track_episode(t, dev)
        if stable:
            self._settled(t, self._avg(self._ring, _WIN) - level, mx, my)
        elif shaken > _SHAKE_MS and self._nring >= _QUICK and self._spread(_QUICK) <= self._band:
            d = self._avg(self._ring, _QUICK) - level
            if d < -(self._stick * 6 // 10):
                self._fell(t, -d, mx, my)  # a lower level held 50 ms: report the fall now

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

    def _upright_now(self):
        """Standing: within 3 degrees of the last reference, or z-dominant if there is none."""
        x = self._avg(self._ax, _WIN)
        y = self._avg(self._ay, _WIN)
        z = self._avg(self._az, _WIN)
        if self._has_ref:
            dx = x - self._rx
            dy = y - self._ry
            dz = z - self._rz
            return dx * dx + dy * dy + dz * dz <= 52 * 52  # 3 degrees
        return z > 0 and z * z >= (x * x + y * y + z * z) // 100 * 88

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
        self._mx = self._momx
        self._my = self._momy
        self._rx = self._avg(self._ax, _WIN)
        self._ry = self._avg(self._ay, _WIN)
        self._rz = self._avg(self._az, _WIN)
        self._has_ref = True

    def _watch_tilt(self, t, mx, my):
        """Topple: the base leans past ~4 degrees, steadily, for _TILT_RUN samples."""
        j = (self._ri - 1) & (_RING - 1)
        j2 = (j - 1) & (_RING - 1)
        # Mean of the last two readings takes the edge off sensor noise.
        dx = (self._ax[j] + self._ax[j2]) // 2 - self._rx
        dy = (self._ay[j] + self._ay[j2]) // 2 - self._ry
        dz = (self._az[j] + self._az[j2]) // 2 - self._rz
        e2 = dx * dx + dy * dy + dz * dz
        if e2 > self._shake2 and self._ep:
            self._ep_shake += 1
        # A lean keeps its direction from sample to sample; a knock's vibration does not.
        steady = dx * self._pdx + dy * self._pdy + dz * self._pdz >= e2 // 2
        self._pdx = dx
        self._pdy = dy
        self._pdz = dz
        if e2 >= self._tilt2 and steady and self._upright_g(dx, dy, dz):
            self._tilt_run += 1
        else:
            self._tilt_run = 0
        if self._tilt_run >= _TILT_RUN and self._cop_agrees(e2, mx, my):
            self._emit(TOPPLE, t, 1, 0)
            self._armed = False  # fallen: re-baseline once it stands still and upright again
            self._run = 0
            self._quiet = 0
            self._tilt_run = 0

    def _upright_g(self, dx, dy, dz):
        """A lean keeps |a| near 1 g; a knock does not (within 15 %)."""
        x = self._rx + dx
        y = self._ry + dy
        z = self._rz + dz
        a2 = x * x + y * y + z * z
        r2 = self._rx * self._rx + self._ry * self._ry + self._rz * self._rz
        r2 = r2 // 100
        return a2 >= r2 * 72 and a2 <= r2 * 132

    def _cop_agrees(self, e2, mx, my):
        """With the empty plate known, the centre of pressure must move ~2.6 mm per degree."""
        zero = self._zero
        if zero is None:
            return True
        total = 0
        for i in range(self.ncells):
            d = self._median(3 * i) - zero[i]
            lim = self._lim[i]
            if d > lim:
                d = lim
            elif d < -lim:
                d = -lim
            total += d * self._num[i] // self._den[i]
        total //= 100  # grams
        if total < 20:  # under 20 g on the plate: nothing to lean
            return True
        # Moment shift (g mm, clamped to stay a small int when squared); 1 degree ~ 2.6 mm.
        sx = _clamp((mx - self._mx) // 100, 20000)
        sy = _clamp((my - self._my) // 100, 20000)
        shift_mm = _isqrt(sx * sx + sy * sy) // total
        lean_deg = _isqrt(e2) * 10 // 175
        return shift_mm * 10 >= lean_deg * 26 * 3 // 10

    def _track_episode(self, t, dev):
        if dev > self._exc:
            if not self._ep:
                self._ep = True
                self._ep_t = t
            self._ep_pos += 1
            if dev > self._ep_peak:
                self._ep_peak = dev
        elif dev < -self._exc:
            if not self._ep:
                self._ep = True
                self._ep_t = t
            self._ep_neg += 1
        if self._ep and self._nring >= _QUICK:
            s = self._stick
            if _age(t, self._shake_t) <= _SHAKE_MS:
                self._pl_on = False  # a shaking plate shows no resting stick
            elif self._spread(_QUICK) <= self._band:
                d = self._avg(self._ring, _QUICK) - self._level
                if d > s * 75 // 100 and d < s * 130 // 100:
                    self._pl_run += 1
                    if self._pl_run >= 2:  # held 60 ms: a stick resting alone, hand gone
                        self._pl_level = d
                        self._pl_on = True
                        self._pl_last = t
                        self._pl_back = 0
                else:
                    self._pl_run = 0
                    if d > s * 160 // 100:
                        self._pl_on = False  # a hand again
            else:
                self._pl_run = 0
                if self._pl_on and dev > self._pl_level + s // 2:
                    self._pl_on = False
            if self._pl_on and self._pl_back == 0 and dev < self._exc:
                self._pl_back = t  # back down: a stick drops off at once, a hand eases off

    def _settled(self, t, d, mx, my):
        """A stable window: compare it with the last stable state."""
        s = self._stick
        mean = self._mean
        if -self._same <= d <= self._same:
            calm = not self._ep
            if self._ep:
                self._episode_end(t)
            if calm and _age(t, self._last_place_t) < 800 and self._rest_of_last(t, d):
                self._level += d  # still settling after a placement: the same stick
            elif self._run >= _RESYNC_RUN:
                self._level += d  # still for 2 s, nothing to explain: this is the level
            elif self._run & 7 == 0:
                # Creep after slow drift (<= 0.1 g/s), never fast enough to follow a hand.
                if d > 0:
                    self._level += 1
                elif d < 0:
                    self._level -= 1
            self._mx = mx
            self._my = my
            return
        if d < -s // 2:
            self._fell(t, -d, mx, my)
            return
        # One stick per placement: a level ~2 sticks up is a hand, not two sticks.
        fits = d > s * 75 // 100 and d < s * 130 // 100
        if fits or (self._run >= _HOLD_RUN and d > mean // 2 and d < mean * 3 // 2):
            self._place(t, d)
            self._commit(d, mx, my)
        elif d < s * 75 // 100 and self._rest_of_last(t, d):
            self._commit(d, mx, my)
        elif self._run >= _HOLD_RUN * 3:
            self._commit(d, mx, my)  # held 4.5 s and explained by nothing: take it as it is

    def _rest_of_last(self, t, d):
        """Was `d` the rest of the stick placed just before (it was weighed while a hand still
        held or pressed it)? Then that stick's mass is corrected."""
        n = self._nsticks
        if _age(t, self._last_place_t) > 3000 or n == 0 or n > _MAX_STICKS:
            return False
        whole = self._mass[n - 1] + d
        if whole < self._stick * 85 // 100 or whole > self._stick * 120 // 100:
            return False
        self._mass[n - 1] = whole
        self._sum += d
        return True

    def _commit(self, d, mx, my):
        self._level += d
        self._mx = mx
        self._my = my
        self._ep_reset()

    def _episode_end(self, t):
        """Back at the same level: a touch, a stick that was let go and fell, or nothing."""
        back = _age(self._pl_back, self._pl_last) if self._pl_back else 0
        if self._pl_on and self._ep_pos >= 2 and 0 < back <= 60:
            self._place(t, self._pl_level)  # let go, rested, then fell off
            self._emit(FELL, t, 1, self._pl_level)
            self._forget(1, self._pl_level)
        elif (
            self._ep_peak >= self._touch_min
            and self._ep_pos >= 6
            and self._ep_neg * 4 <= self._ep_pos
            and self._ep_shake * 3 <= self._ep_pos
            and _age(self._ep_t, self._shake_t) > 0  # a hand presses; a knock jolts the base
        ):
            self._emit(TOUCH, t, 1, self._ep_peak)
        self._ep_reset()

    def _place_standing(self, g100):
        # A stick already on the tower when armed: counted, not reported, not learned from.
        if self._nsticks < _MAX_STICKS:
            self._mass[self._nsticks] = g100
        self._nsticks += 1
        self._sum += g100

    def _place(self, t, g100):
        self._place_standing(g100)
        self._placed_n += 1
        self._placed_sum += g100
        self._last_place_t = t
        # Learned typical stick mass: the nominal one until a few were weighed.
        if self._placed_n >= 3:
            self._mean = self._placed_sum // self._placed_n
        self._emit(PLACED, t, 1, g100)

    def _fell(self, t, drop, mx, my):
        n = self._count(drop)
        self._emit(FELL, t, n, drop)
        self._forget(n, drop)
        self._commit(-drop, mx, my)

    def _count(self, drop):
        """How many sticks weigh `drop`, judged against the sticks weighed on the tower."""
        on = self._nsticks
        unit = self._mean
        if on > 0:
            # Mean of the sticks actually on the tower (their masses were weighed).
            unit = self._sum // on if on <= _MAX_STICKS else self._mean
            if unit < self._stick // 2:
                unit = self._mean
        if on == 0 or drop > self._sum + unit * 6 // 10:
            extra = drop - self._sum if on > 0 else drop
            n = on + (2 * extra + unit) // (2 * unit)
            return n if n >= 1 else 1
        best = 1
        err = abs(drop - self._est(1, unit))
        for n in range(2, on + 1):
            e = abs(drop - self._est(n, unit))
            if e < err:
                err = e
                best = n
        return best

    def _est(self, n, unit):
        if n >= self._nsticks:
            return self._sum
        return n * unit

    def _forget(self, n, drop):
        """n sticks weighing `drop` left: what stays weighs what was there less what was
        measured leaving (which sticks went is unknown; the top ones are forgotten)."""
        self._nsticks = self._nsticks - n if self._nsticks > n else 0
        self._sum = self._sum - drop if self._nsticks else 0
        if self._sum < 0:
            self._sum = 0


def _age(t, t0):
    """t - t0 in ms, right across the board's tick wrap at 2**30 (like time.ticks_diff)."""
    d = (t - t0) & _TICKS_MASK
    return d - _TICKS_MASK - 1 if d > _TICKS_HALF else d


def _clamp(v, lim):
    if v > lim:
        return lim
    if v < -lim:
        return -lim
    return v


def _isqrt(v):
    """Integer square root (Newton), no allocation."""
    if v <= 0:
        return 0
    x = v
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + v // x) // 2
    return x
