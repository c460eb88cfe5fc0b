"""The README's screens (issue 12: "At a real table" shows a short screen of each game) are
what the program prints: each sample's command is run for real and every line of the sample
must come out, in order. `...` in a sample stands for lines left out, a line ending in `…` for
its own end cut; the board's boot id and the journal's path differ from run to run."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
SAMPLE = re.compile(r"<!-- screen -->\n```text\n(.*?)```", re.S)
VARYING = [
    (re.compile(r"\(boot [0-9a-f]+,"), "(boot B,"),
    (re.compile(r"\(journal [^)]*\)"), "(journal J)"),
]


def samples() -> list[str]:
    return SAMPLE.findall(README.read_text(encoding="utf-8"))


def command_of(line: str) -> tuple[str | None, list[str]]:
    """`$ [printf 'KEYS' |] sticktable ARGS`: the keys piped in, and the arguments."""
    assert line.startswith("$ "), line
    piped, _, command = line[2:].rpartition("|")
    keys = None
    if piped:
        printf, text = shlex.split(piped)
        assert printf == "printf", line
        keys = text.replace("\\n", "\n")
    words = shlex.split(command)
    assert words[0] == "sticktable", line
    return keys, words[1:]


def normal(line: str) -> str:
    for pattern, fixed in VARYING:
        line = pattern.sub(fixed, line)
    return line.rstrip()


def missing_lines(sample: list[str], printed: list[str]) -> list[str]:
    """The sample's lines not found in `printed` in the sample's order (from the first one
    missing on)."""
    at = 0
    for index, want in enumerate(sample):
        if want == "...":
            continue
        cut = want.endswith("…")
        want = normal(want.removesuffix("…"))
        while at < len(printed) and not (
            printed[at].startswith(want) if cut else printed[at] == want
        ):
            at += 1
        if at == len(printed):
            return sample[index:]
        at += 1
    return []


def game_of(sample: str) -> str:
    _, args = command_of(sample.split("\n")[0])
    return args[args.index("--game") + 1] if "--game" in args else "stick-stack"


def test_the_readme_shows_a_screen_of_each_game():
    assert [game_of(s) for s in samples()] == ["stick-stack", "bloodsticks", "sticks"]


@pytest.mark.parametrize("sample", samples(), ids=["stick-stack", "bloodsticks", "sticks"])
def test_a_readme_screen_is_what_the_program_prints(sample, tmp_path):
    first, *lines = sample.rstrip("\n").split("\n")
    keys, args = command_of(first)
    played = subprocess.run(
        [sys.executable, "-m", "sticktable", *args, "--journal", str(tmp_path / "j.sqlite")],
        input=keys or "",
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    printed = [normal(line) for line in played.stdout.splitlines()]
    missing = missing_lines(lines, printed)
    assert not missing, "\n".join(["not printed:", *missing[:3], "printed:", *printed])


def test_a_changed_line_is_caught():
    printed = ["a", "b  x", "c"]
    assert missing_lines(["a", "...", "c"], printed) == []
    assert missing_lines(["b …", "c"], printed) == []
    assert missing_lines(["c", "a"], printed) == ["a"]
    assert missing_lines(["b x"], printed) == ["b x"]
