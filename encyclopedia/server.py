"""The development server: builds into memory, serves on 127.0.0.1, rebuilds on change and
reloads the open tab; a failed rebuild keeps the last good site and shows its problems."""

from __future__ import annotations

import json
import mimetypes
import sys
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .cache import cache_dir, generator_key, open_cache
from .problems import BuildError
from .site import Project, Site, build_site, quick_entry_pages

POLL_SECONDS = 0.4
SETTLE_SECONDS = 0.1  # inputs unchanged for this long before a rebuild
RELOAD_SCRIPT = b"""// Development only: reload when the site is rebuilt, show problems when a rebuild fails.
// The page was served from the files of generation `g`; when the server's files are from a later
// one, reload (even if that happened before this script connected); otherwise show the problems
// of the last rebuild, if any. A failed rebuild that takes back quick pages changes the files.
const served = Number(new URL(import.meta.url).searchParams.get("g"));
const source = new EventSource("/__dev/events");
source.addEventListener("message", (event) => {
  const state = JSON.parse(event.data);
  if (state.good !== served) location.reload(); else show(state.errors);
});
function show(errors) {
  let box = document.getElementById("dev-errors");
  if (!errors.length) { if (box) box.remove(); return; }
  if (!box) {
    box = document.createElement("pre"); box.id = "dev-errors"; box.className = "dev-errors"; document.body.append(box);
  }
  box.textContent = "Rebuild failed; showing the last good build.\\n\\n" + errors.join("\\n");
}
"""


class DevSite:
    """The last good build, the current problems, and a generation counter the browser watches."""

    def __init__(self, project: Project, base_url: str):
        self.project = project
        self.base_url = base_url
        self.files: dict[str, bytes] = {}
        self.site: Site | None = None  # the last good build
        self.errors: list[str] = []
        self.generation = 0  # bumped whenever the files or the problems change (the browser watches it)
        self.good_generation = 0  # the rebuild (or quick update) that produced `files`
        self.changed = threading.Condition()
        self.settled = False  # the last quick update left nothing for a full rebuild to change
        # Entries prepared by the last build (or by `build`), kept in memory across rebuilds, so
        # an edit re-reads and re-renders only the file that changed.
        self.cache = open_cache(cache_dir(project.root), generator_key())

    def rebuild(self) -> bool:
        start = time.perf_counter()
        first = self.generation == 0
        try:
            site = build_site(self.project, self.base_url, cache=self.cache)
        except BuildError as exc:
            errors = [p.format() for p in exc.problems]
            ok = False
        except Exception as exc:  # a template error must not stop the server
            errors = [f"{type(exc).__name__}: {exc}"]
            ok = False
        else:
            errors = []
            ok = True
        with self.changed:
            # After a quick update the rebuild may change nothing the browser has: then the
            # open tab is not reloaded a second time.
            unchanged = ok and not self.errors and site.files == self.files
            if not unchanged:
                self.generation += 1
                if ok:
                    self.files = dict(site.files)
                    self.good_generation = self.generation
                elif self.site is not None and self.files != self.site.files:
                    # Quick pages showed an edit this rebuild rejects: serve the last good build
                    # again, as the error display says.
                    self.files = dict(self.site.files)
                    self.good_generation = self.generation
                self.errors = errors
                self.changed.notify_all()
            if ok:
                self.site = site
        took = time.perf_counter() - start
        if ok:
            verb = "Built" if first else "Rebuilt"
            print(f"{verb} {len(site.entries)} entries in {took:.2f}s.", file=sys.stderr)
        else:
            print("\n".join(errors), file=sys.stderr)
            print(f"Rebuild failed with {len(errors)} problem(s); still serving the last good build.", file=sys.stderr)
        return ok

    def quick_update(self, paths: list[Path]) -> bool:
        """Show edited entries at once (see site.quick_entry_pages); False when the edit needs
        the full rebuild to be shown. When the edit changes nothing but those pages, the site is
        then complete and `settled` is set: no full rebuild is needed."""
        self.settled = False
        if self.site is None or self.errors:
            return False
        start = time.perf_counter()
        try:
            quick = quick_entry_pages(self.site, self.project, paths)
        except Exception:  # noqa: BLE001 - the full rebuild that follows reports any problem
            quick = None
        if not quick or not quick.pages:
            return False
        if quick.site is not None:
            self.site, self.settled = quick.site, True
        if all(self.files.get(path) == page for path, page in quick.pages.items()):
            return True  # a file touched, or edited and put back: nothing to reload
        with self.changed:
            self.files = {**self.files, **quick.pages}
            self.generation += 1
            self.good_generation = self.generation
            self.changed.notify_all()
        n = len(quick.pages)
        rest = "nothing else changes" if self.settled else "rebuilding the rest"
        print(f"Showing {n} edited entr{'y' if n == 1 else 'ies'} ({time.perf_counter() - start:.2f}s); {rest}.",
              file=sys.stderr)
        return True

    def state(self) -> bytes:
        return json.dumps({"generation": self.generation, "good": self.good_generation,
                           "errors": self.errors}).encode()


def _snapshot(project: Project) -> dict:
    paths = [project.config_path]
    for folder in (project.entries_dir, project.templates_dir, project.assets_dir):
        if folder.is_dir():
            paths.extend(p for p in folder.rglob("*") if p.is_file())
    out = {}
    for p in paths:
        try:
            st = p.stat()
            out[str(p)] = (st.st_mtime_ns, st.st_size)
        except OSError:
            pass
    return out


def _watch(dev: DevSite, stop: threading.Event, last: dict) -> None:
    """Rebuild whenever the inputs differ from `last`, the snapshot the current build was made from."""
    while not stop.wait(POLL_SECONDS):
        now = _snapshot(dev.project)
        if now == last:
            continue
        # An editor (or a script) may be halfway through writing: wait until the inputs stop
        # changing, so a half-written file is not reported as an error.
        while not stop.wait(SETTLE_SECONDS):
            settled = _snapshot(dev.project)
            if settled == now:
                break
            now = settled
        edited = _edited_entries(dev.project, last, now)
        last = now
        if edited and dev.quick_update(edited) and dev.settled:
            continue  # only the edited entries' own pages changed, and they are shown
        dev.rebuild()


def _edited_entries(project: Project, before: dict, after: dict) -> list[Path]:
    """The entry files that changed between two snapshots, when nothing else did (no file added
    or removed, no template, asset or configuration change); otherwise []."""
    if before.keys() != after.keys():
        return []
    changed = [Path(p) for p in after if after[p] != before[p]]
    # The snapshot names files as found under entries_dir, so comparing the folder as written is
    # exact (resolving could raise on a symbolic link loop and stop the watcher).
    if all(p.suffix == ".md" and p.parent == project.entries_dir for p in changed):
        return changed
    return []


class DevHTTPServer(ThreadingHTTPServer):
    """Loopback only, a deep listen queue, and quiet about clients that go away."""

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return  # a tab closed or a client stalled: nothing to report
        super().handle_error(request, client_address)


@dataclass(frozen=True)
class Answer:
    status: HTTPStatus
    body: bytes = b""
    ctype: str = ""
    location: str = ""  # a redirect's target


NO_SITE = b"Not found (the first build failed: see the terminal)."


def page_response(files: dict[str, bytes], generation: int, path: str) -> Answer:
    """What the server answers for a site path (unquoted, without its leading slash): the file,
    a redirect from a folder's name to the folder, or the 404 page; HTML pages get the script
    that reloads them when the site is rebuilt."""
    if path == "" or path.endswith("/"):
        path += "index.html"
    if path not in files and path + "/index.html" in files:
        return Answer(HTTPStatus.MOVED_PERMANENTLY, location="/" + path + "/")
    status = HTTPStatus.OK
    if path not in files:
        status, path = HTTPStatus.NOT_FOUND, "404.html"
    body = files.get(path, NO_SITE)
    ctype = "text/javascript" if path.endswith(".js") else mimetypes.guess_type(path)[0] or "application/octet-stream"
    if ctype == "text/html" and path in files:
        tag = f'<script type="module" src="/__dev/reload.js?g={generation}"></script>\n</body>'
        body = body.replace(b"</body>", tag.encode(), 1)
    return Answer(status, body, ctype)


def make_handler(dev: DevSite, port: int):
    # A page on another site can point a DNS name at 127.0.0.1 (DNS rebinding); its requests
    # then carry that name in Host. Answer only to the loopback names.
    allowed_hosts = {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 30  # seconds a client may take to send its request

        def log_message(self, fmt, *args):  # keep the terminal for build output
            pass

        def handle(self):
            try:
                super().handle()
            except (ConnectionError, TimeoutError):
                pass

        def do_HEAD(self):
            self._head_only = True
            self.do_GET()

        def do_GET(self):
            if self.headers.get("Host", "") not in allowed_hosts:
                return self._send(HTTPStatus.MISDIRECTED_REQUEST,
                                  b"This development server answers only to 127.0.0.1 and localhost.\n",
                                  "text/plain")
            path = unquote(urlsplit(self.path).path).lstrip("/")
            if path == "__dev/reload.js":
                return self._send(HTTPStatus.OK, RELOAD_SCRIPT, "text/javascript")
            if path == "__dev/events":
                return self._events()
            with dev.changed:
                files, generation = dev.files, dev.good_generation
            answer = page_response(files, generation, path)
            if answer.location:
                self.send_response(answer.status)
                self.send_header("Location", answer.location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self._send(answer.status, answer.body, answer.ctype)

        def _send(self, status, body: bytes, ctype: str):
            self.send_response(status)
            textual = ctype.startswith("text/") or ctype.endswith("json")
            self.send_header("Content-Type", ctype + ("; charset=utf-8" if textual else ""))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if not getattr(self, "_head_only", False):
                self.wfile.write(body)

        def _events(self):
            if getattr(self, "_head_only", False):
                return self._send(HTTPStatus.OK, b"", "text/event-stream")
            self.connection.settimeout(None)  # a long-lived stream; keep-alives show it is live
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen = -1
            try:
                while True:
                    with dev.changed:
                        if dev.generation == seen:
                            dev.changed.wait(timeout=15)
                        generation, payload = dev.generation, dev.state()
                    if generation != seen:
                        seen = generation
                        self.wfile.write(b"data: " + payload + b"\n\n")
                    else:
                        self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
            except (ConnectionError, TimeoutError):
                return

    return Handler


def serve(root: Path, entries: Path | None, port: int, base_url: str | None = None,
          ready: threading.Event | None = None, stop: threading.Event | None = None) -> int:
    """Serve until interrupted (or until `stop` is set). Returns the exit code."""
    project = Project.at(root, entries.resolve() if entries else None)
    try:  # listen first: a busy port is reported before a build that would be wasted
        httpd = DevHTTPServer(("127.0.0.1", port), None)
    except OSError as exc:
        print(f"error: cannot listen on 127.0.0.1:{port}: {exc.strerror}; try --port", file=sys.stderr)
        return 2
    port = httpd.server_address[1]
    dev = DevSite(project, base_url or f"http://127.0.0.1:{port}/")
    httpd.RequestHandlerClass = make_handler(dev, port)
    snapshot = _snapshot(project)  # taken before building, so no change is missed
    dev.rebuild()
    stop = stop or threading.Event()
    watcher = threading.Thread(target=_watch, args=(dev, stop, snapshot), daemon=True)
    watcher.start()
    print(f"Serving on http://127.0.0.1:{port}/ (Ctrl+C to stop); "
          "rebuilding when entries, templates or assets change.", file=sys.stderr)
    server_thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    server_thread.start()
    if ready:
        ready.set()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
    finally:
        stop.set()
        httpd.shutdown()
        httpd.server_close()
    return 0
