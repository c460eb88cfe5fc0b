# Calibration on the board (commands cal, calq, tare; PROTOCOL.md section 5.1), out of the
# app's way: the last second of raw readings is kept in a ring (allocation-free, per sample).
# Tare = each cell's median over that second when it was still (tablefw/calib.py). At boot the
# first still second is the tare when the plate is empty by the stored calibration (within
# BOOT_TARE_G of its zero: drift since), or when no zero is stored. A new calibration or tare
# makes a new Detector and replays that still second into it, so it loses nothing. After an
# `arm` (in play) cal and tare are refused: storing writes flash, which stalls the RP2040, and
# a new Detector would forget the sticks on the tower.

import array

from tablefw import calib
from tablefw.compat import const
from tablefw.detect import Detector
from tablefw.reading import MISSING

_TARE_N = const(80)  # samples in the tare window (one second at 80/s)
_BOOT_TARE_GIVE_UP = const(800)  # samples after which the boot tare stops looking (~10 s)
BOOT_TARE_G = 30.0  # the boot tare is taken if the plate weighs less than this (stored zero)
COMMANDS = ("cal", "calq", "tare")


def make_detector(config):
    """The Detector for a calibration (board.config, or one changed by cal/tare)."""
    return Detector(
        config["counts_per_gram"],
        config["cell_xy_mm"],
        config["stick_g"],
        rate_hz=config.get("rate_hz", 80),
        zero_counts=config.get("zero_counts"),
        ring=config.get("ring"),
    )


class Calibrator:
    """The calibration in use (`config`), where its zero came from (`tare`: "stored", "boot",
    "command", "cal" or None) and the `detector` made from it, for `board` with `ncells`."""

    def __init__(self, board, ncells):
        self.board = board
        self.config = dict(board.config)
        self.detector = make_detector(self.config)
        self.tare = "stored" if self.config.get("zero_counts") else None
        self.in_play = False  # an `arm` came since boot: no calibration changes any more
        self.looking = True  # still looking for the boot tare
        self.ncells = ncells
        self._cells = array.array("i", [MISSING] * (ncells * _TARE_N))  # raw cells per sample
        self._t = array.array("i", [0] * _TARE_N)
        self._accel = array.array("i", [0] * (3 * _TARE_N))
        self._next = 0  # next slot
        self._filled = 0  # slots filled
        self._seen = 0  # samples since boot (up to the boot tare's give-up)

    # -- per sample: no allocation ----------------------------------------------------------

    def remember(self, t, cells, accel):
        """Keep one sample; True when the ring holds a new second the boot tare should see."""
        n = self.ncells
        k = self._next
        ring = self._cells
        for i in range(n):
            ring[k * n + i] = cells[i]
        self._t[k] = t
        acc = self._accel
        acc[3 * k] = accel[0]
        acc[3 * k + 1] = accel[1]
        acc[3 * k + 2] = accel[2]
        self._next = (k + 1) % _TARE_N
        if self._filled < _TARE_N:
            self._filled += 1
        if self._seen <= _BOOT_TARE_GIVE_UP:
            self._seen += 1
        return self._next == 0 and self.looking

    # -- commands and the boot tare (may allocate) --------------------------------------------

    def arm(self, sticks=None):
        """Play starts: the detector takes its baseline (with `sticks` standing: a re-arm after
        a reset mid-round); no calibration changes from now on."""
        self.in_play = True
        self.looking = False
        self.detector.arm(sticks)

    def report(self):
        """The `cal` event's fields: the calibration in use, where its zero came from, whether
        it is stored on the board, and whether the board is in play."""
        c = self.config
        return {
            "counts_per_gram": c["counts_per_gram"],
            "zero_counts": c.get("zero_counts"),
            "cell_xy_mm": c["cell_xy_mm"],
            "stick_g": c["stick_g"],
            "ring": c.get("ring"),
            "tare": self.tare,
            "stored": self.board.cal_file is not None,
            "play": self.in_play,
        }

    def calibrate(self, msg):
        """The `cal` command: None when used and stored, else why not."""
        if self.in_play:
            return "in play"
        config = dict(self.config)
        for key in calib.KEYS:
            if key in msg:
                config[key] = msg[key]
        why = calib.check(config, self.ncells)
        if why:
            return why
        self._use(config)
        self.tare = "cal" if config.get("zero_counts") else None
        return self.board.save_config(config)

    def tare_now(self, save):
        """The `tare` command: None when the last second is the new zero, else why not."""
        if self.in_play:
            return "in play"
        if self._filled < _TARE_N:
            return "not a second of samples yet"
        zero = self._still_zero()
        if zero is None:
            return "the plate is not still (or a cell gives no readings)"
        config = dict(self.config)
        config["zero_counts"] = zero
        self._use(config)
        self.tare = "command"
        return self.board.save_config(config) if save else None

    def boot_tare(self):
        """Look at the newest second for the boot tare (call when remember() says so)."""
        if not self.looking or self._filled < _TARE_N:
            return
        if self.in_play or self._seen > _BOOT_TARE_GIVE_UP:
            self.looking = False
            return
        zero = self._still_zero()
        if zero is None:
            return
        self.looking = False
        stored = self.config.get("zero_counts")
        if stored:
            load = calib.load_g(zero, stored, self.config["counts_per_gram"])
            if not -BOOT_TARE_G <= load <= BOOT_TARE_G:
                return  # something stands on the plate: keep the stored zero
        config = dict(self.config)
        config["zero_counts"] = zero
        self._use(config)
        self.tare = "boot"

    def _still_zero(self):
        n = self._filled
        return calib.still_zero(self._cells, n, self.ncells, self.config["counts_per_gram"])

    def _use(self, config):
        """Use a new calibration: a new Detector, fed the last second again (oldest first)."""
        det = make_detector(config)
        n = self.ncells
        cells = array.array("i", [0] * n)
        out = array.array("i", [0, 0, 0, 0])
        count = self._filled
        first = (self._next - count) % _TARE_N
        acc = self._accel
        for j in range(count):
            k = (first + j) % _TARE_N
            for i in range(n):
                cells[i] = self._cells[k * n + i]
            det.feed(self._t[k], cells, acc[3 * k], acc[3 * k + 1], acc[3 * k + 2])
            while det.pop(out):
                pass  # already reported by the detector that saw them live
        self.detector = det
        self.config = config
