#!/usr/bin/env python3
"""Build benchmark on a real-shaped corpus (benchmarks/corpus.py); prints figures, asserts nothing.

    python3 benchmarks/build.py [--sizes 1000,10000] [--runs 3] [--jobs N]

For each size, as medians of --runs runs, each build a separate `build.py build` process as a
user runs it: a cold build (--no-cache), a no-op rebuild, a rebuild after one entry's body is
edited (what shows only on its own page), after one entry's summary is edited (what listings and
related lists show too) and after one entry is added (all with the cache); then the peak memory of a cold build, the size of
the site and of the search index, and diagnosing a 10,000-line log against that index in Node
(the browser's engine) and in Python. Targets are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus import write_corpus  # noqa: E402

# Runs a command and prints, last, the largest resident set of any process it waited for (KB).
PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
        "sys.stderr.write(r.stderr); print(r.stdout, end=''); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)")

NODE = r"""
import { readFileSync } from "node:fs";
import { diagnose, prepare } from "%s";
const index = JSON.parse(readFileSync(process.argv[2], "utf8"));
const log = readFileSync(process.argv[3], "utf8");
let t = performance.now(); prepare(index); const prepMs = performance.now() - t;
diagnose(index, log);
const xs = [];
let found = [];
for (let i = 0; i < 7; i++) { t = performance.now(); found = diagnose(index, log); xs.push(performance.now() - t); }
xs.sort((a, b) => a - b);
console.log(JSON.stringify({ prepMs, diagnoseMs: xs[xs.length >> 1], found: found.length }));
"""


def build(corpus: Path, out: Path, env: dict, *flags: str) -> tuple[float, int, str]:
    """Seconds, peak KB and the summary line of one `build.py build` run."""
    cmd = [sys.executable, "-c", PEAK, sys.executable, str(ROOT / "build.py"), "build",
           "--root", str(corpus), "--out", str(out), *flags]
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    took = time.perf_counter() - t
    if res.returncode != 0:
        raise SystemExit(f"build failed:\n{res.stderr[-3000:]}")
    lines = res.stdout.strip().splitlines()
    return took, int(lines[-1]), lines[-2]


def edit_one(corpus: Path, rng: random.Random, n: int) -> None:
    path = corpus / "entries" / f"failure-{rng.randrange(n):05d}.md"
    path.write_text(path.read_text() + f"\nAn edited paragraph, number {rng.random()}.\n")


def edit_summary(corpus: Path, rng: random.Random, n: int) -> None:
    path = corpus / "entries" / f"failure-{rng.randrange(n):05d}.md"
    path.write_text(path.read_text().replace("\nsummary: ", f"\nsummary: Edited {rng.randrange(10**6)}. ", 1))


def add_one(corpus: Path, k: int) -> None:
    source = (corpus / "entries" / "failure-00000.md").read_text()
    words = " ".join(f"added{k}word{j}" for j in range(8))
    text = source.replace("RuntimeError: ", f"RuntimeError: {words} ")
    (corpus / "entries" / f"added-{k:03d}.md").write_text(text)


def make_log(index: dict, lines: int, rng: random.Random) -> str:
    """A long training log with three signatures of the corpus planted in it."""
    sigs = [s for e in index["entries"] for s in e.get("signatures", [])][:500]
    texts = [s[0] if isinstance(s, list) else s for s in sigs]
    planted = {lines // 3: texts[1], lines // 2: texts[len(texts) // 2], lines - 5: texts[-1]}
    out = []
    for i in range(lines):
        if i in planted:
            out.append(f"[rank{i % 8}]: " + planted[i].replace("{value}", "42"))
        else:
            out.append(f"[rank{i % 8}]: step {i} loss {rng.random():.4f} lr 3.0e-04 grad_norm {rng.random() * 3:.3f} "
                       f"tokens/s {rng.randint(1000, 9000)} mem {rng.randint(10, 80)}GiB")
    return "\n".join(out) + "\n"


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None, help="passed to build.py build --jobs")
    ap.add_argument("--skip-cold", action="store_true", help="only the builds that use the cache (quicker)")
    args = ap.parse_args()
    rng = random.Random(3)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; medians of {args.runs} runs")
    for n in [int(s) for s in args.sizes.split(",") if s]:
        with tempfile.TemporaryDirectory(prefix="encyclopedia-build-bench-") as tmp:
            tmp = Path(tmp)
            corpus, out = tmp / "corpus", tmp / "site"
            write_corpus(n, corpus)
            md = folder_size(corpus / "entries")
            env = {**os.environ, "ML_FAILURES_CACHE_DIR": str(tmp / "cache")}
            cold, peaks = [], []
            for _ in range(0 if args.skip_cold else args.runs):
                took, peak, _ = build(corpus, out, env, "--no-cache", *jobs)
                cold.append(took)
                peaks.append(peak)
            first, first_peak, _ = build(corpus, out, env, *jobs)  # fills the cache
            noop = [build(corpus, out, env, *jobs)[0] for _ in range(args.runs)]
            edited, summary, added = [], [], []
            for _ in range(args.runs):
                edit_one(corpus, rng, n)
                edited.append(build(corpus, out, env, *jobs)[0])
            for _ in range(args.runs):
                edit_summary(corpus, rng, n)
                summary.append(build(corpus, out, env, *jobs)[0])
            for k in range(args.runs):
                add_one(corpus, k)
                added.append(build(corpus, out, env, *jobs)[0])
            index = (out / "search" / "index.json").read_bytes()
            details = (out / "search" / "details.json").read_bytes()
            cache_size = sum(p.stat().st_size for p in (tmp / "cache").rglob("*") if p.is_file())
            print(f"\n{n:,} entries ({md / n / 1024:.1f} KB of Markdown each, {md / 1e6:.0f} MB):")
            runs = ", ".join(f"{x:.2f}" for x in cold)
            if cold:
                print(f"  cold build (--no-cache):      {statistics.median(cold):6.2f} s  (runs: {runs})")
            print(f"  first build filling the cache: {first:6.2f} s")
            print(f"  no-op rebuild:                 {statistics.median(noop):6.2f} s")
            print(f"  one entry's body edited:       {statistics.median(edited):6.2f} s")
            print(f"  one entry's summary edited:    {statistics.median(summary):6.2f} s")
            print(f"  one entry added:               {statistics.median(added):6.2f} s")
            if peaks:
                print(f"  peak memory, cold build:       {max(peaks) / 1024:6.0f} MB (largest single process)")
            print(f"  site: {folder_size(out) / 1e6:.0f} MB in {sum(1 for p in out.rglob('*') if p.is_file()):,} files; "
                  f"cache {cache_size / 1e6:.0f} MB")
            print(f"  search/index.json: {len(index) / 1e6:.2f} MB, {len(gzip.compress(index, 6)) / 1e6:.2f} MB gzipped; "
                  f"details.json {len(gzip.compress(details, 6)) / 1e6:.2f} MB gzipped "
                  "(what results show; not loaded by the triage worker)")
            lean = json.loads(index)
            log = make_log(lean, 10000, rng)
            (tmp / "job.log").write_text(log)
            script = tmp / "node.mjs"
            script.write_text(NODE % (ROOT / "assets" / "diagnose.js").as_uri())
            res = subprocess.run(["node", str(script), str(out / "search" / "index.json"), str(tmp / "job.log")],
                                 capture_output=True, text=True)
            if res.returncode == 0:
                node = json.loads(res.stdout)
                print(f"  Node diagnose, 10,000-line log: {node['diagnoseMs']:.0f} ms (median of 7; "
                      f"{node['found']} failures found; preparing the index once per page {node['prepMs']:.0f} ms)")
            else:
                print(f"  Node diagnose: not run ({res.stderr.strip().splitlines()[-1] if res.stderr else 'node failed'})")
            from encyclopedia import matching
            from encyclopedia.search_index import merge_details
            prepared = matching.prepare(merge_details(lean, json.loads(details)))  # as `diagnose --index` does
            t = time.perf_counter()
            found = matching.diagnose_matches(prepared, log)
            print(f"  Python diagnose, same log: {(time.perf_counter() - t) * 1000:.0f} ms ({len(found)} failures found)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
