"""50 viewers and one client that stops reading, while a simulated Stick Stack game runs:
the table plays on (scored exactly as scripted), and every viewer ends with the whole log."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import sqlite3

from conftest import SIM_RUN, Served, replay
from viewers import stalled_client, watch_all

VIEWERS = 50
# A long game: every update carries the whole log, so what the stalled client is owed grows
# to megabytes, about what the kernel buffers for it (4 MB here) before the server must wait.
END_SCORE = 40


def drain(sock) -> int:
    """Bytes the stalled client can read now that it wakes up (until the server is gone)."""
    sock.settimeout(2)
    total = 0
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            total += len(chunk)
    sock.close()
    return total


def test_fifty_viewers_and_one_that_stops_reading_lose_nothing(tmp_path):
    journal = str(tmp_path / "j.sqlite")
    served = Served(
        *SIM_RUN, "--seed", "3", "--players", "Ann,Bo,Cy", "--speed", "0", "--journal", journal,
        "--house", f"end_score={END_SCORE}", "--web", "127.0.0.1:0",
    )  # fmt: skip
    stalled = stalled_client(served.url)
    seen: list[list] = [[] for _ in range(VIEWERS)]

    async def watch_the_game() -> None:
        stop = asyncio.Event()
        viewers = asyncio.create_task(watch_all(served.url, seen, stop))
        await asyncio.to_thread(served.read_until, "keeps serving", 300)
        # The game is over and journaled: wait until every viewer has the final snapshot.
        for _ in range(600):
            if viewers.done() or all(v and v[-1][2]["status"]["finished"] for v in seen):
                break
            await asyncio.sleep(0.1)
        stop.set()
        await viewers

    try:
        # In a thread of its own: Playwright's sync API may hold this thread's event loop.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, watch_the_game()).result()
    finally:
        output = served.stop()
        stalled_got = drain(stalled)
    assert "table scored the game exactly as scripted" in output, output[-2000:]
    with contextlib.closing(sqlite3.connect(journal)) as db:
        (events,) = db.execute("SELECT COUNT(*) FROM events WHERE game_id = 1").fetchone()
    final = replay(journal)
    assert len(seen) == VIEWERS
    for viewer in seen:
        last = viewer[-1][2]
        assert [entry["n"] for entry in last["log"]] == list(range(events))
        assert last["summary"]["totals"] == final["totals"] and last["status"]["finished"]
        versions = [message["version"] for _, _, message in viewer]
        assert versions == sorted(set(versions)), "a viewer got a snapshot twice or out of order"
    # How far the stalled client fell behind depends on how much the kernel buffered for it
    # (up to 4 MB here): told, not asserted.
    sent = sum(len(json.dumps(message)) for _, _, message in seen[0])
    print(f"bytes per viewer {sent}, the stalled client got {stalled_got} once it read again")
