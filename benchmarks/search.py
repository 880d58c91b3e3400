#!/usr/bin/env python3
"""Search benchmark on synthetic entries; prints figures, asserts nothing.

    python3 benchmarks/search.py [--entries 1000] [--lines 10000]

Targets: at 1,000 entries, diagnosing a 10,000-line log under 100 ms in Node, a typed query under
10 ms, search/index.json under 150 KB gzipped. Build speed is measured on entries shaped like the
real ones by benchmarks/build.py (see docs/performance.md).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from encyclopedia import matching  # noqa: E402
from encyclopedia.checks import check_entries  # noqa: E402
from encyclopedia.search_index import dump_index, split_index  # noqa: E402
from encyclopedia.site import Project, check_project  # noqa: E402

SYLLABLES = "ka lo mi nu pe ra si to vu xe ya zo bre cla dri fro glu pla tri sto".split()
COMMON = "the a of to in is was not for with on at by from error failed expected got but".split()
CATEGORIES = ["memory", "distributed", "data-loading", "cuda", "hardware", "autograd", "tensors",
              "checkpointing", "mixed-precision", "compilation", "hugging-face", "inference"]


def word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def sentence(rng: random.Random, vocab: list[str], n: int) -> str:
    """n words, at least three of them from the rare vocabulary."""
    words = [rng.choice(vocab) if i < 3 or rng.random() < 0.6 else rng.choice(COMMON) for i in range(n)]
    rng.shuffle(words)
    return " ".join(words)


def make_entries(folder: Path, count: int, seed: int = 7) -> list[str]:
    """Write `count` synthetic entries; returns one signature text per entry."""
    rng = random.Random(seed)
    vocab = sorted({word(rng) for _ in range(max(3000, count * 4))})
    tags = [word(rng) for _ in range(300)]
    systems = [word(rng).capitalize() for _ in range(30)]
    folder.mkdir(parents=True)
    first_signatures = []
    for i in range(count):
        kinds = ["RuntimeError", "ValueError", "AssertionError"]
        sigs = [f"{rng.choice(kinds)}: {sentence(rng, vocab, rng.randint(6, 12))} {{value}}"
                for _ in range(rng.randint(2, 3))]
        first_signatures.append(sigs[0])
        sig_yaml = "\n".join(f"  - text: {json.dumps(s)}\n    variant: v{j}\n    source: https://example.org/{i}/s{j}"
                              for j, s in enumerate(sigs))
        text = f"""---
title: {json.dumps(sentence(rng, vocab, 5).capitalize())}
category: {rng.choice(CATEGORIES)}
severity: {rng.choice(['low', 'medium', 'high', 'critical'])}
tags: [{', '.join(sorted(set(rng.sample(tags, 3))))}]
systems: [{', '.join(sorted(set(rng.sample(systems, 2))))}]
summary: {json.dumps(sentence(rng, vocab, 25) + '.')}
signatures:
{sig_yaml}
symptoms:
  - symptom: {json.dumps(sentence(rng, vocab, 8))}
    why: {json.dumps(sentence(rng, vocab, 10))}
causes:
  - {json.dumps(sentence(rng, vocab, 10))}
fix: {json.dumps(sentence(rng, vocab, 12))}
references:
  - title: Reference
    url: https://example.org/{i}
  - title: Thread
    url: https://example.org/{i}/thread
examples:
  - |
    Traceback (most recent call last):
      File "train.py", line {i}, in step
    {sigs[0].replace('{value}', str(i))}
updated: 2026-{1 + i % 12:02d}-{1 + i % 28:02d}
---

## Why it happens

{sentence(rng, vocab, 40)}.

## What you'll observe

{sentence(rng, vocab, 20)}.

## How to confirm

- [ ] {sentence(rng, vocab, 8)}

## The fix

{sentence(rng, vocab, 20)}.

## Prevention

{sentence(rng, vocab, 12)}.
"""
        (folder / f"synthetic-{i:05d}.md").write_text(text)
    return first_signatures


def make_log(signatures: list[str], lines: int, seed: int = 11) -> str:
    rng = random.Random(seed)
    out = []
    planted = {lines // 3: signatures[17], lines // 2: signatures[400 % len(signatures)],
               lines - 5: signatures[-1]}
    for i in range(lines):
        if i in planted:
            out.append(f"[rank{i % 8}]: " + planted[i].replace("{value}", "42"))
        elif i % 97 == 0:
            module = "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py"
            out.append(f'[rank{i % 8}]:   File "{module}", line {i}, in _call_impl')
        else:
            out.append(f"[rank{i % 8}]: step {i} loss {rng.random():.4f} lr 3.0e-04 grad_norm {rng.random() * 3:.3f} "
                       f"tokens/s {rng.randint(1000, 9000)} mem {rng.randint(10, 80)}GiB")
    return "\n".join(out) + "\n"


NODE_BENCH = r"""
import { readFileSync } from "node:fs";
import { diagnose, query, prepare, withDetails } from "%(diagnose)s";
// Log triage matches on search/index.json alone (as the page's worker does); typed queries run on
// it merged with search/details.json (as the page does).
const index = JSON.parse(readFileSync(process.argv[2], "utf8"));
const log = readFileSync(process.argv[3], "utf8");
const whole = withDetails(index, JSON.parse(readFileSync(process.argv[4], "utf8")));
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const p95 = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
let t = performance.now(); prepare(index); const prepMs = performance.now() - t;
diagnose(index, log);
const dx = [];
let found = [];
for (let i = 0; i < 9; i++) { t = performance.now(); found = diagnose(index, log); dx.push(performance.now() - t); }
query(whole, "warm");
const qs = ["kalo", "nccl timeout", "pefro mi", "dribreka", "tri", "zovu kasi"];
const qx = [];
for (let r = 0; r < 20; r++) for (const q of qs) { t = performance.now(); query(whole, q); qx.push(performance.now() - t); }
console.log(JSON.stringify({ prepMs, diagnoseMs: median(dx), diagnoseMax: Math.max(...dx), found: found.length,
  queryMs: median(qx), queryP95: p95(qx), queryMax: Math.max(...qx) }));
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=1000)
    ap.add_argument("--lines", type=int, default=10000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="encyclopedia-bench-"))
    try:
        shutil.copy(ROOT / "site.yaml", tmp / "site.yaml")
        sigs = make_entries(tmp / "entries", args.entries)
        checked = check_project(Project.at(tmp))
        lean, details = split_index(checked.search_index)
        index_bytes = dump_index(lean)
        details_bytes = dump_index(details)
        (tmp / "index.json").write_bytes(index_bytes)  # what the page's triage worker loads
        (tmp / "details.json").write_bytes(details_bytes)
        log = make_log(sigs, args.lines)
        (tmp / "job.log").write_text(log)
        print(f"entries: {args.entries}, log: {args.lines} lines ({len(log) / 1e6:.2f} MB)")
        print(f"search/index.json: {len(index_bytes) / 1024:.1f} KB, "
              f"{len(gzip.compress(index_bytes, 9)) / 1024:.1f} KB gzipped (target < 150 KB); "
              f"search/details.json (what results show; loaded by the search page): "
              f"{len(gzip.compress(details_bytes, 9)) / 1024:.1f} KB gzipped")

        script = tmp / "bench.mjs"
        script.write_text(NODE_BENCH % {"diagnose": (ROOT / "assets" / "diagnose.js").as_uri()})
        res = subprocess.run(["node", str(script), str(tmp / "index.json"), str(tmp / "job.log"),
                              str(tmp / "details.json")],
                             capture_output=True, text=True, check=True)
        node = json.loads(res.stdout)
        print(f"Node diagnose, {args.lines}-line log: median {node['diagnoseMs']:.1f} ms, max "
              f"{node['diagnoseMax']:.1f} ms, {node['found']} failures found (target < 100 ms); "
              f"index preparation once per page: {node['prepMs']:.1f} ms")
        print(f"Node typed query: median {node['queryMs']:.2f} ms, p95 {node['queryP95']:.2f} ms, "
              f"max {node['queryMax']:.2f} ms (target < 10 ms)")

        t = time.perf_counter()
        problems, count = check_entries(Project.at(tmp))
        print(f"python3 build.py check on {count} entries: {time.perf_counter() - t:.1f} s, "
              f"{len(problems)} problems")

        prepared = matching.prepare(checked.search_index)
        t = time.perf_counter()
        found = matching.diagnose_matches(prepared, log)
        print(f"Python diagnose, same log: {(time.perf_counter() - t) * 1000:.0f} ms, {len(found)} failures found")

        hostile = "'" * 200000 + '"' * 200000 + "{" * 200000 + "0x" * 100000 + "[rank" * 100000
        t = time.perf_counter()
        matching.diagnose_matches(prepared, hostile)
        print(f"Python diagnose, 1.2 MB of hostile text on one line: {(time.perf_counter() - t) * 1000:.0f} ms")

    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
