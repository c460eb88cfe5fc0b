"""PressWatch (firmware/tablefw/pressfall.py): a stick leaving while a hand presses is seen off
the hand's line in (total, moments); the hand's own wandering press is not."""

import math
from array import array

from tablefw.pressfall import PressWatch

STICK_G = 8.0


def press(watch, hand_xy, fall_at=None, stick_xy=(0.0, 0.0), samples=80):
    """Feed a press at hand_xy (force wandering 20-60 g, tremor); a stick at stick_xy leaves
    over 5 samples from sample `fall_at`. Returns the first sample the watch fired at."""
    for n in range(samples):
        force = 40.0 + 20.0 * math.sin(n / 7.0) + 3.0 * math.sin(n * 2.3)
        gone = 0.0 if fall_at is None else min(1.0, max(0.0, (n - fall_at) / 5.0)) * STICK_G
        dt = force - gone
        dx = force * hand_xy[0] - gone * stick_xy[0]
        dy = force * hand_xy[1] - gone * stick_xy[1]
        if watch.feed(int(dt * 100), int(dx), int(dy)):
            return n
    return None


def test_a_wandering_press_alone_is_no_fall():
    watch = PressWatch(int(STICK_G * 100))
    assert press(watch, (30.0, -10.0)) is None


def test_a_stick_leaving_away_from_the_hand_is_seen_soon_after():
    watch = PressWatch(int(STICK_G * 100))
    at = press(watch, (30.0, -10.0), fall_at=40, stick_xy=(-25.0, 20.0))
    assert at is not None and 40 < at <= 50


def test_a_stick_leaving_from_under_the_hand_cannot_be_told_from_it():
    watch = PressWatch(int(STICK_G * 100))
    assert press(watch, (30.0, -10.0), fall_at=40, stick_xy=(31.0, -9.0)) is None


def test_a_stick_leaving_near_the_hand_is_seen_once_its_residual_has_held_a_while():
    # 14 mm from the hand's spot: under the threshold that reports at once (18 mm), over the
    # one that is a maybe (12 mm). Held still, stepping off a line that held, while the hand
    # presses on, it is a stick gone: told while the hand still presses, not once it has gone
    # (overlap tuning games: in half the turns a stick falls during a press, and these came
    # 0.3-1 s late, fell p95 643 ms).
    watch = PressWatch(int(STICK_G * 100))
    at = press(watch, (30.0, -10.0), fall_at=40, stick_xy=(16.0, -10.0))
    far = press(PressWatch(int(STICK_G * 100)), (30.0, -10.0), fall_at=40, stick_xy=(-25.0, 20.0))
    assert at is not None and far < at <= 40 + 5 + 10, (at, far)


def _letting_go(watch, fall_at=40, stick_xy=(16.0, -10.0), samples=80):
    """A press at (30, -10) mm that eases off to nothing over samples 40-45 while a stick at
    `stick_xy` leaves; True if the watch fired."""
    for n in range(samples):
        force = 40.0 + 20.0 * math.sin(n / 7.0) + 3.0 * math.sin(n * 2.3)
        k = min(1.0, max(0.0, (n - fall_at) / 5.0))
        force *= 1.0 - k
        gone = k * STICK_G
        dt = force - gone
        dx = force * 30.0 - gone * stick_xy[0]
        dy = force * -10.0 - gone * stick_xy[1]
        if watch.feed(int(dt * 100), int(dx), int(dy)):
            return True
    return False


def test_a_stick_leaving_near_the_hand_as_it_lets_go_is_a_maybe_only():
    # Once the hand has let go, a stick it placed rests a few mm from where the hand pressed
    # it: the moments at the stable level tell (Detector._swapped), not the press watch.
    watch = PressWatch(int(STICK_G * 100))
    assert not _letting_go(watch)
    assert watch.maybe


def test_a_spot_fitted_wrong_is_no_stick_near_the_hand():
    # Independent tuning game 1001 (42.4 s): the first samples of a brisk press lay off the
    # hand's line (a slow ringing's filter), the spot fitted on them came out 2 mm off, and
    # the press then stood 150-200 g x mm off that line from the first sample judged, still:
    # a maybe, never a stick that stepped off a line that held.
    watch = PressWatch(int(STICK_G * 100))
    for n in range(80):
        force = min(60.0, 8.0 * (n + 1)) + 3.0 * math.sin(n * 2.3)
        off = 2.5 * force if n < 8 else 0.0  # the ramp's samples: 2.5 mm off the spot
        if watch.feed(int(force * 100), int(force * 30.0 + off), int(force * -10.0)):
            raise AssertionError(f"fell at sample {n}")
    assert watch.maybe  # (the residual held, between the two thresholds)


def test_a_wandering_press_alone_is_not_even_a_maybe():
    watch = PressWatch(int(STICK_G * 100))
    press(watch, (30.0, -10.0))
    assert not watch.maybe


def ringing_press(watch, swing_g_mm, period=4, fall_at=40, samples=80):
    """A press at (30, -10) mm; a stick at (-25, 20) mm leaves over 5 samples from `fall_at`
    and rings the plate: what the filter leaves of that ringing swings the moments by
    `swing_g_mm` (g x mm, decaying over ~40 samples). Returns the first sample fired at."""
    for n in range(samples):
        force = 40.0 + 20.0 * math.sin(n / 7.0) + 3.0 * math.sin(n * 2.3)
        k = min(1.0, max(0.0, (n - fall_at) / 5.0))
        gone = k * STICK_G
        ring = 0.0
        if n >= fall_at:
            ring = swing_g_mm * math.exp(-(n - fall_at) / 40.0)
            ring *= math.sin(2 * math.pi * (n - fall_at) / period)
        dt = force - gone
        dx = force * 30.0 + gone * 25.0
        dy = force * -10.0 - gone * 20.0 + ring
        if watch.feed(int(dt * 100), int(dx), int(dy)):
            return n
    return None


def test_a_stick_leaving_far_from_the_hand_is_seen_through_the_ringing_it_starts():
    # The stick stands ~85 mm (|dx| + |dy|) off the hand's spot: a residual of ~680 g x mm,
    # which the plate's ringing jitters by 200 from sample to sample. That jitter is more than
    # a stick near the hand leaves, so the watch waited for the ringing to die down (~20
    # samples); a residual this large holding within half of itself is a stick gone.
    watch = PressWatch(int(STICK_G * 100))
    at = ringing_press(watch, 200.0)
    assert at is not None and 40 < at <= 52, at


def _press_with_residual(watch, residual):
    """A hand pressing alone at (30, -10) mm, with `residual(n)` (g x mm, x and y) added to its
    moments from sample 40 on; True if the watch fired."""
    for n in range(80):
        force = 40.0 + 20.0 * math.sin(n / 7.0)
        rx, ry = residual(n) if n >= 40 else (0.0, 0.0)
        if watch.feed(int(force * 100), int(force * 30.0 + rx), int(force * -10.0 + ry)):
            return True
    return False


def test_a_residual_circling_about_the_line_is_no_stick():
    # What the ringing filter leaves can swing the moments round and round: the residual stays
    # large every sample, but its average over a period stays on the hand's line.
    def circle(n):
        return 200.0 * math.cos(math.pi * n / 2), 200.0 * math.sin(math.pi * n / 2)

    assert not _press_with_residual(PressWatch(int(STICK_G * 100)), circle)


def test_a_residual_that_keeps_growing_is_no_stick():
    # A rigid tower's centre of pressure running out to its footprint's edge before a topple:
    # the moments move one way, by more than the residual's noise every sample, and never hold.
    def run_out(n):
        return 0.0, 160.0 * (n - 40)

    assert not _press_with_residual(PressWatch(int(STICK_G * 100)), run_out)


# One wild reading through a ringing's inverse filter (taps of a plate ringing ~10 samples a
# period, lightly damped) and its average over one period (11 samples): what it adds to the
# filtered values, sample by sample, as a share of the reading's error.
_BOXCAR = 11
_TAPS = (4.26, -7.38, 4.12)  # (they sum to 1: the filter's unit gain for a steady load)
_WILD = [sum(_TAPS[max(0, n - _BOXCAR + 1) : n + 1]) / _BOXCAR for n in range(_BOXCAR + 2)]


def _press_with_wild_reading(watch, span, stick_at=None):
    """A hand pressing at (30, -10) mm; at sample 40 one reading of the cell at (-70, 70) mm
    is 20 g off (a bit error under the spike limit), as the ringing filter passes it on; from
    `stick_at` a stick at (-25, 20) mm leaves over 5 samples. First sample fired at, or None."""
    for n in range(90):
        force = 40.0 + 20.0 * math.sin(n / 7.0)
        k = _WILD[n - 40] * 20.0 if 0 <= n - 40 < len(_WILD) else 0.0
        gone = 0.0 if stick_at is None else min(1.0, max(0.0, (n - stick_at) / 5.0)) * STICK_G
        dt = force + k - gone
        dx = force * 30.0 - 70.0 * k + 25.0 * gone
        dy = force * -10.0 + 70.0 * k - 20.0 * gone
        if watch.feed(int(dt * 100), int(dx), int(dy), span):
            return n
    return None


def test_a_wild_reading_through_the_ringing_filter_is_no_stick_leaving():
    # Independent tower (tuning seeds 1008 and 1010, 3 turns): a bit error, or a missing
    # reading guessed halfway through a fast ringing swing, became a pulse through the
    # inverse filter, and the period's average then held 1/11 of it off the hand's line for
    # 11 samples, still, like a stick gone: "fell 1" (and "placed 1" as the hand left).
    assert _press_with_wild_reading(PressWatch(int(STICK_G * 100)), 0) is not None  # (unfiltered)
    assert _press_with_wild_reading(PressWatch(int(STICK_G * 100)), _BOXCAR + 2) is None


def test_a_stick_leaving_after_a_wild_reading_is_still_seen():
    at = _press_with_wild_reading(PressWatch(int(STICK_G * 100)), _BOXCAR + 2, stick_at=60)
    assert at is not None and 60 < at <= 70, at


def _near_press_with_dips(watch, dips, fall_at=40, samples=80):
    """A press at (30, -10) mm; a stick at (16, -10) mm (14 mm off the hand's spot: 112 g x mm)
    leaves over 5 samples from `fall_at`; at the samples in `dips` the residual comes back under
    the maybe threshold (12 mm) for one sample. First sample fired at, or None."""
    for n in range(samples):
        force = 40.0 + 20.0 * math.sin(n / 7.0) + 3.0 * math.sin(n * 2.3)
        gone = min(1.0, max(0.0, (n - fall_at) / 5.0)) * STICK_G
        dip = 25.0 if n in dips else 0.0
        dt = force - gone
        dx = force * 30.0 - gone * 16.0 - dip
        dy = force * -10.0 + gone * 10.0
        if watch.feed(int(dt * 100), int(dx), int(dy)):
            return n
    return None


def test_a_stick_near_the_hand_is_told_though_its_residual_dips_back_once():
    # Overlap tuning game 1006 (82.1 s): a stick 13-14 mm off the hand's spot, its residual
    # held 105-125 g x mm (maybe threshold 96) for a second while the hand pressed on, but
    # dipped to 93-96 for one sample now and then: each dip started the hold again and
    # forgot that the residual had stood on the line before (told 1.2 s late, as the hand
    # left). A single sample back under the threshold is the residual's noise.
    clean = _near_press_with_dips(PressWatch(int(STICK_G * 100)), ())
    at = _near_press_with_dips(PressWatch(int(STICK_G * 100)), (49, 53, 57, 61, 65, 69))
    assert clean is not None and at is not None and at <= clean + 3, (clean, at)


def test_a_stick_leaving_after_a_wild_reading_goes_on_with_the_run_it_had():
    # Noisy tuning game 1003 (127.7 s): the residual of a stick gone had held 2 samples when a
    # wild reading passed through the ringing filter; after it the residual was back where it
    # held, but the run started again, and the fall came 219 ms after the stick began leaving.
    # Back where it held before the wild reading, the residual goes on with its run.
    at = _press_with_wild_reading(PressWatch(int(STICK_G * 100)), _BOXCAR + 2, stick_at=33)
    assert at is not None and 40 + _BOXCAR + 3 <= at <= 40 + _BOXCAR + 4, at  # (else 57)


def _light_press(watch, stick_xy=(-25.0, 20.0), fall=True, skew=0.0, samples=80):
    """A light hand at (30, -10) mm: a stick it places and its press, 13 g for 3 samples (the
    fit's threshold is 12 g), then 10 g; from sample 20 a stick at `stick_xy` leaves over 5
    samples while the hand's load grows by 1-9 g (the total stays under 12 g: the spot is never
    trusted). `skew`: mm the first samples lie off the hand's spot. First sample fired at."""
    for n in range(samples):
        force = min(2.5 * n, 13.0) if n < 9 else 10.0
        k = 0.0 if not fall else min(1.0, max(0.0, (n - 20) / 5.0))
        if n >= 20:
            force += (5.0 + 4.0 * math.sin(n / 3.0)) * (k if fall else 1.0)
        gone = k * STICK_G
        dt = force - gone
        dx = force * (30.0 + (skew if n < 9 else 0.0)) - gone * stick_xy[0]
        dy = force * -10.0 - gone * stick_xy[1]
        if watch.feed(int(dt * 100), int(dx), int(dy)):
            return n
    return None


def test_a_stick_leaving_while_a_light_hand_presses_is_seen_before_the_spot_is_trusted():
    # Overlap tuning games 1005 (402.2 s) and 1000 (264.2 s), noisy 1007 (281.4 s): a hand
    # placing a stick lightly while another fell elsewhere; its load stayed under the fit's
    # threshold, so the spot was never trusted and the fall was told as the hand left
    # (0.5-1 s late). The residual off the first samples' line held still while the hand's
    # load changed by half again: no line fitted wrong does that.
    at = _light_press(PressWatch(int(STICK_G * 100)))
    assert at is not None and 25 <= at <= 40, at


def test_a_line_fitted_wrong_before_it_is_trusted_is_no_stick():
    # The first samples 5 mm off the hand's spot: the residual off that line grows and shrinks
    # with the hand's load, never holding still while the load changes.
    assert _light_press(PressWatch(int(STICK_G * 100)), fall=False, skew=5.0) is None
    assert _light_press(PressWatch(int(STICK_G * 100)), fall=False, skew=-5.0) is None


def _light_press_with_wild_reading(watch, at, err_g=15.0):
    """A light hand at (30, -10) mm (13 g for 3 samples, then 3-11 g: never trusted); at sample
    `at` one reading of the cell at (-70, 70) mm is `err_g` off, as the ringing filter passes
    it on (_press_with_wild_reading). First sample fired at, or None."""
    for n in range(80):
        force = min(2.5 * n, 13.0) if n < 9 else 10.0
        if n >= 20:
            force = 7.0 + 4.0 * math.sin(n / 3.0)
        k = _WILD[n - at] * err_g if 0 <= n - at < len(_WILD) else 0.0
        dt = force + k
        dx = force * 30.0 - 70.0 * k
        dy = force * -10.0 + 70.0 * k
        if watch.feed(int(dt * 100), int(dx), int(dy), _BOXCAR + 2):
            return n
    return None


def test_a_wild_reading_under_a_light_hand_is_no_stick():
    # The period's average holds what the filter leaves of a wild reading still, off the first
    # samples' line, while the hand's load changes: like a stick gone, but for the filter's span
    # only, and it came in one jump.
    for at in (23, 35, 47):
        for err in (12.0, 15.0, -15.0):
            assert _light_press_with_wild_reading(PressWatch(int(STICK_G * 100)), at, err) is None


def _light_press_near(watch, fall_at=40, stick_xy=(16.0, -10.0), samples=80):
    """A stick placed at (30, -10) mm with a light press (16-18 g in all, under two sticks)
    while another stick leaves from `stick_xy` over 5 samples from `fall_at`: the total drops
    to about the stick the hand still holds. The first sample the watch fired at, or None."""
    for n in range(samples):
        force = 17.0 + 1.0 * math.sin(n / 5.0) + 0.5 * math.sin(n * 2.3)
        gone = min(1.0, max(0.0, (n - fall_at) / 5.0)) * STICK_G
        dt = force - gone
        dx = force * 30.0 - gone * stick_xy[0]
        dy = force * -10.0 - gone * stick_xy[1]
        if watch.feed(int(dt * 100), int(dx), int(dy)):
            return n
    return None


def test_a_stick_near_a_light_hand_is_told_while_it_presses_on():
    # Overlap game (tuning seed 1004), 52.49 s: a hand places a stick with a light press while
    # another falls 14 mm from its spot. With that stick's weight gone the total read under the
    # fit's threshold (a stick and a half), as if the hand had let go, and the fall was told
    # only once the episode ended, 466 ms after it. The hand's share counts the stick the
    # residual says is gone.
    at = _light_press_near(PressWatch(int(STICK_G * 100)))
    assert at is not None and at <= 40 + 5 + 12, at


def _slow_leaving(watch, stick_xy, over, fall_at=40, samples=90):
    """The wandering press at (30, -10) mm while a stick at `stick_xy` leaves over `over`
    samples from `fall_at`. The first sample the watch fired at, or None."""
    for n in range(samples):
        force = 40.0 + 20.0 * math.sin(n / 7.0) + 3.0 * math.sin(n * 2.3)
        gone = min(1.0, max(0.0, (n - fall_at) / over)) * STICK_G
        if watch.feed(
            int((force - gone) * 100),
            int(force * 30.0 - gone * stick_xy[0]),
            int(force * -10.0 - gone * stick_xy[1]),
        ):
            return n
    return None


def test_a_stick_leaving_slowly_near_the_hand_does_not_bend_its_line_away():
    # Noisy game (tuning seed 1004), 53.28 s: a stick fell 15 mm from where a hand pressed the
    # next one on. The samples on its way off, still within half the watch's threshold of the
    # line, were learned into the hand's spot: the line turned towards the stick and its
    # residual never held over the maybe threshold (missed; the press came out a touch). The
    # spot is learned from samples within about the residual's noise only.
    at = _slow_leaving(PressWatch(int(STICK_G * 100)), (16.0, -10.0), over=10)
    assert at is not None and at <= 40 + 10 + 12, at


def test_a_stick_near_the_hand_on_quiet_cells_is_told_after_a_shorter_hold():
    # Overlap tuning games: most falls under a press told over 200 ms after the stick left
    # were sticks 12-18 mm from the hand's spot, told once their residual had held _LONG
    # samples over the maybe threshold. Where the residual's noise is well under the watch's
    # threshold (its least, a stick at 18 mm) a residual over 12 mm that holds 6 samples is no
    # noise (fell p95 230 -> 192 ms). On noisier cells it still holds _LONG.
    at = press(PressWatch(int(STICK_G * 100)), (30.0, -10.0), fall_at=40, stick_xy=(16.0, -10.0))
    assert at is not None and at <= 40 + 5 + 5, at


def _steady_light_press(watch, fall=True, skew=0.0, samples=80):
    """A light hand at (30, -10) mm: 14 g for 6 samples (over the fit's threshold, 12 g), then
    a steady 11 g (a little tremor); from sample 20 a stick at (-25, 20) mm leaves over 5
    samples. `skew`: mm the first samples lie off the hand's spot. First sample fired at."""
    for n in range(samples):
        force = min(3.5 * n, 14.0) if n < 10 else 11.0 + 0.3 * math.sin(n * 1.7)
        gone = (min(1.0, max(0.0, (n - 20) / 5.0)) if fall else 0.0) * STICK_G
        dx = force * (30.0 + (skew if n < 10 else 0.0)) + gone * 25.0
        if watch.feed(int((force - gone) * 100), int(dx), int(force * -10.0 - gone * 20.0)):
            return n
    return None


def test_a_stick_leaving_while_a_light_hand_holds_steady_is_seen_before_the_spot_is_trusted():
    # Noisy game (tuning seed 1007), 281.36 s: a light hand's load held within 7-11 (g x2)
    # after a stick fell far from it, and the residual off the first line (twice the threshold)
    # was told only once the load had changed by half again, 217 ms after the stick left.
    # The first line was checked on its samples at the fit's load or more (each within twice
    # the threshold of it): its error there bounds what it leaves at a lighter load, so a
    # residual held beyond that is a stick gone.
    at = _steady_light_press(PressWatch(int(STICK_G * 100)))
    assert at is not None and at <= 20 + 5 + 6, at
    assert _steady_light_press(PressWatch(int(STICK_G * 100)), fall=False, skew=5.0) is None
    assert _steady_light_press(PressWatch(int(STICK_G * 100)), fall=False, skew=-5.0) is None


# A slowly ringing plate (6-9 Hz at 80 samples/s): the detector's moments come through a boxcar
# over one period of the ringing, which lags a load's change by half of it.
_SLOW = 12


class _SlowPlate:
    """What the press watch reads off its Detector (tablefw/detect.py) on a slow plate: the
    last 32 values per channel (total g x100, moments g x mm) out of the ringing's inverse
    filter, before the boxcar (here the load itself, the ringing nulled), and the stable
    state the episode is measured from."""

    def __init__(self):
        self._uh = array("i", [0] * 96)
        self._si = 0
        self._wt = 0  # (the level's averaged total, as _keep_origin keeps it)
        self._mx = 0
        self._my = 0
        self.ncells = 1  # (its readings, none missing)
        self._mi = 0
        self._gap = array("b", [0, 0, 0])

    def push(self, load):
        for c, v in enumerate(load):
            self._uh[c * 32 + self._si] = v
        self._si = (self._si + 1) & 31


def _slow_press(watch, plate, fall_at=40, over=16, stick_xy=(-25.0, 20.0), samples=100):
    """A hand pressing at (30, -10) mm; from `fall_at` a stick at `stick_xy` leaves over
    `over` samples (200 ms). The watch sees the loads through a period's boxcar. First sample
    it fired at, or None."""
    past = []
    for n in range(samples):
        force = 40.0 + 10.0 * math.sin(n / 9.0) + 2.0 * math.sin(n * 2.3)
        gone = min(1.0, max(0.0, (n - fall_at) / over)) * STICK_G
        load = (
            int((force - gone) * 100),
            int(force * 30.0 - gone * stick_xy[0]),
            int(force * -10.0 - gone * stick_xy[1]),
        )
        plate.push(load)
        past = (past + [load])[-_SLOW:]
        box = [sum(v[i] for v in past) // len(past) for i in range(3)]
        if watch.feed(box[0], box[1], box[2], _SLOW + 2):
            return n
    return None


def test_a_stick_leaving_on_a_slow_plate_is_told_through_the_boxcars_lag():
    # The residual through the boxcar, run on by its change over half of it, with the load
    # before the boxcar off the line too: told 5 samples (60 ms) sooner than the residual
    # through the boxcar alone, held.
    plate = _SlowPlate()
    at = _slow_press(PressWatch(int(STICK_G * 100), plate), plate)
    alone = _slow_press(PressWatch(int(STICK_G * 100)), _SlowPlate())
    assert at is not None and alone is not None and at <= alone - 4 and at <= 40 + 8, (at, alone)
    # (A stick leaving from under the hand's spot is as unseen as ever.)
    plate = _SlowPlate()
    assert _slow_press(PressWatch(int(STICK_G * 100), plate), plate, stick_xy=(31.0, -9.0)) is None


def _press_then_light_hand(watch, gap, samples=70):
    """A hand presses at (30, -10) mm (40 g), lets go briskly at sample 30 and the plate is back
    at its origin for `gap` samples; then a light hand (under a stick) presses at (60, 50) mm,
    its load ramping from 2 to 6 g. First sample fired at, or None (no stick leaves)."""
    for n in range(samples):
        if n < 30:
            force, spot = 40.0 + 3.0 * math.sin(n * 2.3), (30.0, -10.0)
        elif n < 30 + gap:
            force, spot = 0.0, (0.0, 0.0)
        else:
            force, spot = min(6.0, 2.0 + 0.5 * (n - 30 - gap)), (60.0, 50.0)
        if watch.feed(int(force * 100), int(force * spot[0]), int(force * spot[1])):
            return n
    return None


def test_a_light_load_after_the_hand_has_gone_is_no_step_off_its_line():
    # Noisy tuning game 1029 (145.1 s), independent 1022 (147.8 s), shaky-hands 1020 (63.8 s):
    # a hand pressed and let go, the plate stood back at the watch's origin for 50 ms or more,
    # and the next light load (another hand, under a stick's weight) came at its own spot: off
    # the last hand's line by a stick 18 mm away and more, a fall reported where none fell.
    # Back at the origin for a while, the watch starts a new line.
    assert _press_then_light_hand(PressWatch(int(STICK_G * 100)), gap=12) is None
    # The next hand's own line is fitted and watched as the first was.
    watch = PressWatch(int(STICK_G * 100))
    assert press(watch, (30.0, -10.0), samples=30) is None
    for _ in range(12):
        assert not watch.feed(0, 0, 0)
    at = press(watch, (60.0, 50.0), fall_at=40, stick_xy=(-25.0, 20.0))
    assert at is not None and 40 < at <= 50, at


def test_a_press_is_measured_from_where_the_plate_held_still_before_it():
    # The level the episode opened from is 5 g and 200 g x mm off the plate (a stick weighed
    # while its hand still pressed): half a second still there, then a hand presses at one
    # spot, to 55 g in 6 samples and on to over 100 g. Through the stale origin its line,
    # fitted on the ramp, is tilted, and the harder press stands off it like a stick gone.
    watch = PressWatch(int(STICK_G * 100))
    hand = (27.0, -38.0)
    for n in range(40):
        assert not watch.feed(-500 + (n % 3) * 10, (n % 5), -200)
    for n in range(60):
        force = min(55.0, n * 55.0 / 6) + max(0.0, n - 6) * 1.0
        dt = -5.0 + force
        assert not watch.feed(int(dt * 100), int(force * hand[0]), int(-200 + force * hand[1])), n


class _Guessing(_SlowPlate):
    """A Detector whose cell's reading in median slot 1 (the one it takes in with _mi 0) may
    be missing, its neighbours apart: repeated, not guessed halfway."""

    def _near(self, k, mi, i):
        return False


def _press_with_guessed_reading(watch, det, span, stick_at=None, samples=80):
    """A hand pressing at (30, -10) mm; at sample 40 the Detector takes in a missing reading it
    repeated, and for `span` samples (its pulse through the ringing's inverse filter, averaged)
    the moments stand off the hand's line, 55 g x mm on the first and 110 on the rest (over the
    maybe threshold, 96, under the one that tells at once, 144); from `stick_at` a stick at
    (-25, 20) mm leaves over 5 samples. First sample fired at, or None."""
    for n in range(samples):
        force = 40.0 + 20.0 * math.sin(n / 7.0) + 3.0 * math.sin(n * 2.3)
        gone = 0.0 if stick_at is None else min(1.0, max(0.0, (n - stick_at) / 5.0)) * STICK_G
        off = 55.0 * min(2, n - 39) if 40 <= n < 40 + span else 0.0
        det._gap[1] = 1 if n == 40 else 0
        dt = force - gone
        dx = force * 30.0 + 25.0 * gone - off
        dy = force * -10.0 - 20.0 * gone
        if watch.feed(int(dt * 100), int(dx), int(dy), span):
            return n
    return None


def test_a_missing_reading_repeated_in_a_ringing_swing_is_no_stick_leaving():
    # Real tower (tuning seed 1029, 13.98 s): a hand pressed a stick on at 100 g; one cell's
    # reading went missing at the top of the plate's swing and was repeated, and through the
    # ringing's inverse filter and its average the moments stood 110-127 g x mm off the hand's
    # line for the pulse's length, little enough from one sample to the next to pass for a
    # residual held: 6 samples, which _QUICK asks of a stick near the hand, "fell 1". A
    # reading the Detector guessed is a wild one: nothing is judged until its pulse has passed.
    det = _Guessing()
    assert _press_with_guessed_reading(PressWatch(int(STICK_G * 100), det), det, 8) is None
    # (Not knowing the reading was guessed, the watch takes the pulse for a stick gone.)
    assert _press_with_guessed_reading(PressWatch(int(STICK_G * 100)), _Guessing(), 8) is not None


def test_a_stick_leaving_after_a_missing_reading_is_still_seen():
    det = _Guessing()
    at = _press_with_guessed_reading(PressWatch(int(STICK_G * 100), det), det, 8, stick_at=52)
    assert at is not None and 52 < at <= 62, at


def _press_fitted_off(watch, stick_at=None, samples=100):
    """A hand presses at (30, -10) mm, 40 g, then harder by 0.6 g a sample from sample 20; the
    first fit's samples (to sample 10, as the plate still rang from the press) lie 3 mm off the
    spot; from `stick_at` a stick at (-25, 20) mm leaves over 5 samples. First sample fired at,
    or None."""
    for n in range(samples):
        force = min(40.0, 5.0 * (n + 1)) + max(0.0, 0.6 * (n - 20)) + 1.0 * math.sin(n * 2.3)
        skew = 3.0 if n < 10 else 0.0
        gone = 0.0 if stick_at is None else min(1.0, max(0.0, (n - stick_at) / 5.0)) * STICK_G
        dx = force * (30.0 + skew) + gone * 25.0
        if watch.feed(int((force - gone) * 100), int(dx), int(force * -10.0 - gone * 20.0)):
            return n
    return None


def test_a_line_never_stood_on_is_fitted_again():
    # Ring-light tower (tuning seed 1016, 223.6 s), independent 1034 (216.5 s): the samples a
    # touch's first fit took lay off the hand's spot (the plate still rang from the press),
    # and from the first sample judged the press stood 100-180 g x mm off that line, never on
    # it; as the hand pressed harder the residual grew past the threshold and held: "fell 1".
    # Held off a line it never stood on for _LONG samples, the watch fits the spot again.
    assert _press_fitted_off(PressWatch(int(STICK_G * 100))) is None
    at = _press_fitted_off(PressWatch(int(STICK_G * 100)), stick_at=70)
    assert at is not None and 70 < at <= 80, at


def _press_fitted_on_its_ramp(watch, stick_at=None, samples=90):
    """After a steady press (its residual's noise learned), a hand presses at (30, -10) mm: up
    to 40 g over 8 samples, held to sample 24, then harder by 0.6 g a sample; the first fit's
    samples (to sample 10, taken as the press rang) swing 4 mm either side of a spot 1.5 mm off
    the hand's, so that the residual stands ~70-90 g x mm off the line from the first sample
    judged, under _MAYBE_MM's; from `stick_at` a stick at (-25, 20) mm leaves over 5 samples.
    First sample fired at, or None."""
    for n in range(40):
        force = min(40.0, 5.0 * (n + 1)) + 0.5 * math.sin(n * 2.3)
        watch.feed(int(force * 100), int(force * 30.0), int(force * -10.0))
    watch.reset()
    for n in range(samples):
        force = min(40.0, 5.0 * (n + 1)) + max(0.0, 0.6 * (n - 24)) + 0.5 * math.sin(n * 2.3)
        skew = 1.5 + (4.0 if n & 1 else -4.0) if n < 10 else 0.0
        gone = 0.0 if stick_at is None else min(1.0, max(0.0, (n - stick_at) / 5.0)) * STICK_G
        dx = force * (30.0 + skew) + gone * 25.0
        if watch.feed(int((force - gone) * 100), int(dx), int(force * -10.0 - gone * 20.0)):
            return n
    return None


def test_a_residual_off_the_line_from_the_first_sample_growing_with_the_press_is_no_stick():
    # Real and ring-heavy towers (tuning seed 1013, turn 54, 217.4 s): a touch's first fit took
    # the press's ringing samples (their residuals off the fit so far 30-280 g x mm), and from
    # the first sample judged its residual stood 76-91 g x mm off the line, under _MAYBE_MM's
    # 96, so it seemed to stand on it; as the hand pressed 44 -> 50 g the residual grew with
    # it, 99-116, and held: "fell 1", and a stick placed for it where a touch was. Off the line
    # from the first sample judged, grown with the load, after a first fit that swung: it is
    # the line that is wrong, and the spot is fitted again.
    assert _press_fitted_on_its_ramp(PressWatch(int(STICK_G * 100))) is None
    at = _press_fitted_on_its_ramp(PressWatch(int(STICK_G * 100)), stick_at=70)
    assert at is not None and 70 < at <= 80, at
