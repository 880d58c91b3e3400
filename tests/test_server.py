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


def wait_for(predicate, timeout=30.0):
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
    # The entry's page is shown at once; the index lists the new title only after the full
    # rebuild. Wait for it: a second edit that lands while that rebuild reads the file would
    # fail it, and then the server rightly serves the build from before the rename.
    assert wait_for(lambda: "Tiny warning renamed" in get(base + "/")[1])

    entry.write_text(entry.read_text().replace("severity: low", "severity: lowish"))
    def failed():
        state = json.loads(urllib.request.urlopen(base + "/__dev/events", timeout=5).readline()[6:])
        return state["errors"]
    # The watcher may catch the file half-written (an empty file is an error too): wait for the
    # rebuild that sees the whole edit.
    assert wait_for(lambda: any("unknown severity `lowish`" in e for e in failed())), failed()
    status, html = get(base + "/entries/tiny-warning/")
    assert status == 200 and "Tiny warning renamed" in html


def request(base, method="GET", path="/", host=None):
    import http.client
    from urllib.parse import urlsplit
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.putrequest(method, path, skip_host=True)
    conn.putheader("Host", host or parts.netloc)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, response.headers, body


def test_head_is_answered_without_a_body(running):
    _, base = running
    status, headers, body = request(base, "HEAD", "/entries/tiny-warning/")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


def test_requests_for_another_host_name_are_refused(running):
    _, base = running
    port = base.rsplit(":", 1)[1]
    assert request(base, host=f"evil.example:{port}")[0] == 421
    assert request(base, path="/__dev/events", host=f"rebind.example:{port}")[0] == 421
    assert request(base, host=f"localhost:{port}")[0] == 200


def test_a_hundred_concurrent_requests_are_all_answered(running):
    from concurrent.futures import ThreadPoolExecutor
    _, base = running
    with ThreadPoolExecutor(100) as pool:
        statuses = list(pool.map(lambda i: request(base, path=f"/entries/tiny-warning/?{i}")[0], range(100)))
    assert statuses == [200] * 100


def test_clients_that_disconnect_or_stall_leave_no_traceback(running, capfd):
    _, base = running
    host, port = base.removeprefix("http://").split(":")
    for _ in range(5):
        s = socket.create_connection((host, int(port)))
        s.sendall(b"GET /entries/tiny-warning/ HTTP/1.1\r\nHost: " + f"{host}:{port}".encode() + b"\r\n\r\n")
        s.close()  # gone before the answer
    half = socket.create_connection((host, int(port)))
    half.sendall(b"GET / HT")  # never finishes its request
    assert request(base)[0] == 200  # others are still served
    half.close()
    time.sleep(0.5)
    assert "Traceback" not in capfd.readouterr().err


def test_a_busy_port_is_reported_before_building(tmp_path, capfd):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert server.serve(content, None, s.getsockname()[1]) == 2
    err = capfd.readouterr().err
    assert "cannot listen on 127.0.0.1" in err and "Built" not in err


def test_page_response_redirects_folders_and_falls_back_to_the_404_page():
    from http import HTTPStatus

    from encyclopedia.server import NO_SITE, page_response
    files = {"index.html": b"<body>home</body>", "tags/index.html": b"<body>t</body>",
             "404.html": b"<body>missing</body>", "assets/x.js": b"1;"}
    home = page_response(files, 7, "")
    assert (home.status, home.ctype) == (HTTPStatus.OK, "text/html")
    assert home.body == b'<body>home<script type="module" src="/__dev/reload.js?g=7"></script>\n</body>'
    assert page_response(files, 7, "tags").location == "/tags/"
    assert page_response(files, 7, "tags").status == HTTPStatus.MOVED_PERMANENTLY
    script = page_response(files, 7, "assets/x.js")
    assert (script.ctype, script.body) == ("text/javascript", b"1;")
    missing = page_response(files, 7, "nope/")
    assert missing.status == HTTPStatus.NOT_FOUND and missing.body.startswith(b"<body>missing<script")
    # Before the first good build there are no files: a plain message, not a crash.
    assert page_response({}, 0, "").body == NO_SITE


@pytest.fixture()
def built(tmp_path, monkeypatch):
    """A copy of the fixture site, built once into memory as `serve` does (with its own cache)."""
    from encyclopedia.site import Project
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setenv("ML_FAILURES_CACHE_DIR", str(tmp_path / "cache"))
    project = Project.at(content)
    dev = server.DevSite(project, "http://127.0.0.1:8000/")
    assert dev.rebuild()
    return content, project, dev


def test_an_edited_entry_is_shown_before_the_full_rebuild_which_gives_the_same_page(built):
    content, project, dev = built
    entry = content / "entries" / "tiny-warning.md"
    before = server._snapshot(project)
    entry.write_text(entry.read_text() + "\nA sentence added while serving.\n")
    edited = server._edited_entries(project, before, server._snapshot(project))
    assert edited == [entry]
    generation = dev.generation
    assert dev.quick_update(edited)
    page = dev.files["entries/tiny-warning/index.html"]
    assert b"A sentence added while serving." in page and dev.generation == generation + 1
    # The full rebuild renders the same page, and since nothing else changed either, the open
    # tab is not reloaded a second time.
    assert dev.rebuild()
    assert dev.files["entries/tiny-warning/index.html"] == page
    assert dev.generation == generation + 1


def test_an_edit_only_its_own_page_shows_needs_no_full_rebuild(built):
    """A body edit changes nothing but the entry's page: the quick update is then the whole new
    site (what a full build gives, byte for byte) and no rebuild is needed; an edit to what
    other pages show (the summary, in listings and related lists) still is."""
    from encyclopedia.site import build_site
    content, project, dev = built
    entry = content / "entries" / "widget-overflow.md"
    entry.write_text(entry.read_text().replace("Details.", "Details, edited while serving."))
    assert dev.quick_update([entry]) and dev.settled
    full = build_site(project, dev.base_url, workers=1)
    assert dev.files == full.files and dev.site.files == full.files
    entry.write_text(entry.read_text().replace("summary: The widget", "summary: This widget"))
    assert dev.quick_update([entry]) and not dev.settled
    assert dev.files != build_site(project, dev.base_url, workers=1).files  # the listings wait for the rebuild
    assert dev.rebuild() and dev.files == build_site(project, dev.base_url, workers=1).files


def test_edits_the_quick_path_cannot_show_wait_for_the_full_rebuild(built):
    content, project, dev = built
    files, generation = dev.files, dev.generation
    entry = content / "entries" / "tiny-warning.md"
    entry.write_text(entry.read_text().replace("severity: low", "severity: lowish"))
    assert not dev.quick_update([entry])  # does not load: the rebuild reports it
    assert (dev.files, dev.generation) == (files, generation)
    # A new entry, or a template change, is not an edit of existing entries alone.
    before = server._snapshot(project)
    (content / "entries" / "brand-new.md").write_text(entry.read_text())
    assert server._edited_entries(project, before, server._snapshot(project)) == []
    before = server._snapshot(project)
    template = project.templates_dir / "entry.html"
    assert server._edited_entries(project, before, {**before, str(template): (0, 0)}) == []


def test_a_failed_rebuild_after_a_quick_update_serves_the_last_good_build_again(built):
    content, project, dev = built
    good, served = dev.files, dev.good_generation
    entry = content / "entries" / "tiny-warning.md"
    # The entry loads and links cleanly on its own, so it is shown at once; only the search
    # self-test over the whole collection finds that its example is recognised by nothing.
    entry.write_text(entry.read_text().replace("    TinyWarning: the gizmo cache was rebuilt from scratch",
                                               "    Nothing any signature knows"))
    assert dev.quick_update([entry])
    assert b"Nothing any signature knows" in dev.files["entries/tiny-warning/index.html"]
    assert not dev.rebuild()
    assert dev.errors and dev.files == good
    # The open tab (served the quick page) is told the files changed, so it reloads into the last
    # good build and then shows the problems; a tab served before the edit only shows them.
    state = json.loads(dev.state())
    assert state["good"] == dev.generation == served + 2 and state["errors"] == dev.errors


def test_a_quick_update_that_changes_no_page_does_not_reload_the_tab(built):
    content, project, dev = built
    generation = dev.generation
    entry = content / "entries" / "tiny-warning.md"
    entry.write_text(entry.read_text())  # touched, or edited and put back within one settle window
    assert dev.quick_update([entry]) and dev.generation == generation
    assert dev.rebuild() and dev.generation == generation


def test_a_link_to_an_unknown_entry_in_a_field_waits_for_the_full_rebuild(built):
    content, project, dev = built
    entry = content / "entries" / "tiny-warning.md"
    entry.write_text(entry.read_text().replace("fix: Ignore it.", "fix: See [this](no-such-entry.md)."))
    assert not dev.quick_update([entry])
    assert not dev.rebuild()


def test_edited_entries_does_not_raise_on_a_symbolic_link_loop(tmp_path):
    from encyclopedia.site import Project
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    project = Project.at(content)
    loop = project.entries_dir / "loop.md"
    loop.symlink_to(loop)  # the watcher must not stop on it; the rebuild reports what it finds
    assert server._edited_entries(project, {str(loop): (0, 0)}, {str(loop): (1, 1)}) == [loop]
