"""The simulated game and the virtual tower: rule-abiding, reproducible, physically plausible,
and scored as scripted when its samples go through the detector and the rules."""

import json
import subprocess
import sys

import pytest

from sticktable.sim.game import SimGame
from sticktable.sim.tabletop import play_through
from sticktable.sim.tower import Stick, VirtualTower, lever_weights

PLAYERS = ["Ann", "Bo", "Cy"]


@pytest.fixture(scope="module")
def game():
    return SimGame(PLAYERS, seed=4)


def test_the_same_seed_plays_the_same_game(game):
    again = SimGame(PLAYERS, seed=4)
    assert again.transcript_lines() == game.transcript_lines()
    assert list(again.samples())[-50:] == list(game.samples())[-50:]


def test_a_game_is_finished_and_a_few_minutes_long(game):
    assert game.expected_standings().finished is True
    assert 60_000 < game.duration_ms < 15 * 60_000


def test_samples_are_what_a_board_sends(game):
    samples = list(game.samples())
    times = [s.t_ms for s in samples]
    assert all(b > a for a, b in zip(times, times[1:], strict=False))
    rate = 1000 * (len(times) - 1) / (times[-1] - times[0])
    assert 77 <= rate <= 93
    assert all(len(s.cells) == 4 for s in samples)
    assert all(v is None or -8388608 <= v <= 8388607 for s in samples for v in s.cells)
    assert {s.buttons for s in samples} <= {0, 1, 2, 4}
    assert any(None in s.cells for s in samples)  # missing readings happen


def test_the_transcript_scores_to_the_expected_standings(game, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(game.transcript_text())
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "score", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    scored = json.loads(done.stdout)
    expected = game.expected_standings()
    assert scored["totals"] == expected.totals
    assert scored["winners"] == expected.winners


@pytest.mark.parametrize("seed", [4, 9])
def test_detector_and_rules_score_the_game_as_scripted(seed):
    sim = SimGame(PLAYERS, seed=seed)
    played = play_through(sim.header, sim.meta, sim.samples(), len(PLAYERS))
    expected = sim.expected_standings()
    got = played.standings()
    assert got.finished is True
    assert got.totals == expected.totals
    assert got.winners == expected.winners


def test_truth_covers_what_the_benchmark_needs(game):
    kinds = {e["kind"] for e in game.truth_events()}
    assert {"placed", "button", "clear"} <= kinds
    assert kinds & {"fell", "topple"}


def test_lever_rule_spreads_a_load_with_its_moments():
    cells = [[-70, -60], [70, -60], [70, 60], [-70, 60]]
    w = lever_weights(cells, 20.0, -15.0)
    assert sum(w) == pytest.approx(1.0)
    assert sum(wi * c[0] for wi, c in zip(w, cells, strict=True)) == pytest.approx(20.0)
    assert sum(wi * c[1] for wi, c in zip(w, cells, strict=True)) == pytest.approx(-15.0)


def test_a_placed_stick_adds_its_own_mass_in_counts():
    tower = VirtualTower.create(3, clean=True)
    board = tower.board
    before = list(tower.run(500))[-1]
    tower.place(Stick(0, 8.4))
    list(tower.run_until_quiet())
    after = list(tower.run(500))[-1]
    grams = sum(
        (a - b) / c
        for a, b, c in zip(after.cells, before.cells, board.counts_per_gram, strict=True)
    )
    assert grams == pytest.approx(8.4, abs=0.3)
