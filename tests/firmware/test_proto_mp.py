"""The frame codec (tablefw.proto) against shared vectors under CPython and under MicroPython,
and a generated corpus of damaged streams that both interpreters must decode identically with
bounded memory."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from micropython_runner import FIRMWARE, run_micropython

HERE = Path(__file__).parent
VECTORS = HERE / "proto_vectors.json"
CHECK = HERE / "proto_check.py"


def run_cpython(*args):
    env = dict(os.environ, PYTHONPATH=str(FIRMWARE))
    return subprocess.run(
        [sys.executable, str(CHECK), *map(str, args)], capture_output=True, timeout=60, env=env
    )


def output(proc) -> list[str]:
    out = proc.stdout.decode()
    assert proc.returncode == 0, out + proc.stderr.decode()
    assert out.splitlines()[-1].startswith("OK "), out
    return out.splitlines()[:-1]


def test_vectors_cpython():
    output(run_cpython(VECTORS))


def test_vectors_micropython():
    output(run_micropython(CHECK, str(VECTORS)))


def damaged_corpus(seed: int = 4, count: int = 200) -> list[dict]:
    """Streams of valid frames with flipped, dropped and inserted bytes, noise, long runs."""
    vectors = json.loads(VECTORS.read_text())
    frames = [bytes.fromhex(c["stream"]) for c in vectors["cases"]]
    rng = random.Random(seed)
    corpus = []
    for _ in range(count):
        data = bytearray(b"".join(rng.choice(frames) for _ in range(rng.randint(1, 6))))
        for _ in range(rng.randint(0, 6)):
            pos = rng.randrange(len(data) + 1)
            what = rng.random()
            if what < 0.3 and pos < len(data):
                data[pos] ^= 1 << rng.randrange(8)
            elif what < 0.5 and pos < len(data):
                del data[pos]
            elif what < 0.8:
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
            else:
                data[pos:pos] = rng.choice([b"~", b"\n", b"*", b"~{", b"x" * 600])
        cuts = sorted(rng.sample(range(len(data) + 1), min(len(data), rng.randint(0, 8))))
        chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        corpus.append({"chunks": [bytes(c).hex() for c in chunks]})
    return corpus


def test_corpus_decoded_alike_by_both_interpreters(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(item) + "\n" for item in damaged_corpus()))
    on_cpython = [json.loads(line) for line in output(run_cpython(VECTORS, corpus))]
    on_micropython = [
        json.loads(line) for line in output(run_micropython(CHECK, str(VECTORS), str(corpus)))
    ]
    assert len(on_cpython) == 200
    assert on_micropython == on_cpython
    assert sum(r["f"] for r in on_cpython) > 100  # the corpus still holds decodable frames
    assert sum(r["d"] for r in on_cpython) > 100  # and plenty of damage


def test_link_and_decoder_take_a_megabyte_of_junk_in_bounded_memory():
    proc = run_micropython(HERE / "link_junk_check.py", "7", timeout=120)
    out = proc.stdout.decode().strip()
    assert proc.returncode == 0 and out.startswith("OK "), out + proc.stderr.decode()
    frames = int(out.split()[1])
    assert frames > 1000  # the valid frames in the junk were still found
