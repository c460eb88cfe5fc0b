"""Many browsers at once, without the browsers: WebSocket clients of the console's live feed,
and one client that connects and then never reads (a phone gone to sleep mid-game).

Used by the viewers test (nothing lost, the table not held up) and by bench_web (how long
after the journal commit each viewer saw each event).

    python tests/web/viewers.py URL COUNT    # as a separate process: prints "ready" once all
                                             # are connected; reads N from stdin, and once
                                             # every viewer has seen N log entries (or 60 s
                                             # passed) prints one JSON line: per viewer,
                                             # [[received_at, log_length], ...]
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import socket
import sys
import time
from urllib.parse import urlsplit

import websockets

EVENTS = re.compile(r'"events": (\d+)')
SENSORS = '{"kind": "sensors"'  # how the feed's live readings begin (live.py)


async def watch(
    url: str, seen: list, ready: asyncio.Event, stop: asyncio.Event, light: bool = False
) -> None:
    """One viewer: every message's arrival time (wall clock), how many log entries it had and
    the message (`light`: not decoded, as a benchmark's viewer only counts)."""
    ws_url = "ws://" + urlsplit(url).netloc + "/ws"
    log: list = []
    async with websockets.connect(ws_url, origin=url, max_size=None) as ws:
        ready.set()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            if text.startswith(SENSORS):
                continue  # a live load and tilt reading, not a snapshot of the game
            if light:
                seen.append((time.time(), int(EVENTS.search(text, 0, 200).group(1)), None))
            else:  # the whole log, as a page keeps it (the server sends what changed)
                message = json.loads(text)
                log = log[: message["log_from"]] + message["log"]
                message["log"] = log
                seen.append((time.time(), message["events"], message))


async def watch_all(
    url: str, seen: list[list], stop: asyncio.Event, on_ready=None, light: bool = False
) -> list[list]:
    """One viewer per list in `seen` until `stop` is set; each list fills with what that viewer
    received: (time, log length, message)."""
    count = len(seen)
    ready = [asyncio.Event() for _ in range(count)]
    tasks = [asyncio.create_task(watch(url, seen[i], ready[i], stop, light)) for i in range(count)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 60)
    if on_ready:
        on_ready()
    await asyncio.gather(*tasks)
    return seen


def stalled_client(url: str) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads a byte."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {url}\r\n\r\n"
        ).encode()
    )
    return sock


def main() -> int:
    url, count = sys.argv[1], int(sys.argv[2])
    seen: list[list] = [[] for _ in range(count)]

    async def run() -> None:
        stop = asyncio.Event()
        watching = asyncio.create_task(
            watch_all(url, seen, stop, on_ready=lambda: print("ready", flush=True), light=True)
        )
        target = int(await asyncio.to_thread(sys.stdin.readline))
        for _ in range(600):
            if all(v and v[-1][1] >= target for v in seen):
                break
            await asyncio.sleep(0.1)
        stop.set()
        await watching

    asyncio.run(run())
    print(json.dumps([[(at, n) for at, n, _ in viewer] for viewer in seen]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
