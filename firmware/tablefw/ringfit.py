# The plate's ringing learned from the detector's totals (tablefw/detect.py): a second-order
# linear prediction fitted on the sample differences (or, while the plate swings about its
# level, the same smoothed 1-2-1: see fit), and the period of a slow ringing, which
# the detector's boxcar averages over, and what the fall onset asks of them (raw_jump, ahead,
# lasting; onset_open: when it is judged at all).
# Functions on the Detector's own state (kept apart so that compiling detect.py from source
# fits a small heap); called from Detector.feed, so integers only and no allocation.

import math
from array import array

from tablefw.compat import const, ticks_diff

# As in detect.py:
_RMASK = const(31)  # history of the differences (power of two) - 1
_RW = const(24)  # samples the ringing is fitted over
_Q = const(256)  # coefficients in Q8
_SMOOTH = const(4)  # the boxcar of a fast (or no) ringing
_SHAKE_MS = const(100)  # after the base shook, a new level must hold the full window
_ALONE_MS = const(150)  # a stick resting alone this long in an episode: its hand has gone
_CH = const(3)  # ints of state per filtered channel
_UH = const(32)  # filtered values kept per channel
_UMASK = const(31)
# The fit's own:
_CONFIRM = const(3)  # fits that must agree before the filter is used
_AGREE = const(28)  # ... within this much (Q8) of each coefficient
_POLE_MIN = const(180)  # r^2 of the fitted pole, x256: damped enough to be the plate ...
_POLE_MAX = const(254)  # ... but not an undamped hand tremor
_P4_MIN = const(40)  # a ringing this slow or slower (periods in quarter samples: 10 samples) ...
_P4_MAX = const(120)  # ... up to this slow is averaged over its period
_RUN_ON_C2 = const(512)  # cos^2 (x1024) of the angle per sample of 8 samples a period (runs_on)


def cos2_table():
    """cos^2 (x1024) of the angle per sample of a ringing with a period of _P4_MIN + j quarter
    samples: the period from the coefficients, in integers (built once)."""
    table = array("i", [0] * (_P4_MAX - _P4_MIN + 1))
    for j in range(len(table)):
        table[j] = int(round(math.cos(8 * math.pi / (_P4_MIN + j)) ** 2 * 1024))
    return table


# cos^2 (x1024) of the angle per sample halfway between a fast ringing's whole periods of
# n and n + 1 samples, n = 4..9 (built once): its period to the nearest sample.
_FAST = array("i", [round(math.cos(4 * math.pi / (2 * n + 1)) ** 2 * 1024) for n in range(4, 10)])


def cycle_drop(det, level):
    """A fast ringing's boxcar (4 samples) averages less than its period: what the filter
    leaves of a heavy ringing (a knock's, 100 g and more on a lightly damped plate, the
    learned ringing a few % off) swings the nulled total by a few grams for a second. Over
    one whole period of the learned ringing that leftover, at the plate's own frequency,
    averages out: the drop below `level` the last period's nulled totals show."""
    n = _fast_period(det)
    ring = det._ring
    j = det._ri
    s = 0
    for _ in range(n):
        j = (j - 1) & _RMASK
        s += ring[j]
    return level - s // n


def _fast_period(det):
    """A fast ringing's period, to the nearest whole sample (4-10)."""
    c2 = _cos2(det._a1, det._a2)
    n = 4
    for i in range(6):
        if c2 >= _FAST[i]:
            n += 1
    return n


def _cos2(a1, a2):
    """cos^2 of a ringing's angle per sample, x1024: a1^2 / -a2 with a1, a2 in Q8. 0 unless
    a2 < 0 and a1 > 0 (a period longer than 4 samples)."""
    return a1 * a1 // -a2 if a1 > 0 and a2 < 0 else 0


def period(det):
    """The boxcar's length: one period of the learned ringing (from a1^2 / -a2 = 4 cos^2
    of its angle per sample), the running sums recomputed for the new length."""
    p4 = 4 * _SMOOTH
    cos2 = det._cos2
    c2 = _cos2(det._a1, det._a2)
    if c2 >= cos2[0]:  # slow: the longest period whose cos^2 is at most c2
        lo = 0
        hi = len(cos2) - 1
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if cos2[mid] <= c2:
                lo = mid
            else:
                hi = mid - 1
        # (a quarter sample short of it: the boxcar's lag delays a fall's onset, and the
        # boxcar was tuned on a learned period 1.5-3 % short; one a quarter sample longer
        # told a fall on a 7.5 Hz plate a sample later, the independent tower's fell p95
        # 215 -> 222 ms)
        p4 = _P4_MIN + lo - 1 if lo else _P4_MIN
    n = p4 >> 2
    det._bf = (p4 & 3) * 4
    # (the hush after the base shook: _SHAKE_MS, and two thirds of what this boxcar adds to
    # the fast one's 4 samples. All of it kept a slow plate from being calm ~200 ms after
    # every jolt, a stick landing beside the tower too: a fall under a placing hand and a
    # lean before a touch went unseen, independent 1090 at 92.0 s and 1093 at 70.8 s; a half
    # did as well, a quarter brought a phantom fall, 1055 turn 34)
    det._hush = _SHAKE_MS + (4 * n + (p4 & 3) - 4 * _SMOOTH) * det._ms_per_sample // 6
    if n == det._bn:
        return
    det._bn = n
    _resum(det)


def _resum(det):
    """The boxcar's running sums, recomputed from the values it averages (after its length or
    those values changed)."""
    uh = det._uh
    si = det._si
    n = det._bn
    for c in range(3):
        b = c * _UH
        t = 0
        for j in range(1, n + 1):
            t += uh[b + ((si - j) & _UMASK)]
        det._ch[c * _CH + 2] = t


def track(det, d):
    """The newest difference d into the fit's windows: the plain differences (_dr) and the
    same smoothed 1-2-1 (_sr), each with the running sums of its window; and the noise floor
    of the plain window (the smoothed fit takes no noise correction)."""
    di = det._di
    dr = det._dr
    sr = det._sr
    v = (d + 2 * dr[(di - 1) & _RMASK] + dr[(di - 2) & _RMASK]) >> 2
    dr[di] = d
    sr[di] = v
    o = (di - _RW) & _RMASK
    o1 = (o - 1) & _RMASK
    o2 = (o - 2) & _RMASK
    h = (di - _RW // 2) & _RMASK
    i1 = (di - 1) & _RMASK
    i2 = (di - 2) & _RMASK
    det._p0 += d * d - dr[o] * dr[o]
    det._p1 += d * dr[i1] - dr[o] * dr[o1]
    det._p2 += d * dr[i2] - dr[o] * dr[o2]
    det._h0 += d * d - dr[h] * dr[h]
    det._s0 += v * v - sr[o] * sr[o]
    det._s1 += v * sr[i1] - sr[o] * sr[o1]
    det._s2 += v * sr[i2] - sr[o] * sr[o2]
    det._g0 += v * v - sr[h] * sr[h]
    det._di = (di + 1) & _RMASK
    if det._p0 < det._pq or det._seen < 3 * _RW:
        det._pq = det._p0
    else:
        det._pq += (det._pq >> 10) + 1  # (doubles in ~9 s: a long ringing is no floor)


def _free(det):
    """Does the plate swing about its level (the nulled total's mean over the fit's window
    within a departure of it)? Until a ringing is in use, one stick above it counts too: a
    stick just let go rings about the level it makes, which is taken only once the ringing has
    died down, and on a lightly damped plate with no ringing learned that took seconds (the
    placements meanwhile were lost). Once one is, a hand's tremor about a stick it holds must
    not replace it; before, such a fit agrees only with a candidate fitted in the same
    episode: a hand holding a stick up there with a tremor fits as a ringing too, and one
    that agreed with another hand's press seconds before was learned on a plate that does not
    ring (original 1002 at 125.3 s; the filter then hid a stick placed and falling at once).
    1: free (always before the first baseline, a calibration's tap); 2: one stick up; 0: not."""
    if not det._armed:
        return 1
    d = det._avg(det._ring, _RW) - det._level
    exc = det._exc
    if -exc < d < exc:
        return 1
    return 2 if not det._a2 and -exc < d - det._mean < exc else 0


def _solve(det, di, smooth):
    """Least squares d[n] = a1 d[n-1] + a2 d[n-2] over the window (into det._fa1, _fa2): if
    the fit is a damped oscillation that predicts the window well and decays as it does, its
    weight (else 0): the window's energy over what the prediction leaves unexplained (x16,
    128 and up), as the fit's coefficients vary inversely with it. A ringing's decaying tail
    (noisy, pulled towards heavier damping and a lower frequency) or a window a step or a
    hand's push spoils counts for little."""
    dr = det._sr if smooth else det._dr
    d0 = dr[di]
    d1 = dr[(di - 1) & _RMASK]
    w0 = dr[(di - _RW) & _RMASK]
    w1 = dr[(di - _RW - 1) & _RMASK]
    p0 = det._s0 if smooth else det._p0
    s01 = det._s1 if smooth else det._p1
    s02 = det._s2 if smooth else det._p2
    h0 = det._g0 if smooth else det._h0
    # Sums over the window of d[n-1]^2, d[n-2]^2, d[n-1]d[n-2] from the running ones.
    s11 = p0 - d0 * d0 + w0 * w0
    s22 = s11 - d1 * d1 + w1 * w1
    s12 = s01 - d0 * d1 + w0 * w1
    if det._bn > _SMOOTH and not smooth:
        # A slow plate's pole sits close to 1, where the cells' white noise (var in
        # d[n]^2, -var/2 in d[n]d[n-1]) pulls the fit to a slower, more damped ringing
        # than the plate's: taken out. (Smoothed, what is left of it biases the fit little,
        # and taking it out as white pulled a plate's damping to a third of the true.)
        q = det._pq
        s11 -= q
        s22 -= q
        s12 += q >> 1
        s01 += q >> 1
    while p0 > 16383 or s11 > 16383 or s22 > 16383:  # products stay below 2**30
        p0 >>= 1
        h0 >>= 1
        s11 >>= 1
        s22 >>= 1
        s12 >>= 1
        s01 >>= 1
        s02 >>= 1
    den = (s11 * s22 - s12 * s12) >> 8
    if den <= 0:
        return 0
    a1 = (s01 * s22 - s02 * s12) // den
    a2 = (s11 * s02 - s12 * s01) // den
    if -a2 < _POLE_MIN or -a2 > _POLE_MAX or a1 * a1 >= -4 * a2 * _Q:
        return 0
    rest = p0 - (a1 * s01 + a2 * s02) // _Q  # what the prediction leaves unexplained
    if rest * 8 >= p0:
        return 0
    # Energy of the newer half against the older: a free ring decays by r^2 per sample.
    q = _Q
    for _ in range(_RW // 2):
        q = q * -a2 >> 8
    older = p0 - h0
    if older <= 0 or h0 * 2 * _Q < older * q or h0 * _Q > older * q * 2:
        return 0
    det._fa1 = a1
    det._fa2 = a2
    return (p0 << 4) // (rest if rest > 0 else 1)


def _slow(det):
    """Is the fit just solved a slow ringing (as long a period as period() lengthens the
    boxcar for)?"""
    return _cos2(det._fa1, det._fa2) >= det._cos2[0]


def fit(det, di, knocked=False, handless=False):
    """Fit the ringing to the window's differences; keep it if it predicts well, is a damped
    oscillation and decays as fast as the window's energy does, blended into what was learned.
    The cells' white noise, strongest at high frequency, biases a fit on the plain differences
    of a slow, lightly damped plate to far heavier damping (r^2 ~0.8 for 0.99), and the decay
    check then refuses it: smoothed 1-2-1 it fits true. But smoothed, a hand's tremor passes
    for such a ringing too, and the plain fit's bias is what keeps it out; the tremor rides on
    the hand's press, off the level. So the smoothed fit runs only while the plate swings about
    its level: first once a slow ringing is learned, else where the plain fit failed, kept if
    slow (a fast one the plain fit sees well).
    `knocked`: the plate rings from a knock alone over the window (neither the base shaking nor
    a hand pressing): that ringing is the plate's own, struck hard, so a fit that disagrees
    with the ringing in use starts a new candidate at once (one learned from a slow hand's
    tremor, held on a stick already placed, passes for the plate's: nulled with it, a knock's
    ringing hides for most of a second what the knock sent off).
    `handless`: no sample of the window stood above the level with the base calm (a hand).
    Once a ringing is confirmed and proved (a fit about the level and handless, or a knock's,
    agreed with it), a fit off the level that disagrees is ignored, not counted against it: a
    long press's tremor fits as a lightly damped ringing, and on a lightly ringing plate it
    swapped itself in for the plate's at every long press. One learned from presses alone may
    be a tremor (so may one about the level while a light hand still touches), and any fit
    may still replace it."""
    free = _free(det)
    smooth = free and det._bn > _SMOOTH  # (a slow ringing learned: the smoothed fit first)
    w = _solve(det, di, True) if smooth else 0
    if not w:
        w = _solve(det, di, False)
    if not w:  # (the smoothed fit, if not tried above: kept if slow)
        w = _solve(det, di, True) if free and not smooth else 0
        if not (w and _slow(det)):
            return
    a1 = det._fa1
    a2 = det._fa2
    # A plate rings the same way every time: a fit that agrees with the candidate
    # confirms it; the filter runs once _CONFIRM fits agree (a lone knock or hand does not).
    c1 = (det._c1 + 128) >> 8  # (the candidate is kept in Q16)
    c2 = (det._c2 + 128) >> 8
    agree = -_AGREE < a1 - c1 < _AGREE and -_AGREE < a2 - c2 < _AGREE
    if free == 2 and det._ce != det._ep_t:  # (_ce: the episode the candidate was last fitted in)
        agree = False  # (one from an earlier episode: another hand's, see _free)
    if det._fits and agree:
        det._ce = det._ep_t
        _blend(det, a1, a2, w, knocked or (free and handless))
        det._odd = 0
        det._proved = det._proved or (free and handless) or knocked
        if det._fits < 1000:
            det._fits += 1
    elif det._proved and det._fits >= _CONFIRM and not free and not knocked:
        return  # (a press's tremor, off the level, replaces no proved ringing)
    elif det._fits < _CONFIRM or det._odd >= 2 * _CONFIRM or knocked:
        det._c1 = a1 << 8  # a new candidate
        det._ce = det._ep_t
        det._c2 = a2 << 8
        det._cw = _weight(det, w)
        det._fits = 1
        det._odd = 0
        det._proved = (free and handless) or knocked
    else:
        det._odd += 1
    if det._fits >= _CONFIRM:
        first = not det._a2
        det._a1 = (det._c1 + 128) >> 8
        det._a2 = (det._c2 + 128) >> 8
        if first:
            refilter(det)
        period(det)
        if first:
            renull(det)


def _blend(det, a1, a2, w, own):
    """An agreeing fit (a1, a2, its weight w from _solve) into the candidate (Q16), by its
    share of the weight so far (which forgets an eighth a fit, so the candidate follows a
    plate whose ringing changes), rounded to nearest. Counted alike and floor-rounded, the
    fits at a ringing's decaying tail left the learned plate's a1 ~10 low and a2 ~5 shallow
    (its period 1.5-3 % short). Not `own` (the plate's own ringing: a knock's, or about the
    level with no hand), the fit is mostly the hand's: it counts no more than a quarter of the
    weight so far, a sixteenth once the plate's own ringing agreed (a long press's fits pulled
    the candidate to the hand's tremor)."""
    w = _weight(det, w)
    t = det._cw - (det._cw >> 3)
    cap = t >> (4 if det._proved else 2)
    if not own and w > cap:
        w = cap + 1
    t += w
    det._cw = t
    while t > 2097151:  # (w << 8 below 2**30)
        t >>= 1
        w >>= 1
    g = (w << 8) // (t + 1)
    det._c1 += (((a1 << 8) - det._c1) * g + 128) >> 8
    det._c2 += (((a2 << 8) - det._c2) * g + 128) >> 8


def _weight(det, w):
    """A fit's weight in the candidate from its own (w, _solve's: the window's energy over what
    the fit leaves unexplained, 128 and up). On a fast plate (or none learned yet) its cube:
    whatever a fit cannot explain in its window pulls it short and damped, the more the
    weaker it is (on real, a1 -5.6 and a2 +6.0 Q8 steps at w 128-511, -1.3 and +0.1 at 2048-8191:
    tests/bench/ring_learned.py --fits), and a ringing's decaying tail gives many weak fits.
    Weighed by w they left the learned ringing 0.3-1.0 % short and 3-43 % too damped; by w^3,
    0.2-0.7 % short and -4 to +8 % (ring_learned.py --games 24). A slow plate keeps w once
    its ringing is learned slow: its boxcar (period) and the thresholds around it were tuned on
    the ringing learned that way (firmware/DETECTOR.md, Leads). Its first candidate's fits,
    before, weigh as cubes, and that weight then counts for more against the plain weights of
    the slow fits that follow until the blend has forgotten it (an eighth a fit). Deciding by
    each fit's own period instead (`_slow(det)`) made 96 tuning games 278 -> 284 lines."""
    if det._bn > _SMOOTH:
        return w
    w = w if w < 32767 else 32767
    return ((w * w >> 15) * w) >> 6


def refilter(det):
    """The filter runs from now on: the values its boxcar averages were the raw ones so far
    (unfiltered, the ringing in them whole). Refiltered from those raw values, as if it had
    run all along: else, for the boxcar's length, it averages raw ringing with nulled values,
    and a few samples of that can hold still below the level (a stick's weight gone)."""
    a1 = det._a1
    a2 = det._a2
    den = _Q - a1 - a2
    uh = det._uh
    si = det._si
    for c in range(3):
        b = c * _UH
        # (newest first: each value needs the two raw ones before it, not yet refiltered)
        for j in range(1, _UH - 1):
            y = uh[b + ((si - j) & _UMASK)]
            y1 = uh[b + ((si - j - 1) & _UMASK)]
            y2 = uh[b + ((si - j - 2) & _UMASK)]
            uh[b + ((si - j) & _UMASK)] = (_Q * y - a1 * y1 - a2 * y2) // den
    _resum(det)


def renull(det):
    """The nulled totals and moments kept (the detector's history) as the boxcar, run on the
    refiltered values, would have made them: they were the raw ones, the ringing whole in
    them. Else every window and trend reaching back past the switch compares nulled values
    with raw ringing: a stick let go while the ringing was being learned waits for windows
    that start after the switch (and a knock or a hand then keeps it from being placed at
    all), and a fall's onset reads the raw swing before it as its drop growing. Back as far
    as the refiltered values reach; older ones stay as they were."""
    n = det._bn
    f = det._bf
    uh = det._uh
    si = det._si
    ri = det._ri
    for c in range(3):
        buf = det._ring if c == 0 else (det._mxr if c == 1 else det._myr)
        b = c * _UH
        for k in range(_UH - 2 - n):
            p = si - 1 - k  # (the newest value kept is the last sample's)
            s = 0
            for j in range(n):
                s += uh[b + ((p - j) & _UMASK)]
            buf[(ri - 1 - k) & _RMASK] = (16 * s + f * uh[b + ((p - n) & _UMASK)]) // (16 * n + f)
    # The press watch's hand line, fitted on the raw ringing (a first press rang the plate
    # +-150 g), is fitted again on nulled values: against the old line the nulled load stood
    # off like a stick gone (independent 1029 at 7.35 s). Its origin was taken still.
    det._press.restart()


def newest_load(det, c):
    """The Detector's newest load on channel c (total, moment x, moment y) before a slow
    ringing's boxcar: its last four values out of the inverse filter averaged (that raises the
    cells' noise, most at the sample rate, which pairs cancel). It lags a load's change by
    under two samples, the boxcar by half a period."""
    uh = det._uh
    b = c * _UH
    si = det._si
    s = 0
    for j in range(1, 5):
        s += uh[b + ((si - j) & _UMASK)]
    return s // 4


def raw_jump(det, n):
    """The largest step of the raw total (halved, as the fit keeps it) over the last n
    samples. With a ringing learned whose period is 8 samples or more (runs_on), each step less
    what the ringing predicts from the two before: a lightly damped plate's own swing moves the
    total by more than a stick a sample for seconds (a missing reading on the swing too), and
    is no kick. (On a plate ringing 8-10 samples a cycle, whose boxcar is the fast one, that
    swing held a stick's onset as a kick's for as long as the plate rang tens of grams:
    independent 1086 at 177.8 s, +-50 g, told 262 ms after the stick began to leave.)"""
    dr = det._dr
    own = runs_on(det)
    a1 = det._a1 if own else 0
    a2 = det._a2 if own else 0
    top = 0
    for j in range(1, n + 1):
        i = det._di - j
        v = dr[i & _RMASK]
        if a1:
            v -= (a1 * dr[(i - 1) & _RMASK] + a2 * dr[(i - 2) & _RMASK]) // _Q
        if v < 0:
            v = -v
        if v > top:
            top = v
    return top


def onset_open(det, t, knocked):
    """May a fall's onset be told now? Not while a hand presses in the episode (a stick
    leaving then is the press watch's, pressfall.py): one seen in it (above the level for
    more than one sample: a lone one is a ringing not yet learned swinging) holds the onset
    back until it has gone _ALONE_MS. After that a weight leaving is a stick, as a hand adds
    weight (a stick placed that fell soon after its hand had let go waited for the quick
    window's level held 50 ms: independent 1018 at 5.47 s, 214 ms), unless the episode's
    touch was told: it stays open only for the ringing its press left, which may be learned
    anew, and the filter's switch dips the nulled total like a stick going (overlap 1005 at
    361.4 s). Nor while let_go's mark holds (settle.py: a hand taking back the stick it
    placed). 1 if it may; 0 if not; 2 within a knock's hush: its hold is counted, never told,
    however the base still shakes, and told once the hush is over (a knock that sends a stick
    off shakes the base for a few hundred ms, and a hold counted only once it was calm told
    the stick late: original 1094 at 35.2 s, 266 ms)."""
    if det._held or not (
        det._ep_pos <= 1 or (ticks_diff(t, det._hand_t) > _ALONE_MS and not det._ep_touch)
    ):
        return 0
    return 1 if knocked > det._hush else 2


def runs_on(det):
    """Is a fall's drop run on ahead of the boxcar's lag (ahead)? On a slow plate, whose
    boxcar is a period long, and on a fast one whose period is 8 samples or more (twice the
    boxcar of 4): the boxcar and the inverse filter lag a stick leaving by about 3 samples
    there, and one leaving over 150-220 ms was told after 180 ms at the median (the
    independent tower's 8-10-sample plates; tests/bench/fell_late.py). There the hold of two
    samples stays: four samples average less of the noise than a period does."""
    return det._bn > _SMOOTH or _cos2(det._a1, det._a2) >= _RUN_ON_C2


def ahead(det, level, drop, unit):
    """The boxcar lags a weight leaving by half its length (a slow ringing's: one period,
    100-190 ms; runs_on): the first stick counts (1, else 0) once the nulled total's drop, run
    on by its change over that half, is 60 % of a stick, and the drop itself a third of one,
    while the load before the boxcar goes one way (_one_way: three quarters of the drop, as
    for `lasting`)."""
    then = _drop_back(det, level, det._bn // 2)
    on = 2 * drop - (then if then > 0 else 0)
    if 3 * drop < unit or 5 * on < 3 * unit:
        return 0
    return 1 if _one_way(det, level, drop, unit) else 0


def _one_way(det, level, drop, unit):
    """A weight leaving stays gone: the newest load before the boxcar (its last four values:
    the inverse filter raises the cells' noise, most at the sample rate, which pairs cancel)
    shows at least three quarters of the drop the boxcar shows, and its last pair is within
    2/3 of a stick of the most any pair in the boxcar showed. A kick the base hardly felt (no
    jolt) leaves a pulse a few samples long through the inverse filter (the cells average over
    their conversion), gone again while the boxcar still holds it as a drop of half a stick.
    (Not all of it: what is left of a knock's ringing swings those four values by a tenth of a
    stick or more, and behind the fast boxcar they lead it by little: independent 1030 at
    46.25 s showed 0.56 of a stick to the boxcar's 0.60, and the stick was told 25 ms later.)"""
    uh = det._uh
    si = det._si
    now = 2 * level - uh[(si - 1) & _UMASK] - uh[(si - 2) & _UMASK]
    if now + 2 * level - uh[(si - 3) & _UMASK] - uh[(si - 4) & _UMASK] < 3 * drop:
        return False
    top = now
    for j in range(2, det._bn):
        d = 2 * level - uh[(si - j) & _UMASK] - uh[(si - j - 1) & _UMASK]
        if d > top:
            top = d
    return 3 * (top - now) <= 4 * unit


def lasting(det, level, drop, unit, kicked=False):
    """On a ringing whose drop is run on (runs_on), a drop that grew by a quarter of a stick
    over the last period, going one way (_one_way): what the filter leaves of a knock's ringing
    comes back each period (and a kick's pulse is gone again from the load before the
    boxcar), a weight leaving does not. (Not a third: the totals a period back can still hold
    the knock's own dip, half a stick at independent 1085 at 61.7 s, where the fall was told
    211 ms after the stick began to leave; 198 now.) The two totals a period ago against the
    drop now: a slow ringing's period is its boxcar's length; a fast one's, the learned period
    to the nearest sample (8-10: the fast boxcar held a stick the knock sent off for four samples,
    independent 1037 at 136.7 s, 222 ms; it is told in 198). `kicked` (a jump of the raw total
    within the boxcar, the base calm): the drop grew over each half of the period too, by a
    sixth of a stick; a pulse (a kick, a reading gone wild) steps the boxcar within two
    samples and then holds it flat for its length."""
    back = det._bn
    if back == _SMOOTH:
        if not runs_on(det):
            return False
        back = _fast_period(det)
    then = _drop_back(det, level, back)
    if 4 * (drop - then) < unit or not _one_way(det, level, drop, unit):
        return False
    if not kicked:
        return True
    mid = _drop_back(det, level, back // 2)
    return 6 * (drop - mid) >= unit and 6 * (mid - then) >= unit


def _drop_back(det, level, back):
    """The drop below `level` of the nulled total `back` samples ago (the mean of the two
    totals then: the inverse filter's noise is highest at the sample rate)."""
    ring = det._ring
    j = det._ri - back
    return level - (ring[(j - 1) & _RMASK] + ring[(j - 2) & _RMASK]) // 2


def describe(a1, a2):
    """(samples per cycle, damping ratio) of a learned ringing (a1, a2, Q8), or None if it is
    not one: what a calibration's `ring` holds (in samples, not Hz: exact whatever the board's
    true sample rate) and `sticktable selftest` reports."""
    if a2 >= 0:
        return None
    r = math.sqrt(-a2 / _Q)
    theta = math.acos(max(-1.0, min(1.0, a1 / _Q / (2 * r))))
    if theta <= 0:
        return None
    lr = math.log(r)
    return 2 * math.pi / theta, -lr / math.sqrt(theta * theta + lr * lr)


def coefficients(cycle, zeta):
    """(a1, a2) of a ringing with `cycle` samples per cycle and damping ratio `zeta`, in Q8
    units but not rounded: describe's inverse."""
    w = 2 * math.pi / cycle / math.sqrt(max(1e-6, 1 - zeta * zeta))  # undamped, per sample
    r = math.exp(-zeta * w)
    theta = w * math.sqrt(max(0.0, 1 - zeta * zeta))
    return 2 * r * math.cos(theta) * _Q, -r * r * _Q


def seed(det, cycle, zeta):
    """Start from the plate's ringing measured at calibration (a tap; `cycle` in samples per
    cycle), as if fits had confirmed it: its first event is nulled too. Fits after events still
    refine or replace it."""
    a1, a2 = coefficients(cycle, zeta)
    a1 = int(round(a1))
    a2 = int(round(a2))
    if -a2 < _POLE_MIN or -a2 > _POLE_MAX or a1 * a1 >= -4 * a2 * _Q:
        return  # outside what a fit would accept: learn it from the events instead
    det._a1 = a1
    det._a2 = a2
    det._c1 = a1 << 8
    det._c2 = a2 << 8
    # (as one strong fit: 43,200 with 8 g sticks, more than nearly every fit's own w (on real,
    # 6 % of them are over 8,192: ring_learned.py --fits), and on a fast plate, where fits
    # weigh as their cube (_weight), the weight of a fit of w ~4,500)
    det._cw = det._ring_min
    det._fits = _CONFIRM
    det._odd = 0
    det._proved = True
    period(det)
