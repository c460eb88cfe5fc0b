# What every board shares: the sample-read results, fault bits and timeouts that tablefw.app
# relies on, and the host link over a pair of byte streams (unix port: a pty; RP2040: USB CDC
# stdin/stdout), read without blocking and waited on through asyncio's I/O queue.

import asyncio
import select

from micropython import const

NO_SAMPLE = const(-1)  # read_sample(): no sample ready yet
END = const(-2)  # read_sample(): the sample source is finished (simulation only)
FAULT_CELLS = const(1)  # bits of `faults`, in tablefw.app.FAULT_NAMES order
FAULT_ACCEL = const(2)
CELL_TIMEOUT_MS = const(1000)  # a cell without a reading this long is a fault
WDT_MS = const(2000)  # watchdog timeout (machine.WDT on the RP2040, the runner in simulation)
_READABLE = select.POLLIN | select.POLLHUP | select.POLLERR


def wait_readable(stream):
    # Awaitable: suspends the task until `stream` polls readable (asyncio's stream idiom).
    yield asyncio.core._io_queue.queue_read(stream)  # pyright: ignore[reportAttributeAccessIssue]


def poller(stream):
    poll = select.poll()
    poll.register(stream, select.POLLIN)
    return poll


def ready(poll):
    for entry in poll.ipoll(0):  # the tuple is the poller's own: no allocation
        if entry[1] & _READABLE:
            return True
    return False


class StreamHost:
    """The host link over a pair of byte streams (unix: a pty; RP2040: USB CDC stdin/stdout)."""

    def __init__(self, host_in, host_out):
        self._host_in = host_in
        self._host_out = host_out
        self._host_poll = poller(host_in)
        self._one = bytearray(1)

    def read_host(self, buf):
        n = 0
        one = self._one
        try:
            while n < len(buf) and ready(self._host_poll):
                if not self._host_in.readinto(one):
                    return n or -1  # end of file: the host side is gone
                buf[n] = one[0]
                n += 1
        except OSError:  # EIO on a pty whose other side has closed
            return n or -1
        return n

    def wait_host(self):
        return wait_readable(self._host_in)

    def write_host(self, data):
        self._host_out.write(data)
        return True
