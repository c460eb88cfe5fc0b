# A tiny board for link tests, run under MicroPython with the real tablefw.link: stdin/stdout are
# a pty master (made non-blocking by the test, so readinto returns what is there). Commands from
# the test arrive as link commands: emit (queue n events), noise (write junk to the wire),
# reboot (exit 3: the test restarts it with a new boot id), hang (stop for ms), plus the
# ordinary show/arm/stream. Events carry "i", a running index, so tests can check each arrives
# exactly once and in order. emit and reboot may name the boot they are for: the host resends
# a command the old boot ran but whose answer was lost to the next boot (at-least-once across a
# reboot, right for show), and a second emit would make more events than the test asked for.
import select
import sys
import time

from tablefw.link import Link

boot = sys.argv[1] if len(sys.argv) > 1 else "0badb007"
size = int(sys.argv[2]) if len(sys.argv) > 2 else 64
first_i = int(sys.argv[3]) if len(sys.argv) > 3 else 0
out = sys.stdout.buffer
state = {"todo": 0, "i": first_i, "show": None, "exit": None, "hang": 0, "rate": 0, "stamp": 0}

NOISE = (
    b"MicroPython v1.29.0 on 2026-01-01; fake board\r\n>>> \n",
    b'Traceback (most recent call last):\n  File "main.py", line 1\nOSError: [Errno 5] EIO\n',
    b'~{"k":"fell","s":1,"n":3}*00000000\n',  # wrong CRC
    b'~{"k":"fell","s":',  # half a frame, the line continues with garbage
    b"\x00\xff\xfe~~~***\n",
    b"~{" + b"x" * 700 + b"}*12345678\n",  # oversized
    b"\n\r\n",
)


def write(frame):
    try:
        n = out.write(frame)
    except OSError:
        return False  # host side closed or full: the link resends events later
    return n == len(frame)


def handler(msg):
    kind = msg["k"]
    if msg.get("boot", boot) != boot:
        return None  # meant for an earlier boot: a resend after a reboot (acked, not run)
    if kind == "emit" and msg.get("now"):
        for _ in range(msg.get("n", 1)):  # all at once: what does not fit is lost (a gap)
            link.event("fell", t=time.ticks_ms(), n=1, i=state["i"])
            state["i"] += 1
    elif kind == "emit":
        state["todo"] += msg.get("n", 1)
        state["rate"] = msg.get("rate", 0)  # events/s; 0: as fast as the buffer allows
        state["stamp"] = msg.get("stamp", 0)  # add "w": wall clock us (latency figures)
    elif kind == "show":
        state["show"] = msg
    elif kind == "noise":
        for junk in NOISE:
            write(junk)
    elif kind == "reboot":
        state["exit"] = 3
    elif kind == "hang":
        state["hang"] = msg.get("ms", 2500)
    elif kind == "fail":
        return "cannot do that"
    elif kind == "arm":
        pass
    return None


info = {"fw": "0.1.0", "board": "fake", "boot": boot, "reset": "test", "seats": 4, "cells": 4}
if len(sys.argv) > 4:  # what an RP2040 keeps in watchdog scratch registers across a reset
    prev_boot, prev_seq = sys.argv[4].split(":")
    info["prev"] = [prev_boot, int(prev_seq)]
commands = ("show", "arm", "stream", "emit", "noise", "reboot", "hang", "fail")
link = Link(write, handler, info, size=size, commands=commands)
link.tick(time.ticks_ms())
link.hello()
poller = select.poll()
poller.register(sys.stdin, select.POLLIN)
buf = bytearray(4096)
view = memoryview(buf)
credit = 0
last = time.ticks_ms()


def step():
    global credit, last
    for _obj, ev in poller.poll(2):
        if ev & select.POLLIN:
            try:
                n = sys.stdin.buffer.readinto(buf)
            except OSError:
                n = 0
            if n:
                link.feed(view[:n])
        else:
            time.sleep_ms(10)  # no host on the other end (POLLHUP)
    now = time.ticks_ms()
    link.tick(now)
    if state["rate"]:
        credit = min(credit + time.ticks_diff(now, last) * state["rate"] / 1000, 64)
    last = now
    while state["todo"] and link.pending < size and (credit >= 1 or not state["rate"]):
        state["todo"] -= 1
        if state["rate"]:
            credit -= 1
        if state["stamp"]:
            link.event("fell", t=now, n=1, i=state["i"], w=time.time_ns() // 1000)
        else:
            link.event("fell", t=now, n=1, i=state["i"])
        state["i"] += 1
    if state["hang"]:
        time.sleep_ms(state["hang"])
        state["hang"] = 0


try:
    while state["exit"] is None:
        step()
except KeyboardInterrupt:  # the test is done with us (SIGINT): say how it went
    state["exit"] = 0
link.tick(time.ticks_ms())
sys.stderr.write("stats " + repr(link.stats()) + "\n")
sys.stderr.write("generated " + str(state["i"] - first_i) + "\n")
sys.exit(state["exit"])
