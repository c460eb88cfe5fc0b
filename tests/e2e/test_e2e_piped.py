"""Input piped to a scripted Stick Stack game on the simulated table is read, not ignored:
the table says how to get help, and a piped `show` prints where the game is, as a table."""

import re
import subprocess
import sys


def test_piped_input_reaches_a_scripted_game(tmp_path):
    played = subprocess.run(
        [sys.executable, "-m", "sticktable", "run", "--sim", "--seed", "3",
         "--players", "Ann,Bo", "--house", "end_score=1", "--journal", str(tmp_path / "j.sqlite")],
        input="show\nhelp\n",
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]
    out = played.stdout
    assert "type `help` for the commands" in out
    assert re.search(r"^phase (take|place|round_end|over)", out, re.M)  # the piped `show`
    assert re.search(r"^  player +total$", out, re.M)
    assert "take player=NAME from=bag|front" in out  # the piped `help`: Stick Stack's own
    assert "exactly as scripted" in out
