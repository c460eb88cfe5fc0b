"""The house under load: 50 tables at 10 events/s each for a minute through a real mosquitto.

Each table is what `sticktable run --mqtt` runs: a journal that events are committed to (here
by a writer thread replaying a long random Stick Stack game at 10 events/s instead of a board)
and the table's publisher. The tables are spread over a few processes (`--processes`): in a
venue each is its own machine, and 100 threads behind one interpreter lock would measure the
bench, not the house. The house is `sticktable house`, as a user starts it. Latency is a
table's journal commit to the house's journal commit of the same event (both stamp the time of
their commit; one machine, one clock).

Run: `.venv/bin/python tests/bench/bench_house.py [--tables N] [--rate R] [--seconds S]
[--processes P]` (`make bench` runs the defaults). Prints figures only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "house"))

from house_helpers import start_house, stop  # noqa: E402
from mqtt_parts import Mosquitto  # noqa: E402

from sticktable.engine import Game  # noqa: E402
from sticktable.house.broker import parse_broker  # noqa: E402
from sticktable.house.publisher import TablePublisher  # noqa: E402
from sticktable.journal import Journal  # noqa: E402
from sticktable.sim.evaluate import percentile  # noqa: E402

WEIGHTS = {"take": 10, "placed": 10, "unplaceable": 1, "fell": 2, "topple": 0.05, "touch": 0.5,
           "end_round": 5}  # fmt: skip


def long_game(seed: int, events: int) -> tuple[dict, list[dict]]:
    """A random Stick Stack game with at least `events` events (its rules keep it legal)."""
    rng = random.Random(seed)
    game = Game({"game": "stick-stack", "players": ["Ann", "Bo", "Cy"], "end_score": 999})
    while len(game.events) < events and not game.finished:
        actions = game.rules.legal_actions(game.state)
        weights = [WEIGHTS[a["type"]] / a.get("count", 1) ** 2 for a in actions]
        game.apply(rng.choices(actions, weights)[0])
    return game.header, game.events


def play_table(path: Path, header: dict, events: list[dict], rate: float, publisher,
               stop_at: float) -> int:  # fmt: skip
    """Commit the game's events at `rate` per second until `stop_at`; returns how many."""
    with Journal(path) as journal:
        game_id = journal.new_game(header, source="bench")
        next_at = time.monotonic()
        for index, event in enumerate(events):
            if time.monotonic() >= stop_at:
                return index
            with journal.transaction():
                journal.append_event(game_id, index, event)
            publisher.wake()
            next_at += 1 / rate
            time.sleep(max(0.0, next_at - time.monotonic()))
        return len(events)


def commit_times(path: Path, query: str) -> dict[tuple, float]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return {tuple(row[:-1]): row[-1] for row in db.execute(query)}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_tables(folder: Path, names: list[str], login, header: dict, events: list[dict],
               rate: float, seconds: float, start_at: float, results) -> None:  # fmt: skip
    """One process's share of the tables (a venue's tables are separate machines: here at least
    not all behind one interpreter lock). Puts (counts, CPU s, wall s, end time) on `results`."""
    publishers = [
        TablePublisher(folder / f"{name}.sqlite", login, name, say=lambda text: None)
        for name in names
    ]
    counts: dict[str, int] = {}
    try:
        for publisher in publishers:
            publisher.start()
        time.sleep(max(0.0, start_at - time.time()))
        cpu_before, wall_before = time.process_time(), time.monotonic()
        stop_at = wall_before + seconds
        writers = [
            threading.Thread(
                target=lambda n=name, p=pub: counts.__setitem__(
                    n, play_table(folder / f"{n}.sqlite", header, events, rate, p, stop_at)
                )
            )
            for name, pub in zip(names, publishers, strict=True)
        ]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        cpu, wall = time.process_time() - cpu_before, time.monotonic() - wall_before
        results.put((counts, cpu, wall, time.time()))
        for publisher in publishers:
            publisher.drain(wait_s=30)  # the house may still want resends
    finally:
        for publisher in publishers:
            publisher.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10.0, help="events/s per table")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=5, help="table processes")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-house-"))
    broker = Mosquitto(folder)
    broker.start()
    house_journal = folder / "house.sqlite"
    house = start_house(house_journal, broker.url, broker.credentials)
    header, events = long_game(1, int(args.rate * args.seconds) + 10)
    login = parse_broker(broker.url, str(broker.credentials))
    names = [f"T{n:03}" for n in range(args.tables)]
    for name in names:
        Journal(folder / f"{name}.sqlite").close()  # made by the table, before its publisher
    results = multiprocessing.Queue()
    start_at = time.time() + 3  # every process's publishers connected first
    workers = [
        multiprocessing.Process(
            target=run_tables,
            args=(
                folder,
                names[k :: args.processes],
                login,
                header,
                events,
                args.rate,
                args.seconds,
                start_at,
                results,
            ),  # fmt: skip
        )
        for k in range(args.processes)
    ]
    counts: dict[str, int] = {}
    tables_cpu = wall = tables_done = 0.0
    try:
        for worker in workers:
            worker.start()
        for _ in workers:
            got, cpu, took, ended = results.get(timeout=args.seconds + 120)
            counts.update(got)
            tables_cpu += cpu
            wall, tables_done = max(wall, took), max(tables_done, ended)
        # The house keeps up when it holds everything shortly after the last commit.
        sent = sum(counts.values())
        deadline = time.monotonic() + 30
        stored = 0
        while time.monotonic() < deadline:
            stored = len(commit_times(house_journal, "SELECT game_id, idx, at FROM events"))
            if stored >= sent:
                break
            time.sleep(0.2)
        caught_up_after = time.time() - tables_done
        house_cpu_s, broker_cpu_s = cpu_seconds(house.pid), cpu_seconds(broker.process.pid)
    finally:
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
        stop(house)
        broker.kill()
    latencies = []
    origin = commit_times(
        house_journal, "SELECT table_name, table_game, game_id, 0 FROM house_games"
    )
    house_at = commit_times(house_journal, "SELECT game_id, idx, at FROM events")
    for table_name, _, house_game in origin:
        table_at = commit_times(folder / f"{table_name}.sqlite", "SELECT idx, at FROM events")
        for (idx,), at in table_at.items():
            if (house_game, idx) in house_at:
                latencies.append((house_at[(house_game, idx)] - at) * 1000)
    print(f"tables: {args.tables} at {args.rate:g} events/s for {wall:.0f} s "
          f"({args.tables * args.rate:g} events/s in all)")  # fmt: skip
    print(f"events committed at the tables: {sent}; stored by the house: {stored} "
          f"({'kept up' if stored >= sent else 'FELL BEHIND'}; last one "
          f"{caught_up_after * 1000:.0f} ms after the tables stopped)")  # fmt: skip
    print(f"table commit -> house commit: p50 {percentile(latencies, 50):.1f} ms, "
          f"p99 {percentile(latencies, 99):.1f} ms, max {max(latencies):.1f} ms "
          "(target p99 < 100 ms)")  # fmt: skip
    print(f"CPU per table (journal writes + publisher): "
          f"{tables_cpu / wall / args.tables * 100:.2f} % of a core; the house: "
          f"{house_cpu_s / wall * 100:.1f} %; mosquitto: "
          f"{broker_cpu_s / wall * 100:.1f} %")  # fmt: skip


if __name__ == "__main__":
    main()
