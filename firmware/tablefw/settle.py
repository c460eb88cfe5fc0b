# Levels between events (issue 10), for the detector (tablefw/detect.py): what a fall leaves
# after its level was taken, and a stick placed while the plate still rings after the hand.
# Functions on the Detector's own state, kept apart from detect.py (as ringfit.py is) so that
# compiling it from source fits a small heap; called from Detector.feed, so integers only and
# no allocation.

from tablefw.compat import const, ticks_diff
from tablefw.ringfit import newest_load

# As in detect.py:
_WIN = const(8)  # samples a stable state needs
_QUICK = const(4)  # samples a lower level needs before a fall is reported
_RMASK = const(31)  # the plate total's history (_RING samples)
_LOOSE_X = const(3)  # a level this many bands still, twice alike, is good enough to place
_TAIL_MS = const(3000)  # a small change this soon after a fall without a hand is its tail
_REST_MS = const(800)  # a small change this soon after a placement is the rest of its stick
_KNOCK_RING_MS = const(1000)  # a knock rings the plate (and its moments) this long
_SHORT_MS = const(500)  # what a fall's level caught short of its count leaves this soon after
_UMASK = const(31)  # the inverse filter's output kept (before the boxcar)
_SMOOTH = const(4)  # the boxcar's length on a fast plate (a slow one's is its period)

# A stick swapped (swapped):
_SHIFT_MM = const(10)  # a press back at its level, moments moved by a stick this far (a maybe) ...
_PRESS_LEFT = const(250)  # ... more than a big press leaves as it goes (1/250 of its peak)
_UNSEEN_MM = const(6)  # ... or this far, unseen by the press watch (a touch leaves less)
_NOISE_X = const(12)  # ... and beyond the total's noise: shift x 100 >= noise16 x this
_APART_MM = const(200)  # ... and no farther than two sticks on the tower can stand apart


def back_after_fell(det, level):
    """A stick was seen leaving under the press, the hand has gone and the level is back
    where it was over the last few samples (though the plate still rings): the hand placed
    one. Told now, before the plate is still: another stick leaving soon after is a fall of
    its own, not the placed one missing."""
    if det._ep_press or det._spread(_QUICK) > det._band * _LOOSE_X:
        # Through a ringing that swings each quick window by most of a stick (what the filter
        # leaves of a heavy one, learned off: its swings above the level pass for a hand
        # pressing), with nothing a stick above the level meanwhile (a hand presses more).
        # Left, the stick told fallen under the press was taken off the next fall's count
        # (shaky-hands 1043 at 17.3 s: placed, then three fell after a knock; told "fell 1").
        return back_over_windows(det, level) and det._above(level, 2 * _WIN) <= det._stick
    return _back_quick(det, level)


def back_after_let_go(det, level):
    """A stick let go rested a moment and dropped at once (Detector._let_go_fell): the level
    is back where it was and still over the last few samples. Told then, not once a whole
    stable window has passed: a stick placed and gone is a fall, timed from its leaving.
    Still, not what back_after_fell allows through a ringing: a slow hand's tremor about one
    stick's level crosses a rest and the level in turn (slow-hands 1090 at 6.1 s). On a slow
    plate, also as soon as the load before the boxcar is back (_back_before_boxcar)."""
    if det._bn > _SMOOTH and _back_before_boxcar(det, level):
        return True
    return det._spread(_QUICK) <= det._band and _back_quick(det, level)


def _back_before_boxcar(det, level):
    """On a slow plate the boxcar (a period, 110-190 ms) lags the stick's leaving by half of it
    and its quick window is still only after a whole one: a stick let go that fell within
    130 ms was told 260-340 ms after it began to leave (independent 1008 at 157.9 s, 263 ms),
    or not at all (1022 at 81.6 s: before the boxcar came back within half a `same`, a swing of
    the load before it was taken for the hand again, and the turn was told as a touch). Back:
    the newest load before the boxcar (ringfit.newest_load) within half a `same` of the level,
    as _back_quick asks of the boxcar's quick window (its noise is the cells' raised by the
    inverse filter, averaged over four samples)."""
    return _at_level(det, newest_load(det, 0) - level)


def _back_quick(det, level):
    """The level back where it was over the last quick window, none of its totals more than
    `same` above it (a hand still pressing)."""
    d = det._avg(det._ring, _QUICK) - level
    return _at_level(det, d) and det._above(level, _QUICK) <= det._same


def back_over_windows(det, level):
    """The total, averaged over each of the last two windows, back within half a `same` of
    `level` and steady (the two within a band): back there though the plate still rings too
    much for a stable window (the two windows' averages take out most of a ringing)."""
    d = det._avg(det._ring, _WIN) - level
    old = det._avg(det._ring, _WIN, _WIN) - level
    return _at_level(det, d) and _at_level(det, old) and -det._band <= d - old <= det._band


def _at_level(det, d):
    """Is `d` (g x100 off the level) within half a `same` of it: back there?"""
    half = det._same // 2
    return -half <= d <= half


def swapped(det):
    """A stick placed and another fallen in one press (the press watch saw a residual off
    the hand's line, too small to tell at once from a hand's wobble): back at the old level
    the moments stay moved by a stick _SHIFT_MM away, with the base's tilt unchanged (a
    table leant on moves them too); after a touch they come back. Moved by a stick _UNSEEN_MM
    away, the press watch need not have seen it: the stick left while the hand's spot was
    being fitted, and the line took it in (overlap 1005, 71.9 s), or it left a few mm from
    the hand's spot, too near for the watch (overlap 1009, 383.6 s: 9 mm). What the two
    8-sample means leave of a touch grows with the cells' noise, and so does the shift asked
    for (tests/bench/swap_shift.py prints both per regime). Not after a knock, which
    moves the sticks and its ringing the moments (overlap 1016, 89.1 s: a touch after a knock
    told as placed and fell). Called on a stable window, and by a touch told through the
    ringing, which waits while this says yes."""
    far = swap_asked(det)
    return far > 0 and shift_tells(det, moments_shift(det), far)


def shift_tells(det, shift, far):
    """Is a shift of the moments (g x mm) a stick swapped, against the shift asked (`far`,
    from swap_asked) and what the press itself leaves as it goes?"""
    # (and short of two sticks on the tower: a tower about to topple runs its centre of
    # pressure out at an unchanged weight; slow-hands 1016, 97.1 s: a stick 2,580 mm away)
    return far <= shift * 100 < det._stick * _APART_MM and shift * _PRESS_LEFT >= det._ep_peak


def swap_asked(det):
    """The shift swapped asks of the moments, g x mm x 100 (det._stick, g x 100, times mm):
    a stick _UNSEEN_MM away, or more on a noisy board; _SHIFT_MM once the press watch saw a
    maybe. 0: not asked (a touch or a fall told in this press, the table leant on, a placement
    just told, a knock with no maybe)."""
    if det._ep_touch or det._ep_fell or not det._base_level():
        return 0
    if ticks_diff(det._ep_t, det._last_place_t) < _REST_MS:
        # A stick told placed in this press or just before it (one for one fallen, or through
        # a ringing): the moments moved with it, and no level was taken since to say where
        # they stand (real 1044, 154.8 s: placed and fell told twice).
        return 0
    knocked = ticks_diff(det._ep_t, det._knock_t) < _KNOCK_RING_MS
    if knocked and not det._press.maybe:
        return 0
    far = det._stick * _UNSEEN_MM
    noise = det._noise16 * _NOISE_X
    if far < noise:
        far = noise
    if det._press.maybe and (knocked or far > det._stick * _SHIFT_MM):
        far = det._stick * _SHIFT_MM
    return far


def moments_shift(det):
    """How far the moments (the last window's average) stand from the last stable state's,
    g x mm: |dx| + |dy|."""
    dx = det._avg(det._mxr, _WIN) - det._mx
    dy = det._avg(det._myr, _WIN) - det._my
    return (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy)


def let_go(det, t, d, n):
    """A stick seen leaving under the press, then a level one stick up (placed: it cannot be
    told from a stick resting there): the hand may still hold its stick, pressing. Its let-go
    soon after drops the level back by about what was placed: no fall (the placement was the
    one for the fallen one). Taken silently; True if so. Also when the hand pressed on
    meanwhile: the hand that holds a stick presses on it, its press wandering up by most of a
    stick before it lets go (as _same_hand knows), and that let-go was told as a second fall."""
    hold_lapsed(det, t)
    if not det._held or not det._one_lo < -d < det._one_hi:
        return False
    det._held = False
    det._commit(d, n)  # (the window the drop was judged on)
    return True


def swung(det, knocked):
    """Did the total, over the window before the quick one (a lower level held _QUICK
    samples), dip half a stick below the level and come back within a band of it, two
    samples in a row (a knock's jolt as a stick leaves swings through it)? A weight that left
    stays gone: that is what a ringing learned slightly off leaves of a knock's swing
    (independent 1016, 99.2 s: "fell 1", then "placed" as it swung back). Then the quick
    level is no fall yet, and the level is left as it is. Not once a fall was told (the
    quick level settles its count). Within a knock's ringing (`knocked`, ms since the knock)
    the total going over a band above the level in that window is a swing too, told fall or
    not: what a ringing learned off leaves of a heavy knock swings both ways, and a trough
    can hold 50 ms (ring-heavy 1004, 281.7 s: a knock of 90 g told as "fell 2")."""
    if knocked <= _KNOCK_RING_MS and det._above(det._level, _QUICK + _WIN) > det._band:
        return True
    if det._fk:
        return False
    ring = det._ring
    level = det._level
    band = det._band
    dipped = False
    back = 0  # samples in a row back within a band of the level (a knock's jolt swings through)
    for k in range(_QUICK + _WIN, _QUICK, -1):
        v = ring[(det._ri - k) & _RMASK] - level
        if 2 * v <= -det._stick:
            dipped = True
            back = 0
        elif dipped and -band <= v <= band:
            back += 1
            if back == 2:
                return True
        else:
            back = 0
    return False


def hold_lapsed(det, t):
    """Drop let_go's mark once _REST_MS has passed since the placement: the let-go comes
    within it, and meanwhile fall onsets wait (after it they must not)."""
    if det._held and ticks_diff(t, det._last_place_t) >= _REST_MS:
        det._held = False


def tail_of(det, t, d):
    """Can a level `d` off, soon after a fall with no hand, be that fall's tail? Any further
    drop; a rise only as far as the fall's level overshot its count (caught in the ringing's
    trough). A rise beyond is a hand holding part of the next stick on the tower (or a slow
    hand's first grams): taken as the tail, the level walked up with it and the stick weighed
    short, placed 1.5 s late as an unexplained level. (Nor a drop let_go takes.)"""
    if ticks_diff(t, det._last_fall_t) >= _TAIL_MS:
        return False
    if _dip_back(det, t, d):
        return True
    if not _no_hand(det, d):
        return False
    if det._held and det._one_lo < -d < det._one_hi:
        return False
    return d < 0 or det._fall_drop - d >= det._fall_n * det._mean - det._band


def _dip_back(det, t, d):
    """Is a rise `d` soon after a fall the level coming back where it was, by about all that
    fall's drop (a weight that left stays gone: nothing fell)? A dip the base hardly felt (a
    knock on the tower, noisy 1043, 194.2 s) was taken for a fall of part of a stick. The
    level is taken again (the fall was told); left, it stayed that far above the level like a
    hand pressing, the episode ran on for _STUCK_MS and swallowed the next stick. Only below
    one stick: back by a stick, one was placed."""
    if ticks_diff(t, det._last_fall_t) >= _SHORT_MS or d >= det._one_lo:
        return False
    off = d - det._fall_drop
    return -det._band <= off <= det._band


def _no_hand(det, d):
    """Was no hand on the tower in this episode, as far as a level `d` off tells? None
    pressed; or one sample above the level only (a ringing's swing, a knock's, or a hand's
    first touch) and the level is lower: a hand adds weight, it takes none away. Or a part of
    a stick gone since a fall that came after the last placement: a hand pressing when that
    level was taken (a slow hand placing while a stick fell, its let-go taken for the fall)
    has let go since; left unexplained, the level stayed that high until the next stick,
    whose rise then fell short of one and was never placed."""
    if not det._ep_pos or (det._ep_pos == 1 and d < 0):
        return True
    return -det._stick // 2 <= d < 0 and ticks_diff(det._last_fall_t, det._last_place_t) > 0


def rest_before_fall(det, t):
    """The rest of the last stick, if the plate stood that far above the level as a fall
    began (g x100, taken into the level and that stick's mass; else 0): a hand that held part
    of the stick let go after a long hold, and a stick fell before the level took the rest in
    (past _REST_MS a rise is taken only once it has held still, and only over a band). The
    fall is then measured from where the plate stood (independent 1030, 93.7 s: 2.3 g short,
    and the next stick's fall was counted as this one's rest)."""
    r = det._wt - det._level
    if r <= 0 or r > det._same or not det._rest_of_last(t, r):
        return 0
    det._level += r
    return r


def fall_rest(det, t):
    """Can a small drop still be the rest of the last fall? Soon after it, when its level was
    taken short of its count (a stick sliding off for 200 ms is caught mid-slide): the rest
    leaves within a stick's third, inside the same-level band; left there, the level stays
    that low until a resync, and the next stick weighs short or is not placed at all."""
    if ticks_diff(t, det._last_fall_t) >= _TAIL_MS:
        return False
    # (not once a stick was placed since: a drop then is its hand easing, and taken as the
    # fall's rest it barred that stick's own rest, the level stood short and the next stick
    # went unplaced: ring-light 1070 at 34.3 s)
    if ticks_diff(det._last_place_t, det._last_fall_t) > 0:
        return False
    return det._fall_drop < det._fall_n * det._mean


def loose_rest(det):
    """Can a window that holds only loosely (within a few bands: what the ringing filter
    leaves after a brisk release) show a stick resting alone? Not when its second half stands
    1.5 bands off its first: that is a hand easing off, passing through one stick's level on
    its way down, and its "rest" would be a stick let go that fell at once."""
    band = det._band
    if det._spread(_QUICK) > band * _LOOSE_X:
        return False
    m = 2 * (det._avg(det._ring, 2) - det._avg(det._ring, 2, 2))
    return -3 * band <= m <= 3 * band


def loose_holds(det, d, slope):
    """Does a window that holds only loosely, one stick up (`d`, its last half `slope` off
    it), go nowhere? Its halves agree within a band (x2); and not on its way down: its last
    half under it and the newest sample over a band under it is a hand easing off through
    one stick's level (independent 1039, 301.0 s: a touch of 15 g placed, its let-go then
    "fell 1"), or a tower's weight leaving. Nor on its way up: its last half over it by a
    quarter band and the newest sample half a band over it is a press still rising through
    one stick's level (the same touch, 300.74 s, once the ringing was learned truer: the nulled
    total, quieter, let the press's rising window hold loosely). A stick whose weight is still
    arriving is placed a few samples later, once it stops rising. Where it goes, a later
    window tells."""
    band = det._band
    if 2 * slope < -band or 2 * slope > band:
        return False
    # Nor heavier than 120 % of the sticks weighed so far (once three were): a light hand
    # pressing 15-20 g on 12 g sticks holds loosely at 1.2-1.3 of one through a ringing
    # (independent 1054, 34.0 s, after a knock), and its let-go was told "fell 1". A stable
    # window still places up to _ONE_HI_PCT (a hand resting on a stick just placed).
    if det._placed_n >= 3 and 5 * d > 6 * det._mean:
        return False
    newest = det._ring[(det._ri - 1) & _RMASK] - det._level - d
    if 4 * slope > band and 2 * newest > band:
        return False
    return 4 * slope >= -band or newest >= -band


def filtered_rest(det, t):
    """On a slow plate, does the inverse filter's own output (before the period's boxcar)
    hold one stick up, within _LOOSE_X bands, over the last _QUICK samples? Then it is judged
    as a still window (det._resting): a stick let go that falls within 150 ms rests inside
    one period, where the boxcar never shows it (DETECTOR.md, limit 7)."""
    if det._bn <= _SMOOTH:
        return False
    uh = det._uh
    j = (det._si - 1) & _UMASK
    lo = hi = uh[j]
    for _ in range(1, _QUICK):
        j = (j - 1) & _UMASK
        v = uh[j]
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    d = newest_load(det, 0) - det._level
    if hi - lo > det._band * _LOOSE_X or not (det._one_lo < d < det._one_hi):
        return False
    det._resting(t, d)
    return True


def hand_again(det, dev):
    """Is a stick seen resting alone pressed on again, the level (`dev`, the boxcar's) half a
    stick over it? On a slow plate the boxcar holds a press let go for a period after it; a
    rest filtered_rest saw inside that period is pressed again only if the filter's own
    output says so too."""
    half = det._stick // 2
    if dev <= det._pl_level + half:
        return False
    return det._bn <= _SMOOTH or newest_load(det, 0) - det._level > det._pl_level + half


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
    det._commit(g, 2 * _WIN)
    return True


# A level through a ringing not learned, for SlowRing:
_SLOW_W = const(24)  # samples averaged: ~2-3 periods of a 6-9 Hz plate (+ _WIN: all 32 kept)
_SLOW_RUN = const(12)  # samples the averaged level must hold: what places the stick


class SlowRing:
    """A stick placed on a slow plate whose ringing is not learned (yet): for seconds after
    the hand has gone, every 8-sample window swings by several bands, the next hand comes
    before the ringing has died, and the episode runs on over several sticks, each missed
    (the level then walks up by all of them at once). Averaged over 2-3 periods (_SLOW_W
    samples) the ringing leaves a small part of itself: a level one stick up that two such
    averages, 8 samples apart, agree on, and that holds within a band for _SLOW_RUN samples
    (not on its way anywhere: a hand easing off), and weighs a whole stick, is the stick
    let go. Whole: a hand still holding part of a stick, its tremor swinging the level as a
    ringing would (a plate that does not ring at all), leaves the level short of one. Also
    while a ringing is only a candidate: the filter does not run yet, and no window holds."""

    def __init__(self):
        self.run = 0
        self.first = 0  # the averaged level the run began at

    def reset(self):
        """A new episode: a run begun in the last one ends with it."""
        self.run = 0

    def place(self, det, t, level):
        """Places the stick (True) once the averaged level has held one stick up long
        enough; called from Detector._step while an episode is open and the base calm."""
        band = det._band
        ring = det._ring
        d = det._avg(ring, _SLOW_W) - level
        old = det._avg(ring, _SLOW_W, _WIN) - level
        if (
            det._a2
            or det._ep_fell
            or det._nring < _SLOW_W + _WIN
            or not (det._one_lo < d < det._one_hi)
            or d - old > band
            or old - d > band
        ):
            self.run = 0
            return False
        if self.run == 0 or d - self.first > band or self.first - d > band:
            self.run = 0
            self.first = d
        self.run += 1
        if self.run < _SLOW_RUN or not _let_go(det, d):
            return False
        self.run = 0
        det._place(t, d)
        det._commit(d, _SLOW_W)
        return True


def _let_go(det, d):
    """Is the level `d`, averaged through a swing no window holds, the stick let go? A hand
    still holding part of it, its tremor swinging the level as a ringing would, leaves it
    short of a whole stick (or, pressing, beyond it); a hand pressing while a stick left
    elsewhere can hold it one stick up: not while the press watch saw a stick maybe leave."""
    return det._whole_lo <= d <= det._whole_hi and not det._press.maybe


# A stick resting loosely, then falling (LooseRest):
_REST_RUN = const(12)  # samples (150 ms) the window's level must hold one stick up


class LooseRest:
    """A stick let go that rests a while and then falls with others, before any window held
    still enough to place it: what the filter leaves of the release's ringing (or of a
    ringing learned from a hand's tremor, nulling the plate's own badly) swings the total
    by most of a stick, so neither a stable nor a loose window holds, nor is the rest still
    enough to be seen resting (detect.py _resting). Told as a touch, the fall one stick
    short (shaky-hands 1038 at 22.8 s: placed, 5 fell 320 ms later; told "fell 1, fell 3,
    touch"). A window's average (about a period of the ringing) held one stick up for
    _REST_RUN samples, with no fall told in the episode, is that stick resting: once the
    quick window drops from it by what a fall's onset needs, the stick is placed there and
    the fall is judged from it, as any fall. Only after a press well above one stick (a light
    touch on 12 g sticks hovers at one stick and eases off: independent 1008, 267.5 s), and not
    in an episode opened while the last stick's hand may still press on it (_same_hand): that
    hand's press hovers a stick over the level taken under it, and its let-go is a touch
    (independent 1011, 83.9 s; real 1044, 154.8 s)."""

    def __init__(self):
        self.reset()

    def reset(self):
        """A new episode: a rest seen in the last one ends with it."""
        self.run = 0  # samples the window has held one stick up, and their sum
        self.sum = 0
        self.g = 0  # the level the stick rested at (g x100 over the level), once held

    def watch(self, det, t):
        """Per sample of an episode with the base calm; True if it placed the stick (the
        episode is committed: the fall is judged from the next sample)."""
        if (
            det._ep_fell
            or det._fk
            or det._ep_touch
            or det._ep_peak < det._hand
            or det._nring < _WIN + _QUICK
            or det._same_hand(det._ep_t)  # (the one call: last)
        ):
            self.reset()
            return False
        level = det._level
        ring = det._ring
        w = det._avg(ring, _WIN) - level
        g = self.g
        if g and det._avg(ring, _QUICK) - level < g - det._quick_drop:
            self.reset()
            det._place(t, g)
            det._commit(g)
            return True
        if det._one_lo < w < det._one_hi:
            self.run += 1
            self.sum += w
            if self.run >= _REST_RUN:
                self.g = self.sum // self.run
        else:
            self.run = 0
            self.sum = 0
            if w >= det._one_hi:
                self.g = 0  # a hand again
        return False
