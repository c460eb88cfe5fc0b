"""Ring rendering (firmware/tablefw/rings.py) under the real MicroPython interpreter."""

import json

SCRIPT = r"""
import json, sys, micropython
from tablefw import rings

SEATS = 8
frame = bytearray(SEATS * rings.LEDS_PER_RING * 3)
display = rings.Display(SEATS)

def shot(name, t=0):
    rings.render(display, t, frame)
    print(json.dumps({"name": name, "frame": list(frame), "sum": sum(frame)}))

shot("idle")
ok = display.update({"k": "show", "sc": [0, 6, 11, 3], "scale": 11, "turn": 1, "mode": "play",
                     "win": [], "mk": [0, 0, 0, 1]})
print(json.dumps({"name": "update", "why": ok}))
shot("play")
display.update({"k": "show", "sc": [0, 6, 11, 3], "scale": 11, "turn": 2, "mode": "play"})
shot("play_full_turn")
display.update({"k": "show", "sc": [0, 6, 11, 3], "scale": 11, "turn": 1, "mode": "topple"})
shot("topple_on", 0)
shot("topple_off", 130)
display.update({"k": "show", "sc": [12, 6, 11, 3], "scale": 11, "turn": None, "mode": "over",
                "win": [1]})
shot("over")
display.update({"k": "show", "sc": [3, 20], "scale": 0, "mode": "play"})
shot("unscaled")
display.update({"k": "show", "sc": [], "scale": 1, "mode": "fault"})
shot("fault_on", 0)
shot("fault_off", 600)
for bad in ({"mode": "disco"}, {"turn": 9}, {"scale": -1}, {"sc": [1.5]}, {"win": [12]},
            {"sc": [0] * 9}):
    before = display.version
    print(json.dumps({"name": "refused", "why": display.update(bad),
                      "kept": display.version == before}))
print(json.dumps({"name": "cap", "sum": rings.cap(bytearray([255] * 288)),
                  "cap": rings.SUM_CAP}))
# Rendering is allocation-free: it may run beside the sampler without feeding the GC.
display.update({"k": "show", "sc": [5, 6, 7, 8], "scale": 11, "turn": 3, "mode": "play"})


def locked():
    # A function: at module level the first store of a new global can grow the dict.
    micropython.heap_lock()
    try:
        for t in range(0, 2000, 20):
            rings.render(display, t, frame)
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        micropython.heap_unlock()
    return result


locked = locked()
print(json.dumps({"name": "heap_lock", "result": locked}))
"""

LEDS = 12


def run(mp, tmp_path):
    script = tmp_path / "rings_script.py"
    script.write_text(SCRIPT)
    proc = mp(script)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    shots: dict[str, dict] = {}
    refusals = []
    for line in proc.stdout.decode().splitlines():
        item = json.loads(line)
        if item["name"] == "refused":
            refusals.append(item)
        else:
            shots[item["name"]] = item
    return shots, refusals


def leds(shot, seat):
    """The 12 (g, r, b) triples of one seat's ring."""
    frame = shot["frame"]
    base = seat * LEDS * 3
    return [tuple(frame[base + 3 * i : base + 3 * i + 3]) for i in range(LEDS)]


def lit(ring):
    return sum(1 for led in ring if any(led))


def test_rendering_under_micropython(mp, tmp_path):
    shots, refusals = run(mp, tmp_path)

    idle = shots["idle"]
    assert len(set(leds(idle, 0) + leds(idle, 7))) == 1 and 0 < max(leds(idle, 0)[0]) <= 8

    assert shots["update"]["why"] is None
    play = shots["play"]
    # scale 11 fills a ring: 0 -> 0, 6 -> ceil(6*12/11) = 7, 11 -> 12, 3 -> ceil(36/11) = 4
    assert lit(leds(play, 0)) == 0
    seat1 = leds(play, 1)
    assert lit(seat1) == 8  # 7 score LEDs + the turn's head LED just past them
    head = seat1[7]
    assert head[0] == head[1] == head[2] and head[0] > max(seat1[0])  # bright white
    assert seat1[0][2] > 0 and seat1[0][0] == seat1[0][1] == 0  # score LEDs are blue
    assert lit(leds(play, 2)) == 12
    seat3 = leds(play, 3)
    assert lit(seat3) == 5 and seat3[11][0] == seat3[11][1] > 0  # the mark: last LED yellow
    assert all(lit(leds(play, s)) == 0 for s in range(4, 8))  # seats nobody sits at are dark

    full = leds(shots["play_full_turn"], 2)  # a full ring: the head takes the last LED
    assert full[11][0] == full[11][1] == full[11][2] > 0 and lit(full) == 12

    on, off = shots["topple_on"], shots["topple_off"]
    assert all(g == 0 and b == 0 and r > 0 for g, r, b in leds(on, 0) + leds(on, 5))
    assert leds(off, 1) == seat1  # between flashes: the play display

    over = shots["over"]
    assert all(g > 0 and r == 0 and b == 0 for g, r, b in leds(over, 1))  # winner green
    assert lit(leds(over, 0)) == 12 and max(leds(over, 0)[0]) < max(seat1[0])  # others dim
    assert all(led == (0, 0, 0) for led in leds(over, 1 + 4))

    unscaled = shots["unscaled"]  # scale 0: one LED per point, a full ring at 12 or more
    assert lit(leds(unscaled, 0)) == 3 and lit(leds(unscaled, 1)) == 12

    fault_on, fault_off = shots["fault_on"], shots["fault_off"]
    assert all(r > g > 0 and b == 0 for g, r, b in leds(fault_on, 3))  # amber
    assert fault_off["sum"] == 0

    assert len(refusals) == 6
    assert all(isinstance(r["why"], str) and r["kept"] for r in refusals)
    assert shots["heap_lock"]["result"] == "ok"


def test_power_cap(mp, tmp_path):
    shots, _ = run(mp, tmp_path)
    cap = shots["cap"]
    # 96 LEDs at full white would draw ~5.8 A; the cap keeps them inside the USB budget.
    assert 0.9 * cap["cap"] <= cap["sum"] <= cap["cap"]
    assert all(shot["sum"] <= cap["cap"] for shot in shots.values() if "frame" in shot)
    assert shots["topple_on"]["sum"] >= 0.9 * cap["cap"]  # a full red table is capped, not off
