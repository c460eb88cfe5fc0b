"""LIS3DH driver (firmware/tablefw/accel.py) with a register-level fake I2C, under MicroPython."""

import json

SCRIPT = r"""
import array, json, micropython
from tablefw.accel import LIS3DH

class FakeI2C:
    # Registers of a LIS3DH at 0x18; fails like a bus with nothing on it when `dead`.
    def __init__(self, who=0x33):
        self.regs = bytearray(0x40)
        self.regs[0x0F] = who
        self.dead = False
        self.writes = []
    def _check(self, addr):
        if self.dead or addr != 0x18:
            raise OSError(5)  # EIO: no acknowledge
    def readfrom_mem_into(self, addr, reg, buf):
        self._check(addr)
        start = reg & 0x7F
        step = 1 if reg & 0x80 else 0  # bit 7: auto-increment
        for i in range(len(buf)):
            buf[i] = self.regs[start + i * step]
    def writeto_mem(self, addr, reg, data):
        self._check(addr)
        self.writes.append((reg, data[0]))
        self.regs[reg] = data[0]
    def set_mg(self, x, y, z):
        for i, v in enumerate((x, y, z)):
            raw = (v << 4) & 0xFFFF
            self.regs[0x28 + 2 * i] = raw & 0xFF
            self.regs[0x29 + 2 * i] = raw >> 8

res = {}
out = array.array("i", [0, 0, 0])
i2c = FakeI2C()
acc = LIS3DH(i2c)
res["init"] = acc.init()
res["writes"] = i2c.writes
i2c.set_mg(12, -87, 998)
res["read"] = acc.read(out) and list(out)
i2c.set_mg(-2048, 2047, 0)
acc.read(out)
res["extremes"] = list(out)


def locked():
    # A function: at module level the first store of a new global or dict key allocates.
    micropython.heap_lock()
    try:
        for _ in range(100):
            acc.read(out)
        result = "ok"
    except MemoryError:
        result = "allocated"
    finally:
        micropython.heap_unlock()
    return result


res["heap_lock"] = locked()
i2c.dead = True
res["dead_read"] = acc.read(out)
res["dead_out"] = list(out)
res["dead_ok"] = acc.ok
res["wrong_chip"] = LIS3DH(FakeI2C(who=0x44)).init()
res["absent"] = LIS3DH(FakeI2C(), addr=0x19).init()
print(json.dumps(res))
"""


def test_lis3dh_driver(mp, tmp_path):
    script = tmp_path / "accel_script.py"
    script.write_text(SCRIPT)
    proc = mp(script)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    res = json.loads(proc.stdout.decode().splitlines()[-1])
    assert res["init"] is True
    assert res["writes"] == [[0x20, 0x57], [0x23, 0x88]]  # 100 Hz XYZ; BDU, HR, +-2 g
    assert res["read"] == [12, -87, 998]
    assert res["extremes"] == [-2048, 2047, 0]
    assert res["heap_lock"] == "ok"
    assert res["dead_read"] is False and res["dead_out"] == [-2048, 2047, 0]
    assert res["dead_ok"] is False
    assert res["wrong_chip"] is False and res["absent"] is False
