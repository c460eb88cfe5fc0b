"""The bench's "fallen count exact per turn" is judged over every turn, as the issue measures
it: a fall reported in a turn where none fell is a wrong turn, not one left out."""

from sticktable.sim.evaluate import evaluate, fall_turns


def _truth():
    return [
        {"kind": "button", "t_ms": 0, "turn": 1},
        {"kind": "fell", "t_ms": 500, "onset_ms": 500, "turn": 1, "count": 2},
        {"kind": "button", "t_ms": 10000, "turn": 2},
        {"kind": "button", "t_ms": 20000, "turn": 3},
    ]


def _fell(t_ms, count):
    return {"kind": "fell", "t_ms": t_ms, "count": count}


def test_every_turn_counts_and_a_phantom_fall_is_a_wrong_turn():
    tally = evaluate(_truth(), [_fell(650, 2), _fell(12000, 1)])
    assert tally.turns_scored == 3
    assert tally.turns_exact == 2  # turn 2 reported a stick that never fell
    assert tally.phantom_fall_turns == 1
    assert tally.turns_with_falls == tally.fall_turns_exact == 1


def test_a_turn_with_nothing_reported_and_nothing_fallen_is_exact():
    tally = evaluate(_truth(), [_fell(650, 2)])
    assert tally.turns_scored == tally.turns_exact == 3


def test_a_miscounted_fall_is_a_wrong_turn():
    tally = evaluate(_truth(), [_fell(650, 1)])
    assert (tally.turns_scored, tally.turns_exact, tally.fall_turns_exact) == (3, 2, 0)


def test_fell_latency_runs_to_the_first_fall_told_from_50_ms_before_the_onset():
    # (a fall told 100 ms before the first stick left is an older one's; 40 ms before counts)
    turn = fall_turns(_truth(), [_fell(400, 1), _fell(460, 1), _fell(700, 1)])[0]
    assert (turn.fell, turn.onset, len(turn.told), turn.told_at) == (2, 500, 3, 460)
    assert evaluate(_truth(), [_fell(400, 1), _fell(700, 1)]).latency["fell"] == [200]


def test_a_turn_ended_by_a_topple_is_not_scored():
    truth = _truth() + [{"kind": "topple", "t_ms": 12000, "onset_ms": 11800, "turn": 2}]
    assert [t.turn for t in fall_turns(truth, [])] == [1, 3]
