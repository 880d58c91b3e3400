#!/usr/bin/env python3
"""Where a cold build's time goes: CPU seconds of each stage, run one after another on one core.

    python3 benchmarks/stages.py CONTENT_ROOT      (e.g. a corpus from benchmarks/corpus.py)

Stages as the pipeline runs them: loading (read, YAML, validation), Markdown (bodies rendered
and highlighted), the search index, the self-test (every example diagnosed), related errors,
taxonomies, pages (every output file rendered in memory). Writing is not included.
"""

from __future__ import annotations

import dataclasses
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from encyclopedia import site, theme  # noqa: E402
from encyclopedia.feeds import feed_files  # noqa: E402
from encyclopedia.linking import link_entries  # noqa: E402
from encyclopedia.loading import load_entries  # noqa: E402
from encyclopedia.markup import render_body, render_fields  # noqa: E402
from encyclopedia.pages import PageRenderer, SiteData  # noqa: E402
from encyclopedia.search_index import build_search_index, index_files  # noqa: E402
from encyclopedia.taxonomy import build_taxonomies  # noqa: E402


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    project = site.Project.at(Path(sys.argv[1]))
    spent: dict[str, float] = {}

    def stage(name, function, *args):
        start = time.process_time()
        result = function(*args)
        spent[name] = time.process_time() - start
        return result

    config, files = site._config_and_files(project)
    entries, problems = stage("loading", load_entries, files, config, project.root)
    bodies = stage("markdown", lambda: {e.slug: dataclasses.replace(render_body(e.body, e.body_line, e.source_path)[0],
                                                                   fields=render_fields(e)) for e in entries})
    index = stage("search index", build_search_index, entries)
    stage("self-test", site.self_test, entries, index, 1)
    entries = sorted(entries, key=lambda e: e.slug)
    links = stage("related errors", link_entries, entries, bodies)
    taxonomies = stage("taxonomies", build_taxonomies, entries, config)
    data = SiteData(config, tuple(entries), bodies, links, taxonomies)

    def render():
        env = theme.environment(project.templates_dir)
        pages = PageRenderer(env, data)
        out = {**pages.entry_pages(), **pages.listing_pages(), **index_files(index)}
        return {**out, **feed_files(env, config, data.entries, list(out)), **theme.asset_files(project.assets_dir)}
    files_out = stage("pages", render)
    total = sum(spent.values())
    print(f"{len(entries):,} entries, {len(files_out):,} output files; CPU seconds per stage, one core:")
    for name, seconds in spent.items():
        print(f"  {name:15s} {seconds:7.2f} s  {seconds / total:5.1%}")
    print(f"  {'total':15s} {total:7.2f} s; peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
