# Runs the firmware Detector over a sensor trace under MicroPython and prints its events as JSON
# lines (same keys as `sticktable detect`).  Usage:
#   micropython mp_detect.py TRACE.csv [--lock] [--cost]
# --lock: every feed() and pop() runs under micropython.heap_lock(): any allocation raises.
# --cost: print "cost_us_per_sample N" at the end (feed() time only, ticks_us).
import json
import sys
import time
from array import array

import micropython

from tablefw.detect import FELL, KIND_NAMES, MISSING, PLACED, TOUCH, Detector


def event_line(out):
    kind = out[0]
    parts = ['{"t_ms": ' + str(out[1]) + ', "kind": "' + KIND_NAMES[kind] + '"']
    if kind == FELL:
        parts.append(', "count": ' + str(out[2]))
    if kind == PLACED or kind == FELL or kind == TOUCH:
        g = out[3]
        sign = "-" if g < 0 else ""
        g = abs(g)
        parts.append(', "grams": ' + sign + str(g // 10) + "." + str(g % 10))
    parts.append("}")
    return "".join(parts)


def main():
    path = sys.argv[1]
    lock = "--lock" in sys.argv
    cost = "--cost" in sys.argv
    f = open(path)
    meta = json.loads(f.readline()[len("# sticktrace 1 ") :])
    f.readline()
    n = meta["cells"]
    det = Detector(
        meta["counts_per_gram"],
        meta["cell_xy_mm"],
        meta["stick_g"],
        meta.get("rate_hz", 80),
        meta.get("zero_counts"),
    )
    cells = array("i", [0] * n)
    out = array("i", [0, 0, 0, 0])
    acc = [0, 0, 1000]
    total_us = 0
    samples = 0
    for line in f:
        fields = line.rstrip("\r\n").split(",")
        t = int(fields[0])
        for i in range(n):
            v = fields[1 + i]
            cells[i] = int(v) if v else MISSING
        for k in range(3):
            v = fields[1 + n + k]
            if v:
                acc[k] = int(v)
        ax, ay, az = acc
        t0 = time.ticks_us()
        if lock:
            micropython.heap_lock()
        waiting = det.feed(t, cells, ax, ay, az)
        if lock:
            micropython.heap_unlock()
        total_us += time.ticks_diff(time.ticks_us(), t0)
        samples += 1
        while waiting:
            if lock:
                micropython.heap_lock()
            got = det.pop(out)
            if lock:
                micropython.heap_unlock()
            if not got:
                break
            print(event_line(out))
    if cost and samples:
        hundredths = total_us * 100 // samples
        print("cost_us_per_sample " + str(hundredths / 100))


main()
