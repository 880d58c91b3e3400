"""Screenshots for the README: the home page, an entry and a triage result, desktop and phone.

    .venv/bin/python scripts/screenshots.py      (needs /usr/bin/chromium and Playwright)

Builds the site, serves it on 127.0.0.1 and captures each view in Chromium with what the browser
tests use (their multi-rank log and triage helper, tests/test_browser.py), so the pictures show
the site as the tests see it. Writes docs/screenshots/*.png; run it again after a visible change.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_browser import CHROMIUM, LAUNCH_ARGS, MULTI_RANK_LOG, run_triage  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
VIEWS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=tmp))
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        built = subprocess.run([sys.executable, "build.py", "build", "--out", str(Path(tmp) / "site"),
                                "--base-url", base + "site/"], cwd=ROOT, capture_output=True, text=True)
        if built.returncode != 0:
            sys.exit(f"the site did not build:\n{built.stderr}")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            for view, size in VIEWS.items():
                page = browser.new_page(viewport=size, device_scale_factor=1)
                page.goto(base + "site/")
                page.screenshot(path=OUT / f"home-{view}.png", type="png")
                page.goto(base + "site/entries/nccl-watchdog-timeout/")
                page.screenshot(path=OUT / f"entry-{view}.png", type="png")
                page.goto(base + "site/search/")
                run_triage(page, MULTI_RANK_LOG)
                page.wait_for_timeout(500)  # the verdict is scrolled into view
                page.screenshot(path=OUT / f"triage-{view}.png", type="png")
                page.close()
            browser.close()
        server.shutdown()
    for path in sorted(OUT.glob("*.png")):
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
