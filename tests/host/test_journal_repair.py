"""A damaged, read-only or misplaced journal: one line naming the file and what to do in every
command, `journal check`, and `journal recover` saving every intact game (real SQLite files,
damaged as the issue's repro does: 8 KiB of 0xff at offset 4096)."""

import os
import subprocess
import sys

import pytest

from sticktable.journal import Journal

HEADER = {"game": "stick-stack", "players": ["Ann", "Bo"]}


def _turns(n):
    """n legal Stick Stack turns: take from the bag, place."""
    for i in range(n):
        yield {"type": "take", "player": HEADER["players"][i % 2], "from": "bag"}
        yield {"type": "placed"}


def make_journal(path, games=6, turns=15, pad=0):
    with Journal(path) as journal:
        for number in range(games):
            game_id = journal.new_game(HEADER, source="test")
            for idx, event in enumerate(_turns(turns)):
                journal.append_event(game_id, idx, event)
                fact = {"k": "placed", "s": idx, "pad": "x" * pad}
                journal.record_fact(game_id, fact, "applied", boot="b1")
                if idx % 5 == 1:  # a placement's raw samples, as a table streaming them keeps
                    journal.record_trace(
                        game_id,
                        fact | {"t": 100 * idx},
                        "b1",
                        ["dt_ms", "load_g"],
                        [[-10, 40.0], [10, 48.0]],
                    )
            if number == 1:
                journal.finish(game_id)
    return path


def damage(path, offset=4096, size=8192):
    with open(path, "r+b") as file:
        file.seek(offset)
        file.write(b"\xff" * size)


def sticktable(*argv, env=None):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture
def damaged(tmp_path):
    path = make_journal(tmp_path / "j.sqlite")
    damage(path)
    return path


@pytest.mark.parametrize(
    "command",
    [["games"], ["games", "--json"], ["replay", "3"], ["export", "3"], ["games", "--abandon", "3"]],
)
def test_a_damaged_journal_is_one_line_naming_the_file_and_the_way_out(damaged, command):
    proc = sticktable(*command, "--journal", str(damaged))
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"journal {damaged} is damaged" in proc.stderr
    assert f"sticktable journal recover {damaged} NEW.sqlite" in proc.stderr


@pytest.mark.parametrize(
    "argv", [["--sim", "--players", "Ann,Bo"], ["--resume", "--port", "/no/such/port"]]
)
def test_run_refuses_a_damaged_journal_before_playing(damaged, argv):
    proc = sticktable("run", *argv, "--journal", str(damaged))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(f"sticktable: journal {damaged}")
    assert "journal recover" in proc.stderr


def test_check_says_which_games_are_damaged_and_recover_saves_the_rest(tmp_path):
    path = make_journal(tmp_path / "j.sqlite")
    assert sticktable("journal", "check", "--journal", str(path)).returncode == 0
    with Journal(path, read_only=True) as journal:
        before = {
            row.id: (row, journal.events(row.id), journal.facts(row.id), _traces(journal, row.id))
            for row in journal.games()
        }
    damage(path)
    checked = sticktable("journal", "check", "--journal", str(path))
    assert checked.returncode == 1 and "journal recover" in checked.stdout
    new = tmp_path / "saved.sqlite"
    recovered = sticktable("journal", "recover", str(path), str(new))
    assert recovered.returncode == 0, recovered.stderr
    assert f"saved {len(before)} of {len(before)} games" in recovered.stdout
    with Journal(new, read_only=True) as journal:
        rows = journal.games()
        assert [row.id for row in rows] == sorted(before)
        for row in rows:
            old_row, events, facts, traces = before[row.id]
            assert (row.header, row.status) == (old_row.header, old_row.status)
            assert journal.events(row.id) == events
            assert [f["message"] for f in journal.facts(row.id)] == [f["message"] for f in facts]
            assert traces and _traces(journal, row.id) == traces  # the sensor traces too
    assert sticktable("journal", "check", "--journal", str(new)).returncode == 0
    assert sticktable("replay", "3", "--journal", str(new)).returncode == 0


def _traces(journal, game_id):
    """The game's traces with their samples, without their ids (a new file numbers anew)."""
    return [
        {key: value for key, value in journal.trace(game_id, listed["id"]).items() if key != "id"}
        for listed in journal.traces(game_id)
    ]


def test_recover_names_the_games_it_could_not_save(tmp_path):
    path = make_journal(tmp_path / "j.sqlite", games=3, pad=2000)
    size = path.stat().st_size
    damage(path, offset=size // 2, size=size // 2)  # the second half: later games' pages
    new = tmp_path / "saved.sqlite"
    proc = sticktable("journal", "recover", str(path), str(new))
    assert proc.returncode == 0 and "lost (damaged): game" in proc.stdout
    assert sticktable("journal", "check", "--journal", str(new)).returncode == 0
    again = sticktable("journal", "recover", str(path), str(new))
    assert again.returncode == 1 and "exists" in again.stderr


# Root writes through permissions: as root the directory is made read-only by a read-only bind
# mount in a mount namespace of the command's own (EROFS binds root too).
READ_ONLY_MOUNT = (
    'd=$1; shift; mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" "$d" && exec "$@"'
)


def test_reading_commands_read_a_read_only_journal_in_a_read_only_directory(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = make_journal(folder / "j.sqlite")
    before = sorted(os.listdir(folder))

    def in_read_only_folder(*command):
        argv = [sys.executable, "-m", "sticktable", *command, "--journal", str(path)]
        if os.geteuid() == 0:
            argv = ["unshare", "--mount", "sh", "-c", READ_ONLY_MOUNT, "sh", str(folder), *argv]
        return subprocess.run(argv, capture_output=True, text=True, timeout=120)

    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        for command in (["games"], ["replay", "1"], ["export", "1"], ["journal", "check"]):
            proc = in_read_only_folder(*command)
            assert proc.returncode == 0, (command, proc.stderr)
        assert sorted(os.listdir(folder)) == before  # nothing written beside it
        writing = in_read_only_folder("games", "--abandon", "1")
        assert writing.returncode == 1 and writing.stderr.count("\n") == 1, writing.stderr
        assert f"journal {path} is read-only" in writing.stderr
    finally:
        folder.chmod(0o755)


def test_a_journal_in_a_missing_directory_is_refused_not_created(tmp_path):
    missing = tmp_path / "no" / "such" / "j.sqlite"
    proc = sticktable("games", "--abandon", "1", "--journal", str(missing))
    assert proc.returncode == 1 and "no journal at" in proc.stderr
    proc = sticktable("run", "--sim", "--players", "Ann,Bo", "--journal", str(missing))
    assert proc.returncode == 1 and proc.stderr.strip().splitlines()[-1] == (
        f"sticktable: no directory {missing.parent} for journal {missing}"
    )
    assert not (tmp_path / "no").exists()


def test_only_the_default_data_directory_is_created(tmp_path, monkeypatch):
    home = tmp_path / "home" / "sticktable"
    monkeypatch.setenv("STICKTABLE_HOME", str(home))
    with Journal() as journal:
        assert journal.path == home / "journal.sqlite"
    assert home.is_dir()


def test_games_abandons_and_deletes(tmp_path):
    path = make_journal(tmp_path / "j.sqlite", games=3)
    journal_arg = ["--journal", str(path)]
    assert sticktable("games", "--abandon", "1", *journal_arg).stdout == "abandoned game 1\n"
    refused = sticktable("games", "--abandon", "2", *journal_arg)
    assert refused.returncode == 1 and "game 2 is finished" in refused.stderr
    deleted = sticktable("games", "--delete", "3", *journal_arg)
    assert deleted.returncode == 0 and "deleted game 3" in deleted.stdout
    listed = sticktable("games", *journal_arg).stdout.splitlines()
    assert [line.split()[0] for line in listed[1:]] == ["1", "2"]
    assert "abandoned" in listed[1] and "finished" in listed[2]
    with Journal(path) as journal:
        assert journal.last_unfinished() is None  # an abandoned game is never resumed
        assert journal.facts(3) == [] and journal.events(3) == []
    missing = sticktable("games", "--delete", "9", *journal_arg)
    assert missing.returncode == 1 and "no game 9" in missing.stderr
