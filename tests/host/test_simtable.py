"""The simulated table end to end: the real firmware under MicroPython, a pty, pyserial."""

import threading
import time

import pytest
import serial

from sticktable.sim.runner import (
    ACCEL_FAILED,
    ACCEL_STUCK,
    RECORD,
    FirmwareDied,
    SimTable,
    hang_at,
    pack_sample,
    sensor_fault,
)
from sticktable.sim.tower import Sample
from tablefw import proto

META = {
    "rate_hz": 80,
    "cells": 4,
    "counts_per_gram": [2000.0, 2100.0, -1900.0, 2200.0],
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
    "stick_g": 8.0,
    "sticks": 36,
    "accel": "base-mg",
}
ZERO = (120000, -40000, 5000, 250000)
TIMEOUT = 10.0


def one_stick(n_empty=300, n_stick=300, press_at=None, press_len=0):
    """An empty, still tower, then one 8 g stick (2 g on each cell); a seat-1 press if asked."""
    t = 0
    for i in range(n_empty + n_stick):
        t += 12
        cells = ZERO
        if i >= n_empty:
            cells = tuple(
                z + round(2.0 * c) for z, c in zip(ZERO, META["counts_per_gram"], strict=True)
            )
        pressed = press_at is not None and press_at <= i < press_at + press_len
        yield Sample(t, cells, 2, -3, 1001, 0b10 if pressed else 0)


class Host:
    """The host's end of the link: pyserial on the pty, frames decoded with the shared codec.

    Like the daemon it acknowledges what it received and speaks at least every 0.3 s, so a
    board paced by its host keeps going (see tablefw/app.py, App.held).
    """

    def __init__(self, port):
        self.serial = serial.Serial(port, timeout=0.05)
        self.decoder = proto.Decoder()
        self.seen = []
        self.unread = []  # frames read after the one wait_for returned
        self.raw = b""
        self.seq = 0
        self.boot = None
        self.board_seq = 0  # highest board seq seen
        self.acked_at = 0.0
        self.acking = True  # False: keep speaking (heartbeats) but acknowledge nothing

    def send(self, kind, **fields):
        self.seq += 1
        self.serial.write(proto.encode({"k": kind, "s": self.seq, **fields}))

    def ack(self):
        if not self.acking:
            self.send("hb")
        elif self.boot is not None:
            self.send("ack", a=self.board_seq, b=self.boot)
        self.acked_at = time.monotonic()

    def wait_for(self, predicate, timeout=TIMEOUT):
        # Frames that came in the same read after the one a previous call waited for are
        # looked at first: a fast board may send the next event along with it.
        while self.unread:
            msg = self.unread.pop(0)
            if predicate(msg):
                return msg
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            data = self.serial.read(4096)
            self.raw += data
            found = None
            for msg in self.decoder.feed(data):
                self.seen.append(msg)
                if msg["k"] == "hello" and msg["boot"] != self.boot:
                    self.board_seq = 0  # a new boot numbers from 1 again: ack what it sent
                self.boot = msg.get("boot", self.boot)
                self.board_seq = max(self.board_seq, msg["s"])
                if found is None and predicate(msg):
                    found = msg
                elif found is not None:
                    self.unread.append(msg)
            if data or time.monotonic() - self.acked_at > 0.3:
                self.ack()
            if found is not None:
                return found
        raise AssertionError(f"no such frame within {timeout}s; saw {self.seen[-10:]}")

    def close(self):
        self.serial.close()


@pytest.fixture
def host_for():
    hosts = []

    def make(table):
        hosts.append(Host(table.port))
        return hosts[-1]

    yield make
    for h in hosts:
        h.close()


def test_startup_says_hello_over_the_pty(host_for):
    with SimTable(iter(()), META, seats=4) as table:
        host = host_for(table)
        hello = host.wait_for(lambda m: m["k"] == "hello")
        assert hello["proto"] == [1, 3] and hello["fw"] == "0.1.0"
        assert hello["board"].startswith("sim-") and len(hello["boot"]) == 8
        int(hello["boot"], 16)
        assert hello["seats"] == 4 and hello["cells"] == 4
        # Acknowledged (wait_for acks what arrives): the board stops resending its hello. A
        # hello sent just before the ack may still come: the first heartbeat follows the ack.
        host.wait_for(lambda m: m["k"] == "hb")
        with pytest.raises(AssertionError):
            host.wait_for(lambda m: m["k"] == "hello", timeout=1.0)
        # Split writes and a short frame: the firmware reads what is there, never waits for more.
        frame = proto.encode({"k": "ping", "s": host.seq + 1})
        host.serial.write(frame[:7])
        time.sleep(0.1)
        host.serial.write(frame[7:])
        again = host.wait_for(lambda m: m["k"] == "hello")
        assert again["boot"] == hello["boot"]  # a ping is answered with the hello
    assert b"Traceback" not in host.raw


def test_show_command_changes_the_led_frame(host_for):
    with SimTable(iter(()), META, seats=4) as table:
        host = host_for(table)
        host.wait_for(lambda m: m["k"] == "hello")
        end = time.monotonic() + TIMEOUT
        while table.leds is None and time.monotonic() < end:
            time.sleep(0.01)  # the first frame may trail the hello
        idle = table.leds
        assert idle is not None and len(idle) == 4 * 12 * 3
        host.send("show", id=7, sc=[3, 0, 11, 5], scale=11, turn=2, mode="play", win=[], mk=[])
        assert host.wait_for(lambda m: m["k"] in ("ack", "err"))["k"] == "ack"
        end = time.monotonic() + TIMEOUT
        while table.leds == idle and time.monotonic() < end:
            time.sleep(0.01)
        leds = table.leds
        assert leds != idle
        ring2 = leds[2 * 36 : 3 * 36]
        assert ring2[-3:] == bytes([ring2[-3]] * 3) and ring2[-3] > 0  # the turn's white head
        assert leds[36:72] == bytes(36)  # seat 1 scored nothing: dark
        host.send("show", id=8, mode="disco")
        err = host.wait_for(lambda m: m["k"] in ("ack", "err"))
        assert err["k"] == "err" and err["id"] == 8 and "disco" in err["why"]


def test_sample_stream_gives_events_on_the_serial_side(host_for):
    source = one_stick(press_at=100, press_len=8)
    with SimTable(source, META, seats=4) as table:
        host = host_for(table)
        placed = host.wait_for(lambda m: m["k"] == "placed")
        assert table.samples_done.wait(TIMEOUT)
        assert table.samples_sent == 600 and table.error is None
        assert abs(placed["g"] - 80) <= 5  # grams x10
        assert 300 * 12 <= placed["t"] <= 600 * 12
        button = next(m for m in host.seen if m["k"] == "button")
        assert button["seat"] == 1 and button["long"] is False
        assert table.alive  # the link outlives the samples


def test_firmware_that_dies_is_a_clear_error():
    broken = {k: v for k, v in META.items() if k != "counts_per_gram"}
    table = SimTable(one_stick(), broken)
    table.start()
    assert table.samples_done.wait(TIMEOUT)
    with pytest.raises(FirmwareDied) as died:
        table.close()
    message = str(died.value)
    assert "firmware stopped" in message and "counts_per_gram" in message  # why, in one line
    assert "\n" not in message and "Traceback" in died.value.stderr


def gated(first, rest, gate):
    """Samples `first`, then wait for `gate` (the test's go-ahead), then samples `rest`."""
    yield from first
    gate.wait(TIMEOUT)
    yield from rest


def test_arm_stream_and_unknown_commands(host_for):
    samples = list(one_stick(n_empty=200, n_stick=0))
    gate = threading.Event()
    with SimTable(gated(samples[:100], samples[100:], gate), META, seats=4) as table:
        host = host_for(table)
        host.wait_for(lambda m: m["k"] == "hello")

        def reply(cid):
            return host.wait_for(lambda m: m["k"] in ("ack", "err") and m.get("id") == cid)

        host.send("arm", id=1)
        assert reply(1)["k"] == "ack"
        end = time.monotonic() + TIMEOUT
        # The first 100 samples are processed before the stream starts (a paced board waits
        # for our acks, which wait_for sends while it reads).
        host.wait_for(lambda m: table.samples_sent >= 100 or time.monotonic() > end)
        host.send("stream", id=2, on=True)
        assert reply(2)["k"] == "ack"
        gate.set()
        raw = host.wait_for(lambda m: m["k"] == "raw")
        assert raw["lc"] == list(ZERO) and raw["a"] == [2, -3, 1001] and raw["t"] > 100 * 12
        assert table.samples_done.wait(TIMEOUT)
        host.send("stream", id=3, on=False)
        assert reply(3)["k"] == "ack"
        host.send("dance", id=4)
        err = reply(4)
        assert err["k"] == "err" and "dance" in err["why"]


def test_simulated_time_waits_for_the_host(host_for):
    with SimTable(one_stick(press_at=100, press_len=8), META, seats=4) as table:
        time.sleep(0.5)
        assert table.samples_sent == 0  # no host yet: the table does not play on its own
        host = host_for(table)
        host.acking = False
        button = host.wait_for(lambda m: m["k"] == "button")
        time.sleep(0.5)
        held_at = table.samples_sent
        assert held_at < 300  # held at the unacknowledged press, long before the stick
        host.acking = True
        host.wait_for(lambda m: m["k"] == "placed")
        assert table.samples_done.wait(TIMEOUT) and table.samples_sent == 600
        assert button["s"] + 1 == max(m["s"] for m in host.seen if m["k"] == "placed")


def test_free_run_needs_no_host():
    with SimTable(one_stick(), META, paced_by_host=False) as table:
        assert table.samples_done.wait(TIMEOUT)
        assert table.samples_sent == 600 and table.error is None


def test_a_failing_sample_source_is_not_silent():
    def broken():
        yield from one_stick(n_empty=10, n_stick=0)
        raise ValueError("tower script bug")

    table = SimTable(broken(), META, paced_by_host=False)
    table.start()
    assert table.samples_done.wait(TIMEOUT)
    with pytest.raises(ValueError, match="tower script bug"):
        table.close()
    assert table.samples_sent == 10


def test_the_watchdog_resets_a_hung_firmware(host_for):
    # A read that never returns at t=1200 ms: the firmware stops feeding its watchdog; the
    # table kills it and starts it again on the same pty, and the samples go on.
    with SimTable(hang_at(one_stick(), 1200), META, seats=4) as table:
        host = host_for(table)
        first = host.wait_for(lambda m: m["k"] == "hello")
        again = host.wait_for(lambda m: m["k"] == "hello" and m["boot"] != first["boot"])
        assert first["reset"] == "power-on" and again["reset"] == "watchdog"
        assert table.resets == 1 and table.watchdog_s == 2.0
        placed = host.wait_for(lambda m: m["k"] == "placed")
        assert placed["t"] > 300 * 12 and placed.get("b", again["boot"]) == again["boot"]
        assert table.samples_done.wait(TIMEOUT)
        assert table.samples_sent == 600 and table.error is None  # the hung one counts too
        assert table.alive and table.resets == 1
    assert b"Traceback" not in host.raw


def test_failure_markers_survive_packing():
    samples = [Sample(12 * i, ZERO, -40000, 5, 1000) for i in range(1, 6)]
    failing = list(sensor_fault(samples, 24, 48, cells=[3], accel=True))
    records = [RECORD.unpack(pack_sample(s)) for s in failing]
    assert [r[4] for r in records] == [ZERO[3], -(2**30), -(2**30), ZERO[3], ZERO[3]]
    assert [r[5] for r in records] == [-32766, ACCEL_FAILED, ACCEL_FAILED, -32766, -32766]
    stuck = RECORD.unpack(pack_sample(next(hang_at(samples, 0))))
    assert stuck[5] == ACCEL_STUCK


def test_the_rings_blink_a_fault_on_their_own(host_for):
    # No `show` from the host: the board itself blinks amber while a cell is silent.
    frames = []
    samples = sensor_fault(one_stick(n_empty=250, n_stick=0), 300, 2700, cells=[0])
    with SimTable(samples, META, seats=4, speed=1, on_frame=frames.append) as table:
        host = host_for(table)
        fault = host.wait_for(lambda m: m["k"] == "fault")
        assert (fault["what"], fault["ok"]) == ("cells", False)
        again = host.wait_for(lambda m: m["k"] == "fault")
        assert (again["what"], again["ok"]) == ("cells", True)
        assert table.samples_done.wait(TIMEOUT)
        time.sleep(0.1)  # the redraw after the fault
    idle = frames[0]
    assert idle == bytes([idle[0]]) * len(idle) and idle[0] > 0  # dim white: no show yet
    amber = [f for f in frames if f != idle and any(f)]
    assert amber and all(f == f[:3] * (len(f) // 3) and f[1] > f[0] > 0 == f[2] for f in amber)
    assert frames[-1] == idle  # back to what the host showed (nothing: idle)
