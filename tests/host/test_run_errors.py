"""`sticktable run` refuses what cannot work with one line on stderr and a non-zero exit."""

import os
import subprocess
import sys
import tty

import pytest


def sticktable(*args, timeout=30):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def one_line_error(proc, code, *words):
    assert proc.returncode == code, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in proc.stderr


@pytest.fixture
def journal(tmp_path):
    return str(tmp_path / "j.sqlite")


def test_unknown_option(journal):
    one_line_error(sticktable("run", "--frobnicate", "--journal", journal), 2, "--frobnicate")


def test_missing_port(journal):
    proc = sticktable(
        "run", "--port", "/dev/no-such-board", "--players", "A,B", "--journal", journal
    )
    one_line_error(proc, 1, "no such port")
    assert not os.path.exists(journal)  # a failed open leaves no journal behind
    assert "no games yet" in sticktable("games", "--journal", journal).stdout


def test_board_that_never_says_hello(journal):
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        proc = sticktable(
            "run",
            "--port",
            os.ttyname(slave),
            "--players",
            "A,B",
            "--hello-timeout",
            "0.5",
            "--journal",
            journal,
        )
    finally:
        os.close(master)
        os.close(slave)
    one_line_error(proc, 1, "no hello from the board")


def test_bad_players_are_refused_before_anything_starts(journal):
    one_line_error(
        sticktable("run", "--sim", "--players", "Solo", "--journal", journal), 1, "2 to 8"
    )
    one_line_error(sticktable("run", "--sim", "--journal", journal), 1, "--players")
    one_line_error(
        sticktable(
            "run", "--sim", "--players", "A,B", "--house", "colour=red", "--journal", journal
        ),
        1,
        "colour",
    )


def test_nothing_to_resume(journal):
    one_line_error(
        sticktable("run", "--port", "/dev/null", "--resume", "--journal", journal),
        1,
        "no unfinished game",
    )
    one_line_error(
        sticktable("run", "--sim", "--resume", "--journal", journal), 1, "no unfinished game"
    )
