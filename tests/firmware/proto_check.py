# Runs under MicroPython AND CPython: checks tablefw.proto against the shared vectors and replays
# a corpus of byte streams. Prints one line per failure, then "OK <n>" or "FAILED <n>".
# argv: vectors.json [corpus.jsonl]. The corpus has one {"chunks": [hex...]} per line; for each,
# the decoded messages and counters are printed as JSON (one line) for a differential comparison.
import binascii
import json
import sys

from tablefw import proto

failures = 0


def fail(text):
    global failures
    failures += 1
    print("FAIL " + text)


def chunked(data, size):
    if size == 0:
        return [data]
    return [data[i : i + size] for i in range(0, len(data), size)]


def run(chunks):
    d = proto.Decoder()
    msgs = []
    for c in chunks:
        msgs.extend(d.feed(c))
        if len(d._buf) >= proto.MAX_FRAME:
            fail(f"decoder holds {len(d._buf)} bytes")
    return d, msgs


def same(a, b):
    # dicts compare equal regardless of key order on both interpreters
    return a == b


def check_vectors(path):
    with open(path) as f:
        vec = json.load(f)
    n = 0
    for c in vec["crc"]:
        got = proto.crc_hex(binascii.unhexlify(c["hex"])).decode()
        if got != c["crc"]:
            fail("crc of {}: {} != {}".format(c["hex"][:20], got, c["crc"]))
        n += 1
    for case in vec["cases"]:
        data = binascii.unhexlify(case["stream"])
        for size in (0, 1, 7, 64):
            d, msgs = run(chunked(data, size))
            if not same(msgs, case["messages"]):
                fail("{} (chunks of {}): messages {!r}".format(case["name"], size, msgs))
            if d.frames != case["frames"] or d.dropped != case["dropped"]:
                fail(
                    "{} (chunks of {}): frames {} dropped {}, want {} {}".format(
                        case["name"], size, d.frames, d.dropped, case["frames"], case["dropped"]
                    )
                )
            n += 1
    for msg in vec["roundtrip"]:
        frame = proto.encode(msg)
        d, msgs = run([frame])
        if not same(msgs, [msg]) or not frame.endswith(b"\n") or frame[:2] != b"~{":
            fail(f"roundtrip {msg!r} -> {frame!r}")
        n += 1
    for bad in ({"k": "x"}, {"s": 1}, [1], {"k": "raw", "s": 1, "d": "x" * 600}):
        try:
            proto.encode(bad)
            fail(f"encode accepted {bad!r}")
        except ValueError:
            pass
        n += 1
    return n


def replay(path):
    with open(path) as f:
        for line in f:
            item = json.loads(line)
            d, msgs = run([binascii.unhexlify(c) for c in item["chunks"]])
            print(json.dumps({"m": msgs, "f": d.frames, "d": d.dropped}))


total = check_vectors(sys.argv[1])
if len(sys.argv) > 2:
    replay(sys.argv[2])
print(("OK %d" if not failures else "FAILED %d") % (total if not failures else failures))
