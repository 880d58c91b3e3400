"""Lighthouse scores for the home page, an entry and the search page, mobile and desktop.

    python3 benchmarks/lighthouse.py [--site DIR]

Builds the site (or takes a built one), serves it on 127.0.0.1 and runs Lighthouse (npm's
`lighthouse`, fetched by npx at the version pinned below) in Debian's Chromium, printing the four
category scores (performance, accessibility, best practices, SEO) per page and form factor. A
script that prints figures, not a test: scores move with the machine's load.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = "lighthouse@13.5.0"
CHROMIUM = "/usr/bin/chromium"
PAGES = {"home": "", "entry": "entries/cuda-out-of-memory/", "search": "search/"}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def scores(url: str, desktop: bool) -> dict[str, int]:
    command = ["npx", "--yes", LIGHTHOUSE, url, f"--chrome-path={CHROMIUM}",
               "--chrome-flags=--headless=new --no-sandbox --disable-gpu", "--output=json",
               "--output-path=stdout", "--quiet", "--only-categories=" + ",".join(CATEGORIES)]
    if desktop:
        command.append("--preset=desktop")
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        sys.exit(f"lighthouse failed on {url}:\n{result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    return {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site or tmp)))
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        if site is None:
            built = subprocess.run([sys.executable, "build.py", "build", "--out", str(Path(tmp) / "site"),
                                    "--base-url", base + "site/"], cwd=ROOT, capture_output=True, text=True)
            if built.returncode != 0:
                sys.exit(f"the site did not build:\n{built.stderr}")
            base += "site/"
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(f"{'page':8s} {'form':8s} " + " ".join(f"{c:>15s}" for c in CATEGORIES))
        for name, path in PAGES.items():
            for desktop in (False, True):
                got = scores(base + path, desktop)
                print(f"{name:8s} {'desktop' if desktop else 'mobile':8s} "
                      + " ".join(f"{got[c]:>15d}" for c in CATEGORIES), flush=True)
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
