"""After a board reset mid-round the host re-arms the new boot's detector with the tower as the
rules know it (`arm` with `sticks`, PROTOCOL.md 1.2): the baseline is taken at once with the
sticks on it, so the next placement is seen and falls are counted against their masses."""

from array import array

from tablefw.detect import FELL, KIND_NAMES, Detector

CPG = [2150.0] * 4
XY = [[-65, -65], [65, -65], [65, 65], [-65, 65]]
PERIOD = 12


def plate(grams: float, k: int) -> array:
    # Each cell carries a quarter; a little deterministic noise.
    return array("i", [int(grams / 4 * 2150) + (k * 7 + i * 3) % 11 - 5 for i in range(4)])


def run(arm_with):
    """A new boot with three sticks (8.0, 8.2, 7.9 g) standing; the host's arm at 0.6 s; a
    stick placed at 0.7 s; the whole tower falls at 2.5 s. The events the detector reports."""
    det = Detector(CPG, XY, 8.0)
    out = array("i", [0, 0, 0, 0])
    events = []
    for k in range(300):
        t = k * PERIOD
        grams = 24.1
        if t >= 700:
            grams += min(8.1, (t - 700) / 100 * 8.1)  # the hand lets go over 0.1 s
        if t >= 2500:
            grams = 0.0
        if t == 600 and arm_with is not False:
            det.arm(arm_with)
        det.feed(t, plate(grams, k), 0, 0, 1000)
        while det.pop(out):
            events.append((KIND_NAMES[out[0]], out[2] if out[0] == FELL else 1, out[3]))
    return events


def test_rearmed_with_the_tower_the_detector_goes_on_where_it_was():
    events = run([80, 82, 79])
    assert [e[0] for e in events] == ["placed", "fell"]
    assert 75 <= events[0][2] <= 87  # the stick placed: ~8.1 g
    assert events[1][1] == 4  # the three standing and the new one


def test_without_the_rearm_the_new_boot_misses_the_stick_in_play():
    events = run(False)
    assert "placed" not in [e[0] for e in events]
