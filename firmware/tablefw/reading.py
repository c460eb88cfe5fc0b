# What one load-cell reading can be: a signed 24-bit HX711 count, or MISSING (no reading).
# Shared by the HX711 driver, the boards, the detector, the calibration and the host's traces.

from tablefw.compat import const

# A cell without a reading, outside any 24-bit value. It is -2**30, not -2**31: on a 32-bit
# port that would be a big int, and reading it out of an array("i") would allocate.
MISSING = const(-1073741824)
RAIL_HI = const(0x7FFFFF)  # saturated readings (a loose wire, no chip): not valid readings
RAIL_LO = const(-0x800000)


def signed24(v):
    """A raw 24-bit HX711 word as a signed integer."""
    return v - 0x1000000 if v & 0x800000 else v
