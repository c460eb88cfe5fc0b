# Fake `rp2`: the PIO program is kept, not assembled; the RX FIFO is a list read by an index
# (list.pop(0) may shrink the list, i.e. allocate, which would spoil heap_lock tests).
class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0
    JOIN_RX = 2


def asm_pio(**options):
    def wrap(program):
        return (program, options)

    return wrap


machines = []


class StateMachine:
    def __init__(self, sm_id, program, freq=0, sideset_base=None, in_base=None):
        self.program = program
        self.freq = freq
        self.sideset_base = sideset_base
        self.in_base = in_base
        self.fifo = []
        self.next = 0
        self.running = False
        machines.append(self)

    def active(self, on=None):
        if on is not None:
            self.running = bool(on)
        return self.running

    def rx_fifo(self):
        return len(self.fifo) - self.next

    def get(self):
        self.next += 1
        return self.fifo[self.next - 1]
