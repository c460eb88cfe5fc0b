# A stick that falls while a hand presses on the tower (issue 10: touch and fall in one episode).
#
# The total alone cannot tell it: a hand's press wanders by more than a stick. The moments can.
# Everything a hand adds (its press, the stick it holds) acts at one spot, so the plate's
# change since the last stable state moves along one direction (1, x_h, y_h): total and
# moments grow and shrink together. A stick leaving from anywhere else on the tower adds a
# step off that line. The watcher fits the hand's spot (least squares through the origin, over
# the samples pressed by at least one stick) and reports a residual moment that stays off the
# line, larger than a stick at _OFF_MM from the hand's spot and than the residual's own noise
# ("stays": it holds within that noise, or, jittered by the plate's ringing the stick's leaving
# set off, its average over a period of the ringing holds; one that jumps faster than any load
# passes the ringing filter is a reading gone wild, and nothing is judged until the filter's
# average has let it go; before the hand's line is trusted, so is one that throws the four
# cells' twist out and back, median.Twist). It stays _HOLD samples; one over twice the
# threshold that has stood since it went off the line (moved under a quarter of the threshold)
# a sample less: a stick gone is a step that stands, where a stick sliding across the tower or
# a centre of pressure running out before a topple keeps moving (fell p95 on overlap: 201 ->
# 197 ms on 96 tuning games).
#
# A smaller residual (a stick nearer the hand's spot, over _MAYBE_MM) is a stick gone too once
# it has held still for _LONG samples (_QUICK where four times the residual's noise is under
# _MAYBE_MM), stepping off a line it had stood on, while the hand still
# presses harder than a stick resting alone (the fit's threshold; with the stick gone added
# back, its weight is off the total too): a fit gone wrong never stood on its line, and once the
# hand has let go the stick it placed rests where it rests. Held any shorter, or as the hand
# lets go, it is only a maybe: detect.py decides from the moments once the hand has gone.
# A residual off the line from the first sample judged, grown with the load since, after a
# first fit whose samples swung about the line (a press's ramp or ringing), is a line fitted
# wrong: the spot is fitted again (_stands). A stick gone leaves the same residual at any load.
#
# A light hand (a stick placed, barely pressed, while another falls) may never press hard enough
# for the spot to be trusted: there a residual off the first samples' line that holds still
# while the hand's load changes by half again is a stick gone (a line fitted wrong leaves a
# residual that grows with the load), as is one held beyond twice the threshold at a load under
# the fit's once over half the first fit's samples were checked against the line (each within
# twice the threshold of it, at the fit's load or more: the line's error there bounds what it
# leaves at a lighter load).
#
# On a slowly ringing plate the moments come through the ringing filter's boxcar over one period
# (10 samples or more), which lags a stick leaving by half of it: there the residual is also
# judged run on by its change over that half (what the boxcar has yet to let through). One that
# stands off the line so for _AHOLD samples is a stick gone, where the residual itself is over
# half the threshold and grew by a quarter of it over that half (a step on its way through the
# boxcar: a line fitted a little off leaves a residual that stands, whose run-on is only its
# noise made larger), the run-on holds within the threshold from sample to sample, and the
# newest load before the boxcar (read off the Detector) stands off the line by three quarters
# of the threshold: what the boxcar still holds of a brisk press's first samples, off its final
# line, moves the residual as it leaves while the newest samples lie on the line. (Not all of
# it: the inverse filter's noise swings the newest load by a quarter of the threshold from one
# sample to the next, and each sample under it broke the run: independent 1053 at 116.4 s,
# 1040 at 174.6 s, told 206 and 216 ms after the stick began to leave, 172 and 165 now.)
# So too on a plate ringing 8-10 samples a cycle (ringfit.runs_on), whose boxcar is the fast one
# of 4 samples: with the inverse filter it lags a stick leaving by about 3 samples, and the
# residual is run on by its change over 2, while the hand still presses harder than a stick
# resting alone (see _runs_on).
#
# The residual's noise is learned from the watch's first samples on (those the first fit takes
# too): the first press of a noisy board is judged against that noise, not the threshold's
# minimum; a residual held off the line is no noise.
#
# Within one episode a stick that has come to rest alone is the new origin (rebase), as is the
# plate held still a while before the hand's line is fitted (the level the episode opened from
# may be off by a third of a stick, and a line fitted through a wrong origin is tilted), and a
# plate back at the origin a while (total and moments) has lost its hand: the next load starts
# a new line (a light one off the last hand's line is no stick gone); a
# residual farther off than any two loads on the plate means the line is not this hand's, and
# the watch says nothing more.
# Sums stay below 2**30 (small ints on 32-bit ports); integers only; no allocation per sample.

from array import array

from tablefw.compat import const
from tablefw.median import Twist
from tablefw.ringfit import newest_load, runs_on

_LIM_T = const(400)  # change in total, g x2: 200 g
_LIM_M = const(20000)  # change in moment, g x mm: 200 g at 100 mm
_OFF_MM = const(18)  # a stick this far from the hand's spot is seen
_MAYBE_MM = const(12)  # ... this far, maybe (held _LONG while pressed: seen; else detect.py)
_FITTED = const(8)  # samples the hand's spot is fitted on before it is trusted
_FIRST = const(3)  # ... and after this many, a sample far off the spot so far is left out
_DECAY = const(4)  # the fit's sums forget with a time constant of 2**_DECAY samples
_SETTLE = const(6)  # samples a fast move of the hand needs to pass through the smoothing
_FAR_MM = const(200)  # no two loads on the plate are this far apart
_HOLD = const(4)  # samples the residual must stay off the line (a plain step's: one less)
_LONG = const(8)  # ... a smaller one (_MAYBE_MM) this long, after as many on the line
_QUICK = const(6)  # ... or this long where the residual's noise is well under _MAYBE_MM
_NOISE_X = const(4)  # ... and this many times its typical size on the line
_EVEN = const(2)  # the residual's running average spans ~2**_EVEN samples (a fast ringing's period)
# The spot is learned from samples within _off / _LEARN_X of its line (~the residual's noise):
# a stick leaving near the hand's spot, its weight going over tens of ms, would bend the line
# towards it and hide part of its own step.
_LEARN_X = const(3)
_JUMP_X = const(2)  # the residual moving this many times _off in one sample: a reading gone wild
_SMOOTH = const(4)  # the ringing filter's boxcar on a fast (or no) ringing (detect.py)
_AHOLD = const(2)  # samples the run-on residual must stay off the line (a slow plate's boxcar)
_GROW_X = const(4)  # ... having grown by 1/_GROW_X of the threshold over half the boxcar
_PAST = const(16)  # changes kept for the run-on (power of two, over half the longest boxcar)
_PMASK = const(15)
_CALM = const(32)  # samples the plate holds still, before the hand's line, to be measured from


class PressWatch:
    def __init__(self, stick_g100, det=None):
        self._min_t = max(2, stick_g100 // 50)  # one stick, g x2: pressed
        self._fit_t = self._min_t * 3 // 2  # pressed this hard: the hand's spot is fitted
        self._fast = self._min_t * 2  # a sample-to-sample change a brisk hand makes, no stick
        self._off_min = max(40, stick_g100 * _OFF_MM // 100)  # g x mm
        self._far = stick_g100 * _FAR_MM // 100  # no one stick leaving is this far off the line
        self._maybe = max(30, stick_g100 * _MAYBE_MM // 100)
        self._off = self._off_min
        self._noise16 = self._off * 4  # typical |residual| on the line, x16 (learned)
        self._nn = 0  # samples it was learned on (up to 2**5)
        self._pt = array("i", [0] * _PAST)  # the last changes in total (g x2) and moments
        self._px = array("i", [0] * _PAST)
        self._py = array("i", [0] * _PAST)
        self._pi = 0  # where the newest is
        self._det = det  # the Detector feeding it (tablefw/detect.py), for newest_load()
        self._twist = Twist(det)  # its cells' twist (4 cells): a reading gone wild
        self.reset()

    def reset(self):
        self.rebase(0, 0, 0)
        self.residual = 0
        self.maybe = False  # a smaller residual held: maybe a stick left

    def restart(self):
        """Watch afresh from the same origin: the next load starts a new line."""
        self.rebase(self._ot, self._ox, self._oy)

    def rebase(self, dt100, dx, dy):
        """Watch from here on: a stick that came to rest alone within the episode (its hand
        gone) is no step off the next hand's line, nor is a level the plate held still at
        before it (_still_origin). Keeps `maybe`."""
        self._ot = dt100  # where the change is measured from
        self._ox = dx
        self._oy = dy
        self._refit()
        self._resume = 0  # the run a wild reading broke (goes on if the residual is back)
        self._apart = 0  # samples in a row the first fit's residual held near (_ax, _ay) ...
        self._ax = 0
        self._ay = 0
        self._alo = 0  # ... and the least and most pressed of them
        self._ahi = 0
        self._prev = 0  # dt of the sample before
        self._r1 = 0  # the residual as its run off the line began (has it stood since?)
        self._rx = 0  # the residual of the sample before
        self._ry = 0
        self._sx = 0  # the residual averaged over the last few samples
        self._sy = 0
        self._wait = 0  # samples until a fast move has left the smoothed values
        self._pressed = 0  # samples in a row pressed harder than the fit's threshold
        self._lost = False  # the line fitted is not this hand's
        self._pn = 0  # samples in a row kept in _pt, _px, _py (up to _PAST)
        self._took = False  # the run-on residual was taken on the sample before: (_qx, _qy)
        self._qx = 0
        self._qy = 0
        self._home = 0  # samples in a row back at the origin, total and moments
        self._calm = 0  # samples in a row held near (_kt, _kx, _ky) before any fit ...
        self._kt = 0
        self._kx = 0
        self._ky = 0
        self._ct = 0  # ... and their sums
        self._cx = 0
        self._cy = 0

    def feed(self, dt100, dx, dy, span=0):
        """One calm sample of the episode: the change in total (g x100) and in moments (g x mm)
        since the last stable state. True once a stick has left from off the hand's spot.
        `span`: samples one wild reading stays in the values (the ringing's inverse filter and
        its average), 0 if they are not filtered."""
        if self._lost:
            return False
        dt = max(-_LIM_T, min(_LIM_T, (dt100 - self._ot) // 50))
        dx = max(-_LIM_M, min(_LIM_M, dx - self._ox))
        dy = max(-_LIM_M, min(_LIM_M, dy - self._oy))
        step = dt - self._prev
        self._prev = dt
        pi = (self._pi + 1) & _PMASK
        self._pi = pi
        self._pt[pi] = dt
        self._px[pi] = dx
        self._py[pi] = dy
        if self._pn < _PAST:
            self._pn += 1
        took = self._took
        self._took = False
        twisted = self._twist.jumped(self._det)  # (each sample fed, waits too: it learns its noise)
        if step > self._fast or step < -self._fast:
            self._wait = _SETTLE  # the hand moves faster than a stick leaves: cells read
            self._resume = 0  # at slightly different moments disagree, and a missing reading
        if self._wait:  # is repeated: the residual means nothing for a while
            self._wait -= 1
            self._pn = 0
            self._run = 0 if self._wait else self._resume
            self._apart = min(self._apart, 0)
            self._low = 0
            self._cont = False
            return False
        home = abs(dt) * 4 <= self._min_t and abs(dx) + abs(dy) <= self._maybe
        self._home = self._home + 1 if home else 0
        if self._home >= _HOLD and self._fitted:
            # Back where the watch began, total and moments, a while: the hand has gone and
            # left nothing, and the next load is a new hand's, at its own spot, not a step off
            # the line the last one pressed along. (Moments moved by a stick _MAYBE_MM away
            # are a stick placed and another gone: not back.)
            self.restart()
        if not self._fitted and self._still_origin(dt, dx, dy):
            return False
        sxx = self._sxx
        r = 0
        ra = 0
        rx = ry = 0
        cont = wild = False
        moved = 0
        settled = 0
        if self._fitted >= _FIRST:  # (once the hand lets go, what a stick left shows whole)
            q = sxx >> 2
            hx = (self._sxy << 2) // q  # the hand's spot, mm x8 (dt is in g x2)
            hy = (self._syy << 2) // q
            rx = dx - hx * dt // 16
            ry = dy - hy * dt // 16
            r = abs(rx) + abs(ry)
            if self._det and self._pn > (span - 2) >> 1 and self._runs_on(span):
                ra = self._ahead((span - 2) >> 1, rx, ry, r, hx, hy, took)
            moved = abs(rx - self._rx) + abs(ry - self._ry)
            cont = self._cont
            wild = span and cont and (moved > _JUMP_X * self._off or _guessed(self._det))
            if self._trusted and wild:
                # One reading gone wild (a bit error under the spike limit, a missing one
                # guessed through a fast ringing swing): the ringing's inverse filter turns it
                # into a pulse, far faster than any load the smoothing lets through, and its
                # average then holds what the pulse leaves for its whole length, off the line,
                # like a stick gone. Nothing is judged until it has passed; a residual back
                # where it held before it (the next sample's `moved` is measured from there)
                # goes on with the run it had. A missing reading the Detector repeated is one
                # however little it moves the residual: its pulse, held off the line, may last
                # as long as a stick near the hand is asked to hold (real 1029, 13.98 s: one
                # repeated in a press's ringing swing held 110-127 g x mm for _QUICK samples).
                self._wait = span
                self._resume = self._run
                self._run = 0
                self._low = 0
                self._cont = False
                return False
            self._rx = rx
            self._ry = ry
            self._cont = True
            # The residual's running average over a few samples (a fast ringing's period):
            # how far that moved this sample.
            ex = (rx - self._sx) >> _EVEN
            ey = (ry - self._sy) >> _EVEN
            self._sx += ex
            self._sy += ey
            settled = abs(ex) + abs(ey)
        if not self._trusted:
            self.residual = 0
            if twisted or _guessed(self._det):
                # A missing reading repeated on a brisk ramp is off by grams, and the filter
                # spreads it over `span` samples: in the first fit it tilts the line for the
                # whole press (shaky-hands 1018 at 80.6 s: "fell 1" as a stick was pressed
                # on). Left out, as is a reading the twist shows gone wild (noisy 1019 at
                # 63.65 s: an 8.2 g bit error).
                self._wait = span
                self._resume = 0
                return False
            if self._fitted < _FIRST:
                self._apart = 0
            elif self._held_apart(dt, rx, ry, wild, span):
                return True
            self._learn_first(dt, dx, dy, r)
            return False
        self.residual = r
        if not self._d0:
            self._d0 = max(1, dt)  # (the line's first judged sample)
            self._r0 = r
        if r * _LEARN_X <= self._off:
            self._fresh = False
        if r > self._far:
            # The line is not the hand's (one fitted on an earlier load, and a new hand pressing
            # elsewhere): nothing it says is a stick leaving, until a new rebase.
            self._lost = True
            return False
        # The hand still presses harder than a stick resting alone; once the residual stands off
        # the line (a stick maybe gone, its weight off the total too) the hand's share is the
        # total and that stick: a light hand pressing on would read as one let go.
        hand = dt + self._min_t if self._low else dt
        self._pressed = self._pressed + 1 if hand >= self._fit_t else 0
        if r > self._maybe and moved <= self._maybe:
            if self._onl > self._from:
                self._from = self._onl  # (how long it stood on the line)
            self._low += 1
            if self._from < _HOLD and self._low >= _LONG:
                # Off a line it never stood on for _LONG samples: a spot fitted wrong (on a
                # ramp's or a ringing's samples), whose residual grows with the press (real
                # 1013, 217.4 s; ring-light 1016, 223.9 s; independent 1034, 216.8 s: "fell 1"
                # once the press tipped it over the threshold). Fitted again from here.
                self._refit()
                return False
            if self._low >= _HOLD:
                self.maybe = True
            # A stick near the hand's spot: its residual steps off a line that held, and holds
            # still while the hand presses on. (A spot fitted wrong never held; a stick placed
            # rests a few mm from where the hand pressed it once the hand has let go.)
            # (Held _QUICK samples where the residual's noise x _NOISE_X is under _MAYBE_MM: one
            # over it then stands well clear of that noise. Not on noisy cells, where a residual
            # wanders that far for _QUICK samples: noisy 1017, 505.9 s; 1035, 105.2 s, "fell 1".)
            long = _QUICK if self._noise16 * _NOISE_X <= self._maybe * 16 else _LONG
            if self._low >= long and self._pressed >= long and self._from >= _HOLD:
                return self._stands(dt, r)
        elif self._onl or r > self._maybe:
            self._low = 0  # (one sample back within _MAYBE_MM is the residual's noise)
        self._onl = self._onl + 1 if r <= self._maybe else 0
        if r > self._off or ra > self._off:
            # A stick gone stays gone: the residual holds still within its own noise, or its
            # average over a period of the ringing stands off the line and holds (the plate
            # rings as the stick leaves, and what the filter leaves of that jitters the moments
            # from sample to sample by as much as a stick near the hand). A glitch or a knock's
            # swing jumps about from sample to sample around zero; the centre of pressure
            # running out to the footprint's edge before a topple keeps moving one way,
            # average and all.
            still = moved <= self._off or (
                settled * 2 <= self._off and abs(self._sx) + abs(self._sy) > self._off
            )
            self._run = self._run + 1 if still else 0
            if self._run == 1:
                self._r1 = r
            hold = _HOLD
            if ra > self._off:
                hold = _AHOLD
            elif r > 2 * self._off and abs(r - self._r1) * 4 <= self._off:
                hold = _HOLD - 1
            return self._run >= hold and self._stands(dt, r)
        self._run = 0
        if r and not self._low:  # (a residual held off the line is no noise)
            self._learn_noise(r)
        if dt >= self._fit_t and r * _LEARN_X <= self._off:  # on the line: learn the spot
            self._learn(dt, dx, dy)
        return False

    def _refit(self):
        """The hand's spot fitted again from the next sample (the origin kept; rebase moves it)."""
        self._sxx = 0  # decayed sums of dt*dt, dt*dx, dt*dy (the hand's spot)
        self._sxy = 0
        self._syy = 0
        self._fitted = 0  # samples in the fit
        self._trusted = False  # the spot's first fit is done
        self._odd = 0  # samples in a row left out of the fit as far off the spot so far
        self._swing = 0  # the first fit's samples' residuals off the fit so far, summed
        self._low = 0  # samples in a row off the line by more than _MAYBE_MM, holding still
        self._run = 0
        self._onl = 0  # samples in a row within _MAYBE_MM of the trusted line
        self._from = 0  # ... before the residual last stood off it by more
        self._cont = False  # the sample before was judged (no wait): its residual is _rx, _ry
        self._d0 = 0  # the load (g x2) and residual of the trusted line's first judged sample
        self._r0 = 0
        self._fresh = True  # ... and no judged sample since lay within _off / _LEARN_X of it

    def _stands(self, dt, r):
        # A residual judged a stick gone (dt, r: this sample's load and residual) stands, unless
        # it was off the line from its first judged sample on and has since grown with the load,
        # up by a sixteenth or more: nearer that sample's residual scaled by the load than that
        # residual itself. A spot fitted on a press's ramp or ringing (the cells, read at
        # slightly different moments, swing ~100 g x mm from sample to sample) leaves a residual
        # in proportion to the press (real 1013, 217.4 s: 76 -> 99 g x mm as the load went
        # 44 -> 50 g; real 1016, 223.8 s: 112 -> 213 at 118 -> 143 g; independent 1039, 111.8 s:
        # 310 -> 392 at 138 -> 162 g; noisy 1075, 92.6 s: 143 -> 198 at 88 -> 96 g, up 9 %;
        # each "fell 1"): there the spot is fitted again, on the press as it is now. A stick
        # gone leaves the same residual at any load. Only where the first fit's samples swung
        # about it (their residuals off the fit so far averaged 4/5 of the threshold; 150-210
        # g x mm there): a stick leaving during the fit as the hand presses harder leaves
        # residuals that only grow (55-100 on average: overlap 1013, 135.0 s; 1047, 117.0 s;
        # noisy 1040, 228.8 s: told 200-400 ms late when fitted again).
        d0 = self._d0
        if (
            self._fresh
            and self._swing > 4 * self._off
            and d0 >= self._fit_t
            and dt * 16 >= d0 * 17
            and r * d0 * 2 >= self._r0 * (d0 + dt)
        ):
            self._refit()
            return False
        return True

    def _still_origin(self, dt, dx, dy):
        """Before the hand's line is fitted, a plate held still for _CALM samples is where the
        watch measures from (True once it is, then): the level an episode opens from may be off
        by a third of a stick (a stick weighed while its hand still pressed, left to the
        creep), and a line fitted through a wrong origin is tilted: its residual grows with the
        press, like a stick gone. (A hand holding still is on its own line anyway.)"""
        if (
            self._calm
            and abs(dt - self._kt) * 4 <= self._min_t
            and abs(dx - self._kx) + abs(dy - self._ky) <= self._off
        ):
            self._calm += 1
            self._ct += dt
            self._cx += dx
            self._cy += dy
            if self._calm < _CALM:
                return False
            n = self._calm
            self.rebase(
                self._ot + self._ct * 50 // n, self._ox + self._cx // n, self._oy + self._cy // n
            )
            self._pn = 0  # (the changes kept were measured from the old origin)
            return True
        self._calm = 1
        self._kt = self._ct = dt
        self._kx = self._cx = dx
        self._ky = self._cy = dy
        return False

    def _runs_on(self, span):
        """Is the residual judged run on too (_ahead)? Behind a slow plate's boxcar (`span`: the
        boxcar and the inverse filter's two taps); behind the fast one on a plate ringing 8
        samples a cycle or more, while the hand pressed on the sample before: once it has let
        go, a stick it placed just before a topple stands while the tower's centre of pressure
        runs out to the footprint's edge, the moments moving steadily one way, and run on that
        was told as the stick gone, the placement missed (independent 1084 at 241.7 s)."""
        if span - 2 > _SMOOTH:
            return True
        return span > 0 and self._pressed > 0 and runs_on(self._det)

    def _ahead(self, k, rx, ry, r, hx, hy, held):
        """The residual (rx, ry) run on by its change over the last k samples (half the
        boxcar), against the hand's spot (hx, hy) now; its size if it may be judged
        (see the header), else 0. `held`: it was taken on the sample before too."""
        j = (self._pi - k) & _PMASK
        bt = self._pt[j]
        gx = rx - (self._px[j] - hx * bt // 16)
        gy = ry - (self._py[j] - hy * bt // 16)
        ax = rx + gx
        ay = ry + gy
        moved = abs(ax - self._qx) + abs(ay - self._qy)
        self._took = True
        self._qx = ax
        self._qy = ay
        off = self._off
        det = self._det
        grew = (abs(gx) + abs(gy)) * _GROW_X >= off
        if det is None or not held or moved > off or r * 2 <= off or not grew:
            return 0
        nt = max(-_LIM_T, min(_LIM_T, (newest_load(det, 0) - det._wt - self._ot) // 50))
        nx = newest_load(det, 1) - det._mx - self._ox - hx * nt // 16
        ny = newest_load(det, 2) - det._my - self._oy - hy * nt // 16
        if 4 * (abs(nx) + abs(ny)) < 3 * off:
            return 0
        return abs(ax) + abs(ay)

    def _held_apart(self, dt, rx, ry, jump, span):
        """Before the spot is trusted (a light hand: the stick it places and its press stay
        under the fit's threshold most of the time, and a stick falling meanwhile takes its weight
        off again), a residual off the first samples' line that holds still while the hand's
        load changes by half again is a stick gone from elsewhere: a line fitted wrong leaves a
        residual that grows with the load. So is one beyond twice the threshold while the load
        is under the fit's, once over half the first fit's samples were checked against the line
        (a steady light hand). (The hand still presses: moments that shift with no
        load are a table leant on. A wild reading's pulse, averaged, holds still for `span`
        samples: none of them counts.)"""
        if jump:
            self._apart = -span
        if self._apart < 0:
            self._apart += 1
            return False
        if self._apart and abs(rx - self._ax) + abs(ry - self._ay) <= self._off // 2:
            self._apart += 1
            self._alo = min(self._alo, dt)
            self._ahi = max(self._ahi, dt)
        else:
            self._apart = 1
            self._ax = rx
            self._ay = ry
            self._alo = dt
            self._ahi = dt
        return (
            self._apart >= _HOLD
            and abs(self._ax) + abs(self._ay) > self._off
            and self._alo * 4 >= self._min_t
            and (
                self._ahi * 2 >= self._alo * 3
                or (
                    self._fitted > _FITTED // 2
                    and self._ahi < self._fit_t
                    and abs(self._ax) + abs(self._ay) > 2 * self._off
                )
            )
        )

    def _learn_first(self, dt, dx, dy, r):
        """The spot's first fit, until _FITTED samples. One far off the spot so far is left
        out: a wild value on one cell under the spike limit (a bit error of 8-18 g) passes the
        median and, in the fit, bends the line by mm, which a press of tens of grams turns into
        a stick's residual. Left out _HOLD times in a row, the first samples were the odd ones
        (a brisk press's ramp lies off the hand's final line: cells read at slightly different
        moments, the plate undershoots): the fit starts again."""
        if dt < self._fit_t:
            return
        if self._fitted >= _FIRST and r > self._off * 2:
            self._odd += 1
            if self._odd >= _HOLD:
                self._sxx = 0
                self._sxy = 0
                self._syy = 0
                self._fitted = 0
                self._odd = 0
                self._swing = 0
            return
        self._odd = 0
        if r:  # (one left out above is no noise either: an odd one, or the fit restarts)
            self._learn_noise(r)
            self._swing += r
        self._learn(dt, dx, dy)
        self._trusted = self._fitted >= _FITTED

    def _learn_noise(self, r):
        """The residual's own noise about the line (cells, hands, cells read at slightly
        different moments as a press ramps up, what the ringing filter leaves): averaged over
        the first samples seen, then over the last 2**5, so that the first press of a noisy
        board is judged against its noise, not against the threshold's minimum."""
        n = self._nn
        if n < 32:
            self._nn = n + 1
        self._noise16 += (min(r * 16, 2 * self._noise16) - self._noise16) // self._nn
        self._off = max(self._off_min, self._noise16 * _NOISE_X // 16)

    def _learn(self, dt, dx, dy):
        self._sxx += dt * dt - (self._sxx >> _DECAY)
        self._sxy += dt * dx - (self._sxy >> _DECAY)
        self._syy += dt * dy - (self._syy >> _DECAY)
        self._fitted += 1


def _guessed(det):
    """Did the Detector just take in a cell's missing reading repeated (detect.py _reading: its
    neighbours lie apart, in a fast swing, or the next is missing too)?"""
    if det is None:
        return False
    mi = det._mi
    j = (mi + 1) % 3
    gap = det._gap
    for i in range(det.ncells):
        k = 3 * i
        if gap[k + j] and (gap[k + (mi + 2) % 3] or not det._near(k, mi, i)):
            return True
    return False
