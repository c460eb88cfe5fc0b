"""The sampling path allocates nothing: App.step on the SimBoard under micropython.heap_lock().

The sample stream holds an empty tower, a stick placed on it, a short seat-button press and a
few failed accelerometer reads, so the locked steps cover the detector's event path, the button
path and the fault path, not just idle samples.
"""

import json
import struct

from micropython_runner import SOURCE_HEAP, compile_firmware

RECORD = struct.Struct("<I4i3hB")
META = {
    "rate_hz": 80,
    "cells": 4,
    "counts_per_gram": [2000.0, -2100.0, 1900.0, 2200.0],
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
    "stick_g": 8.0,
    "sticks": 36,
    "accel": "base-mg",
}
ZERO = [100000, -50000, 20000, 300000]
WARMUP = 200  # samples before the lock: first-call allocations (poll tuple, ...) happen here

SCRIPT = r"""
import json, sys, micropython
from tablefw.app import App, NO_SAMPLE, END
from tablefw.board_sim import SimBoard

board = SimBoard(open(sys.argv[1], "rb"), open(sys.argv[2], "wb"), open("/dev/null", "rb"),
                 open(sys.argv[3], "wb"))
app = App(board)
warmup = int(sys.argv[4])
for _ in range(warmup):
    app.step()


def locked_steps():
    # A function, not module level: a first store to a new global grows the module's dict.
    steps = 0
    micropython.heap_lock()
    try:
        while app.step() != END:
            steps += 1
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        # heap_lock nests: heap_unlock returns the depth left, and nothing (not even an
        # exception's message) can be allocated or printed until it is back to 0.
        depth = micropython.heap_unlock()
        while depth:
            depth = micropython.heap_unlock()
    return result, steps


result, steps = locked_steps()
app.send_events()  # the link encodes now, with the heap unlocked
print(json.dumps({"result": result, "steps": steps,
                  "samples": app.samples, "queued_after": app._queue.count}))
"""


def write_samples(path, n_empty=400, n_stick=300, press=range(500, 520)):
    stick_counts = [round(2.0 * c) for c in META["counts_per_gram"]]  # 2 g on each cell
    with open(path, "wb") as f:
        f.write((json.dumps(META) + "\n").encode())
        for i in range(n_empty + n_stick):
            cells = list(ZERO)
            if i >= n_empty:
                cells = [z + s for z, s in zip(cells, stick_counts, strict=True)]
            if i == 450:
                cells[2] = -(2**30)  # a missing reading
            buttons = 1 << 2 if i in press else 0
            ax = -32768 if 300 <= i < 304 else 3  # the accelerometer fails, then recovers
            f.write(RECORD.pack(12 * i + 12, *cells, ax, -4, 998, buttons))
        f.write(RECORD.pack(0xFFFFFFFF, 0, 0, 0, 0, 0, 0, 0, 0))


def run_locked(mp, tmp_path, heap, extra_path=None):
    """The sample stream through App.step, locked after WARMUP: (process, frames, host)."""
    samples = tmp_path / "samples.bin"
    write_samples(samples)
    frames, host = tmp_path / "frames.bin", tmp_path / "host.bin"
    script = tmp_path / "heap_script.py"
    script.write_text(SCRIPT)
    args = (str(samples), str(frames), str(host), str(WARMUP))
    return mp(script, *args, heap=heap, extra_path=extra_path), frames, host


def test_the_app_as_mpy_runs_in_a_picos_heap(mp, tmp_path):
    # A board loads the firmware as .mpy into MicroPython's ~190 KB on an RP2040: the whole
    # app is built and runs there (`make bench` measures it: tests/bench/bench_firmware_app.py).
    mpy = compile_firmware(tmp_path / "mpy")
    proc, frames, _ = run_locked(mp, tmp_path, "192K", [mpy])
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    assert json.loads(proc.stdout.decode().splitlines()[-1])["result"] == "ok"
    assert frames.read_bytes() == b"A" * 700


def test_sampler_step_allocates_nothing(mp, tmp_path):
    # SOURCE_HEAP: the whole app compiled from source fragments the board's heap (a
    # board loads .mpy files; tests/bench/bench_ram.py reports both budgets).
    proc, frames, host = run_locked(mp, tmp_path, SOURCE_HEAP)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    out = json.loads(proc.stdout.decode().splitlines()[-1])
    assert out["result"] == "ok", out
    assert out["steps"] == 700 - WARMUP and out["samples"] == 700
    assert frames.read_bytes() == b"A" * 700  # one lockstep ack per processed sample
    sent = host.read_bytes().decode()
    assert '"k":"placed"' in sent  # detected while locked, sent once unlocked
    assert '"k":"button"' in sent and '"seat":2' in sent and '"long":false' in sent
    assert sent.count('"k":"fault"') == 2 and '"what":"accel"' in sent
