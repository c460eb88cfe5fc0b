"""A lean that begins with the base at its rest (issue 10, tuning games of the "slow-hands" and
"overlap" regimes).

The table counts as leant on once the moments move with the weight steady (lean.py). A lean
starting with the base at its rest used to be refused as a lean being let go, whose tail would
otherwise start a new lean that hides falls under presses for 10 s. A lean's first few mg of
tilt are within the base's noise, so a lean beginning near the rest went unseen until a hand
touched the tower, and that hand's let-go, with the moments moved by the lean, was told as a
stick swapped: "placed" and "fell 1" for nothing. A base at its rest is a lean beginning now,
unless someone is letting go of the table (LeanWatch.letting_go): the base stood further from
its rest over the last second than it stands now, as after a lean never seen (begun under a
placement) or one judged over halfway through its release."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def kinds(events, start_ms, end_ms):
    return [e["kind"] for e in events if start_ms <= e["t_ms"] <= end_ms]


def test_a_lean_begun_at_rest_is_no_stick_swapped_under_the_next_touch():
    """slow-hands 1083: leant on at 125.9 s (the base 3-6 mg from its rest, seen in the
    moments alone), a touch from 126.3 s to 126.7 s."""
    game = tuning_game("slow-hands", 1083)
    truth = [e for e in game.truth_events() if 125500 <= e["t_ms"] <= 127500]
    assert [e["kind"] for e in truth if e["kind"] != "button"] == ["lean", "touch"]
    events = run_detector(game.meta, samples_between(game, 0, 127500))
    assert kinds(events, 125500, 127500) == ["touch"], events[-4:]


def test_the_tail_of_a_lean_seen_ending_is_no_new_lean():
    """overlap 1013: a lean seen from 212.6 s was judged over at 215.4 s, halfway through its
    release; the release's tail (the base back at its rest) is no new lean, which would hide
    the stick that fell under the next press (217.7 s). (The old code refused every lean at
    the rest, and passes; letting such leans start for 3 s at most failed here.)"""
    game = tuning_game("overlap", 1013)
    truth = [e for e in game.truth_events() if 216000 <= e["t_ms"] <= 219000]
    assert [e["kind"] for e in truth if e["kind"] != "button"] == ["fell", "placed"]
    events = run_detector(game.meta, samples_between(game, 0, 219000))
    assert kinds(events, 217500, 219000) == ["fell", "placed"], events[-4:]
