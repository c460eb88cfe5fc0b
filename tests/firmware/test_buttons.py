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
# A real press: contacts chatter for 15 ms when closing and when opening; one short press.
chatter_in = [(200, 2), (203, 0), (206, 2), (209, 0), (212, 2)]
chatter_out = [(400, 0), (403, 2), (406, 0), (409, 2), (412, 0)]
res["chattering"] = run(idle(0, 200) + chatter_in + held(1, 215, 185, 5) + chatter_out
                        + idle(415, 300, 5))
# A long press with chatter, then more chatter at release: one long press, nothing at release.
res["chattering_long"] = run(idle(0, 200) + chatter_in + held(1, 215, 985, 5)
                             + [(1200, 0), (1203, 2), (1206, 0)] + idle(1209, 300, 5))
# Board ticks wrap at 2**30: a press across the wrap is still one short press.
W = 1 << 30
res["wrap"] = run([((W - 100 + t) % W, 0) for t in range(0, 60, 12)]
                  + [((W - 40 + t) % W, 1) for t in range(0, 200, 12)]
                  + [((160 + t) % W, 0) for t in range(0, 200, 12)])
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
    [[seat, long, t]] = res["chattering"]
    assert (seat, long) == (1, 0) and 412 <= t <= 412 + debounce + 5
    [[seat, long, t]] = res["chattering_long"]
    assert (seat, long) == (1, 1) and 212 + long_ms <= t <= 212 + long_ms + debounce + 10
    [[seat, long, t]] = res["wrap"]
    assert (seat, long) == (0, 0) and t < 400  # after the wrap, reported at the release
    assert sorted((s, lg) for s, lg, _ in res["two"]) == [(0, 0), (3, 0)]
    assert res["heap_lock"] == "ok"
    assert res["locked_presses"][:2] == [2, 1]
