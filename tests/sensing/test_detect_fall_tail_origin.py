"""A fall's tail keeps the press watch's origin from the window it was judged on (issue 10).

`Detector._fall_tail` settles a fall's count on the whole drop and commits the new level, with
the press watch's origin (`_keep_origin`) averaged over the window the change was judged on
(8 samples, or the quick window's 4). Its stick count had been named like that window, so the
origin was averaged over as many samples as sticks fell: one sample of a noisy plate's moments
strays by 100 g x mm, which is what the window's average is for."""

from tablefw.detect import Detector

XY = [(-66, -66), (66, -66), (66, 66), (-66, 66)]


def test_a_fall_tail_takes_the_origin_over_its_window():
    det = Detector([2000.0] * 4, XY, 8.0, rate_hz=80)
    for j in range(32):  # a plate whose last samples all differ (a noisy one's moments)
        det._ring[j] = 2400 - 37 * j
        det._mxr[j] = 500 + 61 * (j % 5)
        det._myr[j] = -300 + 43 * (j % 7)
    det._ri = 32 & 31
    det._level = 3200
    det._nsticks, det._sum = 3, 2400
    det._fall_n, det._fall_drop = 1, 800  # one stick told; its rest leaves now
    det._fall_tail(10000, -50, 4)
    assert (det._wt, det._mx, det._my) == (
        det._avg(det._ring, 4),
        det._avg(det._mxr, 4),
        det._avg(det._myr, 4),
    )
