"""The house tests' broker: a real mosquitto, started fresh for each test."""

import pytest
from mqtt_parts import Mosquitto


@pytest.fixture
def mosquitto(tmp_path):
    broker = Mosquitto(tmp_path)
    broker.start()
    yield broker
    broker.kill()
