"""The console's guards, asked over plain HTTP the way an attacker would (no browser needed):
paths outside the package's assets, a foreign Host, cross-site state changes, LAN tokens."""

from __future__ import annotations

import http.client
import re
from urllib.parse import urlsplit

import pytest
from conftest import Served, play_bloodsticks


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("sec") / "journal.sqlite")
    play_bloodsticks(path)
    return path


def request(port: int, method: str, path: str, headers: dict | None = None, body: str = ""):
    """One raw request: the path goes out exactly as written (no `..` clean-up)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(
        method, path, body=body or None, headers={"Host": f"127.0.0.1:{port}", **(headers or {})}
    )
    response = conn.getresponse()
    text = response.read().decode("utf-8", "replace")
    conn.close()
    return response, text


@pytest.fixture(scope="module")
def local(journal):
    served = Served("serve", "--journal", journal, "--web", "127.0.0.1:0")
    yield urlsplit(served.url).port
    served.stop()


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/vendor/../../security.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/../../../../etc/passwd",
    ],
)
def test_no_path_outside_the_package_assets(local, path):
    response, text = request(local, "GET", path)
    assert response.status == 404, (path, response.status)
    assert "import" not in text and "root:" not in text


def test_assets_are_served(local):
    response, text = request(local, "GET", "/static/vendor/uPlot.iife.min.js")
    assert response.status == 200 and "uPlot" in text
    assert "default-src 'self'" in response.getheader("content-security-policy")


def test_a_foreign_host_name_is_refused(local):
    """A page on another site cannot reach the console by pointing its own name here."""
    response, _ = request(local, "GET", "/api/games", {"Host": "attacker.example"})
    assert response.status == 400


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json"},  # no Origin: not from a console page
        {"Content-Type": "application/json", "Origin": "http://attacker.example"},
        {"Content-Type": "text/plain", "Origin": "ORIGIN"},  # a form or no-cors post
    ],
)
def test_state_changes_cannot_come_from_elsewhere(local, headers):
    headers = {k: v.replace("ORIGIN", f"http://127.0.0.1:{local}") for k, v in headers.items()}
    response, _ = request(local, "POST", "/api/referee", headers, body='{"line": "undo"}')
    assert response.status in (403, 415)


def test_lan_mode_needs_the_printed_token(journal):
    served = Served("serve", "--journal", journal, "--web", "0.0.0.0:0")
    try:
        port = urlsplit(served.url).port
        referee = served.read_until(r"referee: +\S+(/join/\S+)").group(1)
        room = served.read_until(r"room \(watch\): +\S+(/join/\S+)").group(1)
        for path in ("/", "/games/1", "/api/games", "/static/console.js"):
            response, _ = request(port, "GET", path)
            assert response.status == 401, path
        response, _ = request(port, "GET", "/api/games", {"X-Token": "not-a-token"})
        assert response.status == 401
        response, _ = request(port, "GET", "/join/not-a-token")
        assert response.status == 401
        for link in (room, referee):
            response, _ = request(port, "GET", link)
            assert response.status == 303
            cookie = response.getheader("set-cookie")
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie
            token = re.match(r"sticktable=([^;]+)", cookie).group(1)
            response, text = request(port, "GET", "/api/games", {"Cookie": f"sticktable={token}"})
            assert response.status == 200 and '"bloodsticks"' in text
    finally:
        served.stop()
