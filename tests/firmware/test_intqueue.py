"""tablefw.intqueue.IntQueue under MicroPython: first in first out, what happens when full,
and push/pop under micropython.heap_lock() (the sampling path queues events through it)."""

import json

SCRIPT = r"""
import array, json, micropython
from tablefw.intqueue import IntQueue

res = {}
out4 = array.array("i", [0, 0, 0, 0])
out3 = array.array("i", [0, 0, 0])

def drain(q, out):
    got = []
    while q.pop(out):
        got.append(list(out))
    return got

q = IntQueue(3)
res["pushed"] = [q.push(1, 2, 3, 4), q.push(5, 6, 7, 8), q.push(9, 10, 11, 12), q.push(13)]
res["lost"] = q.lost
res["fifo"] = drain(q, out4)
res["empty_pop"] = q.pop(out4)

q = IntQueue(2, 3, keep_newest=True)
for i in range(5):
    q.push(i, 10 * i, 100 * i)
res["newest"] = drain(q, out3)
res["newest_lost"] = q.lost

q = IntQueue(4, 2)
for i in range(3):
    q.push(i, -i)
q.pop(out4)
q.push(7, 70)
q.push(8, 80)  # wraps around the end of the array
res["wrap"] = [list(out4[:2]) for _ in range(4) if q.pop(out4)]
q.push(1, 1)
q.clear()
res["cleared"] = q.count

def locked(q, out):
    micropython.heap_lock()
    try:
        for i in range(1000):
            q.push(i, i + 1, -i, 1 << 29)
            if i % 3 == 0:
                q.pop(out)
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        micropython.heap_unlock()
    return result

res["locked"] = locked(IntQueue(16), out4)
res["locked_newest"] = locked(IntQueue(16, 4, True), out4)
print(json.dumps(res))
"""


def test_intqueue(mp, tmp_path):
    script = tmp_path / "intqueue.py"
    script.write_text(SCRIPT)
    proc = mp(script)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    res = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    assert res["pushed"] == [True, True, True, False]
    assert res["lost"] == 1
    assert res["fifo"] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert res["empty_pop"] is False
    assert res["newest"] == [[3, 30, 300], [4, 40, 400]]
    assert res["newest_lost"] == 3
    assert res["wrap"] == [[1, -1], [2, -2], [7, 70], [8, 80]]
    assert res["cleared"] == 0
    assert res["locked"] == "ok"
    assert res["locked_newest"] == "ok"
