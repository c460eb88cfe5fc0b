# The score rings: one 12-LED NeoPixel ring per seat, chained, rendered into a GRB frame.
#
# Pure: `Display` holds what the host asked to show (the `show` command, contract "Ring display"),
# `render(display, t_ms, frame)` writes the whole chain into a preallocated bytearray of
# 3 bytes per LED in NeoPixel order (G, R, B). No allocation while rendering.
#
#   idle    every LED dim white
#   play    each seat: score LEDs (score * 12 / scale, rounded up; scale 0 = one LED per point)
#           in blue; the turn seat gets a bright white head LED just past its score; a seat's
#           mark lights its last LED yellow; seats without a score stay dark
#   paused  play, dimmed, no head
#   topple  every ring flashes red (4 Hz), the play display in between
#   over    winners' rings full green, the others' scores dim
#   fault   every ring blinks amber (1 Hz)
#
# Power budget: a WS2812 draws up to ~20 mA per colour channel at level 255 (~60 mA at full
# white). The table runs from a 500 mA USB port, of which the LEDs may take LED_BUDGET_MA; the
# frame is scaled down so the sum of all channel levels stays under SUM_CAP.
#
# The host's room scoreboard (host/sticktable/scoreboard.py) draws with this same code: a strip
# of `per_seat` LEDs per seat instead of a ring, capped (`limit`) for its own supply.

from tablefw.compat import const

LEDS_PER_RING = const(12)
MA_PER_CHANNEL = const(20)  # mA of one channel at level 255
LED_BUDGET_MA = const(300)  # the Pico, 4 HX711s and the accelerometer keep the rest of 500 mA
SUM_CAP = const(3825)  # LED_BUDGET_MA * 255 // MA_PER_CHANNEL: total channel levels allowed

IDLE = const(0)
PLAY = const(1)
PAUSED = const(2)
TOPPLE = const(3)
OVER = const(4)
FAULT = const(5)
MODES = ("idle", "play", "paused", "topple", "over", "fault")

# Colours as G, R, B levels before the power cap.
_DIM = (4, 4, 4)
_SCORE = (0, 0, 40)
_SCORE_DIM = (0, 0, 10)
_HEAD = (90, 90, 90)
_MARK = (40, 40, 0)
_RED = (0, 140, 0)
_GREEN = (140, 0, 0)
_AMBER = (50, 140, 0)

TOPPLE_HALF_MS = const(125)
FAULT_HALF_MS = const(500)


class Display:
    """What the rings show, in preallocated fields; `update(msg)` takes a host `show` command."""

    def __init__(self, seats):
        self.seats = seats
        self.mode = IDLE
        self.scores = [0] * seats
        self.marks = [0] * seats
        self.win = [False] * seats
        self.scale = 1
        self.turn = -1
        self.version = 0  # +1 per accepted update, so a renderer knows when to redraw

    def update(self, msg):
        """Apply a `show` command (sc, scale, turn, mode, win, mk); returns None or why not."""
        mode = msg.get("mode", "play")
        if mode not in MODES:
            return "unknown mode %s" % mode
        scores = msg.get("sc", ())
        marks = msg.get("mk") or ()
        win = msg.get("win") or ()
        turn = msg.get("turn")
        scale = msg.get("scale", 1)
        if not isinstance(scale, int) or scale < 0:
            return "scale must be a whole number of points (0: one LED per point)"
        if len(scores) > self.seats or len(marks) > self.seats:
            return "more seats than the table has (%d)" % self.seats
        for value in scores:
            if not isinstance(value, int):
                return "scores must be integers"
        if turn is not None and not (isinstance(turn, int) and 0 <= turn < self.seats):
            return "turn must be a seat number or null"
        for seat in win:
            if not (isinstance(seat, int) and 0 <= seat < self.seats):
                return "win must list seat numbers"
        self.mode = MODES.index(mode)
        self.scale = scale or LEDS_PER_RING  # 0: one LED per point
        self.turn = -1 if turn is None else turn
        for seat in range(self.seats):
            self.scores[seat] = scores[seat] if seat < len(scores) else -1  # -1: nobody there
            self.marks[seat] = 1 if seat < len(marks) and marks[seat] else 0
            self.win[seat] = seat in win
        self.version += 1
        return None


def phase(display, t_ms):
    """Which step of its animation the display is in at t_ms (changes only when the frame does)."""
    if display.mode == TOPPLE:
        return (t_ms // TOPPLE_HALF_MS) & 1
    if display.mode == FAULT:
        return (t_ms // FAULT_HALF_MS) & 1
    return 0


def _fill(frame, first, count, colour):
    g, r, b = colour
    i = first * 3
    end = (first + count) * 3
    while i < end:
        frame[i] = g
        frame[i + 1] = r
        frame[i + 2] = b
        i += 3


def lit_count(score, scale, per_seat=LEDS_PER_RING):
    """LEDs lit for a score: rounded up so any point shows, a full ring at `scale` or more."""
    if score <= 0:
        return 0
    n = (score * per_seat + scale - 1) // scale
    return per_seat if n > per_seat else n


def _seat_play(display, seat, frame, head, dim, per_seat):
    first = seat * per_seat
    _fill(frame, first, per_seat, (0, 0, 0))
    score = display.scores[seat]
    if score < 0:
        return  # an empty seat stays dark
    n = lit_count(score, display.scale, per_seat)
    _fill(frame, first, n, _SCORE_DIM if dim else _SCORE)
    if display.marks[seat]:
        _fill(frame, first + per_seat - 1, 1, _MARK)
    if head and display.turn == seat:
        _fill(frame, first + (n if n < per_seat else per_seat - 1), 1, _HEAD)


def render(display, t_ms, frame, per_seat=LEDS_PER_RING, limit=0):
    """Draw the whole chain for `display` at time t_ms into `frame` (GRB bytes), power-capped:
    `per_seat` LEDs per seat (a ring), channel levels summing to at most `limit` (0: SUM_CAP)."""
    seats = len(frame) // (3 * per_seat)
    if seats > display.seats:
        seats = display.seats
    leds = seats * per_seat
    mode = display.mode
    flash = phase(display, t_ms) == 0
    if mode == IDLE:
        _fill(frame, 0, leds, _DIM)
    elif mode == FAULT:
        _fill(frame, 0, leds, _AMBER if flash else (0, 0, 0))
    elif mode == TOPPLE and flash:
        _fill(frame, 0, leds, _RED)
    elif mode == OVER:
        for seat in range(seats):
            if display.win[seat]:
                _fill(frame, seat * per_seat, per_seat, _GREEN)
            else:
                _seat_play(display, seat, frame, False, True, per_seat)
    else:
        for seat in range(seats):
            _seat_play(display, seat, frame, mode != PAUSED, mode == PAUSED, per_seat)
    cap(frame, limit)


def cap(frame, limit=0):
    """Scale the frame down so all channel levels sum to at most `limit` (0: SUM_CAP); returns
    the new sum."""
    if not limit:
        limit = SUM_CAP
    total = 0
    for level in frame:
        total += level
    if total <= limit:
        return total
    factor = limit * 256 // total  # < 256: every level shrinks
    total = 0
    for i in range(len(frame)):
        level = frame[i] * factor >> 8
        frame[i] = level
        total += level
    return total
