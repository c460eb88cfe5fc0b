"""The simulated board (firmware/tablefw/board_sim.py) under MicroPython, over plain files."""

import json
import struct

RECORD = struct.Struct("<I4i3hB")
META = {
    "rate_hz": 80,
    "cells": 3,
    "counts_per_gram": [2000.0, 2000.0, 2000.0],
    "cell_xy_mm": [[0, 60], [-52, -30], [52, -30]],
    "stick_g": 8.0,
    "seats": 5,
}

SCRIPT = r"""
import array, json, sys
from tablefw.board_sim import SimBoard, NO_SAMPLE, END

samples, frames, host_in, host_out = sys.argv[1:5]
board = SimBoard(open(samples, "rb"), open(frames, "wb"), open(host_in, "rb"),
                 open(host_out, "wb"))
cells = array.array("i", [0] * board.info["cells"])
accel = array.array("i", [0, 0, 0])
res = {"info": board.info, "config": board.config, "samples": []}
while True:
    t = board.read_sample(cells, accel)
    if t < 0:
        res["last"] = t
        break
    res["samples"].append([t, list(cells), list(accel), board.buttons()])
    board.sample_done()
res["after_end"] = board.read_sample(cells, accel)
res["codes"] = [NO_SAMPLE, END]
board.show(bytearray(b"\x01\x02\x03" * 100))
buf = bytearray(8)
res["host"] = []
while True:
    n = board.read_host(buf)
    res["host"].append(bytes(buf[:n]).decode() if n > 0 else n)
    if n <= 0:
        break
res["write"] = board.write_host(b"~frame\n")
print(json.dumps(res))
"""


def test_sim_board_decodes_the_tower_pipe(mp, tmp_path):
    samples = tmp_path / "samples.bin"
    with samples.open("wb") as f:
        f.write((json.dumps(META) + "\n").encode())
        f.write(RECORD.pack(12, 8388607, -8388608, -(2**30), 7, -1000, 2, 1001, 0b101))
        f.write(RECORD.pack(2**31 + 5, 1, 2, 3, 4, 32767, -32768, 0, 0xFF))
        f.write(RECORD.pack(0xFFFFFFFF, 0, 0, 0, 0, 0, 0, 0, 0))
        f.write(RECORD.pack(99, 0, 0, 0, 0, 0, 0, 0, 0))  # after the end: never read
    frames, host_in, host_out = tmp_path / "frames", tmp_path / "in", tmp_path / "out"
    host_in.write_bytes(b"hello host bytes")
    script = tmp_path / "board_script.py"
    script.write_text(SCRIPT)
    proc = mp(script, str(samples), str(frames), str(host_in), str(host_out))
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    info = res["info"]
    assert info["board"].startswith("sim-") and len(info["boot"]) == 8
    assert info["seats"] == 5 and info["cells"] == 3 and info["reset"] == "power-on"
    assert res["config"]["counts_per_gram"] == META["counts_per_gram"]
    assert res["config"]["zero_counts"] is None
    assert res["samples"] == [
        [12, [8388607, -8388608, -(2**30)], [-1000, 2, 1001], 0b101],  # MISSING stays MISSING
        [2**31 + 5, [1, 2, 3], [32767, -32768, 0], 0xFF],
    ]
    end, no_sample = res["codes"][1], res["codes"][0]
    assert res["last"] == end and res["after_end"] == end and no_sample != end
    out = frames.read_bytes()
    assert out[:2] == b"AA" and out[2:5] == b"L" + (300).to_bytes(2, "little")
    assert out[5:] == b"\x01\x02\x03" * 100
    assert "".join(h for h in res["host"] if isinstance(h, str)) == "hello host bytes"
    assert res["host"][-1] == -1  # end of the host stream
    assert res["write"] is True and host_out.read_bytes() == b"~frame\n"


def test_sim_board_without_meta_fails_clearly(mp, tmp_path):
    samples = tmp_path / "samples.bin"
    samples.write_bytes(b'{"cells": 4')  # cut before the newline
    script = tmp_path / "nometa.py"
    script.write_text(
        "import sys\nfrom tablefw.board_sim import SimBoard\n"
        "try:\n    SimBoard(open(sys.argv[1], 'rb'), None, open(sys.argv[1], 'rb'), None)\n"
        "except OSError as e:\n    print('refused:', e)\n"
    )
    proc = mp(script, str(samples))
    assert b"refused:" in proc.stdout and b"meta line" in proc.stdout
