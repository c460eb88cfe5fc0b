"""Three simulated tables publish through a real mosquitto; the house keeps every game.

The tables are `sticktable run --sim` (the real firmware under MicroPython on the virtual
tower), the house is `sticktable house`; both as a user starts them.
"""

from __future__ import annotations

import signal
import time

from house_helpers import (
    differences,
    get_json,
    house_games,
    standings,
    start_house,
    start_table,
    stop,
    table_games,
    wait_until_equal,
)
from mqtt_parts import CuttableCable, free_port

PLAYERS = {"T1": "Ann,Bo", "T2": "Cy,Di,Ed", "T3": "Fay,Gus"}


def test_three_tables_the_house_standings_equal_each_tables_replay(mosquitto, tmp_path):
    house_journal = tmp_path / "house.sqlite"
    web = f"127.0.0.1:{free_port()}"
    house = start_house(house_journal, mosquitto.url, mosquitto.credentials, "--web", web)
    journals = {name: tmp_path / f"{name}.sqlite" for name in PLAYERS}
    try:
        tables = [
            start_table(name, journals[name], mosquitto.url, mosquitto.credentials, seed,
                        players=PLAYERS[name])
            for seed, name in enumerate(PLAYERS, start=4)
        ]  # fmt: skip
        outputs = [table.communicate(timeout=240)[0] for table in tables]
        for table, out in zip(tables, outputs, strict=True):
            assert table.returncode == 0, out[-3000:]
            assert "publishing to mqtt://127.0.0.1" in out
        wrong = wait_until_equal(journals, house_journal)
        # The house's web console (the console's own code over the house journal): every
        # table's game with its players' final totals, as the console's pages show them.
        listed = {row["id"]: row for row in get_json(f"http://{web}/api/games")}
        shown = {gid: get_json(f"http://{web}/api/games/{gid}")["summary"] for gid in listed}
    finally:
        news = stop(house)
    assert not wrong, f"{wrong}\n{news}"
    stored = house_games(house_journal)
    assert len(stored) == len(listed) == 3
    for name, journal in journals.items():
        for gid, (header, events) in table_games(journal).items():
            got_header, got_events, finished = stored[(name, gid)]
            assert finished, f"{name} game {gid} is over at the table, not in the house"
            expected = standings(header, events)
            assert standings(got_header, got_events) == expected
            (on_page,) = [s for s in shown.values() if s["players"] == header["players"]]
            assert on_page["totals"] == expected["totals"] and on_page["finished"]
    assert "0 malformed or refused" in news
    assert f"console: http://{web}/" in news


def test_broker_killed_a_table_cut_off_for_30_s_and_the_house_restarted_lose_nothing(
    mosquitto, tmp_path
):
    """The broker keeps nothing across its restart (no persistence): the tables publish again
    from their cursors and the house asks for what it lacks."""
    house_journal = tmp_path / "house.sqlite"
    house = start_house(house_journal, mosquitto.url, mosquitto.credentials)
    cable = CuttableCable(mosquitto.port)  # T2 reaches the broker through this cable
    url_of = {"T1": mosquitto.url, "T2": f"mqtt://127.0.0.1:{cable.port}", "T3": mosquitto.url}
    journals = {name: tmp_path / f"{name}.sqlite" for name in PLAYERS}
    tables = [
        start_table(
            name,
            journals[name],
            url_of[name],
            mosquitto.credentials,
            seed,
            speed=4,  # about 40 s a game: every fault below falls mid-game
            players=PLAYERS[name],
        )  # fmt: skip
        for seed, name in enumerate(PLAYERS, start=7)
    ]
    try:
        # One fault after another, each while the games are on: the house dies and comes back
        # (the broker queues its events meanwhile), the broker dies and comes back without
        # anything it held (the tables publish again from their cursors, the house asks for
        # the rest), T2 loses the network for 30 s (it ends its game offline and waits).
        time.sleep(1.5)
        stop(house, signal.SIGKILL)
        time.sleep(1.5)
        house = start_house(house_journal, mosquitto.url, mosquitto.credentials)
        time.sleep(2)
        mosquitto.kill()
        time.sleep(1.5)
        mosquitto.start()
        cable.cut(30)
        outputs = [table.communicate(timeout=300)[0] for table in tables]
        for table, out in zip(tables, outputs, strict=True):
            assert table.returncode == 0, out[-3000:]
        wrong = wait_until_equal(journals, house_journal, timeout=90)
    finally:
        cable.close()
        for table in tables:
            if table.poll() is None:
                table.kill()
        news = stop(house)
    assert not wrong, f"{wrong}\n{news}"
    assert differences(journals, house_journal) == []
    assert all(finished for _, _, finished in house_games(house_journal).values())
