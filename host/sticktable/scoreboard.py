"""The room scoreboard: the table's display on a NeoPixel strip (or matrix) driven by the host.

    --scoreboard neopixel:PIN,COUNT   COUNT NeoPixels on the Pi's GPIO PIN (BCM number), through
                                      Blinka and adafruit-circuitpython-neopixel
    --scoreboard sim[:COUNT]          the same pixels drawn in the terminal

It draws with the firmware's own ring code (tablefw.rings, not a second renderer): each seat gets
COUNT // seats LEDs where the board gives it a 12-LED ring, in the same colours and animations
(score, whose turn, topple flash, winners, fault blink). The frame is capped for the power the
strip may draw: the LED supply of the pin map's `pi` profile, less what the table's own rings
may take, a margin and every pixel's quiescent current (`sum_cap`).

A Scoreboard is an output of the table: it takes each display the table shows (`show`, the
`show` command's fields) and redraws on its own thread, so a slow strip never holds up sensing
or journaling; blinking modes are redrawn as their phase changes.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from sticktable.errors import UserError

PIXEL_IDLE_MA = 1.0  # WS2812B quiescent current, LEDs off (datasheet: ~0.5-1 mA)
SUPPLY_MARGIN = 0.9  # of the supply's rating, the rest left for cable drop and tolerance
FRAME_S = 0.02  # redraw check period (the rings' _RING_MS)


def firmware_rings():
    """tablefw.rings and the Pi's pin module, under CPython."""
    from tablefw import pins_pi, rings

    return rings, pins_pi


def sum_cap(count: int, supply_ma: float, rings_ma: float) -> int:
    """The most the `count` pixels' channel levels may add up to on a `supply_ma` supply that
    also feeds `rings_ma` (the table's rings at their cap): the firmware's SUM_CAP rule."""
    rings, _ = firmware_rings()
    budget = supply_ma * SUPPLY_MARGIN - rings_ma - count * PIXEL_IDLE_MA
    if budget <= 0:
        raise UserError(f"a {supply_ma:g} mA supply cannot light {count} more pixels")
    return min(int(budget * 255 // rings.MA_PER_CHANNEL), 3 * 255 * count)


def pi_sum_cap(count: int) -> int:
    """sum_cap on the LED supply of the pin map's `pi` profile, shared with the table's rings."""
    rings, pins = firmware_rings()
    ring_leds = pins.SEATS * pins.LEDS_PER_RING
    rings_ma = rings.LED_BUDGET_MA + ring_leds * PIXEL_IDLE_MA
    return sum_cap(count, pins.LEDS_SUPPLY_MA, rings_ma)


@dataclasses.dataclass(frozen=True)
class Spec:
    """What --scoreboard asked for: kind "neopixel" (pin, count) or "sim" (count)."""

    kind: str
    count: int
    pin: int | None = None


def parse_spec(text: str) -> Spec:
    kind, _, rest = text.partition(":")
    try:
        if kind == "neopixel":
            pin, count = (int(v) for v in rest.split(","))
            spec = Spec("neopixel", count, pin)
        elif kind == "sim":
            spec = Spec("sim", int(rest) if rest else 0)
        else:
            raise ValueError
    except ValueError:
        raise UserError(
            f"--scoreboard {text}: use neopixel:PIN,COUNT (e.g. neopixel:18,60) or sim[:COUNT]"
        ) from None
    if kind == "neopixel" and (spec.count < 1 or not 0 <= spec.pin <= 27):
        raise UserError(f"--scoreboard {text}: PIN is a BCM GPIO 0-27, COUNT at least 1")
    return spec


class NeoPixelStrip:
    """COUNT NeoPixels on a GPIO of the Pi, through Blinka and the CircuitPython library."""

    def __init__(self, pin: int, count: int):
        try:
            import board
            import neopixel

            self._pixels = neopixel.NeoPixel(
                getattr(board, f"D{pin}"),
                count,
                brightness=1.0,  # the frame is already at the rings' levels and capped
                auto_write=False,
                pixel_order=neopixel.GRB,
            )
        except (ImportError, NotImplementedError, RuntimeError, AttributeError, OSError) as err:
            raise UserError(f"no NeoPixel scoreboard on GPIO{pin}: {err}") from None

    def write(self, frame: bytes) -> None:
        """Show a GRB frame (3 bytes per pixel, as tablefw.rings draws it)."""
        self._pixels[:] = [(frame[i + 1], frame[i], frame[i + 2]) for i in range(0, len(frame), 3)]
        self._pixels.show()

    def close(self) -> None:
        self._pixels.fill((0, 0, 0))
        self._pixels.show()
        self._pixels.deinit()


class TerminalStrip:
    """The strip drawn in the terminal, one line per new frame: coloured dots on a terminal,
    letters (rings_view's) otherwise. A blinking display prints each of its two frames once."""

    def __init__(
        self,
        players: list[str],
        out: TextIO | None = None,
        say: Callable[[str], None] | None = None,
    ):
        """`say` writes one line: the terminal's (so a frame never lands inside another
        thread's line); by default a plain write to `out`."""
        self.players = players
        self.out = out or sys.stdout
        self.say = say or self._write
        self._recent: list[bytes] = []

    def write(self, frame: bytes) -> None:
        if frame in self._recent:
            return
        self._recent = [*self._recent[-1:], bytes(frame)]
        per_seat = len(frame) // 3 // max(1, len(self.players))
        seats = []
        for seat, name in enumerate(self.players):
            leds = frame[seat * per_seat * 3 : (seat + 1) * per_seat * 3]
            seats.append(
                f"{name} " + "".join(self._led(leds[i : i + 3]) for i in range(0, len(leds), 3))
            )
        self.say("     scoreboard " + "  ".join(seats))

    def _write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def _led(self, grb: bytes) -> str:
        from sticktable.rings_view import OFF, led_char

        g, r, b = grb
        if not self.out.isatty():
            return led_char(g, r, b)
        top = max(r, g, b)
        if top < 3:
            return OFF
        # Screen colours are the LED's hue at full brightness: level 40 of 255 is near black.
        r, g, b = (v * 255 // top for v in (r, g, b))
        return f"\x1b[38;2;{r};{g};{b}m●\x1b[0m"

    def close(self) -> None:
        pass


class Scoreboard:
    """The display on `count` pixels (`strip.write(frame)` puts a GRB frame on them)."""

    def __init__(
        self,
        seats: int,
        count: int,
        strip,
        limit: int,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.rings, _ = firmware_rings()
        self.seats = seats
        self.per_seat = max(1, count // seats)
        self.limit = limit
        self.frame = bytearray(3 * count)
        self.display = self.rings.Display(seats)
        self.strip = strip
        self._clock = clock
        self._lock = threading.Lock()
        self._changed = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: Exception | None = None  # what stopped the strip, if anything

    def show(self, **fields) -> str | None:
        """Take a display (the `show` command's fields); None, or why it was refused."""
        with self._lock:
            why = self.display.update(fields)
        self._changed.set()
        return why

    def tap(self, send: Callable[..., object]) -> Callable[..., object]:
        """`send` (the link's) that also hands every `show` to the scoreboard."""

        def send_and_show(kind: str, **fields):
            if kind == "show":
                self.show(**fields)
            return send(kind, **fields)

        return send_and_show

    def draw(self, t_ms: int) -> bytes:
        """Render the display at t_ms and put it on the strip; returns the frame."""
        with self._lock:
            self.rings.render(self.display, t_ms, self.frame, self.per_seat, self.limit)
            frame = bytes(self.frame)
        self.strip.write(frame)
        return frame

    # -- the drawing thread -------------------------------------------------------------------

    def start(self) -> Scoreboard:
        self._thread = threading.Thread(target=self._run, name="scoreboard", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        key = None
        try:
            while True:
                stopping = self._stop.is_set()  # one last pass: the display shown before close
                t_ms = int(self._clock() * 1000)
                with self._lock:
                    now = (self.display.version, self.rings.phase(self.display, t_ms))
                if now != key:
                    key = now
                    self.draw(t_ms)
                if stopping:
                    break
                self._changed.wait(FRAME_S)
                self._changed.clear()
        except Exception as err:  # noqa: BLE001 - a broken strip must not stop the table
            self.error = err

    def close(self) -> None:
        self._stop.set()
        self._changed.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.strip.close()


def add_scoreboard_option(parser) -> None:
    parser.add_argument(
        "--scoreboard",
        metavar="neopixel:PIN,COUNT|sim",
        help="also show the game on a room scoreboard: COUNT NeoPixels on the Pi's GPIO PIN "
        "(BCM), or `sim` to draw it in the terminal",
    )


def open_scoreboard(
    text: str, players: list[str], say: Callable[[str], None] | None = None
) -> Scoreboard:
    """The scoreboard --scoreboard asks for, started; UserError if it cannot be had.
    `say` writes the simulated strip's lines (the terminal's, shared with the game's)."""
    spec = parse_spec(text)
    seats = len(players)
    if spec.kind == "sim":
        _, pins = firmware_rings()
        count = spec.count or seats * pins.LEDS_PER_RING
        return Scoreboard(seats, count, TerminalStrip(players, say=say), pi_sum_cap(count)).start()
    strip = NeoPixelStrip(spec.pin, spec.count)
    return Scoreboard(seats, spec.count, strip, pi_sum_cap(spec.count)).start()
