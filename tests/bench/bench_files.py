"""File tools on big inputs: time and peak memory of `sticktable score` on a long transcript
and of `sticktable detect` on a long sensor trace (both read as they go: memory should not
grow with the file). Prints the figures; asserts nothing.

    .venv/bin/python tests/bench/bench_files.py [--transcript-mb 20] [--trace-mb 15]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADER = '{"game": "stick-stack", "players": ["Ann", "Bo"], "unplaceable": "to_bag"}'
# Two turns that change nothing (the stick goes back to the bag): a game as long as wanted.
TURNS = "".join(
    f'{{"turn": "{p}", "take": "bag"}}\n{{"unplaceable": true}}\n' for p in ("Ann", "Bo")
)


def measure(argv: list[str]) -> tuple[float, float]:
    """(seconds, peak resident MB) of one sticktable process."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sticktable", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"sticktable {' '.join(argv)} failed: {proc.stderr.read().decode()}")
    return seconds, usage.ru_maxrss / 1024


def big_trace(path: Path, megabytes: float) -> None:
    """A simulated game's trace, repeated with its clock running on, to the size asked."""
    one = path.with_suffix(".one")
    subprocess.run(
        [sys.executable, "-m", "sticktable", "simulate", "--seed", "3", "--out", str(one)],
        check=True,
        capture_output=True,
    )
    meta, columns, *rows = one.read_text().splitlines()
    step = int(rows[-1].split(",", 1)[0]) + 12
    with open(path, "w") as out:
        out.write(f"{meta}\n{columns}\n")
        copy = 0
        while out.tell() < megabytes * 1e6:
            for row in rows:
                t, rest = row.split(",", 1)
                out.write(f"{int(t) + copy * step},{rest}\n")
            copy += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--transcript-mb", type=float, default=20)
    parser.add_argument("--trace-mb", type=float, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        transcript = Path(tmp) / "long.jsonl"
        repeats = int(args.transcript_mb * 1e6 / len(TURNS))
        transcript.write_text(HEADER + "\n" + TURNS * repeats)
        size = transcript.stat().st_size / 1e6
        seconds, peak = measure(["score", str(transcript)])
        print(
            f"score: {size:.1f} MB transcript ({4 * repeats} events) in {seconds:.1f} s, "
            f"peak {peak:.0f} MB"
        )
        trace = Path(tmp) / "long.csv"
        big_trace(trace, args.trace_mb)
        size = trace.stat().st_size / 1e6
        seconds, peak = measure(["detect", str(trace)])
        print(f"detect: {size:.1f} MB trace in {seconds:.1f} s, peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
