"""A knock on a noisy base is no fall (issue 10: fallen count exact per turn), and a quieter
base's own jumps hold no fall back (fell p95 <= 200 ms).

A knock kicks the plate: through the ringing filter the load dips for a few samples, like a
stick's weight going. The Detector holds a fall's onset back while the base jolted (over 8x
its learned noise, and 40 mg), asking the newest load to show the drop stands
(onset.was_kicked). On a noisy base (jumps of 28 mg rms and over) a knock's jump can stay
under 8x that noise; there a jump over 4x is taken as a knock maybe. Only there: on a quieter
base 4x its noise is what the base's own noise and a stick landing on the table make during
falls. From 10 mg rms a jump over 6x is a knock maybe too, behind the fast boxcar only, and a
lower level held 50 ms just after it is no fall unless the newest load still shows it
(onset.kick_passed)."""

from tuning_games import fall_latency, fall_told_after, told_between, tuning_game, turn_span


def test_a_knock_a_noisy_base_barely_felt_is_no_fall():
    # Noisy cells (tuning seed 1059), turn 91: a knock at 371.78 s dips the total 19 g over
    # three samples and swings it back 24 g over; the base jumps 70 mg against a learned
    # noise of 32 mg (8x its energy asks 90). Told "fell 1" at 371.83 s.
    game = tuning_game("noisy", 1059)
    start, end = turn_span(game, 91)
    assert told_between(game, start, end) == [("placed", None)]


def test_a_fall_after_a_knock_on_a_noisy_base_is_counted_once():
    # Noisy cells (tuning seed 1090), turn 82: a stick falls at 305.05 s and is told; a knock
    # at 305.83 s was told as "fell 1" twice more.
    game = tuning_game("noisy", 1090)
    start, end = turn_span(game, 82)
    assert told_between(game, start, end) == [("placed", None), ("fell", 1)]


def test_a_quieter_base_jumping_within_its_noise_holds_no_fall_back():
    # Real tower (tuning seed 1016), turn 11: a stick falls at 51.62 s, the base jumping up
    # to 17 mg from sample to sample meanwhile (its learned noise: 9 mg). Told 161 ms after
    # it began; with a jump over 4x the noise and 20 mg taken as a knock maybe on any base,
    # 199 ms.
    late = fall_told_after(tuning_game("real", 1016), (51600, 51700), 52500)
    assert late is not None and late <= 180, late


def test_a_knock_a_less_noisy_base_felt_at_6x_is_no_fall():
    # Noisy cells (tuning seed 1043), turn 49: a knock at 194.16 s on a plate already ringing
    # 8.5 samples a cycle. The base jumps 6.9x its learned noise (12 mg rms: under the 28 mg
    # where 4x counts); the nulled total dips for 4-5 samples and comes back. Told "fell 1" at
    # 194.21 s; held back as a kick, then "fell 1" from the quick level at 194.23 s, which the
    # newest load no longer showed (onset.kick_passed).
    game = tuning_game("noisy", 1043)
    start, end = turn_span(game, 49)
    assert told_between(game, start, end) == [("placed", None)]


def test_a_stick_clipping_the_base_holds_no_slow_plate_fall_back():
    # Independent tower (tuning seed 1033), turn 39: three sticks fall from 145.74 s on a
    # slow plate (a 10-sample boxcar); one clips the base 140 ms in, a jump of 6.8x its
    # noise (14 mg rms). Told 165 ms after the first left; with that jump taken as a kick
    # behind a slow boxcar too, 203 ms.
    assert fall_latency("independent", 1033, (145700, 145800)) <= 180
