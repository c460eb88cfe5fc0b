"""Seat buttons (firmware/tablefw/buttons.py): debounce, short and long presses (MicroPython)."""

import json

SCRIPT = r"""
import array, json, micropython
from tablefw.buttons import Buttons, DEBOUNCE_MS, LONG_MS

out = array.array("i", [0, 0, 0])

def run(steps):
    # steps: (t_ms, mask) samples; returns the presses as [seat, long, t].
    b = Buttons(4)
    got = []
    for t, mask in steps:
        if b.update(t, mask):
            while b.pop(out):
                got.append(list(out))
    return got

def held(seat, start, ms, period=12):
    return [(t, 1 << seat) for t in range(start, start + ms, period)]

def idle(start, ms, period=12):
    return [(t, 0) for t in range(start, start + ms, period)]

res = {}
res["short"] = run(idle(0, 100) + held(1, 100, 200) + idle(300, 200))
res["long"] = run(idle(0, 100) + held(2, 100, 1500) + idle(1600, 200))
bounce = [(100, 1), (104, 0), (108, 1), (112, 0), (116, 1), (120, 0)]  # 20 ms of contact chatter
res["bounce"] = run(idle(0, 100) + bounce + idle(124, 300))
res["two"] = run(idle(0, 60) + [(t, 0b1001) for t in range(60, 260, 12)] + idle(260, 200))
b = Buttons(8)
for t in range(0, 200, 12):
    b.update(t, 0)


def locked(b):
    # A function: at module level the first store of a new global or dict key allocates.
    micropython.heap_lock()
    try:
        for t in range(200, 3000, 12):
            b.update(t, 0b100 if 500 < t < 1400 else 0)
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        micropython.heap_unlock()
    return result


res["heap_lock"] = locked(b)
res["locked_presses"] = b.pop(out) and list(out)
res["consts"] = [DEBOUNCE_MS, LONG_MS]
print(json.dumps(res))
"""


def test_buttons(mp, tmp_path):
    script = tmp_path / "buttons_script.py"
    script.write_text(SCRIPT)
    proc = mp(script)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    debounce, long_ms = res["consts"]
    [[seat, long, t]] = res["short"]
    assert (seat, long) == (1, 0) and 300 <= t <= 300 + debounce + 12  # reported at release
    [[seat, long, t]] = res["long"]
    assert (seat, long) == (2, 1) and 100 + long_ms <= t <= 100 + long_ms + debounce + 24
    assert res["bounce"] == []  # chatter shorter than the debounce time is no press
    assert sorted((s, lg) for s, lg, _ in res["two"]) == [(0, 0), (3, 0)]
    assert res["heap_lock"] == "ok"
    assert res["locked_presses"][:2] == [2, 1]
