"""The development server: serves the build, rebuilds on change, keeps the last good site when a
rebuild fails and tells the open tab."""

import json
import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from encyclopedia import server

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.status, r.read().decode()


def wait_for(predicate, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture()
def running(tmp_path, monkeypatch):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setattr(server, "POLL_SECONDS", 0.1)
    port = free_port()
    ready, stop = threading.Event(), threading.Event()
    thread = threading.Thread(target=server.serve, args=(content, None, port),
                              kwargs={"ready": ready, "stop": stop}, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield content, f"http://127.0.0.1:{port}"
    stop.set()
    thread.join(5)


def test_serves_pages_with_the_reload_script_and_a_404_page(running):
    _, base = running
    status, html = get(base + "/entries/tiny-warning/")
    assert status == 200 and "Tiny warning" in html and "/__dev/reload.js" in html
    with pytest.raises(urllib.error.HTTPError) as info:
        get(base + "/no/such/page/")
    assert info.value.code == 404


def test_rebuilds_on_change_and_keeps_the_last_good_site_on_failure(running):
    content, base = running
    entry = content / "entries" / "tiny-warning.md"
    entry.write_text(entry.read_text().replace("title: Tiny warning", "title: Tiny warning renamed"))
    assert wait_for(lambda: "Tiny warning renamed" in get(base + "/entries/tiny-warning/")[1])

    entry.write_text(entry.read_text().replace("severity: low", "severity: lowish"))
    def failed():
        state = json.loads(urllib.request.urlopen(base + "/__dev/events", timeout=5).readline()[6:])
        return state["errors"]
    assert wait_for(lambda: bool(failed()))
    assert any("unknown severity `lowish`" in e for e in failed())
    status, html = get(base + "/entries/tiny-warning/")
    assert status == 200 and "Tiny warning renamed" in html
