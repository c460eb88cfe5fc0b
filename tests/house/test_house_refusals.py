"""What the house and a table refuse: a wrong login, credentials on the command line, and
malformed or illegal messages on a table's topics (counted and logged, never applied)."""

from __future__ import annotations

import json
import subprocess
import time

import paho.mqtt.client as mqtt
import pytest
from house_helpers import REPO, STICKTABLE, house_games, start_house, stop, wait_for_line
from mqtt_parts import PASSWORD, USER

from sticktable.house import topics


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*STICKTABLE, *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )


def test_a_wrong_login_is_one_clear_line_for_the_table_and_the_house(mosquitto, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.write_text(f"{USER}:not-the-password\n")
    login = ["--mqtt", mosquitto.url, "--mqtt-credentials", str(wrong)]
    table = run_cli(
        "run", "--sim", "--players", "A,B", "--journal", str(tmp_path / "t.sqlite"), *login,
        "--table", "T1",
    )  # fmt: skip
    house = run_cli("house", *login, "--journal", str(tmp_path / "h.sqlite"))
    for done in (table, house):
        assert done.returncode != 0
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr + done.stdout
        assert f"MQTT broker {mosquitto.url} refused the login" in done.stderr


@pytest.mark.parametrize(
    "args, says",
    [
        (["--mqtt", "mqtt://u:p@127.0.0.1"], "put no credentials in the URL"),
        (["--mqtt", "http://127.0.0.1"], "expected mqtt://HOST[:PORT]"),
        (["--mqtt", "mqtt://127.0.0.1:99999"], "the port must be a number"),
        (["--mqtt", "mqtt://127.0.0.1"], "--mqtt needs --table NAME"),
        (["--table", "T1"], "--table NAME needs --mqtt URL"),
        (["--mqtt", "mqtt://127.0.0.1", "--table", "a/b"], "one MQTT topic level"),
        (["--mqtt", "mqtt://127.0.0.1", "--table", "T", "--mqtt-ca", "/no/such"], "no such file"),
        (["--mqtt", "mqtt://127.0.0.1", "--table", "T", "--mqtt-credentials", "/no/such"],
         "--mqtt-credentials /no/such"),
    ],
)  # fmt: skip
def test_bad_broker_options_are_refused_before_anything_starts(tmp_path, args, says):
    journal = tmp_path / "t.sqlite"
    done = run_cli("run", "--sim", "--players", "A,B", "--journal", str(journal), *args)
    assert done.returncode != 0 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_malformed_and_illegal_messages_are_counted_and_logged_never_applied(mosquitto, tmp_path):
    house_journal = tmp_path / "house.sqlite"
    house = start_house(house_journal, mosquitto.url, mosquitto.credentials)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="prankster")
    client.username_pw_set(USER, PASSWORD)
    client.connect("127.0.0.1", mosquitto.port)
    client.loop_start()
    header = {"table": "T9", "game": 1, "source": "board", "finished": False,
              "header": {"game": "stick-stack", "players": ["Ann", "Bo"]}}  # fmt: skip
    bad = [
        (topics.game_topic("T9", 1, "events"), b"\xff not json"),
        (topics.game_topic("T9", 1, "events"), json.dumps({"v": 1, "index": "x"}).encode()),
        (topics.game_topic("T9", 1, "events"), json.dumps({"v": 9, "index": 0}).encode()),
        (topics.ROOT + "/T9/games/one/events", topics.encode({"index": 0, "event": {}})),
        (topics.ROOT + "/T9/whatever", b"{}"),
        (topics.game_topic("T9", 1, "header"), topics.encode({**header, "finished": "no"})),
    ]
    try:
        wait_for_line(house, "house: listening")  # said once its subscription is granted
        for topic, payload in bad:
            client.publish(topic, payload, qos=1).wait_for_publish(5)
        # A well-formed game whose second event the rules refuse (nobody has taken a stick).
        client.publish(topics.game_topic("T9", 1, "header"), topics.encode(header), qos=1)
        take = {"type": "take", "player": "Ann", "from": "bag"}
        for index, event in enumerate([take, {"type": "placed"}, {"type": "placed"}]):
            payload = topics.encode({"table": "T9", "game": 1, "index": index, "event": event})
            client.publish(topics.game_topic("T9", 1, "events"), payload, qos=1)
        time.sleep(2)
    finally:
        client.loop_stop()
        client.disconnect()
    news = stop(house)
    assert "Traceback" not in news
    assert news.count("ignored a malformed message") == len(bad)
    assert f"{len(bad) + 1} malformed or refused message(s) not applied" in news
    ((_, events, finished),) = house_games(house_journal).values()
    assert [e["type"] for e in events] == ["take", "placed"] and not finished
