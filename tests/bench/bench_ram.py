"""RAM footprint of the whole firmware on an RP2040-sized heap, over a whole simulated game.

Runs `sticktable run --sim` (virtual tower -> firmware under the MicroPython unix port -> pty
-> daemon -> rules -> journal) with the firmware started through a probe instead of
firmware/tablefw/unix_main.py directly. The probe wraps SimBoard.sample_done (called after every
sample) to run gc.collect() once per virtual second and record the live heap, then imports
tablefw.unix_main, which runs the app as usual. Prints:

- live heap: the highest gc.mem_alloc() right after a collection, in the board's 192 KB heap
  for .mpy files and the simulator's SOURCE_HEAP for the sources;
- smallest heap: the smallest -X heapsize (4 KB steps) in which the same game still runs to
  the end and is scored exactly as scripted (fragmentation and transient peaks included).

Run: .venv/bin/python tests/bench/bench_ram.py [--seed N] [--players A,B,C]
"""

import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from sticktable.sim.runner import SOURCE_HEAP, find_micropython

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from micropython_runner import compile_firmware  # noqa: E402

HEAP_KB = 192  # the RP2040's MicroPython heap is ~190 KB (field notes)

PROBE = r"""
import gc, sys
from tablefw import board_sim

peak = [0, 0, 0]  # live bytes after collect, samples seen, heap total
_done = board_sim.SimBoard.sample_done


def sample_done(self):
    peak[1] += 1
    if peak[1] % 80 == 0:  # once per virtual second at 80 samples/s
        gc.collect()
        used = gc.mem_alloc()
        if used > peak[0]:
            peak[0] = used
        # The runner ends the firmware with SIGTERM after the game: report as we go.
        sys.stderr.write("RAMPROBE %d %d %d\n" % (peak[0], peak[1], peak[2]))
    return _done(self)


board_sim.SimBoard.sample_done = sample_done
sys.argv[:] = ["unix_main.py"] + sys.argv[1:]  # sys.argv itself is read-only
gc.collect()
peak[2] = gc.mem_alloc() + gc.mem_free()
from tablefw import unix_main  # noqa: E402,F401 - runs the app until the runner stops it
"""

# Stands in for the micropython command: same interpreter, the probe instead of unix_main.py,
# and the heap size under test. The runner calls: -X heapsize=... .../unix_main.py ARGS...
WRAPPER = """#!/bin/sh
shift 3
{path}exec {micropython} -X heapsize={heap}K {probe} "$@" 2>>{log}
"""


def run_game(
    heap_kb: int, seed: int, players: str, work: Path, mpy: Path | None = None
) -> tuple[bool, dict | None]:
    """One whole simulated game with the firmware in a `heap_kb` heap: (scored right, probe).
    With `mpy`, the firmware package is imported from that directory of .mpy files."""
    probe, log, wrapper = work / "probe.py", work / f"stderr-{heap_kb}.txt", work / "mp"
    probe.write_text(PROBE)
    log.write_text("")
    path = f'MICROPYPATH="{mpy}:$MICROPYPATH" ' if mpy else ""
    wrapper.write_text(
        WRAPPER.format(
            micropython=find_micropython(), heap=heap_kb, probe=probe, log=log, path=path
        )
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    # The runner finds `micropython` next to the Python running it, else on PATH: put the
    # wrapper first on PATH and start the CLI with a Python that has no micropython beside it.
    env = dict(os.environ, PATH=f"{work}{os.pathsep}{os.environ['PATH']}")
    code = (
        "import sys, shutil\n"
        "from sticktable.sim import runner\n"
        f"runner.find_micropython = lambda: {str(wrapper)!r}\n"
        "from sticktable.cli import main\n"
        "sys.exit(main())\n"
    )
    journal = work / f"journal-{heap_kb}.sqlite"
    journal.unlink(missing_ok=True)
    cmd = [
        sys.executable,
        "-c",
        code,
        "run",
        "--sim",
        "--seed",
        str(seed),
        "--players",
        players,
        "--speed",
        "0",
        "--quiet",
        "--journal",
        str(journal),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    ok = result.returncode == 0 and "exactly as scripted" in result.stdout
    probe_line = [ln for ln in log.read_text().splitlines() if ln.startswith("RAMPROBE")]
    figures = None
    if probe_line:
        live, samples, total = map(int, probe_line[-1].split()[1:])
        figures = {"live_peak": live, "samples": samples, "heap_total": total}
    return ok, figures


def smallest_heap(seed: int, players: str, work: Path, mpy: Path | None = None) -> int:
    """Bisect the smallest heap (KB, 4 KB steps) in which the game still runs right."""
    low, high = 8, HEAP_KB
    while high - low > 4:
        mid = (low + high) // 2 // 4 * 4
        ok, _ = run_game(mid, seed, players, work, mpy)
        if ok:
            high = mid
        else:
            low = mid
    return high


def measure(seed: int, players: str, work: Path, mpy: Path | None) -> dict | None:
    # The board's heap for .mpy; the simulator's for sources (compiling them fragments it).
    heap_kb = HEAP_KB if mpy else int(SOURCE_HEAP.rstrip("K"))
    ok, figures = run_game(heap_kb, seed, players, work, mpy)
    if not ok or figures is None:
        print(
            f"the game did not run right in {heap_kb} KB:",
            (work / f"stderr-{heap_kb}.txt").read_text()[-2000:],
        )
        return None
    live_kb = figures["live_peak"] / 1024
    return {
        "heap_kb": heap_kb,
        "firmware": ".mpy (as on the board)" if mpy else ".py sources (as the simulator)",
        "heap_total_kb": round(figures["heap_total"] / 1024, 1),
        "live_heap_peak_kb": round(live_kb, 1),
        "samples": figures["samples"],
        "smallest_heap_kb": smallest_heap(seed, players, work, mpy),
        "spare_kb": round(heap_kb - live_kb, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", default="Ann,Bo,Cy")
    args = parser.parse_args()
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        compile_firmware(work / "mpy")
        for mpy in (work / "mpy", None):
            report = measure(args.seed, args.players, work, mpy)
            if report is None:
                return 1
            reports.append(report)
    print(f"whole game (seed {args.seed}, {args.players}), {reports[0]['samples']} samples:")
    for r in reports:
        print(
            f"  firmware from {r['firmware']}, -X heapsize={r['heap_kb']}K: "
            f"live heap at peak {r['live_heap_peak_kb']} KB "
            f"(after gc.collect, once per virtual second), {r['spare_kb']:.0f} KB to spare; "
            f"smallest heap that still plays the game right: {r['smallest_heap_kb']} KB"
        )
    print(json.dumps(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
