"""The repository stands on its own: nothing points outside it, every document a help text or
the README names is inside it, and `sticks list` gives the numbers `sticks check` takes."""

import json
import re
from pathlib import Path

import pytest

from sticktable.cli import build_parser, main

REPO = next(p for p in Path(__file__).resolve().parents if (p / "host" / "docs").is_dir())
AREAS = ["tests", "host", "firmware", "hardware", "README.md", "Makefile"]
# Paths into the developers' reference material, which a clone does not have (the pattern is
# spelled in pieces so that this file does not match it itself).
SHARED = "sha" + "red"
OUTSIDE = re.compile(rf"\.\./{SHARED}|\b{SHARED}/|(?<![\w/])(spec|seeds)/\w|rules-decisions\.md")
DOC_REF = re.compile(r"host/docs/[\w./-]+\.(?:md|txt)")
TEXT = {".py", ".md", ".txt", ".json", ".toml", ".cfg", ".ini", "", ".mk", ".csv"}


def _text_files():
    for area in AREAS:
        root = REPO / area
        files = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in files:
            skip = {"__pycache__", "sources", "out"} & set(path.parts) or ".egg-info" in str(path)
            if path.is_file() and path.suffix in TEXT and not skip:
                yield path


def test_nothing_points_outside_the_repository():
    hits = []
    for path in _text_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def _help_texts():
    """Every command's and subcommand's --help text."""
    stack = [build_parser()]
    while stack:
        parser = stack.pop()
        yield parser.prog, parser.format_help()
        for action in parser._actions:
            if getattr(action, "choices", None) and hasattr(action, "_name_parser_map"):
                stack.extend(action.choices.values())


def test_every_document_named_in_help_or_readme_exists():
    named = {}
    for prog, text in _help_texts():
        for ref in DOC_REF.findall(" ".join(text.split())):
            named.setdefault(ref, prog)
    for path in [REPO / "README.md", *REPO.joinpath("host", "docs").glob("*.md")]:
        for ref in DOC_REF.findall(path.read_text(encoding="utf-8")):
            named.setdefault(ref, path.name)
    missing = {ref: where for ref, where in named.items() if not (REPO / ref).is_file()}
    assert named and not missing


@pytest.mark.parametrize(
    "argv",
    [
        ["score"],
        ["detect"],
        ["simulate"],
        ["record"],
        ["bloodsticks", "score-drop"],
        ["sticks", "check"],
        ["sticks", "list"],
    ],
)
def test_file_commands_name_their_format_document(argv, capsys):
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert re.search(r"host/docs/formats/[\w-]+\.md", text), text


def test_every_relative_link_in_the_docs_resolves():
    link = re.compile(r"\]\(([^)#]+)\)")
    broken = []
    for path in [REPO / "README.md", *REPO.joinpath("host", "docs").rglob("*.md")]:
        for target in link.findall(path.read_text(encoding="utf-8")):
            if "://" not in target and not (path.parent / target).exists():
                broken.append(f"{path.relative_to(REPO)} -> {target}")
    assert not broken


@pytest.mark.parametrize("preset", ["classic", "tries"])
def test_sticks_list_gives_the_numbers_check_takes(preset, capsys):
    assert main(["sticks", "list", "--preset", preset, "--json"]) == 0
    sticks = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [s["stick"] for s in sticks] == list(range(1, len(sticks) + 1))
    for stick in sticks:
        argv = ["sticks", "check", "--preset", preset, "--stick", str(stick["stick"])]
        if stick["kind"] == "laydown":
            assert main([*argv, *stick["example"]]) == 0
            assert json.loads(capsys.readouterr().out)["ok"] is True
        else:
            assert main([*argv, "9H"]) == 2
            assert "not a lay-down" in capsys.readouterr().err
    assert main(["sticks", "list", "--preset", preset]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["stick", "kind", "text", "example"]
    assert len(lines) == len(sticks) + 1 and lines[1].split()[:2] == ["1", "lay-down"]
