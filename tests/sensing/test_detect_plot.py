"""`sticktable detect --plot`: a picture of the trace with the events and the truth; matplotlib
is loaded only when a picture is asked for."""

import json
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    where = tmp_path_factory.mktemp("plot")
    trace, truth = where / "t.csv", where / "t.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "simulate", "--scenario", "burst", "--seed", "2",
         "--out", str(trace), "--truth", str(truth)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return trace, truth


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot_draws_the_trace_and_keeps_the_event_output(labelled, tmp_path, suffix, magic):
    trace, truth = labelled
    out = tmp_path / ("p" + suffix)
    plain = subprocess.run(
        [sys.executable, "-m", "sticktable", "detect", str(trace)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    drawn = subprocess.run(
        [sys.executable, "-m", "sticktable", "detect", str(trace), "--plot", str(out),
         "--truth", str(truth)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout == plain.stdout  # the JSON lines are the same with or without a plot
    assert [json.loads(line)["kind"] for line in drawn.stdout.splitlines()]
    assert out.read_bytes().startswith(magic) and out.stat().st_size > 5000


def test_detect_without_plot_does_not_load_matplotlib(labelled):
    trace, _ = labelled
    code = (
        "import sys, io, contextlib\n"
        "from sticktable.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['detect', {str(trace)!r}])\n"
        "print('matplotlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--plot", "out.pdf"], "sticktable: --plot out.pdf: the picture must end in .png or .svg"),
        (["--truth", "t.jsonl"], "sticktable: --truth goes with --plot"),
    ],
)
def test_bad_plot_options_are_one_line_errors(labelled, tmp_path, extra, message):
    trace, _ = labelled
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "detect", str(trace), *extra],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [message]
