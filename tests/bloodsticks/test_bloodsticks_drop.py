"""Drop scoring against hand-computed cases (rulings 1-4 and the house rules that change them).

Table: Ann a1 a2, Bo b1 b2, Cy c1 c2; every stick lies flat (1 point) unless a case says
otherwise. Each expected value is worked out by hand in the comment beside it.
"""

import copy
import random

import pytest

from sticktable.games.bloodsticks import DropError, DropRules, score_drop_document

PLAYERS = {"Ann": ["a1", "a2"], "Bo": ["b1", "b2"], "Cy": ["c1", "c2"]}


def score(changes: dict, drop: int = 1, dropper: str = "Ann", **house) -> dict:
    sticks = {sid: {"posture": "flat"} for ids in PLAYERS.values() for sid in ids}
    sticks.update({"blood": {}, "henki": {}})
    for sid, entry in changes.items():
        sticks[sid] = {**sticks[sid], **entry}
    doc = {"players": PLAYERS, "dropper": dropper, "drop": drop, "sticks": sticks}
    return score_drop_document(doc, DropRules(**house))


def points(changes: dict, **kw) -> dict:
    result = score(changes, **kw)
    assert result["redo"] is False
    return result["points"]


def test_postures_flat_thin_thick_center():
    got = points(
        {"a2": {"posture": "thin"}, "b1": {"posture": "thick"}, "b2": {"posture": "center"}}
    )
    assert got == {"Ann": 1 + 2, "Bo": 4 + 8, "Cy": 1 + 1}


def test_stick_on_another_cancels_it():
    # a1 (1) lies on b1 (centre, 8): b1 is cancelled; a1 keeps its point.
    got = points({"a1": {"on": ["b1"]}, "b1": {"posture": "center"}})
    assert got == {"Ann": 2, "Bo": 0 + 1, "Cy": 2}


def test_own_stick_cancels_too():
    # a1 lies on Ann's own a2 (thick, 4): a2 counts 0.
    assert points({"a1": {"on": ["a2"]}, "a2": {"posture": "thick"}})["Ann"] == 1


def test_cancelling_is_not_transitive_and_dead_sticks_cancel_by_default():
    # a1 on b1 on c1 (centre). a1 cancels b1 only; b1, though cancelled, still lies on c1 and
    # cancels it under the default dead_sticks_cancel=yes.
    layout = {"a1": {"on": ["b1"]}, "b1": {"on": ["c1"]}, "c1": {"posture": "center"}}
    assert points(layout) == {"Ann": 2, "Bo": 1, "Cy": 1}
    # dead_sticks_cancel=no changes nothing here: only a stick the bloodstick kills stops
    # cancelling; b1, cancelled by a1, still cancels c1 (ruling G8).
    assert points(layout, dead_sticks_cancel=False) == {"Ann": 2, "Bo": 1, "Cy": 1}


def test_a_stick_on_two_sticks_cancels_both():
    got = points({"c2": {"posture": "thick", "on": ["a1", "b1"]}})
    assert got == {"Ann": 1, "Bo": 1, "Cy": 1 + 4}


def test_killed_stick_lying_on_another_cancels_only_when_dead_sticks_cancel():
    # blood touches a1 (killed) and a1 lies on b2 (thick).
    layout = {"a1": {"on": ["b2"], "touch": ["blood"]}, "b2": {"posture": "thick"}}
    assert points(layout) == {"Ann": 0 + 1, "Bo": 1 + 0, "Cy": 2}
    assert points(layout, dead_sticks_cancel=False) == {"Ann": 1, "Bo": 1 + 4, "Cy": 2}


def test_henki_and_bloodstick_never_cancel():
    # The henki lies on a2 (thick): x3, not cancelled = 12. The bloodstick lies on b1 which the
    # henki also touches: both ignored for b1 = its plain 8.
    got = points(
        {
            "a2": {"posture": "thick"},
            "henki": {"on": ["a2"], "touch": ["b1"]},
            "blood": {"on": ["b1"]},
            "b1": {"posture": "center"},
        }
    )
    assert got == {"Ann": 1 + 12, "Bo": 8 + 1, "Cy": 2}


def test_bloodstick_kills_what_it_touches_either_way_it_is_written():
    assert points({"b1": {"posture": "center", "touch": ["blood"]}})["Bo"] == 1
    assert points({"b1": {"posture": "center"}, "blood": {"touch": ["b1"]}})["Bo"] == 1
    assert points({"b1": {"posture": "center", "on": ["blood"]}})["Bo"] == 1
    assert points({"b1": {"posture": "center"}, "blood": {"on": ["b1"]}})["Bo"] == 1


def test_bloodstick_kills_each_stick_alone():
    # blood touches b1 and c1, the henki touches c1 only: b1 dies, c1 is counted plain.
    got = points(
        {
            "blood": {"touch": ["b1", "c1"]},
            "henki": {"touch": ["c1"]},
            "b1": {"posture": "thin"},
            "c1": {"posture": "thin"},
        }
    )
    assert got == {"Ann": 2, "Bo": 0 + 1, "Cy": 2 + 1}


# c1 is a thin stick (2 points); c2 flat (1). Relations to the henki (H) and bloodstick (B),
# and Cy's points worked out by hand: every combination of touching, H on c1 and c1 on H,
# alone, together, with the bloodstick, and cancelled.
MULTIPLIERS = [
    ("nothing", {}, 2 + 1),
    ("c1 touches H", {"c1": {"touch": ["henki"]}}, 4 + 1),
    ("H touches c1", {"henki": {"touch": ["c1"]}}, 4 + 1),
    ("H on c1: x3", {"henki": {"on": ["c1"]}}, 6 + 1),
    ("c1 on H: x4", {"c1": {"on": ["henki"]}}, 8 + 1),
    ("touch and H on c1: largest x3", {"c1": {"touch": ["henki"]}, "henki": {"on": ["c1"]}}, 6 + 1),
    ("touch and c1 on H: largest x4", {"c1": {"touch": ["henki"], "on": ["henki"]}}, 8 + 1),
    ("H touches and c1 on H", {"henki": {"touch": ["c1"]}, "c1": {"on": ["henki"]}}, 8 + 1),
    ("B touches c1: dead", {"c1": {"touch": ["blood"]}}, 0 + 1),
    ("B on c1: dead", {"blood": {"on": ["c1"]}}, 0 + 1),
    ("c1 on B: dead", {"c1": {"on": ["blood"]}}, 0 + 1),
    ("touch H and B: both ignored", {"c1": {"touch": ["henki", "blood"]}}, 2 + 1),
    (
        "H on c1 and B touches: both ignored",
        {"henki": {"on": ["c1"]}, "blood": {"touch": ["c1"]}},
        2 + 1,
    ),
    ("c1 on H and B touches: both ignored", {"c1": {"on": ["henki"], "touch": ["blood"]}}, 2 + 1),
    ("c1 on H and on B", {"c1": {"on": ["henki", "blood"]}}, 2 + 1),
    ("H and B both on c1", {"henki": {"on": ["c1"]}, "blood": {"on": ["c1"]}}, 2 + 1),
    ("H on c1, but c1 cancelled by a1", {"henki": {"on": ["c1"]}, "a1": {"on": ["c1"]}}, 0 + 1),
    ("c1 on H, cancelled by a1", {"c1": {"on": ["henki"]}, "a1": {"on": ["c1"]}}, 0 + 1),
    ("c1 on H and c2 on H: each x4", {"c1": {"on": ["henki"]}, "c2": {"on": ["henki"]}}, 8 + 4),
    ("c1 on H, c2 touches H", {"c1": {"on": ["henki"]}, "c2": {"touch": ["henki"]}}, 8 + 2),
    ("H on c1 and on c2: each x3", {"henki": {"on": ["c1", "c2"]}}, 6 + 3),
    (
        "c1 touches H, c2 on c1 (cancelled)",
        {"c1": {"touch": ["henki"]}, "c2": {"on": ["c1"]}},
        0 + 1,
    ),
]


@pytest.mark.parametrize(("case", "layout", "cy"), MULTIPLIERS, ids=[m[0] for m in MULTIPLIERS])
def test_henki_multipliers_every_combination(case, layout, cy):
    changes = {"c1": {"posture": "thin"}}
    for sid, entry in layout.items():
        changes[sid] = {**changes.get(sid, {}), **entry}
    got = points(changes)
    assert got["Cy"] == cy
    assert (got["Ann"], got["Bo"]) == (2, 2)  # a1 lying on c1 keeps its own point


def test_henki_on_the_stick_and_the_stick_on_the_henki_is_a_cycle():
    with pytest.raises(DropError, match="cycle"):
        score({"c1": {"on": ["henki"]}, "henki": {"on": ["c1"]}})


ROUND_SCOPE = [
    # c1 thin on the henki (x4), c2 flat: stick scope 8 + 1; round scope (2 + 1) x 4.
    ({"c1": {"posture": "thin", "on": ["henki"]}}, 9, 12),
    # henki on c1 (x3), c2 touches the henki (x2 stays on the stick): 6 + 2 | (2 + 2) x 3.
    ({"c1": {"posture": "thin"}, "henki": {"on": ["c1"]}, "c2": {"touch": ["henki"]}}, 8, 12),
    # c1 on the henki (x4) and the henki on c2 (x3): the largest multiplies the total.
    ({"c1": {"posture": "thin", "on": ["henki"]}, "henki": {"on": ["c2"]}}, 8 + 3, (2 + 1) * 4),
    # only touching: x2 per stick either way.
    ({"c1": {"posture": "thin", "touch": ["henki"]}}, 5, 5),
    # c1 on the henki but cancelled by a1: 0 + 1 | G8: it still brings x4: (0 + 1) x 4.
    ({"c1": {"posture": "thin", "on": ["henki"]}, "a1": {"on": ["c1"]}}, 1, 4),
    # c1 on the henki but the bloodstick touches it (and the henki): it brings nothing (G8).
    ({"c1": {"posture": "thin", "on": ["henki"], "touch": ["blood"]}}, 2 + 1, 2 + 1),
]


@pytest.mark.parametrize(("layout", "stick", "round_"), ROUND_SCOPE)
def test_henki_scope_round_multiplies_the_players_drop_total(layout, stick, round_):
    assert points(layout)["Cy"] == stick
    assert points(layout, henki_scope="round")["Cy"] == round_


def test_player_stick_off_on_a_first_drop_means_redo():
    assert score({"b2": {"off": True}}) == {"redo": True, "points": {}}


def test_bloodstick_or_henki_off_on_a_first_drop_plays_on_without_them():
    # The bloodstick is off: b1 (which it "touched" before it left) scores; the henki is off:
    # c1 lying on it gets no multiplier.
    got = points(
        {
            "blood": {"off": True},
            "b1": {"posture": "center", "touch": ["blood"]},
            "henki": {"off": True},
            "c1": {"posture": "thin", "on": ["henki"]},
        }
    )
    assert got == {"Ann": 2, "Bo": 8 + 1, "Cy": 2 + 1}


def test_careless_drop_credits_owners_and_charges_the_dropper():
    # Ann drops again: Bo's b2 and both of Cy's sticks left the surface: 8 each to their owners,
    # 24 off Ann, whose own sticks score 1 + 1.
    got = points({"b2": {"off": True}, "c1": {"off": True}, "c2": {"off": True}}, drop=2)
    assert got == {"Ann": 2 - 24, "Bo": 1 + 8, "Cy": 16}


def test_careless_drop_penalties_for_bloodstick_henki_and_own_stick():
    # Ann's own a1 off: dead, no penalty. Bo's b2 off: +8 Bo, -8 Ann. Bloodstick -10, henki -20.
    got = points(
        {"a1": {"off": True}, "b2": {"off": True}, "blood": {"off": True}, "henki": {"off": True}},
        drop=2,
    )
    assert got == {"Ann": 1 - 8 - 10 - 20, "Bo": 1 + 8, "Cy": 2}


def test_careless_bloodstick_alone_and_henki_alone():
    assert points({"blood": {"off": True}}, drop=2) == {"Ann": 2 - 10, "Bo": 2, "Cy": 2}
    assert points({"henki": {"off": True}}, drop=2, dropper="Bo") == {
        "Ann": 2,
        "Bo": 2 - 20,
        "Cy": 2,
    }


def test_second_drop_with_everything_on_the_surface_counts_normally():
    assert points({"a1": {"posture": "center"}}, drop=2) == {"Ann": 9, "Bo": 2, "Cy": 2}


def test_careless_credits_are_not_multiplied_and_killed_sticks_still_count_for_others():
    # Round scope, Cy's c1 on the henki (x4 on Cy's total), c2 off: Cy = 2 x 4 + 8 = 16.
    got = points(
        {"c1": {"posture": "thin", "on": ["henki"]}, "c2": {"off": True}},
        drop=2,
        henki_scope="round",
    )
    assert got == {"Ann": 2 - 8, "Bo": 2, "Cy": 8 + 8}


def test_relations_with_a_stick_that_left_the_surface_are_ignored():
    # c2 left the surface (careless drop): a1 "on" c2 is no relation; a1 scores, nothing cancels.
    got = points({"c2": {"off": True}, "a1": {"on": ["c2"]}}, drop=2, dropper="Bo")
    assert got == {"Ann": 2, "Bo": 2 - 8, "Cy": 1 + 8}


JUNK = [None, True, 0, 2, -1.5, "", "a1", "flat", "blood", [], ["a1"], [["a1"]], {}, {"a1": 1}]


def test_junk_anywhere_in_a_drop_is_refused_with_a_reason_never_a_crash():
    rng = random.Random(11)
    base = {
        "players": PLAYERS,
        "dropper": "Ann",
        "drop": 2,
        "sticks": {
            "a1": {"posture": "flat", "on": ["b1"], "touch": ["henki"]},
            "a2": {"posture": "thin", "off": True},
            "b1": {"posture": "center"},
            "b2": {"posture": "thick", "touch": ["blood"]},
            "c1": {"posture": "flat"},
            "c2": {"posture": "flat"},
            "blood": {},
            "henki": {"on": ["c1"]},
        },
    }
    paths = [("players",), ("players", "Bo"), ("dropper",), ("drop",), ("sticks",)]
    for sid in base["sticks"]:
        paths.append(("sticks", sid))
        paths += [("sticks", sid, key) for key in ("posture", "off", "on", "touch")]
    outcomes = set()
    for _ in range(600):
        doc = copy.deepcopy(base)
        for path in rng.sample(paths, k=rng.randint(1, 3)):
            target = doc
            for key in path[:-1]:
                target = target.get(key) if isinstance(target, dict) else None
            if isinstance(target, dict):
                target[path[-1]] = copy.deepcopy(rng.choice(JUNK))
        try:
            score_drop_document(doc)
            outcomes.add("scored")
        except DropError as err:
            assert str(err) and "\n" not in str(err)
            outcomes.add("refused")
    assert outcomes == {"scored", "refused"}
