# Runs under MicroPython: feeds the board's link and a bare decoder ~1 MB of pseudo-random junk
# mixed with valid, damaged and oversized frames, and checks that nothing raises and the heap
# in use stays bounded. Prints "OK <frames> <heap growth>" or "FAILED ...".
import gc
import random
import sys

from tablefw import proto
from tablefw.link import Link

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
sent = []


def write(frame):
    if len(sent) < 8:
        sent.append(frame)
    return True


link = Link(write, lambda msg: None if msg["k"] != "arm" else "nope", {"boot": "1a2b3c4d"})
dec = proto.Decoder()
good = [
    proto.encode({"k": "ack", "s": 1, "a": 0, "b": "1a2b3c4d", "r": 3, "m": 1}),
    proto.encode({"k": "show", "s": 2, "id": 7, "sc": [1, 2, 3], "mode": "play"}),
    proto.encode({"k": "arm", "s": 3, "id": 8}),
    proto.encode({"k": "ping", "s": 4}),
    proto.encode({"k": "stream", "s": 5, "id": 9, "on": True}),
]
pieces = [b"~", b"~{", b"*", b"\n", b"\r\n", b"x" * 600, b"\xff\x00", b'{"k":', b"~{" + b"y" * 530]


def junk(n):
    return bytes(random.getrandbits(8) for _ in range(n))


def chunk():
    r = random.getrandbits(3)
    if r < 3:
        return random.choice(good)
    if r < 5:
        f = bytearray(random.choice(good))
        f[random.getrandbits(5) % len(f)] ^= 1 << random.getrandbits(3)
        return bytes(f)
    if r < 6:
        return random.choice(pieces)
    return junk(1 + random.getrandbits(7))


t = 0
baseline = None
total = 0
try:
    while total < 1000000:
        data = chunk()
        total += len(data)
        link.feed(data)
        dec.feed(data)
        t += 7
        link.tick(t)
        if total % 50 < 5 and link.pending < 60:
            link.event("fell", t=t, n=1)
        if len(dec._buf) >= proto.MAX_FRAME:
            raise AssertionError("decoder holds " + str(len(dec._buf)) + " bytes")
        if baseline is None and total > 100000:
            gc.collect()
            baseline = gc.mem_alloc()
    gc.collect()
    growth = gc.mem_alloc() - baseline
    if growth > 16384:
        raise AssertionError("heap grew by " + str(growth) + " bytes")
    print("OK", dec.frames, growth)
except Exception as e:
    print("FAILED", repr(e))
