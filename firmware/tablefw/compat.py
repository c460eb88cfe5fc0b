# What MicroPython has and CPython lacks, with CPython stand-ins, so the same firmware sources
# run on the board, on the unix port and in the host (`sticktable detect`, the simulator).
#
# const: write `_X = const(5)` literally in each module, importing const from here. The
# MicroPython compiler folds const() by its name at compile time (wherever const came from),
# so on the board it costs nothing; on CPython it is the identity.
# ticks_diff: board ticks wrap at 2**30 (MicroPython's ticks period); on CPython the same
# wrapped difference, so a board's trace replayed on the host (`sticktable detect`) reads its
# times across the wrap as the board did. Host clocks that never wrap lose nothing by it:
# a difference under 2**29 ms (6 days) comes out as the plain one.

try:
    from micropython import const  # type: ignore - the fallback's signature differs
except ImportError:  # CPython

    def const(value):
        return value


try:
    from time import ticks_diff  # type: ignore - the fallback's signature differs
except ImportError:  # CPython
    _TICKS_MASK = 0x3FFFFFFF
    _TICKS_HALF = 0x20000000

    def ticks_diff(a, b):
        return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF
