"""Bloodsticks game records (host/docs/formats/bloodsticks-game.md): the format's example, one
hand-worked record per ruling G1-G8, and one refusal per class of the format's "Refused" list.

Seats are clockwise in header order: a player's left is the next name, their right the previous.
"""

import json
import random

import pytest

from sticktable.cli import main
from sticktable.errors import InputRefused
from sticktable.games.bloodsticks.record import read_record, result


def lines_of(*lines) -> list[str]:
    return [line if isinstance(line, str) else json.dumps(line) for line in lines]


def score(*lines) -> dict:
    game, side_lines = read_record(lines_of(*lines))
    return result(game.state, side_lines)


def flat(*players, count=2, **entries) -> dict:
    """A layout: every stick of `players` flat, blood and henki lying free, then `entries`."""
    sticks = {f"{p}{k}": {"posture": "flat"} for p in players for k in range(1, count + 1)}
    sticks.update(blood={}, henki={})
    sticks.update(entries)
    return {"sticks": sticks}


def round_(dropper, bet, *answers, **points) -> list[dict]:
    """A round: the dropper's line, the answers (a name matches, "-name" falls out), the points."""
    lines = [{"dropper": dropper, "bet": bet}]
    lines += [{"fall_out": a[1:]} if a.startswith("-") else {"match": a} for a in answers]
    return lines + ([{"points": points}] if points else [])


ANN_BO_CY = {"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"]}
FOUR = {"game": "bloodsticks", "players": ["Ann", "Bo", "Cy", "Dee"]}

SPEC_EXAMPLE = """\
{"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"]}
{"first": "Ann"}
{"dropper": "Ann", "bet": 3}
{"match": "Bo"}
{"match": "Cy"}
{"sticks": {"Ann1": {"posture": "flat"}, "Ann2": {"posture": "thick", "on": ["Bo1"]}, \
"Bo1": {"posture": "center"}, "Bo2": {"posture": "flat", "touch": ["blood"]}, \
"Cy1": {"posture": "thin", "on": ["henki"]}, "Cy2": {"posture": "flat"}, "blood": {}, "henki": {}}}
{"override": {"Bo": 1}}
{"dropper": "Cy", "bet": 2}
{"fall_out": "Ann"}
{"match": "Bo"}
{"points": {"Bo": 4, "Cy": 6}}
{"dropper": "Bo", "bet": 5}
{"match": "Cy"}
{"points": {"Bo": 10, "Cy": 0}}
{"points": {"Bo": 2, "Cy": 3}}
"""


def test_the_formats_example(tmp_path, capsys):
    # Round 1: Ann 1 + 4, Bo 0 (Bo1 under Ann2, Bo2 dead), Cy 2 x 4 + 1; the counter Bo
    # overrides himself to 1. Round 2 (droppers go right: Ann, Cy, Bo): Ann answers first and
    # falls out; Bo counts. Bo and Cy tie at 15; the tiebreak's dropper is the first tied player
    # right of Bo: Cy. Pot 9 + 4 + 10 = 23 to Cy: Ann -3, Bo -3 -2 -5, Cy 23 - 10.
    path = tmp_path / "game.jsonl"
    path.write_text(SPEC_EXAMPLE)
    assert main(["bloodsticks", "score-game", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") == 1
    no = {"redo": False, "careless": False}
    assert json.loads(out) == {
        "finished": True,
        "variant": "standard",
        "first_dropper": "Ann",
        "rounds": [
            {"round": 1, "dropper": "Ann", "counter": "Bo", "bet": 3, "fell_out": [], **no,
             "override": True, "points": {"Ann": 5, "Bo": 1, "Cy": 9}},
            {"round": 2, "dropper": "Cy", "counter": "Bo", "bet": 2, "fell_out": ["Ann"], **no,
             "override": False, "points": {"Bo": 4, "Cy": 6}},
            {"round": 3, "dropper": "Bo", "counter": "Cy", "bet": 5, "fell_out": [], **no,
             "override": False, "points": {"Bo": 10, "Cy": 0}},
        ],
        "tiebreaks": [{"dropper": "Cy", **no, "override": False, "points": {"Bo": 2, "Cy": 3}}],
        "totals": {"Ann": 5, "Bo": 17, "Cy": 18},
        "active": ["Bo", "Cy"],
        "pot": 23,
        "cut": 0,
        "winners": ["Cy"],
        "net": {"Ann": -3, "Bo": -10, "Cy": 13},
        "side_bets": [],
        "side_net": {},
    }  # fmt: skip


def test_stdin_and_comments_and_a_record_that_stops_anywhere(monkeypatch, capsys):
    import io

    text = "# a paper game\n\n" + "\n".join(SPEC_EXAMPLE.splitlines()[:4]) + "\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["bloodsticks", "score-game", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    # Ann bet 3 and Bo matched; Cy has not answered: nobody is paid, net sums to -pot.
    assert (out["finished"], out["first_dropper"], out["rounds"], out["pot"]) == (
        False,
        "Ann",
        [],
        6,
    )
    assert out["net"] == {"Ann": -3, "Bo": -3, "Cy": 0} and out["winners"] == []


# --- rulings G1-G8 ---------------------------------------------------------------------------


def test_g1_players_are_listed_clockwise_left_is_next_right_is_previous():
    out = score(
        FOUR,
        {"first": "Bo"},
        # Bo drops; his left (Cy) counts; answers go Cy, Dee, Ann.
        *round_("Bo", 1, "Cy", "Dee", "Ann", Ann=1, Bo=2, Cy=3, Dee=4),
        # Roles pass right: Ann drops (Bo's right), Bo counts.
        *round_("Ann", 2, "Bo", "Cy", "Dee", Ann=4, Bo=0, Cy=0, Dee=0),
        # Dee is Ann's right (the list wraps round), Ann counts.
        *round_("Dee", 1, "Ann", "Bo", "Cy", Ann=0, Bo=0, Cy=0, Dee=1),
        *round_("Cy", 1, "Dee", "Ann", "Bo", Ann=0, Bo=0, Cy=0, Dee=0),
        # Ann 5 and Dee 5 tie; the first tied player right of Cy (the last dropper): Bo, Ann.
        {"points": {"Ann": 1, "Dee": 0}},
    )
    roles = [(r["dropper"], r["counter"]) for r in out["rounds"]]
    assert roles == [("Bo", "Cy"), ("Ann", "Bo"), ("Dee", "Ann"), ("Cy", "Dee")]
    assert out["tiebreaks"][0]["dropper"] == "Ann" and out["winners"] == ["Ann"]
    # Pot 4 x 1 + 4 x 2 + 4 + 4 = 20; each put in 5: Ann 20 - 5.
    assert out["pot"] == 20 and out["net"] == {"Ann": 15, "Bo": -5, "Cy": -5, "Dee": -5}


def test_g2_with_no_first_and_no_opening_the_first_listed_drops_first():
    header = {"game": "bloodsticks", "players": ["Cy", "Ann", "Bo"]}
    out = score(header, *round_("Cy", 2, "Ann", "Bo", Cy=3, Ann=1, Bo=0))
    # Cy drops, Ann (Cy's left) counts; the record stops after round 1: pot 6, nobody paid.
    assert out["first_dropper"] == "Cy" and out["rounds"][0]["counter"] == "Ann"
    assert (out["finished"], out["pot"], out["net"]) == (False, 6, {"Cy": -2, "Ann": -2, "Bo": -2})
    with pytest.raises(InputRefused, match="^line 2: it is Cy's turn to drop, not Ann's$"):
        score(header, {"dropper": "Ann", "bet": 1})


def test_g3_answers_go_clockwise_and_a_fallen_out_players_turn_is_skipped():
    out = score(
        {**FOUR, "cap": 4},
        {"first": "Ann"},
        *round_("Ann", 2, "Bo", "Cy", "Dee", Ann=1, Bo=1, Cy=8, Dee=1),
        # Dee (Ann's right) drops; answers from Dee's left: Ann, Bo, Cy; Cy falls out.
        *round_("Dee", 3, "Ann", "Bo", "-Cy", Ann=2, Bo=2, Dee=2),
        # Cy's turn is skipped: Bo drops; his left is Cy (out), so Dee answers first, then Ann.
        *round_("Bo", 1, "Dee", "Ann", Ann=0, Bo=4, Dee=0),
        # Bo's right is Ann, who has dropped: the game is over after three rounds.
    )
    assert [r["dropper"] for r in out["rounds"]] == ["Ann", "Dee", "Bo"]
    assert [r["fell_out"] for r in out["rounds"]] == [[], ["Cy"], []]
    assert out["rounds"][2]["counter"] == "Dee"  # the first active player to Bo's left
    # Totals Ann 3, Bo 7, Cy 8 (fallen out: not a contender), Dee 3: Bo wins.
    # Pot 2 x 4 + 3 x 3 + 1 x 3 = 20; Ann, Bo, Dee put in 6, Cy 2.
    assert out["totals"] == {"Ann": 3, "Bo": 7, "Cy": 8, "Dee": 3}
    assert out["active"] == ["Ann", "Bo", "Dee"] and out["winners"] == ["Bo"]
    assert out["net"] == {"Ann": -6, "Bo": 20 - 6, "Cy": -2, "Dee": -6}
    with pytest.raises(InputRefused, match="^line 4: Bo answers before Cy$"):
        score(FOUR, {"first": "Ann"}, {"dropper": "Ann", "bet": 1}, {"match": "Cy"})


G4_ROUNDS = [
    FOUR,
    {"first": "Bo"},  # droppers Bo, Ann, Dee, Cy
    *round_("Bo", 1, "Cy", "Dee", "Ann", Ann=5, Bo=5, Cy=0, Dee=4),
    *round_("Ann", 1, "Bo", "Cy", "Dee", Ann=0, Bo=0, Cy=0, Dee=0),
    *round_("Dee", 1, "Ann", "Bo", "Cy", Ann=0, Bo=0, Cy=0, Dee=0),
    *round_("Cy", 1, "Dee", "Ann", "Bo", Ann=0, Bo=0, Cy=1, Dee=0),
]  # Ann 5, Bo 5, Cy 1, Dee 4; pot 16, everyone put in 4


def test_g4_tiebreak_dropper_and_its_careless_drop_done_over():
    out = score(
        *G4_ROUNDS,
        # The first tied player right of Cy is Bo. Drop 1 with Ann1 off is done over.
        flat("Ann", "Bo", Ann1={"off": True}),
        # Drop 2 is careless: the bloodstick off costs the dropper Bo 10: Ann 2, Bo 2 - 10.
        flat("Ann", "Bo", blood={"off": True}),
    )
    assert out["tiebreaks"] == [
        {"dropper": "Bo", "redo": True, "careless": True, "override": False,
         "points": {"Ann": 2, "Bo": -8}}
    ]  # fmt: skip
    # Ann 7, Bo -3, Dee 4, Cy 1: Ann takes the pot of 16.
    assert out["winners"] == ["Ann"] and out["net"] == {"Ann": 12, "Bo": -4, "Cy": -4, "Dee": -4}


def test_g4_after_a_tiebreak_the_top_is_judged_over_all_active_players():
    # The counter's totals for the tiebreak (as written): Ann 5 - 2, Bo 5 - 2, Dee 4 is the top.
    out = score(*G4_ROUNDS, {"points": {"Ann": -2, "Bo": -2}})
    assert out["totals"] == {"Ann": 3, "Bo": 3, "Cy": 1, "Dee": 4}
    assert out["winners"] == ["Dee"] and out["finished"]


def test_g5_house_games_two_players_any_counter_careless_house_drop():
    out = score(
        {"game": "bloodsticks", "players": ["Ann", "Bo"], "variant": "house", "stake": 2},
        {"counter": "Ann"},  # both pay the stake: pot 4
        flat("Ann", "Bo", Bo1={"off": True}),  # done over
        # Careless: Bo1 off credits Bo 8; the bloodstick off is the house's: nobody pays.
        # Ann 1 + 4 = 5, Bo 8 + 8 = 16.
        flat("Ann", "Bo", Ann2={"posture": "thick"}, Bo1={"off": True},
             Bo2={"posture": "center"}, blood={"off": True}),
        {"counter": "Ann"},  # the same counter again
        {"points": {"Ann": 3, "Bo": 0}},
        {"counter": "Bo"},
        {"points": {"Ann": 9, "Bo": 1}},
        # Ann 17, Bo 17: the house drops the tiebreak.
        {"points": {"Ann": 1, "Bo": 2}},
    )  # fmt: skip
    assert [(r["dropper"], r["counter"], r["bet"]) for r in out["rounds"]] == [
        ("house", "Ann", 2),
        ("house", "Ann", 2),
        ("house", "Bo", 2),
    ]
    assert out["rounds"][0]["points"] == {"Ann": 5, "Bo": 16}
    assert out["rounds"][0]["redo"] and out["rounds"][0]["careless"]
    assert out["tiebreaks"][0]["dropper"] == "house" and out["first_dropper"] is None
    # Pot 3 x 2 x 2 = 12 to Bo (19 to 18).
    assert out["winners"] == ["Bo"] and out["net"] == {"Ann": -6, "Bo": 6}


def test_g6_the_house_cut_comes_off_the_main_pot_in_every_variant():
    out = score(
        {**ANN_BO_CY, "house_cut_pct": 10, "max_tiebreaks": 0},
        {"first": "Cy"},
        *round_("Cy", 5, "Ann", "Bo", Ann=2, Bo=2, Cy=1),
        *round_("Bo", 5, "Cy", "Ann", Ann=1, Bo=1, Cy=0),
        *round_("Ann", 5, "Bo", "Cy", Ann=0, Bo=0, Cy=0),
    )
    # Ann 3, Bo 3: no tiebreaks allowed, the pot splits. Pot 45, cut 45 x 10 % = 4.5 -> 4;
    # 41 shared: 20 each and the remainder 1 to the first seated (Ann): Ann 21 - 15, Bo 20 - 15.
    assert (out["pot"], out["cut"], out["winners"]) == (45, 4, ["Ann", "Bo"])
    assert out["net"] == {"Ann": 6, "Bo": 5, "Cy": -15} and sum(out["net"].values()) == -4
    challenge = score(
        {"game": "bloodsticks", "players": ["Ann", "Bo"], "variant": "challenge"}
        | {"house_cut_pct": 50},
        {"first": "Bo"},
        *round_("Bo", 7, "-Ann"),
    )
    # Ann falls out: Bo wins the pot of 7 at once, less the cut 7 x 50 % = 3.5 -> 3.
    assert (challenge["finished"], challenge["rounds"], challenge["cut"]) == (True, [], 3)
    assert challenge["net"] == {"Ann": 0, "Bo": -3}


G7 = [
    {"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"], "variant": "house"},
    {"side_bet": "high_score", "by": "Gil", "guess": 9, "stake": 2},  # line 2, before round 1
    {"counter": "Bo"},
    flat("Ann", "Bo", "Cy", Ann1={"off": True}),  # done over
    {"side_bet": "low_drop", "by": "Ann", "guess": 5, "stake": 1},  # line 5: on the drop over
    flat("Ann", "Bo", "Cy"),  # 2 each: house score 6
    {"counter": "Cy"},
    {"points": {"Ann": 3, "Bo": 1, "Cy": 0}},  # house score 4
    {"side_bet": "high_drop", "by": "Bo", "guess": 8, "stake": 3},  # line 9: round 3
    {"counter": "Ann"},
    {"points": {"Ann": 0, "Bo": 2, "Cy": 3}},  # house score 5; totals 5, 5, 5: a tiebreak
    {"side_bet": "high_drop", "by": "Gil", "guess": 4, "stake": 1},  # line 12: the tiebreak
    {"side_bet": "low_score", "by": "Cy", "guess": 5, "stake": 1},  # line 13
    {"points": {"Ann": 1, "Bo": 0, "Cy": 2}},  # house score 3; totals Ann 6, Bo 5, Cy 7
]


def test_g7_side_bets_any_bettor_any_time_final_totals_include_tiebreaks():
    out = score(*G7)

    def bet(line, by, kind, guess, stake, score_, paid):
        return {"line": line, "by": by, "kind": kind, "guess": guess, "stake": stake,
                "score": score_, "won": paid > 0, "paid": paid}  # fmt: skip

    assert out["side_bets"] == [
        bet(2, "Gil", "high_score", 9, 2, 7, 4),  # final highest 7: within 2 -> 2 x 2
        bet(5, "Ann", "low_drop", 5, 1, 6, 2),  # 1 below the drop done over -> 2 x 1
        bet(9, "Bo", "high_drop", 8, 3, 5, 0),  # 3 above round 3 -> lost
        bet(12, "Gil", "high_drop", 4, 1, 3, 2),  # 1 above the tiebreak drop -> 2 x 1
        bet(13, "Cy", "low_score", 5, 1, 5, 5),  # final lowest 5 (Bo), exact -> 4 to 1: 5
    ]
    assert out["side_net"] == {"Gil": 4 - 2 + 2 - 1, "Ann": 1, "Bo": -3, "Cy": 4}
    # Side bets are in neither the pot nor net: Cy wins the pot of 9 stakes.
    assert out["pot"] == 9 and out["net"] == {"Ann": -3, "Bo": -3, "Cy": 6}
    # Cut after round 3: the drop bets settled so far are paid, the score bets are open.
    early = score(*G7[:11])
    assert [(b["score"], b["won"], b["paid"]) for b in early["side_bets"]] == [
        (None, None, 0),
        (6, True, 2),
        (5, False, 0),
    ]
    assert early["side_net"] == {"Gil": -2, "Ann": 1, "Bo": -3}


def test_g8_layouts_off_sticks_dead_sticks_and_the_round_henki():
    out = score(
        {**ANN_BO_CY, "dead_sticks_cancel": False, "henki_scope": "round"},
        {"first": "Ann"},
        *round_("Ann", 1, "Bo", "Cy"),
        # The bloodstick is off (a first drop plays on): Bo1's touch of it is ignored: 8 + 1.
        flat("Ann", "Bo", "Cy", Bo1={"posture": "center", "touch": ["blood"]},
             blood={"off": True}),
        *round_("Cy", 1, "Ann", "Bo"),
        # Ann1 is killed (bloodstick) and lies on Bo2: a killed stick cancels nothing, Bo2 4.
        # Ann2 (thin, 2) lies on Bo1; Bo1, cancelled, still cancels Cy1 (centre) below it.
        # Ann 0 + 2, Bo 0 + 4, Cy 0 + 1.
        flat("Ann", "Bo", "Cy", Ann1={"posture": "flat", "on": ["Bo2"], "touch": ["blood"]},
             Ann2={"posture": "thin", "on": ["Bo1"]}, Bo1={"posture": "flat", "on": ["Cy1"]},
             Bo2={"posture": "thick"}, Cy1={"posture": "center"}),
        *round_("Bo", 1, "Cy", "Ann"),
        # Round scope: Cy1 (thin) lies on the henki: Cy (2 + 1) x 4. Bo1 touches it: x2 on the
        # stick, 2 + 4. Ann1 (centre) lies on the henki but the bloodstick touches it: both are
        # ignored (ruling 2), it counts 8 and brings no x4: Ann 8 + 1.
        flat("Ann", "Bo", "Cy", Cy1={"posture": "thin", "on": ["henki"]},
             Bo1={"posture": "flat", "touch": ["henki"]}, Bo2={"posture": "thick"},
             Ann1={"posture": "center", "on": ["henki"], "touch": ["blood"]}),
    )  # fmt: skip
    assert [r["points"] for r in out["rounds"]] == [
        {"Ann": 2, "Bo": 9, "Cy": 2},
        {"Ann": 2, "Bo": 4, "Cy": 1},
        {"Ann": 9, "Bo": 6, "Cy": 12},
    ]
    # Totals Ann 13, Bo 19, Cy 15: Bo takes the pot of 9.
    assert out["winners"] == ["Bo"] and out["net"] == {"Ann": -3, "Bo": 6, "Cy": -3}


# --- refusals --------------------------------------------------------------------------------

STARTED = [ANN_BO_CY, {"first": "Ann"}, {"dropper": "Ann", "bet": 2}]  # Bo, then Cy answer
COUNTING = [*STARTED, {"match": "Bo"}, {"match": "Cy"}]  # a drop is due
HOUSE = {"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"], "variant": "house"}
LAYOUT = flat("Ann", "Bo", "Cy")

REFUSALS = [
    # (class, record lines, the line at fault, words of the message)
    ("not JSON", [ANN_BO_CY, "{match: Bo}"], 2, "not JSON"),
    ("not an object", [ANN_BO_CY, "[1, 2]"], 2, "not a JSON object"),
    ("no header", [{"first": "Ann"}], 1, "missing header"),
    ("empty record", ["# nothing", ""], 1, "missing header"),
    ("not a Bloodsticks header", [{"game": "stickstack", "players": ["A", "B"]}], 1, "not a"),
    ("unknown header key", [{**ANN_BO_CY, "capp": 5}], 1, "unknown header key 'capp'"),
    ("a table setting is no header key", [{**ANN_BO_CY, "entry": "totals"}], 1, "'entry'"),
    ("misplaced header key", [{**ANN_BO_CY, "stake": 2}], 1, "does not apply"),
    ("player count", [{**ANN_BO_CY, "players": ["A", "B"]}], 1, "challenge"),
    ("house of eleven", [{**HOUSE, "players": list("ABCDEFGHIJK")}], 1, "2 to 10"),
    ("same name twice", [{**ANN_BO_CY, "players": ["A", "A", "B"]}], 1, "same name"),
    (
        "stick ids",
        [{**ANN_BO_CY, "sticks": {"Ann": ["x", "y"], "Bo": ["x", "z"], "Cy": ["c1", "c2"]}}],
        1,
        "'x'",
    ),  # fmt: skip
    (
        "a stick called henki",
        [{**ANN_BO_CY, "sticks": {"Ann": ["a", "henki"], "Bo": ["b", "c"], "Cy": ["d", "e"]}}],
        1,
        "henki",
    ),  # fmt: skip
    ("cap a boolean", [{**ANN_BO_CY, "cap": True}], 1, "cap"),
    ("dead_sticks_cancel a word", [{**ANN_BO_CY, "dead_sticks_cancel": "no"}], 1, "true or false"),
    ("a line of no known kind", [*STARTED, {"raise": 3}], 4, "not a record line"),
    ("two kinds in one line", [*STARTED, {"match": "Bo", "fall_out": "Cy"}], 4, "one line is"),
    ("extra key", [*STARTED, {"match": "Bo", "why": "rich"}], 4, "no key 'why'"),
    ("missing key", [ANN_BO_CY, {"first": "Ann"}, {"dropper": "Ann"}], 3, "needs 'bet'"),
    ("wrong type", [ANN_BO_CY, {"first": "Ann"}, {"dropper": "Ann", "bet": "2"}], 3, "bet"),
    (
        "a boolean for a number",
        [*COUNTING, {"points": {"Ann": True, "Bo": 1, "Cy": 1}}],
        6,
        "whole number",
    ),  # fmt: skip
    ("bad style", [*COUNTING, {**LAYOUT, "style": "sideways"}], 6, "style"),
    (
        "bad side bet kind",
        [HOUSE, {"side_bet": "middle", "by": "Gil", "guess": 1, "stake": 1}],
        2,
        "side_bet",
    ),  # fmt: skip
    ("unknown player", [*STARTED, {"match": "Zed"}], 4, "unknown player 'Zed'"),
    (
        "fallen-out player",
        [
            *STARTED,
            {"fall_out": "Bo"},
            {"match": "Cy"},
            {"points": {"Ann": 1, "Cy": 1}},
            {"dropper": "Bo", "bet": 1},
        ],
        7,
        "Bo has fallen out",
    ),  # fmt: skip
    ("first in a house game", [HOUSE, {"first": "Ann"}], 2, "house game"),
    ("opening in a house game", [HOUSE, {"opening": {"Ann": 1, "Bo": 2, "Cy": 3}}], 2, "house"),
    ("first after round 1 began", [*STARTED, {"first": "Bo"}], 4, "before round 1"),
    ("first twice", [ANN_BO_CY, {"first": "Ann"}, {"first": "Bo"}], 3, "once"),
    (
        "opening after first",
        [ANN_BO_CY, {"first": "Ann"}, {"opening": {"Ann": 1, "Bo": 2, "Cy": 3}}],
        3,
        "no opening drop",
    ),  # fmt: skip
    ("opening not naming all", [ANN_BO_CY, {"opening": {"Ann": 1, "Bo": 2}}], 2, "exactly"),
    (
        "opening tie names the wrong players",
        [ANN_BO_CY, {"opening": {"Ann": 4, "Bo": 4, "Cy": 1}}, {"opening": {"Ann": 1, "Cy": 2}}],
        3,
        "exactly: Ann, Bo",
    ),  # fmt: skip
    (
        "a round before the opening tie is settled",
        [ANN_BO_CY, {"opening": {"Ann": 4, "Bo": 4, "Cy": 1}}, {"dropper": "Ann", "bet": 1}],
        3,
        "opening drop",
    ),  # fmt: skip
    ("wrong dropper", [ANN_BO_CY, {"first": "Ann"}, {"dropper": "Bo", "bet": 1}], 3, "Ann's turn"),
    ("bet below 1", [ANN_BO_CY, {"first": "Ann"}, {"dropper": "Ann", "bet": 0}], 3, "at least 1"),
    ("bet over the cap", [ANN_BO_CY, {"first": "Ann"}, {"dropper": "Ann", "bet": 6}], 3, "1 to 5"),
    ("answer out of order", [*STARTED, {"match": "Cy"}], 4, "Bo answers before Cy"),
    ("answer twice", [*STARTED, {"match": "Bo"}, {"fall_out": "Bo"}], 5, "no bet to answer"),
    ("answer by the dropper", [*STARTED, {"match": "Ann"}], 4, "no bet to answer"),
    ("answer with no bet pending", [*COUNTING, {"match": "Bo"}], 6, "no bet is waiting"),
    ("drop before all have answered", [*STARTED, {"match": "Bo"}, LAYOUT], 5, "no drop is due"),
    ("house drop before the counter", [HOUSE, LAYOUT], 2, "no drop is due"),
    ("dropper while a drop is due", [*COUNTING, {"dropper": "Cy", "bet": 1}], 6, "no round"),
    (
        "dropper during a tiebreak",
        [
            *COUNTING,
            {"points": {"Ann": 1, "Bo": 1, "Cy": 1}},
            *round_("Cy", 1, "Ann", "Bo", Ann=0, Bo=0, Cy=0),
            *round_("Bo", 1, "Cy", "Ann", Ann=0, Bo=0, Cy=0),
            {"dropper": "Ann", "bet": 1},
        ],
        15,
        "tiebreak drop",
    ),  # fmt: skip
    ("counter while a drop is due", [HOUSE, {"counter": "Bo"}, {"counter": "Cy"}], 3, "no round"),
    ("layout: unknown stick id", [*COUNTING, flat("Ann", "Bo", "Cy", Zed1={})], 6, "'Zed1'"),
    (
        "layout: unknown key",
        [*COUNTING, flat("Ann", "Bo", "Cy", Ann1={"posture": "flat", "under": ["Bo1"]})],
        6,
        "under",
    ),  # fmt: skip
    ("layout: missing posture", [*COUNTING, flat("Ann", "Bo", "Cy", Bo2={})], 6, "posture"),
    (
        "layout: bad posture",
        [*COUNTING, flat("Ann", "Bo", "Cy", Bo2={"posture": "up"})],
        6,
        "posture",
    ),  # fmt: skip
    (
        "layout: a stick on itself",
        [*COUNTING, flat("Ann", "Bo", "Cy", Bo2={"posture": "flat", "on": ["Bo2"]})],
        6,
        "itself",
    ),  # fmt: skip
    (
        "layout: on cycles",
        [
            *COUNTING,
            flat(
                "Ann",
                "Bo",
                "Cy",
                Bo1={"posture": "flat", "on": ["Cy1"]},
                Cy1={"posture": "flat", "on": ["Bo1"]},
            ),
        ],
        6,
        "cycle",
    ),  # fmt: skip
    (
        "layout: a stick not in the drop",
        [*STARTED, {"match": "Bo"}, {"fall_out": "Cy"}, flat("Ann", "Bo", "Cy")],
        6,
        "'Cy1'",
    ),
    (
        "layout: a stick missing",
        [*COUNTING, {"sticks": {k: v for k, v in LAYOUT["sticks"].items() if k != "Cy2"}}],
        6,
        "'Cy2'",
    ),  # fmt: skip
    (
        "layout: the henki missing",
        [*COUNTING, {"sticks": {k: v for k, v in LAYOUT["sticks"].items() if k != "henki"}}],
        6,
        "'henki'",
    ),  # fmt: skip
    ("points: a player missing", [*COUNTING, {"points": {"Ann": 1, "Bo": 1}}], 6, "exactly"),
    (
        "points: a player extra",
        [*STARTED, {"match": "Bo"}, {"fall_out": "Cy"}, {"points": {"Ann": 1, "Bo": 1, "Cy": 1}}],
        6,
        "exactly",
    ),  # fmt: skip
    (
        "override after points",
        [*COUNTING, {"points": {"Ann": 1, "Bo": 1, "Cy": 1}}, {"override": {"Bo": 3}}],
        7,
        "right after a layout",
    ),  # fmt: skip
    (
        "override after a redo",
        [*COUNTING, flat("Ann", "Bo", "Cy", Bo1={"off": True}), {"override": {"Bo": 3}}],
        7,
        "right after a layout",
    ),  # fmt: skip
    (
        "override not right after",
        [*COUNTING, LAYOUT, {"dropper": "Cy", "bet": 1}, {"override": {"Bo": 3}}],
        8,
        "right after",
    ),  # fmt: skip
    (
        "override twice",
        [*COUNTING, LAYOUT, {"override": {"Bo": 3}}, {"override": {"Bo": 4}}],
        8,
        "right after",
    ),  # fmt: skip
    (
        "override naming a player not in it",
        [*STARTED, {"match": "Bo"}, {"fall_out": "Cy"}, flat("Ann", "Bo"), {"override": {"Cy": 3}}],
        7,
        "'Cy' is not in the drop",
    ),  # fmt: skip
    ("override naming nobody", [*COUNTING, LAYOUT, {"override": {}}], 7, "override"),
    ("dropper in a house game", [HOUSE, {"dropper": "Ann", "bet": 1}], 2, "house game"),
    ("an answer in a house game", [HOUSE, {"counter": "Bo"}, {"match": "Ann"}], 3, "house game"),
    ("counter outside a house game", [*COUNTING, {"counter": "Bo"}], 6, "house games"),
    (
        "side bet outside a house game",
        [ANN_BO_CY, {"side_bet": "high_score", "by": "Gil", "guess": 3, "stake": 1}],
        2,
        "house",
    ),
    (
        "side bet stake 0",
        [HOUSE, {"side_bet": "high_score", "by": "Gil", "guess": 3, "stake": 0}],
        2,
        "stake",
    ),  # fmt: skip
    (
        "anything after the end",
        [
            *STARTED,
            {"fall_out": "Bo"},
            {"fall_out": "Cy"},
            "",
            "# after the game",
            {"dropper": "Bo", "bet": 1},
        ],
        8,
        "the game is over",
    ),  # fmt: skip
    (
        "a side bet after the end",
        [
            HOUSE,
            *[
                line
                for c in ("Ann", "Bo", "Cy")
                for line in ({"counter": c}, {"points": {"Ann": 1, "Bo": 2, "Cy": 0}})
            ],
            {"side_bet": "high_score", "by": "Gil", "guess": 3, "stake": 1},
        ],
        8,
        "the game is over",
    ),  # fmt: skip
]


@pytest.mark.parametrize(
    ("lines", "number", "words"), [case[1:] for case in REFUSALS], ids=[c[0] for c in REFUSALS]
)
def test_refusals_name_the_first_line_at_fault(lines, number, words):
    with pytest.raises(InputRefused) as refused:
        score(*lines)
    message = str(refused.value)
    assert message.startswith(f"line {number}: ") and words in message, message
    assert refused.value.exit_code == 2 and "\n" not in message


def test_a_refused_record_prints_nothing_and_exits_2(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    # Line 3 is blank and line 4 a comment: they count. Cy answers before Bo on line 6.
    path.write_text(SPEC_EXAMPLE.replace('{"match": "Bo"}\n{"match": "Cy"}',
                                         '\n# answers\n{"match": "Cy"}', 1))  # fmt: skip
    assert main(["bloodsticks", "score-game", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"sticktable: {path} line 6: Bo answers before Cy\n"


def test_a_refused_record_journals_nothing(tmp_path, capsys):
    from sticktable.journal import Journal

    journal = tmp_path / "journal.sqlite"
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(SPEC_EXAMPLE)
    bad.write_text(SPEC_EXAMPLE + '{"match": "Bo"}\n')  # line 16: after the end
    assert main(["import", str(good), "--journal", str(journal)]) == 0
    assert main(["import", str(bad), "--journal", str(journal)]) == 2
    out, err = capsys.readouterr()
    assert out == "imported game 1 (finished, 21 events)\n"
    assert err == f"sticktable: {bad} line 16: the game is over: nothing may follow its end\n"
    with Journal(journal) as j:
        assert [(g.id, g.source, g.finished is not None) for g in j.games()] == [
            (1, "import", True)
        ]


GARBAGE = [None, True, -1, 0, 2.5, "", "Ann", "Bo1", "blood", [], ["Bo1"], {}, {"Ann": 1},
           {"Bo1": {}}, {"posture": "flat"}, "@pot", 10**30]  # fmt: skip


def test_garbage_in_any_field_is_refused_with_a_line_never_a_crash():
    """Records whose lines got a junk value somewhere: scored or refused, nothing else."""
    rng = random.Random(17)
    bases = [SPEC_EXAMPLE.splitlines(), lines_of(*G7)]
    for _ in range(400):
        lines = list(rng.choice(bases))
        number = rng.randrange(len(lines))
        line = json.loads(lines[number])
        target = line
        while isinstance(target, dict) and target and rng.random() < 0.5:
            key = rng.choice(list(target))
            if not isinstance(target[key], dict):
                break
            target = target[key]
        if isinstance(target, dict):
            target[rng.choice([*target, "x"])] = rng.choice(GARBAGE)
        lines[number] = json.dumps(line)
        try:
            game, side_lines = read_record(lines)
        except InputRefused as refused:
            assert str(refused).startswith("line ") and "\n" not in str(refused)
        else:
            json.dumps(result(game.state, side_lines))
