"""`sticktable bloodsticks score-drop` per host/docs/formats/bloodsticks-drop.md, and the typed
entry."""

import copy
import json
import subprocess
import sys

import pytest

from sticktable.cli import main
from sticktable.engine import RuleError
from sticktable.games.bloodsticks.entry import parse_entry

SPEC_EXAMPLE = {
    "players": {"Ann": ["a1", "a2"], "Bo": ["b1", "b2"], "Cy": ["c1", "c2"]},
    "dropper": "Ann",
    "drop": 1,
    "sticks": {
        "a1": {"posture": "flat"},
        "a2": {"posture": "thick", "on": ["b1"]},
        "b1": {"posture": "center", "touch": ["blood"]},
        "b2": {"off": True},
        "c1": {"posture": "thin", "on": ["henki"]},
        "c2": {"posture": "flat", "touch": ["henki"]},
        "blood": {"on": ["a1"]},
        "henki": {},
    },
}


def run_cli(tmp_path, doc, *options, capsys):
    path = tmp_path / "drop.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    code = main(["bloodsticks", "score-drop", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def with_changes(drop=None, **sticks):
    doc = copy.deepcopy(SPEC_EXAMPLE)
    doc["sticks"]["b2"] = {"posture": "flat"}
    if drop is not None:
        doc["drop"] = drop
    doc["sticks"].update(sticks)
    return doc


def test_spec_example_is_a_redo(tmp_path, capsys):
    code, out, err = run_cli(tmp_path, SPEC_EXAMPLE, capsys=capsys)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"redo": True, "points": {}}
    assert out.count("\n") == 1


def test_spec_example_as_a_careless_drop(tmp_path, capsys):
    # a1 killed (bloodstick on it) 0, a2 thick 4; b1 cancelled by a2, b2 off: +8 Bo, -8 Ann;
    # c1 thin on the henki x4 = 8, c2 flat touching it x2 = 2.
    doc = dict(SPEC_EXAMPLE, drop=2)
    code, out, _ = run_cli(tmp_path, doc, capsys=capsys)
    assert code == 0
    assert out == '{"redo": false, "points": {"Ann": -4, "Bo": 8, "Cy": 10}}\n'


def test_house_rule_options(tmp_path, capsys):
    doc = with_changes(c2={"posture": "flat"})
    # round scope: Cy (2 + 1) x 4 = 12 instead of 8 + 1.
    assert json.loads(run_cli(tmp_path, doc, capsys=capsys)[1])["points"]["Cy"] == 9
    out = run_cli(tmp_path, doc, "--henki-scope", "round", capsys=capsys)[1]
    assert json.loads(out)["points"]["Cy"] == 12
    # a1 is killed by the bloodstick lying on it, and lies on b2: it cancels b2 only while
    # dead sticks cancel (b1 is cancelled by a2 either way).
    doc = with_changes(a1={"posture": "flat", "on": ["b2"]})
    assert json.loads(run_cli(tmp_path, doc, capsys=capsys)[1])["points"]["Bo"] == 0
    out = run_cli(tmp_path, doc, "--dead-sticks-cancel", "no", capsys=capsys)[1]
    assert json.loads(out)["points"]["Bo"] == 0 + 1


REFUSALS = [
    ("unknown stick in a relation", with_changes(a1={"posture": "flat", "on": ["zz"]}), "zz"),
    ("unknown stick in touch", with_changes(a1={"posture": "flat", "touch": ["q9"]}), "q9"),
    ("unknown stick id in sticks", with_changes(x9={"posture": "flat"}), "x9"),
    ("missing posture", with_changes(a1={"touch": ["b1"]}), "posture"),
    ("bad posture", with_changes(a1={"posture": "upright"}), "posture"),
    ("stick on itself", with_changes(a1={"posture": "flat", "on": ["a1"]}), "itself"),
    ("stick touches itself", with_changes(a1={"posture": "flat", "touch": ["a1"]}), "itself"),
    (
        "on cycle of two",
        with_changes(a1={"posture": "flat", "on": ["b1"]}, b1={"posture": "flat", "on": ["a1"]}),
        "cycle",
    ),
    (
        "on cycle through the henki",
        with_changes(
            henki={"on": ["a1"]},
            a1={"posture": "flat", "on": ["b2"]},
            b2={"posture": "flat", "on": ["henki"]},
        ),
        "cycle",
    ),
    ("unknown dropper", {**SPEC_EXAMPLE, "dropper": "Dee"}, "Dee"),
    ("dropper not a string", {**SPEC_EXAMPLE, "dropper": 1}, "dropper"),
    ("drop 3", with_changes(drop=3), "drop"),
    ("drop 0", with_changes(drop=0), "drop"),
    ("drop as a string", with_changes(drop="1"), "drop"),
    ("drop true", with_changes(drop=True), "drop"),
    ("drop 1.5", with_changes(drop=1.5), "drop"),
    ("missing sticks", {k: v for k, v in SPEC_EXAMPLE.items() if k != "sticks"}, "sticks"),
    ("missing players", {k: v for k, v in SPEC_EXAMPLE.items() if k != "players"}, "players"),
    ("player stick missing", {**SPEC_EXAMPLE, "sticks": {"a1": {"posture": "flat"}}}, "a2"),
    ("off not a boolean", with_changes(a1={"posture": "flat", "off": "yes"}), "off"),
    ("unknown key", with_changes(a1={"posture": "flat", "under": ["b1"]}), "under"),
    ("on not a list", with_changes(a1={"posture": "flat", "on": "b1"}), "on"),
    ("stick entry not an object", with_changes(a1="flat"), "a1"),
    (
        "same stick for two players",
        {**SPEC_EXAMPLE, "players": {"Ann": ["a1", "a2"], "Bo": ["a1", "b2"], "Cy": ["c1", "c2"]}},
        "a1",
    ),
    (
        "a player owning the henki",
        {**SPEC_EXAMPLE, "players": {"Ann": ["a1", "henki"], "Bo": ["b1", "b2"]}},
        "henki",
    ),
    ("not an object", [1, 2], "object"),
    ("not JSON", "{players: ", "JSON"),
    ("absurdly deep JSON", "[" * 100_000, "JSON"),
    (
        "on cycle of ids with line breaks, still one line",
        {
            "players": {"Ann": ["a\n1", "a2"]},
            "dropper": "Ann",
            "drop": 1,
            "sticks": {
                "a\n1": {"posture": "flat", "on": ["a2"]},
                "a2": {"posture": "flat", "on": ["a\n1"]},
            },
        },
        "cycle",
    ),
]


@pytest.mark.parametrize(("case", "doc", "named"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_malformed_drops_are_refused(tmp_path, capsys, case, doc, named):
    code, out, err = run_cli(tmp_path, doc, capsys=capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("sticktable: ")
    assert named in err


def test_missing_file_is_a_user_error(tmp_path, capsys):
    code = main(["bloodsticks", "score-drop", str(tmp_path / "nope.json")])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and "nope.json" in err


def test_real_command_reads_stdin_and_refuses_with_exit_2():
    good = json.dumps(with_changes())
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "bloodsticks", "score-drop", "-"],
        input=good,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["redo"] is False
    bad = json.dumps({**SPEC_EXAMPLE, "drop": 7})
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "bloodsticks", "score-drop", "-"],
        input=bad,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


ENTRIES = [
    ("first Ann", {"type": "first_dropper", "player": "Ann"}),
    ("pick Bo", {"type": "pick_counter", "player": "Bo"}),
    ("fall Cy", {"type": "fall_out", "player": "Cy"}),
    ("bet 4", {"type": "bet", "amount": 4}),
    ("totals Ann=3 Bo=-2", {"type": "totals", "points": {"Ann": 3, "Bo": -2}}),
    (
        "override Ann=1 Bo=0 it rolled",
        {"type": "override", "points": {"Ann": 1, "Bo": 0}, "why": "it rolled"},
    ),
    (
        "ban Bo Ann=ban Cy=keep",
        {"type": "ban_vote", "owner": "Bo", "votes": {"Ann": "ban", "Cy": "keep"}},
    ),
    (
        "side Zed high_drop 12 3 1",
        {
            "type": "side_bet",
            "bettor": "Zed",
            "kind": "high_drop",
            "guess": 12,
            "stake": 3,
            "round": 1,
        },
    ),
    ('layout {"sticks": {"a": {}}}', {"type": "layout", "sticks": {"a": {}}}),
    ('{"type": "confirm", "player": "Bo"}', {"type": "confirm", "player": "Bo"}),
]


@pytest.mark.parametrize(("line", "event"), ENTRIES)
def test_typed_entries(line, event):
    assert parse_entry(line) == event


@pytest.mark.parametrize(
    "line",
    [
        "",
        "bet",
        "bet lots",
        "totals Ann=3 oops",
        "layout {",
        "side Zed high_drop x 1",
        "[1]",
        "{not json",
        "dance",
    ],
)
def test_typed_entries_refused(line):
    with pytest.raises(RuleError):
        parse_entry(line)
