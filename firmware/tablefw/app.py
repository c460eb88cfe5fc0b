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
# Faults: board.faults is checked after every sample (so a fault is queued before the events
# sensed with it, and a paced board waits until the host has it) and by the ticker (a real
# board whose samples stopped coming). Each change is a `fault` event; while any part fails the
# rings blink the fault on their own, whatever the host last showed.
#
# The Board interface (board_rp2.RP2Board, board_esp32.ESP32Board, board_sim.SimBoard; nothing
# else touches hardware):
#   board.info               dict for the hello: "board" (id), "boot" (8 hex, random per start),
#                            "reset" (cause), "seats", "cells" [, "prev" (tablefw/keep.py)]
#   board.keep               None, or keep(s, a, mask) for the link (tablefw/keep.py)
#   board.config             dict of Detector arguments: counts_per_gram, cell_xy_mm, stick_g,
#                            rate_hz, zero_counts (may be None)
#   board.cal_file           where the calibration is stored (None: kept in RAM only)
#   board.save_config(config) -> None or why
#                            store a calibration (tablefw/calib.py); never called in play
#   board.read_sample(cells, accel) -> int
#                            never blocks, never allocates: fills cells (array "i", MISSING for a
#                            cell without a reading) and accel (array "i": ax, ay, az milli-g);
#                            returns the sample's t_ms >= 0, NO_SAMPLE if none is ready yet, or
#                            END when the sample source is finished (simulation only)
#   board.wait_sample()      awaitable: returns when a sample may be ready (may return early)
#   board.sample_done()      the last sample is fully processed (simulation: lockstep ack)
#   board.buttons() -> int   held seat buttons, bit i = seat i (no allocation): read per
#                            sample, and on a real board (not paced) between samples too
#   board.show(frame)        put a GRB frame (bytearray, 3 bytes per LED) on the LED chain
#   board.read_host(buf) -> int
#                            host bytes that are already there, into buf, never blocking:
#                            count read, 0 if none, -1 if the host stream is closed
#   board.wait_host()        awaitable: returns when host bytes may be there
#   board.write_host(data) -> bool   one whole frame to the host; False if it was not sent
#   board.faults -> int      bitmask of failing parts (FAULT_NAMES order); 0 when all are well;
#                            updated by read_sample (and, on a real board, while none come)
#   board.diagnostics -> dict  counters the raw notes carry for the doctor (may be empty)
#   board.paced -> bool      time is simulated and may wait for the host: the next sample is
#                            taken only while the host is connected and has acknowledged every
#                            event (as if it answered instantly); False on a real board
#   board.watchdog_feed()    prove the scheduler is alive (no-op without a watchdog); called
#                            by the ticker while the sampler is alive (its loop goes round, or
#                            it waits for the board), so a scheduler blocked for the board's
#                            watchdog timeout, or a sampler that died, resets the board
# Interrupt handlers, where a board has any, only set flags that these methods read.
#
# Calibration (commands cal, calq, tare) and the boot tare: tablefw/calibrator.py, which also
# makes the Detector from the calibration in use. Messages: tablefw/schema.py.

import array
import asyncio

from tablefw import rings, schema
from tablefw.board_base import END, NO_SAMPLE
from tablefw.buttons import Buttons
from tablefw.calibrator import Calibrator
from tablefw.clock import sleep_ms, ticks_ms
from tablefw.compat import const
from tablefw.intqueue import IntQueue
from tablefw.link import Link
from tablefw.reading import MISSING

FW_VERSION = "0.1.0"
_NFAULTS = const(2)  # len(schema.FAULT_NAMES)
_QUEUE = const(32)  # events waiting for the sender
_TICK_MS = const(50)  # ticker period: link timers, faults, watchdog
_RING_MS = const(20)  # ring redraw check period
_HOLD_MS = const(1)  # a paced board's check period while it waits for the host


class App:
    def __init__(self, board):
        self.board = board
        info = board.info
        self.seats = info["seats"]
        self.cells = array.array("i", [MISSING] * info["cells"])
        self.accel = array.array("i", [0, 0, 1000])
        self.cal = Calibrator(board, info["cells"])
        self._tare_wake = asyncio.Event()  # a new second for the boot tare to look at
        self.buttons = Buttons(self.seats)
        self.display = rings.Display(self.seats)
        self.frame = bytearray(self.seats * rings.LEDS_PER_RING * 3)
        self.t_ms = 0  # time of the last sample
        self.samples = 0
        self.streaming = False
        self._det_out = array.array("i", [0, 0, 0, 0])
        self._btn_out = array.array("i", [0, 0, 0])
        self._queue = IntQueue(_QUEUE)  # kind, t, a, b per event (schema.message)
        self._event = array.array("i", [0, 0, 0, 0])  # the sender's popped event
        self._faults = 0  # board.faults as last reported
        self._rounds = 0  # sampler loop rounds (mod 2**16): the watchdog is fed while they go on
        self._idle = False  # the sampler waits for the board's next sample, or has finished
        self._wake = asyncio.Event()
        commands = tuple(schema.COMMANDS)
        hello = {"fw": FW_VERSION, "cmds": sorted(commands)}  # (MicroPython dicts: no order)
        for key in ("board", "boot", "reset", "seats", "cells", "prev"):
            if key in info:
                hello[key] = info[key]
        self.link = Link(
            board.write_host,
            self.command,
            hello,
            commands=commands,
            keep=getattr(board, "keep", None),  # the link's state kept across a reset
        )

    # -- the sampling path: no allocation from here to the end of step() --------------------

    def step(self):
        """Process one sample if the board has one: returns its t_ms, NO_SAMPLE or END."""
        board = self.board
        t = board.read_sample(self.cells, self.accel)
        if t < 0:
            if t == NO_SAMPLE and not board.paced:
                # Real pins: read between samples too, so a short press is not lost while
                # the cells are silent (chips resetting, a read the machine stalled).
                self._take_buttons(ticks_ms())
            return t
        self.t_ms = t
        self.samples += 1
        cal = self.cal
        if cal.remember(t, self.cells, self.accel):
            self._tare_wake.set()  # a fresh second in the ring: the tare task looks at it
        if board.faults != self._faults:
            self.report_faults(t)
        det = cal.detector
        accel = self.accel
        if det.feed(t, self.cells, accel[0], accel[1], accel[2]):
            out = self._det_out
            while det.pop(out):
                self._queue.push(out[0], out[1], out[2], out[3])
        self._take_buttons(t)
        board.sample_done()
        return t

    def _take_buttons(self, t):
        buttons = self.buttons
        if buttons.update(t, self.board.buttons()):
            out = self._btn_out
            while buttons.pop(out):
                self._queue.push(schema.BUTTON, out[2], out[0], out[1])
        if self._queue.count:
            self._wake.set()

    # -- events to the host -----------------------------------------------------------------

    def send_events(self):
        """Hand every queued event to the link (allocates: runs per event, not per sample)."""
        link = self.link
        queue = self._queue
        if queue.lost:
            n = queue.lost
            queue.lost = 0
            link.event("gap", n=n, why="event queue full")
        ev = self._event
        while queue.pop(ev):
            msg = schema.message(ev[0], ev[1], ev[2], ev[3])
            link.event(msg.pop("k"), **msg)

    # -- host commands ------------------------------------------------------------------------

    def command(self, msg):
        """Run a host command for the link; None = done, a str = why it was refused."""
        kind = msg["k"]
        if kind == "show":
            return self.display.update(msg)
        if kind == "arm":
            sticks = msg.get("sticks")  # the tower's sticks after a reset mid-round (1.2)
            if sticks is not None and not _sticks_ok(sticks):
                return "sticks must be a list of at most 64 masses (g x10) or nulls"
            self.cal.arm(sticks)
            return None
        if kind == "stream":
            self.streaming = bool(msg.get("on"))
            return None
        if kind == "calq":
            self.link.event("cal", **self.cal.report())
            return None
        if kind == "cal":
            return self.cal.calibrate(msg)
        if kind == "tare":
            return self.cal.tare_now(bool(msg.get("save")))
        return "unknown command " + kind

    def _stream_raw(self, t):
        cells = [None if c == MISSING else c for c in self.cells]
        self.link.note("raw", t=t, lc=cells, a=list(self.accel), **self.board.diagnostics)

    # -- tasks --------------------------------------------------------------------------------

    def held(self):
        """A paced (simulated) board waits for a connected host that has acked every event."""
        link = self.link
        return self.board.paced and (self._queue.count or link.pending or not link.host_alive)

    async def sampler(self):
        board = self.board
        while True:
            self._rounds = (self._rounds + 1) & 0xFFFF
            if self.held():
                await sleep_ms(_HOLD_MS)
                continue
            t = self.step()
            if t == NO_SAMPLE:
                self._idle = True
                await board.wait_sample()
                self._idle = False
            elif t == END:
                self._idle = True
                return
            else:
                if self.streaming:
                    self._stream_raw(t)
                await sleep_ms(0)  # let the other tasks in between samples

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
                self.link.tick(ticks_ms())  # answer commands and pings at once
            else:
                await board.wait_host()

    async def render_rings(self):
        board = self.board
        display = self.display
        alarm = rings.Display(self.seats)  # what the rings show while a part of the board fails
        alarm.update({"mode": "fault"})
        frame = self.frame
        shown = bytearray(len(frame))
        key = -1
        while True:
            now = ticks_ms()
            faulty = 1 if self._faults else 0
            showing = alarm if faulty else display
            k = (display.version * 2 + rings.phase(showing, now)) * 2 + faulty
            if k != key:
                key = k
                rings.render(showing, now, frame)
                if frame != shown:
                    shown[:] = frame
                    board.show(frame)
            await sleep_ms(_RING_MS)

    def report_faults(self, t):
        """Queue a `fault` event (at board time t) for each part whose state changed since the
        last call. No allocation: runs in the sampling path."""
        faults = self.board.faults
        changed = faults ^ self._faults
        if changed:
            self._faults = faults
            for bit in range(_NFAULTS):
                mask = 1 << bit
                if changed & mask:
                    self._queue.push(schema.FAULT, t, bit, 0 if faults & mask else 1)
            self._wake.set()

    async def tare_task(self):
        # Runs as soon as the sampler has filled the ring with a new second (before the next
        # sample: the sampler yields between samples), until the boot tare is done.
        while self.cal.looking:
            await self._tare_wake.wait()
            self._tare_wake.clear()
            self.cal.boot_tare()

    async def ticker(self):
        rounds = -1
        while True:
            self.link.tick(ticks_ms())
            self.report_faults(self.t_ms)  # samples stopped: noticed after the last one
            if self._idle or self._rounds != rounds:
                rounds = self._rounds
                self.board.watchdog_feed()
            await sleep_ms(_TICK_MS)

    async def run(self):
        """Say hello, then run every task; returns when the host stream closes."""
        self.link.tick(ticks_ms())
        self.link.hello()
        asyncio.create_task(self.sampler())
        asyncio.create_task(self.sender())
        asyncio.create_task(self.render_rings())
        asyncio.create_task(self.ticker())
        asyncio.create_task(self.tare_task())
        await self.receive()


def _sticks_ok(sticks):
    if not isinstance(sticks, list) or len(sticks) > 64:
        return False
    for g in sticks:
        if g is not None and not (isinstance(g, int) and 0 < g < 100000):
            return False
    return True


def main(board):
    """Run the app on `board` until the host stream closes."""
    asyncio.run(App(board).run())
