"""Transcripts and `sticktable score` (host/docs/formats/stick-stack-transcript.md)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sticktable.cli import main
from sticktable.errors import InputRefused
from sticktable.games.stickstack_transcript import parse, read_game, result, to_lines

STICKTABLE = Path(sys.executable).parent / "sticktable"
HEADER = '{"game": "stick-stack", "players": ["Ann", "Bo", "Cy"]}'

# Round 1 ends with Ann toppling the tower: she had 2 in front, Bo 1, Cy 2.
ROUND_1 = """\
{"turn": "Ann", "take": "bag"}
{"placed": true}
{"turn": "Bo", "take": "bag"}
{"placed": true}
{"turn": "Cy", "take": "bag"}
{"placed": true}
{"turn": "Ann", "take": "bag"}
{"placed": true}
{"fell": 1}
{"turn": "Bo", "take": "bag"}
{"placed": true}
{"fell": 1}
{"turn": "Cy", "take": "bag"}
{"placed": true}
{"fell": 1}
{"turn": "Ann", "take": "bag"}
{"placed": true}
{"fell": 1}
{"turn": "Bo", "take": "bag"}
{"placed": true}
{"turn": "Cy", "take": "bag"}
{"placed": true}
{"fell": 1}
{"turn": "Ann", "take": "bag"}
{"placed": true}
{"fell": 5}
""".splitlines()
ROUND_1_RESULT = {"scores": {"Ann": 7, "Bo": 1, "Cy": 2}, "ended_by": "topple", "toppler": "Ann"}

# Two players, three sticks: after this Ann has nothing to take (the round cannot go on).
STUCK = """\
{"game": "stick-stack", "players": ["Ann", "Bo"], "sticks": 3, "end_score": 2}
{"turn": "Ann", "take": "bag"}
{"placed": true}
{"turn": "Bo", "take": "bag"}
{"placed": true}
{"fell": 1}
{"turn": "Ann", "take": "bag"}
{"placed": true}
{"turn": "Bo", "take": "front"}
{"placed": true}
{"fell": 2}
""".splitlines()


def score(lines):
    return result(read_game(lines))


def test_standings_are_the_spec_object():
    lines = [HEADER, "", "# round 1", *ROUND_1, '{"turn": "Bo", "take": "bag"}', '{"placed": true}']
    output = score(lines)
    assert list(output) == ["finished", "totals", "winners", "rounds"]
    assert output == {
        "finished": False,
        "totals": {"Ann": 7, "Bo": 1, "Cy": 2},  # the running round does not count
        "winners": [],
        "rounds": [ROUND_1_RESULT],
    }


def test_game_over_and_winners():
    header = '{"game": "stick-stack", "players": ["Ann", "Bo", "Cy"], "end_score": 7}'
    output = score([header, *ROUND_1])
    assert output["finished"] and output["winners"] == ["Bo"]
    tied = '{"game": "stick-stack", "players": ["Ann", "Bo", "Cy"], "end_score": 5}'
    lines = [tied, '{"turn": "Ann", "take": "bag"}', '{"topple": true}']
    assert score(lines)["winners"] == ["Bo", "Cy"]


def test_end_of_transcript_ends_a_round_that_cannot_go_on():
    output = score(STUCK)
    assert output == {
        "finished": True,
        "totals": {"Ann": 0, "Bo": 2},
        "winners": ["Ann"],
        "rounds": [{"scores": {"Ann": 0, "Bo": 2}, "ended_by": "no_more_sticks", "toppler": None}],
    }
    with pytest.raises(InputRefused, match="^line 12: the game is over$"):
        read_game([*STUCK, '{"turn": "Bo", "take": "bag"}'])


def test_next_turn_after_a_round_end_belongs_to_the_next_first_player():
    header = STUCK[0].replace('"end_score": 2', '"end_score": 9')
    lines = [header, *STUCK[1:], '{"turn": "Bo", "take": "bag"}']
    output = score(lines)
    assert not output["finished"] and output["rounds"][0]["ended_by"] == "no_more_sticks"


REFUSALS = [
    ([], 1, "missing header: the transcript has no header line"),
    (["# only a comment", ""], 1, "missing header"),
    (['{"turn": "Ann", "take": "bag"}'], 1, "missing header"),
    ([HEADER, '{"turn": "Ann", "take": "bag"'], 2, "not JSON"),
    ([HEADER, "[1, 2]"], 2, "not a JSON object"),
    ([HEADER, "[" * 100_000], 2, "not JSON"),
    ([HEADER, '{"fell": ' + "9" * 5000 + "}"], 2, "not JSON"),
    ([HEADER, b'{"turn": "\xc5nn", "take": "bag"}'], 2, "not UTF-8"),
    (['{"game": "bloodsticks", "players": ["Ann", "Bo"]}'], 1, "not a Stick Stack header"),
    (['{"game": "stick-stack", "players": ["Ann", "Bo"], "tie_rule": 1}'], 1, "unknown header key"),
    (['{"game": "stick-stack", "players": ["Ann"]}'], 1, "needs 2 to 8 players"),
    ([HEADER, "", '{"turn": "Bo", "take": "bag"}'], 3, "it is Ann's turn, not Bo's"),
    ([HEADER, '{"turn": "Dee", "take": "bag"}'], 2, "'Dee' is not playing"),
    ([HEADER, '{"turn": "Ann", "take": "bag"}', '{"fell": 1}'], 3, "the tower holds only 0"),
    ([HEADER, '{"turn": "Ann", "take": "front"}'], 2, "Ann has no sticks in front"),
    ([*STUCK[:8], '{"turn": "Bo", "take": "bag"}'], 9, "bag: it is empty"),
    ([HEADER, '{"turn": "Ann", "take": "hat"}'], 2, '"take" must be "bag" or "front"'),
    ([HEADER, '{"turn": "Ann", "take": "bag"}', '{"placed": false}'], 3, '"placed" must be true'),
    ([HEADER, '{"turn": "Ann", "take": "bag"}', '{"fell": 0}'], 3, '"fell" must be'),
    ([HEADER, '{"turn": "Ann", "take": "bag"}', '{"fell": true}'], 3, '"fell" must be'),
    ([HEADER, '{"turn": "Ann", "take": "bag", "t": 5}'], 2, "not a transcript line"),
    ([HEADER, '{"dropped": true}'], 2, "not a transcript line"),
    ([HEADER, '{"placed": true}'], 2, "no turn has started"),
    ([HEADER, '{"turn": "Ann", "take": "bag"}', '{"turn": "Bo", "take": "bag"}'], 3, "holds a"),
    ([*STUCK, '{"fell": 1}', '{"turn": "Bo", "take": "bag"}'], 13, "the game is over"),
    # Names may hold line breaks; the refusal still is one line (they are escaped).
    (
        [
            '{"game": "stick-stack", "players": ["A\\nn", "B\\u2028o"]}',
            '{"turn": "B\\u2028o", "take": "bag"}',
        ],
        2,
        "'s turn, not B",
    ),
]


@pytest.mark.parametrize(("lines", "number", "what"), REFUSALS)
def test_refused_transcripts_name_the_line(lines, number, what):
    with pytest.raises(InputRefused, match=f"^line {number}: .*{what}"):
        parse(lines)


def test_score_command_prints_one_json_object(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join([HEADER, *ROUND_1]) + "\n")
    assert main(["score", str(path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == score([HEADER, *ROUND_1]) and err == ""
    assert out.count("\n") == 1


@pytest.mark.parametrize(("lines", "number", "what"), REFUSALS)
def test_score_command_refuses_with_exit_2(tmp_path, capsys, lines, number, what):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\n".join(x if isinstance(x, bytes) else x.encode() for x in lines))
    assert main(["score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"sticktable: {path} line {number}: ")


def test_score_command_reads_stdin_as_a_real_process():
    transcript = "\n".join([HEADER, *ROUND_1]) + "\n"
    done = subprocess.run(
        [STICKTABLE, "score", "-"], input=transcript, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rounds"] == [ROUND_1_RESULT]
    bad = transcript + '{"fell": 1}\n'  # the tower is empty after the topple
    done = subprocess.run(
        [STICKTABLE, "score", "-"], input=bad, capture_output=True, text=True, timeout=30
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"sticktable: stdin line {len(ROUND_1) + 2}: " + (
        "1 stick(s) fell, but no turn has started this round")]  # fmt: skip


def test_score_command_missing_file_is_a_user_error(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_export_applies_corrections_and_drops_metadata():
    header, events = parse([HEADER, *ROUND_1[:4]])
    events = [{**e, "src": "board", "seq": i} for i, e in enumerate(events)]
    events.append({"type": "fell", "count": 1, "src": "board"})
    events.append({"type": "touch", "src": "board"})
    events.append({"type": "correct", "target": 4, "events": [], "why": "a knock, not a fall"})
    lines = to_lines(header, events)
    assert lines == [json.dumps(header), *ROUND_1[:4]]  # the touch costs nothing: not written
    penalised = {**header, "foul_penalty": 1}
    assert to_lines(penalised, events)[-1] == '{"touch": true}'
    assert score(to_lines(penalised, events)) == score(to_lines(penalised, events)[:-1])


def test_export_round_trips_and_omits_round_ends():
    header, events = parse(STUCK)
    events = [*events, {"type": "end_round"}]
    assert to_lines(header, events) == STUCK
    assert score(to_lines(header, events)) == score(STUCK)


def test_replay_summary_and_export_hooks_speak_the_transcript_format():
    game = read_game(STUCK)
    assert game.summary() == result(game) and game.summary()["finished"]
    assert game.export() == STUCK == game.export("Ann")
