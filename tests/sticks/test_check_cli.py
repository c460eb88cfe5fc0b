"""`sticktable sticks check` per host/docs/formats/sticks-laydown.md: one, batch, refused."""

import json
import subprocess
import sys

import pytest

from sticktable.cli import main


def run(capsys, *argv):
    try:
        code = main(["sticks", "check", *argv])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_valid_lay_down_prints_melds_and_wilds(capsys):
    code, out, err = run(
        capsys,
        "--preset",
        "classic",
        "--stick",
        "6",
        "4D",
        "5D",
        "JK",
        "7D",
        "8D",
        "JC",
        "JS",
        "2H",
    )
    result = json.loads(out)
    assert code == 0 and not err and result["ok"] is True
    assert [m["cards"] for m in result["melds"]] == [
        ["4D", "5D", "JK", "7D", "8D"],
        ["JC", "JS", "2H"],
    ]
    assert {"card": "JK", "as": "6D", "meld": 0} in result["wilds"]


def test_invalid_lay_down_says_why_and_exits_0(capsys):
    code, out, _ = run(capsys, "--preset", "tries", "--stick", "19", "AH", "KH", "JH")
    result = json.loads(out)
    assert code == 0 and result["ok"] is False and "JH" in result["why"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--preset", "classic", "--stick", "3", "9H", "1H"], "unknown card '1H'"),
        (["--preset", "poker", "--stick", "3", "9H"], "unknown preset"),
        (["--preset", "classic", "--stick", "50", "9H"], "no stick 50"),
        (["--preset", "classic", "--stick", "24", "9H"], "not a lay-down"),
        (["--preset", "tries", "--stick", "42", "9H"], "not a lay-down"),
        (["--preset", "classic", "--stick", "two", "9H"], "invalid int"),
        (["--stick", "3", "9H"], "--preset"),
    ],
)
def test_malformed_requests_are_refused_on_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("sticktable") and words in err


def test_batch_answers_line_by_line(tmp_path, capsys):
    lines = [
        {"preset": "classic", "stick": 2, "cards": ["AH", "KH", "JK"]},
        {"preset": "tries", "stick": 40, "cards": ["JK", "JK", "2C", "2D", "5H"]},
        {"preset": "tries", "stick": 21, "cards": ["3H", "4H", "5H"]},
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    code, out, _ = run(capsys, "--batch", str(batch))
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["ok"] for r in results] == [True, False, True]
    assert [r["stick"] for r in results] == [2, 40, 21]


@pytest.mark.parametrize(
    "bad, words",
    [
        ('{"preset": "classic", "stick": 2, "cards": ["AH", "KH", "ZZ"]}', "line 2: unknown card"),
        ('{"preset": "classic", "stick": 24, "cards": []}', "line 2: stick 24"),
        ("not json", "line 2: not JSON"),
        ('{"preset": "classic", "cards": []}', "line 2: a line must be"),
        ('{"preset": "classic", "stick": "2", "cards": []}', "line 2: the stick must be a number"),
        ('{"preset": ["classic"], "stick": 2, "cards": []}', "line 2: unknown preset"),
        ('{"preset": {}, "stick": 2, "cards": []}', "line 2: unknown preset"),
    ],
)
def test_batch_refusal_names_the_line(tmp_path, capsys, bad, words):
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        '{"preset": "classic", "stick": 5, "cards": ["3C", "4C", "5C"]}\n' + bad + "\n"
    )
    code, out, err = run(capsys, "--batch", str(batch))
    assert code == 2 and not out and err.count("\n") == 1 and words in err


def test_batch_line_numbers_count_line_ends_only(tmp_path, capsys):
    # U+2028 and U+0085 are legal inside a JSON string: they must not start a new line.
    first = {"preset": "classic", "stick": 5, "cards": ["3C", "4C", "5C"], "note": "a\u2028b\x85c"}
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(
        json.dumps(first, ensure_ascii=False).encode()
        + b"\r\n\n"
        + b'{"preset": "classic", "stick": 99, "cards": []}\n'
    )
    code, out, err = run(capsys, "--batch", str(batch))
    assert code == 2 and not out and err.count("\n") == 1 and "line 3: " in err


def test_batch_refuses_absurdly_deep_json_on_one_line(tmp_path, capsys):
    batch = tmp_path / "batch.jsonl"
    batch.write_text("[" * 100_000 + "\n")
    code, out, err = run(capsys, "--batch", str(batch))
    assert code == 2 and not out and err.count("\n") == 1 and "line 1: not JSON" in err


def test_the_installed_command(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sticktable",
            "sticks",
            "check",
            "--preset",
            "classic",
            "--stick",
            "5",
            "3C",
            "4C",
            "JK",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["ok"] is True
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sticktable",
            "sticks",
            "check",
            "--batch",
            str(tmp_path / "missing.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # An unreadable file is not a malformed request: exit 1, like `score` and `score-drop`.
    assert done.returncode == 1 and done.stderr.count("\n") == 1
