# The table's application: one asyncio program, the same on the RP2040 board and the unix port.
#
# Tasks (one per concern, in the style of Peter Hinch's micropython-async):
#   sampler   each load-cell sample (HX711 rate, ~80/s): detector + seat buttons -> event queue.
#             Allocation-free per sample (see App.step); events wait in a preallocated int ring.
#   sender    event queue -> link events (JSON frames allocate, but only per event).
#   receive   host bytes -> link (acks, ping, commands: show -> rings, arm -> detector).
#   render_rings  redraws the LED frame when the display or its animation phase changes.
#   ticker    link timers (heartbeat, resends), fault reports, watchdog.
#
# The Board interface (board_rp2.RP2Board, board_sim.SimBoard; nothing else touches hardware):
#   board.info               dict for the hello: "board" (id), "boot" (8 hex, random per start),
#                            "reset" (cause), "seats", "cells"
#   board.config             dict of Detector arguments: counts_per_gram, cell_xy_mm, stick_g,
#                            rate_hz, zero_counts (may be None)
#   board.read_sample(cells, accel) -> int
#                            never blocks, never allocates: fills cells (array "i", MISSING for a
#                            cell without a reading) and accel (array "i": ax, ay, az milli-g);
#                            returns the sample's t_ms >= 0, NO_SAMPLE if none is ready yet, or
#                            END when the sample source is finished (simulation only)
#   board.wait_sample()      awaitable: returns when a sample may be ready (may return early)
#   board.sample_done()      the last sample is fully processed (simulation: lockstep ack)
#   board.buttons() -> int   held seat buttons, bit i = seat i (read per sample, no allocation)
#   board.show(frame)        put a GRB frame (bytearray, 3 bytes per LED) on the LED chain
#   board.read_host(buf) -> int
#                            host bytes that are already there, into buf, never blocking:
#                            count read, 0 if none, -1 if the host stream is closed
#   board.wait_host()        awaitable: returns when host bytes may be there
#   board.write_host(data) -> bool   one whole frame to the host; False if it was not sent
#   board.faults -> int      bitmask of failing parts (FAULT_NAMES order); 0 when all are well
#   board.paced -> bool      time is simulated and may wait for the host: the next sample is
#                            taken only while the host is connected and has acknowledged every
#                            event (as if it answered instantly); False on a real board
#   board.watchdog_feed()    prove the scheduler is alive (no-op without a watchdog)
# Interrupt handlers, where a board has any, only set flags that these methods read.

import array
import asyncio
import time

from micropython import const

from tablefw import rings
from tablefw.buttons import Buttons
from tablefw.detect import KIND_NAMES, MISSING, Detector
from tablefw.link import Link

FW_VERSION = "0.1.0"
NO_SAMPLE = const(-1)
END = const(-2)
FAULT_NAMES = ("cells", "accel")  # board.faults bit i

_BUTTON = const(100)  # queue kind of a seat press (detector kinds are small integers)
_QUEUE = const(32)  # events waiting for the sender
_TICK_MS = const(50)  # ticker period: link timers, faults, watchdog
_RING_MS = const(20)  # ring redraw check period
_HOLD_MS = const(1)  # a paced board's check period while it waits for the host


class App:
    def __init__(self, board, detector=None):
        self.board = board
        info = board.info
        self.seats = info["seats"]
        self.cells = array.array("i", [MISSING] * info["cells"])
        self.accel = array.array("i", [0, 0, 1000])
        if detector is None:
            config = board.config
            detector = Detector(
                config["counts_per_gram"],
                config["cell_xy_mm"],
                config["stick_g"],
                rate_hz=config.get("rate_hz", 80),
                zero_counts=config.get("zero_counts"),
            )
        self.detector = detector
        self.buttons = Buttons(self.seats)
        self.display = rings.Display(self.seats)
        self.frame = bytearray(self.seats * rings.LEDS_PER_RING * 3)
        self.t_ms = 0  # time of the last sample
        self.samples = 0
        self.streaming = False
        self._det_out = array.array("i", [0, 0, 0, 0])
        self._btn_out = array.array("i", [0, 0, 0])
        self._queue = array.array("i", [0] * (_QUEUE * 4))  # kind, t, a, b per event
        self._head = 0
        self._size = 0
        self._lost = 0
        self._faults = 0  # board.faults as last reported
        self._wake = asyncio.Event()
        hello = {"fw": FW_VERSION}
        for key in ("board", "boot", "reset", "seats", "cells"):
            hello[key] = info[key]
        self.link = Link(board.write_host, self.command, hello)

    # -- the sampling path: no allocation from here to the end of step() --------------------

    def step(self):
        """Process one sample if the board has one: returns its t_ms, NO_SAMPLE or END."""
        board = self.board
        t = board.read_sample(self.cells, self.accel)
        if t < 0:
            return t
        self.t_ms = t
        self.samples += 1
        det = self.detector
        accel = self.accel
        if det.feed(t, self.cells, accel[0], accel[1], accel[2]):
            out = self._det_out
            while det.pop(out):
                self._enqueue(out[0], out[1], out[2], out[3])
        buttons = self.buttons
        if buttons.update(t, board.buttons()):
            out = self._btn_out
            while buttons.pop(out):
                self._enqueue(_BUTTON, out[2], out[0], out[1])
        board.sample_done()
        return t

    def _enqueue(self, kind, t, a, b):
        if self._size == _QUEUE:
            self._lost += 1
        else:
            i = (self._head + self._size) % _QUEUE * 4
            q = self._queue
            q[i] = kind
            q[i + 1] = t
            q[i + 2] = a
            q[i + 3] = b
            self._size += 1
        self._wake.set()

    # -- events to the host -----------------------------------------------------------------

    def send_events(self):
        """Hand every queued event to the link (allocates: runs per event, not per sample)."""
        link = self.link
        if self._lost:
            n = self._lost
            self._lost = 0
            link.event("gap", n=n, why="event queue full")
        q = self._queue
        while self._size:
            i = self._head * 4
            kind, t, a, b = q[i], q[i + 1], q[i + 2], q[i + 3]
            self._head = (self._head + 1) % _QUEUE
            self._size -= 1
            if kind == _BUTTON:
                link.event("button", t=t, seat=a, long=bool(b))
                continue
            name = KIND_NAMES.get(kind, "kind%d" % kind)
            if name == "placed":
                link.event(name, t=t, g=b)
            elif name == "fell":
                link.event(name, t=t, n=a, g=b)
            else:
                link.event(name, t=t)

    # -- host commands ------------------------------------------------------------------------

    def command(self, msg):
        """Run a host command for the link; None = done, a str = why it was refused."""
        kind = msg["k"]
        if kind == "show":
            return self.display.update(msg)
        if kind == "arm":
            self.detector.arm()
            return None
        if kind == "stream":
            self.streaming = bool(msg.get("on"))
            return None
        return "unknown command " + kind

    def _stream_raw(self, t):
        cells = [None if c == MISSING else c for c in self.cells]
        self.link.note("raw", t=t, lc=cells, a=list(self.accel))

    # -- tasks --------------------------------------------------------------------------------

    def held(self):
        """A paced (simulated) board waits for a connected host that has acked every event."""
        link = self.link
        return self.board.paced and (self._size or link.pending or not link.host_alive)

    async def sampler(self):
        board = self.board
        while True:
            if self.held():
                await asyncio.sleep_ms(_HOLD_MS)
                continue
            t = self.step()
            if t == NO_SAMPLE:
                await board.wait_sample()
            elif t == END:
                return
            else:
                if self.streaming:
                    self._stream_raw(t)
                await asyncio.sleep_ms(0)  # let the other tasks in between samples

    async def sender(self):
        while True:
            await self._wake.wait()
            self._wake.clear()
            self.send_events()

    async def receive(self):
        board = self.board
        buf = bytearray(64)
        view = memoryview(buf)
        while True:
            n = board.read_host(buf)
            if n < 0:
                return  # the host stream is gone (simulation: the pty was closed)
            if n:
                self.link.feed(view[:n])
                self.link.tick(time.ticks_ms())  # answer commands and pings at once
            else:
                await board.wait_host()

    async def render_rings(self):
        board = self.board
        display = self.display
        frame = self.frame
        shown = bytearray(len(frame))
        key = -1
        while True:
            now = time.ticks_ms()
            k = display.version * 2 + rings.phase(display, now)
            if k != key:
                key = k
                rings.render(display, now, frame)
                if frame != shown:
                    shown[:] = frame
                    board.show(frame)
            await asyncio.sleep_ms(_RING_MS)

    def report_faults(self):
        """Send a `fault` event for each part whose state changed since the last call."""
        faults = self.board.faults
        changed = faults ^ self._faults
        if changed:
            self._faults = faults
            for bit in range(len(FAULT_NAMES)):
                mask = 1 << bit
                if changed & mask:
                    self.link.event("fault", what=FAULT_NAMES[bit], ok=not faults & mask)

    async def ticker(self):
        while True:
            self.link.tick(time.ticks_ms())
            self.report_faults()
            self.board.watchdog_feed()
            await asyncio.sleep_ms(_TICK_MS)

    async def run(self):
        """Say hello, then run every task; returns when the host stream closes."""
        self.link.tick(time.ticks_ms())
        self.link.hello()
        asyncio.create_task(self.sampler())
        asyncio.create_task(self.sender())
        asyncio.create_task(self.render_rings())
        asyncio.create_task(self.ticker())
        await self.receive()


def main(board):
    """Run the app on `board` until the host stream closes."""
    asyncio.run(App(board).run())
