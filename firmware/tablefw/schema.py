# The table's messages, one schema for every side: the board (app, link), the host (link,
# daemon), the simulator and `sticktable detect`. firmware/PROTOCOL.md section 5 tells what each
# kind means; tests/firmware/test_schema.py checks that its tables say the same as this file.
#
# On the wire fields have short names (frames stay under 512 bytes); sensor traces and
# `sticktable detect` use long ones (TRACE_NAMES). In the sampling path an event is an integer
# record (kind, t_ms, a, b) in an IntQueue; message() makes the wire message of one, for the board,
# the simulator and `detect` alike.

from tablefw.compat import const

# Integer kinds of the sampling path's records (kind, t_ms, a, b).
PLACED = const(1)  # b: grams x10 of the stick
FELL = const(2)  # a: sticks, b: grams x10 that left
TOPPLE = const(3)
TOUCH = const(4)  # b: grams x10 the hand pressed with
BUTTON = const(100)  # a: seat (0-based), b: 1 for a long press
FAULT = const(101)  # a: FAULT_NAMES index, b: 1 if the part recovered
KIND_NAMES = {
    PLACED: "placed",
    FELL: "fell",
    TOPPLE: "topple",
    TOUCH: "touch",
    BUTTON: "button",
    FAULT: "fault",
}
FAULT_NAMES = ("cells", "accel")  # board.faults bit i
G_SCALE = const(10)  # the wire's `g` is grams x10 (integers)

# Board -> host. Link housekeeping, unsequenced (PROTOCOL.md section 2): never acknowledged.
LINK_KINDS = ("hello", "hb", "ack", "err", "raw")
# Events: sequenced, kept and resent until acknowledged. Kind -> its fields (besides s, b).
EVENTS = {
    "placed": ("t", "g"),
    "fell": ("t", "n", "g"),
    "topple": ("t",),
    "touch": ("t", "g"),
    "button": ("t", "seat", "long"),
    "fault": ("t", "what", "ok"),
    "gap": ("n", "why"),
    "cal": (
        "counts_per_gram",
        "zero_counts",
        "cell_xy_mm",
        "stick_g",
        "ring",
        "tare",
        "stored",
        "play",
    ),
}
# Host -> board commands (each with id and s; answered by ack or err). Kind -> its fields.
COMMANDS = {
    "show": ("sc", "scale", "turn", "mode", "win", "mk"),
    "arm": ("sticks",),  # sticks (1.2): the tower after a reset mid-round
    "stream": ("on",),
    "calq": (),
    "cal": ("counts_per_gram", "zero_counts", "cell_xy_mm", "stick_g", "ring"),
    "tare": ("save",),
}
HOST_LINK_KINDS = ("ping", "ack")  # the host's housekeeping, never answered
# Kinds only the host sends: a tty that echoes them back is not the board talking.
HOST_ONLY = tuple(
    k for k in tuple(COMMANDS) + HOST_LINK_KINDS if k not in EVENTS and k not in LINK_KINDS
)

# Wire field -> its name in sensor traces and `sticktable detect` output, in that order.
TRACE_NAMES = (("t", "t_ms"), ("k", "kind"), ("n", "count"), ("g", "grams"))


def message(kind, t, a, b):
    """The wire message of one record (kind, t_ms, a, b), without the link's `s` and `b`."""
    if kind == BUTTON:
        return {"k": "button", "t": t, "seat": a, "long": bool(b)}
    if kind == FAULT:
        return {"k": "fault", "t": t, "what": FAULT_NAMES[a], "ok": bool(b)}
    if kind == FELL:
        return {"k": "fell", "t": t, "n": a, "g": b}
    if kind == PLACED or kind == TOUCH:
        return {"k": KIND_NAMES[kind], "t": t, "g": b}
    return {"k": KIND_NAMES.get(kind, "kind%d" % kind), "t": t}


def trace_event(msg):
    """A detector message in the long names of traces and `sticktable detect` (grams, not x10)."""
    out = {}
    for short, long in TRACE_NAMES:
        if short in msg:
            v = msg[short]
            out[long] = v / G_SCALE if short == "g" else v
    return out
