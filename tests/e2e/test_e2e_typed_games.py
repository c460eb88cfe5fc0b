"""Games played with typed input at the (simulated) table: Bloodsticks through the daemon.

Seat buttons are typed as `button SEAT [long]`, so they go through the rule set's reading of
board facts exactly like a press on the board; the game is journaled, replayed and exported
like a Stick Stack game.
"""

import json
import subprocess
import sys

from sticktable.journal import Journal

ROUNDS = """\
first Ann
collect
bet 2
button 1
button 2 long
drop flip
totals Ann=3 Bo=5
collect
bet 1
match Ann
drop high
totals Ann=4 Bo=1
"""


def sticktable(*args, input=None):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
    )


def play_bloodsticks(journal: str, typed: str, *house: str):
    """`sticktable run --sim --game bloodsticks` with the commands piped in."""
    house_args = [arg for rule in ("first_dropper=host", *house) for arg in ("--house", rule)]
    return sticktable(
        "run", "--sim", "--game", "bloodsticks", "--players", "Ann,Bo,Cy", *house_args,
        "--journal", journal, input=typed,
    )  # fmt: skip


def test_a_bloodsticks_game_at_the_simulated_table(tmp_path):
    journal = str(tmp_path / "j.sqlite")
    played = play_bloodsticks(journal, ROUNDS, "entry=totals")
    assert played.returncode == 0, played.stdout + played.stderr
    assert "match player=Bo" in played.stdout and "fall_out player=Cy" in played.stdout
    # replay prints the game record's result (host/docs/formats/bloodsticks-game.md).
    result = json.loads(sticktable("replay", "1", "--json", "--journal", journal).stdout)
    assert result["finished"] and result["winners"] == ["Ann"]
    assert result["totals"] == {"Ann": 7, "Bo": 6, "Cy": 0}
    # The pot holds Ann's and Bo's bets (2 + 1 each); Cy fell out before matching.
    assert result["pot"] == 6 and result["net"] == {"Ann": 6 - 3, "Bo": -3, "Cy": 0}
    exported = sticktable("export", "1", "--journal", journal).stdout.splitlines()
    # header, first, 2 x (dropper, answers, points): the game record, line by line.
    assert [next(iter(json.loads(line))) for line in exported] == [
        "game", "first", "dropper", "match", "fall_out", "points", "dropper", "match", "points"
    ]  # fmt: skip


def test_an_unfinished_typed_game_exits_non_zero(tmp_path):
    played = play_bloodsticks(str(tmp_path / "j.sqlite"), "first Ann\nnonsense words\n")
    assert played.returncode == 1
    assert "first_dropper player=Ann" in played.stdout
    assert "nonsense" in played.stdout and "not finished" in played.stdout


def test_an_interrupted_typed_game_resumes_on_the_simulated_table(tmp_path):
    journal = str(tmp_path / "j.sqlite")
    first = play_bloodsticks(journal, "first Ann\ncollect\nbet 2\n", "entry=totals")
    assert first.returncode == 1 and "not finished" in first.stdout
    rest = "\n".join(ROUNDS.splitlines()[3:]) + "\n"
    resumed = sticktable("run", "--sim", "--resume", "--journal", journal, input=rest)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "#3 match player=Bo" in resumed.stdout  # the log goes on where it stopped
    result = json.loads(sticktable("replay", "1", "--json", "--journal", journal).stdout)
    assert result["finished"] and result["totals"] == {"Ann": 7, "Bo": 6, "Cy": 0}


def test_a_scripted_simulation_is_not_resumed(tmp_path):
    journal = tmp_path / "j.sqlite"
    with Journal(journal) as opened:  # a Stick Stack game on the simulated table, interrupted
        opened.new_game({"game": "stick-stack", "players": ["Ann", "Bo"]}, source="sim")
    refused = sticktable("run", "--sim", "--resume", "--journal", str(journal))
    assert refused.returncode == 2 and "plays its script from the start" in refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
