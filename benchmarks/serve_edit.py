#!/usr/bin/env python3
"""How soon `serve` shows an edited entry; prints figures, asserts nothing.

    python3 benchmarks/corpus.py 10000 /tmp/corpus && python3 benchmarks/serve_edit.py /tmp/corpus

Builds the corpus the way `serve` does (into memory, on one process, with a cache of its own in a
temporary folder), then edits three entries' bodies one after another and one entry's summary,
and prints, for each, the time from the watcher seeing the change to the edited page being
served (the quick update) and, when the edit shows on other pages too (the summary), the time of
the full rebuild that follows it; a body edit needs none. The corpus's entry files are edited in
place.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="a folder with site.yaml and entries/ (benchmarks/corpus.py)")
    parser.add_argument("--edits", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["ML_FAILURES_CACHE_DIR"] = cache
        from encyclopedia import server
        from encyclopedia.site import Project

        project = Project.at(args.corpus)
        dev = server.DevSite(project, "http://127.0.0.1:8000/")
        started = time.perf_counter()
        if not dev.rebuild():
            sys.exit("the first build failed")
        print(f"first build: {time.perf_counter() - started:.1f} s")
        files = sorted(project.entries_dir.glob("*.md"))
        edits = [(path, "body") for path in files[: args.edits]] + [(files[args.edits], "summary")]
        for i, (path, what) in enumerate(edits):
            before = server._snapshot(project)
            text = path.read_text(encoding="utf-8")
            if what == "body":
                text += f"\nAn edit made by the benchmark ({i}).\n"
            else:
                text = text.replace("\nsummary: ", f"\nsummary: Edited by the benchmark ({i}). ", 1)
            path.write_text(text, encoding="utf-8")
            started = time.perf_counter()
            edited = server._edited_entries(project, before, server._snapshot(project))
            shown = dev.quick_update(edited)
            quick = time.perf_counter() - started
            if shown and dev.settled:  # as the watcher does: nothing else can have changed
                rest = "no full rebuild needed"
            else:
                started = time.perf_counter()
                dev.rebuild()
                rest = f"full rebuild {time.perf_counter() - started:.1f} s"
            print(f"edit {i + 1} ({what} of {path.name}): shown after {quick:.2f} s "
                  f"(quick update {'used' if shown else 'not used'}); {rest}")

if __name__ == "__main__":
    main()
