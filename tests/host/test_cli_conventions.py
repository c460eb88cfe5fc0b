"""host/docs/cli.md, command by command: missing files, `-`, BOMs, UTF-16 and binary input,
options checked at parse time, conflicting options, metavars, tables and JSON, progress.
Real processes (the installed `sticktable` entry point), real files, a real pty."""

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sticktable.cli import build_parser

TRANSCRIPT = [
    '{"game": "stick-stack", "players": ["Ännä", "山田"]}',
    '{"turn": "Ännä", "take": "bag"}',
    '{"placed": true}',
    '{"turn": "山田", "take": "bag"}',
    '{"topple": true}',
]
DROP = {
    "players": {"Ann": ["a1", "a2"], "Bo": ["b1", "b2"], "Cy": ["c1", "c2"]},
    "dropper": "Ann",
    "drop": 1,
    "sticks": {
        **{s: {"posture": "flat"} for s in ("a1", "a2", "b1", "b2", "c1", "c2")},
        "blood": {},
        "henki": {},
    },
}
BATCH = '{"preset": "classic", "stick": 5, "cards": ["3C", "4C", "5C"]}'


def sticktable(*argv, stdin=None, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *argv],
        input=stdin,
        capture_output=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """One valid input per file-reading command, and the trace `simulate` writes to stdout."""
    folder = tmp_path_factory.mktemp("inputs")
    trace = sticktable("simulate", "--scenario", "single-falls", "--out", "-")
    assert trace.returncode == 0, trace.stderr
    assert trace.stdout.startswith(b"# sticktrace 1 ") and b"wrote" in trace.stderr
    made = {
        "score": "\n".join(TRANSCRIPT) + "\n",
        "detect": trace.stdout.decode(),
        "score-drop": json.dumps(DROP),
        "batch": BATCH + "\n",
    }
    paths = {}
    for name, text in made.items():
        paths[name] = folder / f"{name}.txt"
        paths[name].write_text(text, encoding="utf-8")
    return paths


COMMANDS = {
    "score": ["score"],
    "detect": ["detect"],
    "score-drop": ["bloodsticks", "score-drop"],
    "batch": ["sticks", "check", "--batch"],
}


@pytest.mark.parametrize("name", COMMANDS)
def test_a_missing_file_is_the_same_line_and_exit_1_everywhere(name, tmp_path):
    missing = tmp_path / "nope.txt"
    done = sticktable(*COMMANDS[name], str(missing))
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode() == f"sticktable: cannot read {missing}: No such file or directory\n"


@pytest.mark.parametrize("name", COMMANDS)
def test_dash_reads_stdin_and_a_bom_is_accepted(name, files):
    plain = sticktable(*COMMANDS[name], str(files[name]))
    assert plain.returncode == 0, plain.stderr
    piped = sticktable(*COMMANDS[name], "-", stdin=files[name].read_bytes())
    assert (piped.returncode, piped.stdout) == (0, plain.stdout)
    with_bom = files[name].with_suffix(".bom")
    with_bom.write_bytes(b"\xef\xbb\xbf" + files[name].read_bytes())
    bom = sticktable(*COMMANDS[name], str(with_bom))
    assert (bom.returncode, bom.stdout, bom.stderr) == (0, plain.stdout, b"")


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "binary"])
def test_utf16_and_binary_are_not_utf8_text_everywhere(name, encoding, files):
    text = files[name].read_text(encoding="utf-8")
    data = bytes(range(256)) * 4 if encoding == "binary" else text.encode(encoding)
    bad = files[name].with_suffix("." + encoding)
    bad.write_bytes(data)
    done = sticktable(*COMMANDS[name], str(bad))
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and done.stdout == b"" and len(lines) == 1, lines
    assert lines[0].startswith(f"sticktable: {bad}") and "not UTF-8 text" in lines[0]


def test_refusals_name_the_file_and_the_line(files, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(TRANSCRIPT[0] + "\n" + '{"fell": 1}\n', encoding="utf-8")
    done = sticktable("score", str(bad))
    assert done.returncode == 2
    assert done.stderr.decode().startswith(f"sticktable: {bad} line 2: ")
    piped = sticktable("score", "-", stdin=bad.read_bytes())
    assert piped.stderr.decode().startswith("sticktable: stdin line 2: ")


def test_names_are_printed_as_they_are(files):
    scored = sticktable("score", str(files["score"]))
    assert "Ännä" in scored.stdout.decode() and "\\u" not in scored.stdout.decode()


def test_simulate_out_dash_writes_the_trace_to_stdout(files, tmp_path):
    os.chdir(tmp_path)  # a file named "-" would land here
    done = sticktable("simulate", "--scenario", "touch", "--out", "-")
    assert done.returncode == 0 and done.stdout.startswith(b"# sticktrace 1 ")
    assert "wrote" in done.stderr.decode() and "stdout" in done.stderr.decode()
    assert not (tmp_path / "-").exists()
    detected = sticktable("detect", "-", stdin=done.stdout)
    assert detected.returncode == 0 and json.loads(detected.stdout.splitlines()[0])["kind"]


@pytest.mark.parametrize("command", [["run", "--sim"], ["record", "x.csv"], ["doctor"]])
@pytest.mark.parametrize("value", ["-1", "0", "soon"])
def test_hello_timeout_is_checked_when_parsing(command, value):
    done = sticktable(*command, "--hello-timeout", value, timeout=30)
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "--hello-timeout" in err and "seconds" in err


@pytest.mark.parametrize(
    "extra, named",
    [
        (["--players", "X,Y"], "--players"),
        (["--game", "sticks"], "--game"),
        (["--players", "X,Y", "--game", "sticks"], "--players, --game"),
        (["--house", "end_score=5"], "--house"),
    ],
)
def test_resume_refuses_options_that_would_be_ignored(extra, named, tmp_path):
    done = sticktable("run", "--resume", "1", *extra, "--journal", str(tmp_path / "j.sqlite"))
    assert done.returncode == 2
    assert done.stderr.decode() == (
        f"sticktable: --resume continues a game as it was journaled: leave out {named}\n"
    )
    assert not (tmp_path / "j.sqlite").exists()


def test_two_player_bloodsticks_suggests_the_house_option(tmp_path):
    done = sticktable(
        "run", "--sim", "--game", "bloodsticks", "--players", "Ann,Bo",
        "--journal", str(tmp_path / "j.sqlite"),
    )  # fmt: skip
    assert done.returncode == 1 and "--house variant=challenge" in done.stderr.decode()


def test_calibrate_yes_never_waits_for_enter():
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "calibrate", "--sim", "--yes", "--mass", "150",
         "--sticks", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "press Enter" not in done.stdout and "[y/N]" not in done.stdout
    assert "simulated truth" in done.stdout


def test_doctor_without_a_board_lists_the_checks_and_no_ports():
    done = sticktable("doctor", "--port", "/dev/ttyACM-no-such-board", timeout=30)
    out = done.stdout.decode().splitlines()
    assert done.returncode == 1 and done.stderr.decode().count("\n") == 1
    assert out[0].startswith("PROBLEM  the board answers") and "no such port" in out[1]
    from sticktable.commands.doctor import CHECKS

    assert [line.split()[0] for line in out[2:]] == ["not"] * (len(CHECKS) - 1)
    assert "/dev/tty" not in "\n".join(out[2:])


def _parsers():
    stack = [("sticktable", build_parser())]
    while stack:
        name, parser = stack.pop()
        yield name, parser
        for action in parser._actions:
            if hasattr(action, "_name_parser_map"):
                stack.extend((f"{name} {n}", p) for n, p in action.choices.items())


METAVARS = {
    "--port": "PORT",
    "--hello-timeout": "SECONDS",
    "--players": "A,B,...",
    "--journal": "FILE",
    "--seed": "N",
    "--house": "KEY=VALUE",
}


def test_every_command_has_a_description_and_shared_options_one_metavar():
    for name, parser in _parsers():
        if name != "sticktable":
            assert parser.description, f"`{name} --help` has no description"
        for action in parser._actions:
            for option in action.option_strings:
                if option in METAVARS:
                    assert action.metavar == METAVARS[option], (name, option)


def test_replay_prints_a_table_and_json_on_request(tmp_path):
    from sticktable.engine import Game
    from sticktable.games.stickstack_transcript import parse
    from sticktable.journal import Journal

    header, events = parse(TRANSCRIPT)
    with Journal(tmp_path / "j.sqlite") as journal:
        game_id = journal.new_game(header, source="test")
        for idx, event in enumerate(events):
            journal.append_event(game_id, idx, event)
    table = sticktable("replay", "1", "--journal", str(tmp_path / "j.sqlite")).stdout.decode()
    lines = table.splitlines()
    assert lines[2].split() == ["player", "R1", "totals"]
    assert lines[3].split() == ["Ännä", "0", "0"] and lines[4].split() == ["山田", "5", "5"]
    # Columns line up on the screen: the wide name takes two cells per character.
    assert lines[3].index("0") == lines[4].index("5") + 2
    as_json = sticktable("replay", "1", "--json", "--journal", str(tmp_path / "j.sqlite"))
    assert json.loads(as_json.stdout) == Game(header, events).summary()
    assert "Ännä" in as_json.stdout.decode()


def test_long_work_shows_progress_on_a_terminal_only(tmp_path):
    big = tmp_path / "big.jsonl"
    header = '{"game": "stick-stack", "players": ["Ann", "Bo"], "unplaceable": "to_bag"}'
    turns = "".join(
        f'{{"turn": "{p}", "take": "bag"}}\n{{"unplaceable": true}}\n' for p in ("Ann", "Bo")
    )
    big.write_text(header + "\n" + turns * 25_000, encoding="utf-8")
    piped = sticktable("score", str(big))
    assert piped.returncode == 0 and piped.stderr == b""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sticktable", "score", str(big)],
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    out, _ = proc.communicate(timeout=60)
    os.close(leader)
    assert proc.returncode == 0 and json.loads(out)["finished"] is False
    assert b"score: " in seen and b"% (" in seen and b" MB)" in seen


def test_make_hardware_and_flash_honour_the_profile():
    root = Path(__file__).resolve().parents[2]
    built = subprocess.run(
        [sys.executable, "-m", "hardware.build", "--profile", "esp32"],
        cwd=root, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert built.returncode == 0 and "ESP32" in built.stdout and built.stderr == ""
    flashed = subprocess.run(
        [sys.executable, "-m", "hardware.flash", "--port", "", "--profile", "esp32"],
        cwd=root, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert flashed.returncode == 1 and "Pico" not in flashed.stderr
    assert "PROFILE=esp32" in flashed.stderr and "no ESP32 found" in flashed.stderr
