# Entry point of the simulated board on MicroPython's unix port (started by
# host/sticktable/sim/runner.py):
#
#   micropython -X heapsize=192K unix_main.py --samples-fd N --frames-fd M
#                                             [--board-id ID] [--seats N] [--free-run]
#                                             [--reset CAUSE] [--keep FILE]
#
# --free-run: simulated time does not wait for the host (by default the next sample is taken
# only while the host is connected and has acknowledged every event; see tablefw/app.py).
# --reset: the reset cause the hello reports (default power-on; the runner's watchdog restarts
# the firmware with --reset watchdog).
# --keep: the file standing for the RP2040's watchdog scratch registers (tablefw/keep.py): the
# runner keeps it across its watchdog resets, so the next hello's `prev` says what was lost.
# The host link is stdin/stdout (the runner gives us a pty). MicroPython prints tracebacks on
# stdout, which is the protocol stream: every exception is caught here and written to stderr.

import sys

USAGE = (
    "usage: unix_main.py --samples-fd N --frames-fd M [--board-id ID] [--seats N] [--free-run]"
    " [--reset CAUSE] [--keep FILE]"
)


def _options(argv):
    opts = {
        "--samples-fd": None,
        "--frames-fd": None,
        "--board-id": None,
        "--seats": None,
        "--reset": None,
        "--keep": None,
    }
    free_run = False
    i = 1
    while i < len(argv):
        key = argv[i]
        if key == "--free-run":
            free_run = True
            i += 1
            continue
        if key not in opts or i + 1 >= len(argv):
            raise ValueError(USAGE + "; bad argument " + key)
        opts[key] = argv[i + 1]
        i += 2
    if opts["--samples-fd"] is None or opts["--frames-fd"] is None:
        raise ValueError(USAGE)
    return opts, free_run


def main():
    from tablefw import app
    from tablefw.board_sim import SimBoard

    opts, free_run = _options(sys.argv)
    samples = open(int(opts["--samples-fd"]), "rb")
    frames = open(int(opts["--frames-fd"]), "wb")
    seats = opts["--seats"]
    board = SimBoard(
        samples,
        frames,
        sys.stdin.buffer,
        sys.stdout.buffer,
        board_id=opts["--board-id"],
        seats=int(seats) if seats else None,
        paced=not free_run,
        reset=opts["--reset"] or "power-on",
        keep_file=opts["--keep"],
    )
    app.main(board)


try:
    main()
except KeyboardInterrupt:
    pass
except BaseException as e:  # noqa: BLE001 - keep the traceback off the protocol stream
    sys.print_exception(e, sys.stderr)
    sys.exit(1)
