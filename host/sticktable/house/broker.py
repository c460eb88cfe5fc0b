"""Where the broker is and how to log in: `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.

Credentials never come from the command line (other users see it in `ps`): from a file given
with `--mqtt-credentials FILE` (one line, `USER:PASSWORD`), or from the environment
(STICKTABLE_MQTT_USER and STICKTABLE_MQTT_PASSWORD). `mqtts://` checks the broker's certificate
against `--mqtt-ca FILE` (or the system's CAs).
"""

from __future__ import annotations

import os
import ssl
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from sticktable.errors import UserError

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
KEEPALIVE_S = 10
# How long a command waits for the first connection before it reports what went wrong.
CONNECT_WAIT_S = 5.0


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool
    user: str | None = None
    password: str | None = None
    ca_file: str | None = None

    @property
    def address(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(url: str, credentials: str | None = None, ca_file: str | None = None) -> Broker:
    """The broker named by `url`, with credentials from `credentials` or the environment."""
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise UserError(f"--mqtt {url!r}: expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    if parts.username or parts.password:
        raise UserError(
            "--mqtt: put no credentials in the URL (the command line shows in `ps`); "
            "use --mqtt-credentials FILE or STICKTABLE_MQTT_USER/STICKTABLE_MQTT_PASSWORD"
        )
    if parts.path not in ("", "/") or parts.query:
        raise UserError(f"--mqtt {url!r}: expected no path after HOST[:PORT]")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise UserError(f"--mqtt {url!r}: the port must be a number from 1 to 65535") from None
    user, password = _credentials(credentials)
    if ca_file is not None and not Path(ca_file).is_file():
        raise UserError(f"--mqtt-ca {ca_file}: no such file")
    if ca_file is not None and parts.scheme != "mqtts":
        raise UserError("--mqtt-ca needs an mqtts:// broker")
    return Broker(parts.hostname, port, parts.scheme == "mqtts", user, password, ca_file)


def _credentials(path: str | None) -> tuple[str | None, str | None]:
    if path is None:
        user = os.environ.get("STICKTABLE_MQTT_USER")
        return user, os.environ.get("STICKTABLE_MQTT_PASSWORD") if user else None
    try:
        text = Path(path).read_text(encoding="utf-8-sig").strip()
    except OSError as err:
        raise UserError(f"--mqtt-credentials {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UserError(f"--mqtt-credentials {path}: not UTF-8 text") from None
    user, sep, password = text.partition(":")
    if not sep or not user or "\n" in text:
        raise UserError(f"--mqtt-credentials {path}: expected one line USER:PASSWORD")
    return user, password


def add_broker_options(parser, what: str) -> None:
    parser.add_argument(
        "--mqtt",
        metavar="URL",
        help=f"{what} on this MQTT broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT] "
        "(topics: host/docs/formats/mqtt.md)",
    )
    parser.add_argument(
        "--mqtt-credentials",
        metavar="FILE",
        help="a file with one line USER:PASSWORD for the broker (default: "
        "$STICKTABLE_MQTT_USER and $STICKTABLE_MQTT_PASSWORD, else no login)",
    )
    parser.add_argument(
        "--mqtt-ca", metavar="FILE", help="CA certificate that signed an mqtts:// broker's"
    )


def broker_from_args(args) -> Broker | None:
    if not args.mqtt:
        if args.mqtt_credentials or args.mqtt_ca:
            raise UserError("--mqtt-credentials and --mqtt-ca need --mqtt URL")
        return None
    return parse_broker(args.mqtt, args.mqtt_credentials, args.mqtt_ca)


class Connection:
    """A paho client kept connected in its own network thread, with the first connection's
    outcome waited for: a refused login is an error at start, an absent broker is not (the
    client keeps trying; nothing is lost meanwhile, the journal is the source of truth)."""

    def __init__(self, broker: Broker, client_id: str, clean: bool, will=None):
        import paho.mqtt.client as mqtt

        self.broker = broker
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean
        )
        if broker.user:
            self.client.username_pw_set(broker.user, broker.password)
        if broker.tls:
            self.client.tls_set(ca_certs=broker.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        if will is not None:
            self.client.will_set(*will)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.connected = threading.Event()
        self.refused: str | None = None
        self._answered = threading.Event()
        self.on_connected = None  # called in the network thread after each (re)connection

        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
        else:
            self.refused = None
            self.connected.set()
            if self.on_connected:
                self.on_connected()
        self._answered.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()

    def start(self, wait_s: float = CONNECT_WAIT_S) -> bool:
        """Connect in the background; True when connected within `wait_s`. A broker that
        refuses the login raises UserError (retrying would not help)."""
        self.client.connect_async(self.broker.host, self.broker.port, KEEPALIVE_S)
        self.client.loop_start()
        self._answered.wait(wait_s)
        if self.refused:
            self.stop()
            raise UserError(f"MQTT broker {self.broker.address} refused the login: {self.refused}")
        return self.connected.is_set()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
