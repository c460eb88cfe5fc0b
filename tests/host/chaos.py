"""The chaos cable: scripted Stick Stack games on the simulated table (the real firmware under
MicroPython), played by `sticktable run --port` processes through a cable that damages bytes
both ways, is pulled out and plugged back in, while the board reboots and the daemon is killed
(SIGKILL) or stopped (Ctrl-C) at random moments and restarted with `--resume`. Fixed seeds.

Every frame the board writes is read on the board's side of the cable, before any damage: the
truth. Each boot's events are numbered 1..S (S: the highest number the board used, from its
frames and from the next boot's `prev`). At the end every event is checked against the journal:
journaled once, journaled more than once (duplicated), or neither (lost unless a reboot's gap
counted it). A reboot's gap is exact when its `n` is the number of that boot's events the
journal does not have.

    run_chaos([(seed, speed), ...]) -> figures: events, journaled, duplicated, lost, gaps, ...
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import tempfile
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

from daemon_process import Daemon
from link_harness import damage

from sticktable.link.codec import Decoder
from sticktable.link.session import is_event
from sticktable.sim.game import SimGame
from sticktable.sim.runner import SimTable

PLAYERS = ["Ann", "Bo", "Cy"]
REBOOT_GAP = "reboot"


class ChaosCable:
    """Board pty <-> [this thread] <-> a pty the daemon opens through a symlink (`path`).

    `pull(seconds)`: the host side vanishes (the pty and its symlink are gone, the daemon's
    port fails) and comes back later as a new pty behind the same path. Bytes are damaged with
    probability `byte_error` each (link_harness.damage). `tap` decodes the board's bytes
    before damage (the truth); `acks` holds the highest ack per boot the board was sent.
    """

    def __init__(self, board_port: str, workdir: Path, byte_error: float, seed: int):
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.path = str(workdir / "ttyCHAOS")
        self.byte_error = byte_error
        self.rng = random.Random(seed)
        self.tap = Decoder()
        self.host_tap = Decoder()
        self.frames: list[dict] = []  # every frame the board wrote, in order
        self.acks: dict[str, int] = {}
        self.damaged = 0
        self.pulls = 0
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._back_at = 0.0
        self._plug()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = self.path + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._master, self._slave = master, slave

    def _unplug(self) -> None:
        if self._master is None:
            return
        os.unlink(self.path)
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = None

    def pull(self, seconds: float) -> None:
        with self._lock:
            if self._master is None:
                return
            self._unplug()
            self.pulls += 1
            self._back_at = time.monotonic() + seconds

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def _damage(self, data: bytes) -> bytes:
        out, hits = damage(data, self.byte_error, self.rng)
        self.damaged += hits
        return out

    def _run(self) -> None:
        while not self._stop:
            with self._lock:
                if self._master is None and time.monotonic() >= self._back_at:
                    self._plug()
                fds = [self.board] + ([self._master] if self._master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.02)
            except (OSError, ValueError):
                continue
            for fd in ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    time.sleep(0.005)  # the daemon has its side closed (EIO): nothing to pass
                    continue
                with self._lock:
                    if fd == self.board:
                        self.frames += self.tap.feed(data)
                        target = self._master
                    else:
                        if fd != self._master:
                            continue  # a pty pulled meanwhile
                        for msg in self.host_tap.feed(data):
                            if msg["k"] == "ack" and isinstance(msg.get("a"), int):
                                boot = str(msg.get("b"))
                                self.acks[boot] = max(self.acks.get(boot, 0), msg["a"])
                        target = self.board
                    if target is None:
                        continue  # pulled: the board's bytes go nowhere
                    try:
                        os.write(target, self._damage(data))
                    except OSError:
                        pass  # full or gone: lost on the cable

    def close(self) -> None:
        self._stop = True
        self._thread.join(2)
        with self._lock:
            if self._master is not None:
                self._unplug()
        os.close(self.board)


@dataclass
class Figures:
    games: int = 0
    events: int = 0  # board events (boot, seq) numbered by the firmware
    journaled: int = 0
    duplicated: int = 0
    lost: int = 0  # neither journaled nor counted in a reboot's gap
    in_gaps: int = 0  # not journaled, counted in a reboot's gap
    pending: int = 0  # still held by the board when the run stopped (not counted in events)
    gaps: int = 0
    gaps_exact: int = 0
    reboots: int = 0
    kills: int = 0
    interrupts: int = 0
    pulls: int = 0
    damaged_bytes: int = 0
    finished: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)

    def line(self) -> str:
        return (
            f"events {self.events}  journaled {self.journaled}  lost {self.lost}  "
            f"duplicated {self.duplicated}  reboot gaps {self.gaps} (exact {self.gaps_exact}, "
            f"{self.in_gaps} events counted in them)"
            + (f"; {self.pending} still on the board when stopped" if self.pending else "")
        )


def journal_facts(journal: Path) -> list[tuple[str | None, dict]]:
    try:
        with sqlite3.connect(journal) as db:
            rows = db.execute("SELECT boot, message FROM facts ORDER BY id").fetchall()
    except sqlite3.OperationalError:
        return []
    return [(boot, json.loads(message)) for boot, message in rows]


def journal_game(journal: Path) -> tuple[bool, bool]:
    """(a game is journaled, it is finished): the journal's last game."""
    try:
        with sqlite3.connect(journal) as db:
            row = db.execute("SELECT finished FROM games ORDER BY id DESC LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        return False, False
    return row is not None, row is not None and row[0] is not None


def board_truth(frames: list[dict]) -> tuple[list[str], dict[str, int]]:
    """The boots in order and the highest event number each used (its frames, and the next
    boot's `prev`, which counts events it numbered but never got out)."""
    boots: list[str] = []
    last: dict[str, int] = {}
    boot = None
    for msg in frames:
        if msg["k"] == "hello":
            boot = msg["boot"]
            if boot not in last:
                boots.append(boot)
                last[boot] = 0
            prev = msg.get("prev")
            if isinstance(prev, list) and len(prev) >= 2 and prev[0] in last:
                last[prev[0]] = max(last[prev[0]], prev[1])
            last[boot] = max(last[boot], msg["s"])
        elif boot is not None:
            b = msg.get("b", boot)
            if b in last:
                last[b] = max(last[b], msg["s"])
    return boots, last


def check(frames: list[dict], journal: Path, finished: bool, acks: dict[str, int]) -> Figures:
    """Every board event against the journal (see the module's docstring). The board's last
    boot may still hold events no daemon has journaled yet (a run stopped early): those it
    never had acknowledged (`acks`: the host's highest ack per boot) are `pending`, not lost."""
    figures = Figures()
    boots, last = board_truth(frames)
    facts = journal_facts(journal)
    seen: dict[tuple[str, int], int] = {}
    gaps: dict[str, list[dict]] = {}
    for boot, message in facts:
        if is_event(message) and boot:
            seen[(boot, message["s"])] = seen.get((boot, message["s"]), 0) + 1
        elif message.get("k") == "gap" and message.get("why") == REBOOT_GAP:
            gaps.setdefault(str(message.get("old_boot")), []).append(message)
    if finished and boots:
        # The game is over: what the board sensed after its last journaled event (the tower
        # cleared after the last round) is no one's business.
        final = boots[-1]
        last[final] = max([s for b, s in seen if b == final], default=0)
    for boot in boots:
        have = {s for b, s in seen if b == boot}
        figures.events += last[boot]
        figures.journaled += len(have)
        figures.duplicated += sum(seen[(boot, s)] - 1 for s in have)
        missing = last[boot] - len(have)
        if boot == boots[-1] and not finished:
            held = last[boot] - max(acks.get(boot, 0), max(have, default=0))
            figures.pending += max(0, held)
            missing -= max(0, held)
            figures.events -= max(0, held)
        told = gaps.get(boot, [])
        figures.gaps += len(told)
        counted = sum(g.get("n") or 0 for g in told)
        figures.in_gaps += min(counted, missing)
        figures.lost += max(0, missing - counted)
        if told:
            top = max(have, default=0)
            exact = (
                len(told) == 1
                and told[0].get("exact") is True
                and told[0]["n"] == missing == last[boot] - top
            )
            figures.gaps_exact += exact
            if not exact:
                figures.problems.append(f"boot {boot}: gaps {told}, {missing} not journaled")
        elif boot != boots[-1]:
            figures.problems.append(f"boot {boot}: reset, {missing} events lost, no gap")
        elif missing:
            figures.problems.append(f"boot {boot} (the last): {missing} acked, not journaled")
    figures.reboots = len(boots) - 1
    return figures


def play_one(
    seed: int,
    workdir: Path,
    byte_error: float = 0.002,
    mean_life_s: float = 2.0,
    p_reboot: float = 0.3,
    p_pull: float = 0.3,
    timeout_s: float = 240.0,
    speed: float = 0.0,
) -> Figures:
    """One scripted game under chaos (see the module's docstring); its figures. `speed` 0:
    simulated time waits for the host (the board senses nothing while no daemon listens);
    else the game goes on in time at `speed` x real time whoever listens, so the board has
    unacknowledged events when it reboots or a daemon dies."""
    rng = random.Random(seed)
    script = SimGame(PLAYERS, seed=seed)
    journal = workdir / f"journal-{seed}.sqlite"
    log = workdir / f"daemon-{seed}.log"
    figures = Figures(games=1)
    daemon: Daemon | None = None
    paced = speed == 0
    # Every reset is the harness's own, made only once the journal has counted the one before
    # (reboot_allowed): the simulated watchdog, which resets a board starved of CPU for 2 s on
    # a loaded machine, could reset it twice before any host heard of it.
    with SimTable(
        script.samples(), script.meta, speed=speed, paced_by_host=paced, watchdog=False
    ) as table:
        cable = ChaosCable(table.port, workdir, byte_error, seed)
        try:
            deadline = time.monotonic() + timeout_s
            finished = False
            while time.monotonic() < deadline:
                while not cable.plugged:
                    time.sleep(0.02)  # a daemon started now would find no port
                started, _ = journal_game(journal)  # journaled once the board has answered
                args = ["--resume"] if started else ["--players", ",".join(PLAYERS)]
                daemon = Daemon(
                    cable.path, journal, log, *args, "--hello-timeout", "10", referee=True
                )
                life = rng.expovariate(1 / mean_life_s)
                pull_at = rng.uniform(0, life) if rng.random() < p_pull else None
                reboot_at = rng.uniform(0, life) if rng.random() < p_reboot else None
                end = time.monotonic() + life
                start = time.monotonic()
                while time.monotonic() < end and daemon.alive:
                    now = time.monotonic() - start
                    if pull_at is not None and now >= pull_at:
                        pull_at = None
                        cable.pull(rng.uniform(0.1, 2.5))  # back before or after the kill
                    if reboot_at is not None and now >= reboot_at:
                        reboot_at = None
                        if reboot_allowed(table, cable, journal):
                            table.reboot()
                    if table.samples_done.is_set() and caught_up(table, cable, journal):
                        break
                    time.sleep(0.02)
                if not daemon.alive:
                    code = daemon.stop()
                    daemon = None
                    if code == 0 or journal_game(journal)[1]:
                        finished = True  # the game is over
                        break
                    if "cannot open" not in tail(log):  # pulled as it started: refused, fine
                        figures.problems.append(f"daemon exited {code}: {tail(log)}")
                    continue
                if table.samples_done.is_set() and caught_up(table, cable, journal):
                    daemon.stop(signal.SIGINT)
                    break
                sig = rng.choice([signal.SIGKILL, signal.SIGINT])
                daemon.stop(sig)
                figures.kills += sig == signal.SIGKILL
                figures.interrupts += sig == signal.SIGINT
                daemon = None
                if journal_game(journal)[1]:
                    # Stopped just after it journaled the game's end (in its last reads of the
                    # board): the game is over, there is nothing to resume.
                    finished = True
                    break
                # Down for a while: the board goes on sensing (it holds its events), may
                # reboot meanwhile (loss path 2).
                time.sleep(rng.uniform(0.05, 0.8))
                if rng.random() < p_reboot and reboot_allowed(table, cable, journal):
                    table.reboot()
                    time.sleep(rng.uniform(0.05, 0.5))
            else:
                figures.problems.append(f"game {seed} not done in {timeout_s:g} s")
        finally:
            if daemon is not None and daemon.alive:
                daemon.stop()
            time.sleep(0.1)
            cable.close()
        finished = finished or journal_game(journal)[1]  # it may have ended as it was stopped
        frames = list(cable.frames)
        figures.pulls = cable.pulls
        figures.damaged_bytes = cable.damaged
    result = check(frames, journal, finished, dict(cable.acks))
    result.finished = int(finished)
    for name in ("games", "kills", "interrupts", "pulls", "damaged_bytes"):
        setattr(result, name, getattr(figures, name))
    result.problems = figures.problems + result.problems
    return result


def reboot_allowed(table: SimTable, cable: ChaosCable, journal: Path) -> bool:
    """A board keeps one boot's numbers across a reset (`prev`): reboot it only once the
    journal has counted the reset that started its current boot (the first boot: once its
    hello is journaled). Two resets no host saw in between cannot be counted exactly by any
    host (PROTOCOL.md section 3). The current boot is the last reset's: until its hello has
    come out, the last boot the cable saw is an earlier one, whose gap may be journaled
    already. Not once the game is over: no host will see that reset."""
    boots, _ = board_truth(cable.frames)
    if len(boots) != table.resets + 1 or journal_game(journal)[1]:
        return False
    kind = "hello" if len(boots) == 1 else "gap"
    return any(m.get("k") == kind and m.get("boot") == boots[-1] for _, m in journal_facts(journal))


def caught_up(table: SimTable, cable: ChaosCable, journal: Path) -> bool:
    """The journal knows the board's current boot (its reboot's gap) and the host has
    acknowledged every event that boot has numbered."""
    boots, last = board_truth(cable.frames)
    done = bool(boots) and cable.acks.get(boots[-1], 0) >= last[boots[-1]]
    return done and reboot_allowed(table, cable, journal)


def tail(path: Path, n: int = 300) -> str:
    try:
        return path.read_text()[-n:].replace("\n", " | ")
    except OSError:
        return ""


def run_chaos(games, workdir: Path | None = None, **options) -> Figures:
    """`games`: (seed, speed) of each game (see play_one); the figures of them all."""
    total = Figures()
    with tempfile.TemporaryDirectory(prefix="chaos-") as tmp:
        for seed, speed in games:
            total.add(play_one(seed, Path(workdir or tmp), speed=speed, **options))
    return total
