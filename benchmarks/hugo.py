#!/usr/bin/env python3
"""This generator and Hugo building the same real-shaped corpus, side by side in one run.

    python3 benchmarks/hugo.py [--sizes 1000,10000] [--hugo hugo]

Hugo (Debian's `hugo` package) gets a minimal layout written here: a page per entry, tag,
category and system taxonomies with their pages, and a JSON index of titles and signatures;
once without related content, once with related content ranked on tags, systems and category
(as our related-errors pass is), and once with Hugo's default related configuration. Our build
runs as a user runs it, cold (--no-cache). Prints the times and the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus import write_corpus  # noqa: E402

CONFIG = """baseURL = "https://example.org/"
title = "ML Failure Encyclopedia (Hugo comparison)"
disableKinds = ["RSS"]
[taxonomies]
  tag = "tags"
  system = "systems"
  cat = "category"
[outputs]
  home = ["HTML", "JSON"]
"""
# Related content ranked on the same features as our related-errors pass (tags, systems,
# category); without it, Hugo uses its default configuration (keywords, date, tags).
RELATED = """[related]
  includeNewer = true
  threshold = 1
  toLower = true
  [[related.indices]]
    name = "tags"
    weight = 3
  [[related.indices]]
    name = "systems"
    weight = 1
  [[related.indices]]
    name = "category"
    weight = 1
"""

BASEOF = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><main>{{ block "main" . }}{{ end }}</main></body></html>
"""
SINGLE = """{{ define "main" }}<h1>{{ .Title }}</h1><p>{{ .Params.summary }}</p>
<ul>{{ range .Params.signatures }}<li><code>{{ .text }}</code> {{ .variant }}</li>{{ end }}</ul>
{{ .Content }}
{{ if .Site.Params.related }}<h2>Related</h2><ul>{{ range first 6 (.Site.RegularPages.Related .) }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
{{ end }}
"""
LIST = """{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
"""
INDEX_JSON = """[{{ range $i, $p := .Site.RegularPages }}{{ if $i }},{{ end }}{{ dict "url" $p.RelPermalink "title" $p.Title "signatures" $p.Params.signatures | jsonify }}{{ end }}]
"""


def hugo_site(corpus: Path, folder: Path, related: bool, our_indices: bool = True) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "layouts" / "_default").mkdir(parents=True)
    (folder / "content").mkdir()
    os.symlink(corpus / "entries", folder / "content" / "entries")
    (folder / "config.toml").write_text(CONFIG + (RELATED if our_indices else "")
                                        + f"[params]\n  related = {'true' if related else 'false'}\n")
    layouts = folder / "layouts" / "_default"
    (layouts / "baseof.html").write_text(BASEOF)
    (layouts / "single.html").write_text(SINGLE)
    (layouts / "list.html").write_text(LIST)
    (folder / "layouts" / "index.json").write_text(INDEX_JSON)
    return folder


def timed(cmd: list[str], env=None) -> float:
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if res.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed:\n{res.stderr[-3000:]}")
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--hugo", default="hugo")
    args = ap.parse_args()
    if not shutil.which(args.hugo):
        raise SystemExit(f"{args.hugo} not found: install Debian's hugo package (apt-get install hugo)")
    version = subprocess.run([args.hugo, "version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}\nmachine: {os.cpu_count()} CPUs")
    print(f"{'entries':>8} {'ours (cold)':>12} {'Hugo':>8} {'Hugo+related':>13} {'(Hugo defaults)':>16} "
          f"{'ours/Hugo':>10} {'ours/Hugo+related':>18}")
    for n in [int(s) for s in args.sizes.split(",") if s]:
        with tempfile.TemporaryDirectory(prefix="encyclopedia-hugo-bench-") as tmp:
            tmp = Path(tmp)
            corpus = tmp / "corpus"
            write_corpus(n, corpus)
            env = {**os.environ, "ML_FAILURES_CACHE_DIR": str(tmp / "cache")}
            ours = timed([sys.executable, str(ROOT / "build.py"), "build", "--root", str(corpus),
                          "--out", str(tmp / "ours"), "--no-cache"], env)
            plain = hugo_site(corpus, tmp / "hugo", related=False)
            hugo = timed([args.hugo, "--quiet", "-s", str(plain), "-d", str(tmp / "hugo-out")])
            with_related = hugo_site(corpus, tmp / "hugo-related", related=True)
            hugo_related = timed([args.hugo, "--quiet", "-s", str(with_related), "-d", str(tmp / "hugo-related-out")])
            defaults = hugo_site(corpus, tmp / "hugo-defaults", related=True, our_indices=False)
            hugo_defaults = timed([args.hugo, "--quiet", "-s", str(defaults), "-d", str(tmp / "hugo-defaults-out")])
            print(f"{n:>8,} {ours:>11.2f}s {hugo:>7.2f}s {hugo_related:>12.2f}s {hugo_defaults:>15.2f}s "
                  f"{ours / hugo:>9.2f}x {ours / hugo_related:>17.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
