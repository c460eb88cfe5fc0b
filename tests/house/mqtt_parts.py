"""Real parts for the house tests: a mosquitto on a free loopback port (login required,
restartable).

And a TCP proxy between one table and the broker whose cable can be cut for a while.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

USER, PASSWORD = "table", "s3cret"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def mosquitto_program() -> str:
    found = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(found).exists():
        raise RuntimeError("mosquitto is not installed: `make test` installs it (apt-get)")
    return found


@dataclass
class Mosquitto:
    """A mosquitto on 127.0.0.1:port that wants USER/PASSWORD; kill() and start() again."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    def __post_init__(self):
        passwords = self.folder / "passwords"
        subprocess.run(
            ["mosquitto_passwd", "-b", "-c", str(passwords), USER, PASSWORD],
            check=True,
            capture_output=True,
        )
        passwords.chmod(0o600)
        (self.folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\n"
            # Started as root, mosquitto would drop to the `mosquitto` user, who cannot read
            # the test's own folder: stay whoever runs the tests.
            f"user {getpass.getuser()}\n"
            "allow_anonymous false\n"
            f"password_file {passwords}\n"
            # No persistence: a broker that dies forgets every queued and retained message;
            # the tables and the house must make up for it themselves.
            "persistence false\n"
        )
        self.credentials = self.folder / "credentials"
        self.credentials.write_text(f"{USER}:{PASSWORD}\n")

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 - lives with the process
        self.process = subprocess.Popen(
            [mosquitto_program(), "-c", str(self.folder / "mosquitto.conf")],
            stdout=log,
            stderr=log,
        )
        wait_for_port(self.port)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class CuttableCable:
    """A TCP proxy 127.0.0.1:port -> the broker; `cut(s)` drops every connection and refuses
    new ones for s seconds, as a table that loses the network does."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.port = free_port()
        self._cut_until = 0.0
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self, seconds: float) -> None:
        with self._lock:
            self._cut_until = time.monotonic() + seconds
            for sock in self._sockets:
                with_shutdown(sock)
            self._sockets.clear()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if time.monotonic() < self._cut_until:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        with_shutdown(sink)

    def close(self) -> None:
        self._server.close()
        self.cut(0)


def with_shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
