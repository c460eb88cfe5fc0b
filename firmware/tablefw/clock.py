# Board time where CPython lacks MicroPython's: the Pi's board (board_blinka) runs the same
# application under CPython. On MicroPython these are time.ticks_ms/ticks_us and asyncio's
# allocation-free sleep_ms themselves; on CPython, ticks count from the start and never wrap
# (ticks_diff, from tablefw.compat, wraps at 2**30 as on the board: the same for them).
# The CPython side is type-checked against MicroPython's stubs too: hence the ignore comments.

from tablefw.compat import ticks_diff  # noqa: F401 - board_base reads time from here on CPython

try:
    from time import ticks_ms, ticks_us  # type: ignore
except ImportError:  # CPython
    import time as _time

    _ns = _time.monotonic_ns  # type: ignore
    _T0 = _ns()

    def ticks_ms():
        return (_ns() - _T0) // 1_000_000

    def ticks_us():
        return (_ns() - _T0) // 1000


try:
    from asyncio import sleep_ms  # type: ignore
except ImportError:  # CPython
    import asyncio as _asyncio

    def sleep_ms(ms):  # type: ignore
        return _asyncio.sleep(ms / 1000)
