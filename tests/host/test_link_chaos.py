"""The chaos cable in the suite (tests/host/chaos.py): scripted Stick Stack games on the
simulated table (the firmware under MicroPython), `sticktable run` killed (SIGKILL) and stopped
(Ctrl-C) at random moments and resumed, the board rebooted (also while no daemon runs), the
cable pulled, bytes damaged both ways; fixed seeds. Every board event is in the journal exactly
once, or counted in a reboot's gap that is exact. The long run is `make bench`
(tests/bench/bench_chaos.py)."""

from chaos import run_chaos


def test_every_board_event_journaled_once_or_counted_exactly_under_chaos(tmp_path):
    # One game whose simulated time waits for the daemon, one that goes on at 8x real time
    # whoever listens (its board holds unacknowledged events when it reboots).
    games = [(3, 0.0), (8, 8.0)]
    figures = run_chaos(games, workdir=tmp_path, mean_life_s=1.5, p_reboot=0.5, p_pull=0.3)
    assert figures.problems == []
    assert figures.events > 100 and figures.duplicated == 0 and figures.lost == 0
    assert figures.gaps == figures.gaps_exact == figures.reboots > 0
    assert figures.in_gaps > 0  # some reboots lost events: counted exactly
    assert figures.kills > 0 and figures.interrupts > 0 and figures.pulls > 0
    assert figures.damaged_bytes > 0
