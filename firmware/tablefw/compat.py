# What MicroPython has and CPython lacks, with CPython stand-ins, so the same firmware sources
# run on the board, on the unix port and in the host (`sticktable detect`, the simulator).
#
# const: write `_X = const(5)` literally in each module, importing const from here. The
# MicroPython compiler folds const() by its name at compile time (wherever const came from),
# so on the board it costs nothing; on CPython it is the identity.
# ticks_diff: board ticks wrap (at 2**30 on the RP2040); the host's times are plain integers.

try:
    from micropython import const  # type: ignore - the fallback's signature differs
except ImportError:  # CPython

    def const(value):
        return value


try:
    from time import ticks_diff  # type: ignore - the fallback's signature differs
except ImportError:  # CPython

    def ticks_diff(a, b):
        return a - b
