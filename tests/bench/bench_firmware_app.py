"""Firmware figures under MicroPython at the RP2040-sized heap (192K): RAM and per-sample cost.
The firmware runs as the board runs it, from .mpy files (compiling the whole app from its
sources needs more heap than a Pico has: sticktable.sim.runner.SOURCE_HEAP).

Prints: heap in use after the app (detector, link, rings, buffers) is built; the lowest free
heap seen while it processes a minute of virtual-tower samples; the cost of App.step per sample
on this machine (the RP2040 is roughly 20-50x slower); the simulated table's throughput through
the pipes and the pty with the real firmware.
Run: .venv/bin/python tests/bench/bench_firmware_app.py
"""

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from micropython_runner import compile_firmware, run_micropython  # noqa: E402

from sticktable.sim.runner import MISSING, RECORD, SimTable, pack_sample  # noqa: E402
from sticktable.sim.tower import VirtualTower  # noqa: E402

SECONDS = 60

SCRIPT = r"""
import asyncio, gc, json, sys, time, micropython
gc.collect()
start = gc.mem_alloc()
from tablefw.app import App, END
from tablefw.board_sim import SimBoard

board = SimBoard(open(sys.argv[1], "rb"), open("/dev/null", "wb"), open("/dev/null", "rb"),
                 open("/dev/null", "wb"), paced=False)
app = App(board)
gc.collect()
built = gc.mem_alloc()
low = [gc.mem_free()]

async def monitor():
    while True:
        free = gc.mem_free()
        if free < low[0]:
            low[0] = free
        await asyncio.sleep_ms(0)

async def whole_app():
    # Every task but the host receiver (no host here), until the samples end.
    app.link.hello()
    for task in (app.sender(), app.render_rings(), app.ticker(), monitor()):
        asyncio.create_task(task)
    await app.sampler()

t0 = time.ticks_ms()
asyncio.run(whole_app())
wall = time.ticks_diff(time.ticks_ms(), t0)
n = app.samples
gc.collect()
after = gc.mem_alloc()
# The sampler step alone, timed on the same data (re-read from the start).
board = SimBoard(open(sys.argv[1], "rb"), open("/dev/null", "wb"), open("/dev/null", "rb"),
                 open("/dev/null", "wb"), paced=False)
app = App(board)
busy = 0
while True:
    t0 = time.ticks_us()
    t = app.step()
    busy += time.ticks_diff(time.ticks_us(), t0)
    if t == END:
        break
    if app._queue.count:
        app.send_events()
print(json.dumps({"heap": gc.mem_alloc() + gc.mem_free(), "before_import": start,
                  "app_built": built, "lowest_free": low[0], "after_run": after,
                  "samples": n, "wall_ms": wall, "us_per_step": busy / n}))
"""


def main() -> None:
    tower = VirtualTower.create(seed=1)
    samples = list(tower.run(SECONDS * 1000))
    meta = tower.board.meta()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "samples.bin"
        with path.open("wb") as f:
            f.write((json.dumps(meta) + "\n").encode())
            for s in samples:
                f.write(pack_sample(s))
            f.write(RECORD.pack(0xFFFFFFFF, *([MISSING] * 4), 0, 0, 0, 0))
        script = Path(tmp) / "bench.py"
        script.write_text(SCRIPT)
        mpy = compile_firmware(Path(tmp) / "mpy")
        proc = run_micropython(script, str(path), heap="192K", extra_path=[mpy])
        if proc.returncode:
            raise SystemExit(proc.stdout.decode() + proc.stderr.decode())
        r = json.loads(proc.stdout.decode().splitlines()[-1])
    print(f"micropython -X heapsize=192K, the firmware as .mpy: heap {r['heap']} B")
    print(f"  in use before importing the app: {r['before_import']} B")
    print(f"  in use with the app built (detector, link, rings, buffers): {r['app_built']} B")
    print(
        f"  lowest free heap while the whole app ran {r['samples']} samples "
        f"({r['wall_ms']} ms): {r['lowest_free']} B; in use after it: {r['after_run']} B"
    )
    print(
        f"  App.step: {r['us_per_step']:.1f} us per sample on this machine "
        f"({100 * r['us_per_step'] / 12500:.2f} % of the 12.5 ms period)"
    )
    start = time.monotonic()
    with SimTable(iter(samples), meta, paced_by_host=False) as table:
        table.samples_done.wait(120)
        done = table.samples_sent
    wall = time.monotonic() - start
    print(
        f"SimTable speed=0: {done} samples in {wall:.2f} s = {done / wall:.0f} samples/s "
        f"({done / wall / 80:.0f}x real time)"
    )


if __name__ == "__main__":
    main()
