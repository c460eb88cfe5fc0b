"""Web console benchmark: does watching the table cost the table anything, and how fresh are
the pages?

Board events come from the real tablefw.link under MicroPython over a pty (the link
benchmark's fake board, stamping each event with its wall-clock birth), are applied by the
daemon's TableSession and journaled (SQLite, synchronous=FULL) as in `sticktable run`, and the
web console (in the daemon's process, as with `run --web`) gets the table's state once per
turn of the loop, as an output of the Table.
Printed, for a run with no viewer and a run with VIEWERS viewers plus one client that stops
reading (the viewers are WebSocket clients in another process, as browsers would be):

- board-to-journal latency: event born on the board -> applied and committed (p50/p95/p99);
- page update latency: journal commit of each event -> the first message holding it arriving
  at each viewer (p50/p95/max over every event and viewer);
- what the raw samples cost the table's loop with `run --web` (samples.py): the time per
  streamed sample, and per event trace written to the journal (SQLite, synchronous=FULL).

    .venv/bin/python tests/bench/bench_web.py [--events 500] [--rate 50] [--viewers 50]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "host"), str(ROOT / "tests" / "web")]
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_link import Tally  # noqa: E402
from link_harness import FakeBoard, now_us, percentile  # noqa: E402
from viewers import stalled_client  # noqa: E402

from sticktable.engine import Game, register  # noqa: E402
from sticktable.journal import Journal  # noqa: E402
from sticktable.link import BoardLink  # noqa: E402
from sticktable.samples import SampleTap  # noqa: E402
from sticktable.table import Table  # noqa: E402
from sticktable.web.attach import live_console  # noqa: E402


def run(events: int, rate: int, viewers: int) -> dict:
    register(Tally())
    (ROOT / "build").mkdir(exist_ok=True)
    header = {"game": Tally.name, "players": ["bench"]}
    board = FakeBoard(boot="benchweb")
    with (
        tempfile.TemporaryDirectory(dir=ROOT / "build") as tmp,
        Journal(Path(tmp) / "j.sqlite") as journal,
    ):
        link = BoardLink.open(board.path, hello_timeout=10)
        watchers = stalled = None
        try:
            game_id = journal.new_game(header, "bench")
            table = Table(journal, game_id, Game(header), link)
            session = table.session
            session.on_board(link.hello)
            with live_console("127.0.0.1:0", table, journal.path, lambda _: None) as web:
                url = f"http://127.0.0.1:{web.server.sock.getsockname()[1]}"
                if viewers:
                    watchers = subprocess.Popen(
                        [
                            sys.executable,
                            str(ROOT / "tests" / "web" / "viewers.py"),
                            url,
                            str(viewers),
                        ],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                    stalled = stalled_client(url)
                    assert watchers.stdout.readline().strip() == "ready"
                link.send("emit", n=events, rate=rate, stamp=1)
                to_journal: list[float] = []
                deadline = time.monotonic() + events / rate + 60
                while len(to_journal) < events and time.monotonic() < deadline:
                    for msg in link.poll(0.005):
                        if session.on_board(msg) and msg["k"] == "fell":
                            to_journal.append(now_us() - msg["w"])
                        link.commit(msg)  # journaled: acknowledge it
                    table._tell_state()  # the Table's own turn end, without its loop
                seen = []
                if watchers:  # they stop once each has every event (or after 60 s)
                    total = len(session.game.events)
                    out, _ = watchers.communicate(f"{total}\n", timeout=120)
                    seen = json.loads(out.splitlines()[-1])
        finally:
            link.close()
            board.close()
            if stalled:
                stalled.close()
        committed = [
            at for (at,) in journal.db.execute(
                "SELECT at FROM events WHERE game_id = ? ORDER BY idx", (game_id,)
            )
        ]  # fmt: skip
    return {
        "events": len(to_journal),
        "journaled": len(committed),
        "journal": to_journal,
        "pages": page_latencies(committed, seen),
        "viewers_complete": sum(1 for v in seen if v and v[-1][1] == len(committed)),
    }


def page_latencies(committed: list[float], seen: list[list]) -> list[float]:
    """For every viewer and event: the first message holding the event, minus its commit."""
    out = []
    for viewer in seen:
        first_event = 0
        for received, log_length in viewer:
            for index in range(first_event, log_length):
                out.append(received - committed[index])
            first_event = max(first_event, log_length)
    return out


def sample_costs(samples: int = 20000, every: int = 300) -> tuple[float, list[float]]:
    """The tap's time per raw sample (µs, trace writes left out) and each trace write (ms),
    with a sensed event every `every` samples, on a journal in build/."""
    cal = {
        "k": "cal",
        "counts_per_gram": [2000.0] * 4,
        "zero_counts": [1000] * 4,
        "cell_xy_mm": [[-62, -62], [62, -62], [62, 62], [-62, 62]],
    }
    writes: list[float] = []
    with (
        tempfile.TemporaryDirectory(dir=ROOT / "build") as tmp,
        Journal(Path(tmp) / "j.sqlite") as journal,
    ):
        game_id = journal.new_game({"game": "stick-stack", "players": ["A", "B"]}, "bench")

        def write(fact, columns, rows):
            start = time.perf_counter()
            journal.record_trace(game_id, fact, "bench", columns, rows)
            writes.append((time.perf_counter() - start) * 1000)

        tap = SampleTap(lambda *a, **f: None, lambda kind: True, write, lambda reading: None)
        tap.see(cal)
        start = time.perf_counter()
        for i in range(samples):
            tap.see(
                {
                    "k": "raw",
                    "t": i * 12,
                    "lc": [1000 + i % 50, 2000, 3000, 4000],
                    "a": [9, 20, 990],
                }
            )
            if i % every == every // 2:
                tap.see({"k": "placed", "t": i * 12, "s": i})
        spent = time.perf_counter() - start - sum(writes) / 1000
    return spent / samples * 1e6, writes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--rate", type=int, default=50, help="board events/s")
    parser.add_argument("--viewers", type=int, default=50)
    args = parser.parse_args()
    print(
        f"web console: {args.events} board events at {args.rate}/s through the daemon into the "
        "journal, the console an output of the Table"
    )
    for viewers in (0, args.viewers):
        r = run(args.events, args.rate, viewers)
        j = r["journal"]
        who = f"{viewers} viewers + 1 stalled client" if viewers else "no viewer"
        print(
            f"  {who:28} board->journal p50 {percentile(j, 50) / 1000:.1f} ms  "
            f"p95 {percentile(j, 95) / 1000:.1f} ms  p99 {percentile(j, 99) / 1000:.1f} ms  "
            f"({r['events']} applied, {r['journaled']} journaled)"
        )
        if viewers:
            p = [x * 1000 for x in r["pages"]]
            print(
                f"  {'':28} page update after commit p50 {percentile(p, 50):.1f} ms  "
                f"p95 {percentile(p, 95):.1f} ms  max {max(p):.1f} ms  "
                f"({r['viewers_complete']}/{viewers} viewers got every event)"
            )
    per_sample, writes = sample_costs()
    print(
        f"  raw samples (run --web)      {per_sample:.1f} µs per sample in the table's loop; "
        f"trace write p50 {percentile(writes, 50):.2f} ms  max {max(writes):.2f} ms "
        f"({len(writes)} traces)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
