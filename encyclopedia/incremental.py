"""Builds after edits that only the edited entries' own pages show.

Every output but an entry's own page reads only part of the entry: its outward view (what
listings, other entries' related lists, feeds, the search index, the self-test and the
related-errors ranking use: everything but the fields in pages.PAGE_ONLY, plus the entries its
body links to and its rendered summary and fix). The pages make sure of it: every output other
than the entry's own page is rendered from `pages.outward(entry)`. So when an edit leaves the
outward view of every edited entry unchanged (a change to the body, `checked`, causes, symptoms
or references), nothing but those entries' pages can change, and the build renders just them,
against the related lists the last full build worked out. The result is byte for byte what a
full build writes (tests/test_incremental.py checks it over a series of edits).

Anything else (an entry added, removed or renamed; a change to what other pages show; a file
with a problem; a template, asset, configuration or generator change; a site folder that is not
as the last build left it) goes through the full build, which reports every problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import theme, urls
from .cache import EntryCache, Prepared, output_state
from .linking import Links
from .pages import PageRenderer, SiteData, outward_digest
from .site import Inputs, Project, Site, prepare_entry, prepared_key, project_config, stands_alone
from .taxonomy import Taxonomies

# More edited files than this at once (a branch switch, a bulk edit) go through the full build.
MAX_EDITED = 50


@dataclass(frozen=True)
class PageEdit:
    """The pages an edit changes, and what the site record should say once they are written."""

    files: dict  # output path -> bytes
    entries: dict  # display path -> (digest, outward digest) of the edited files


def site_record(site: Site, inputs: Inputs, out: Path, files_state: dict) -> dict:
    """What the cache keeps about a site a full build wrote: enough to decide later whether an
    edit can be built on its own, and to render an entry page without the rest of the build."""
    data = site.pages.data
    by_path = {e.source_path: e for e in data.entries}
    return {
        "fingerprint": inputs.fingerprint, "theme": inputs.theme, "out": str(out), "files": files_state,
        "entries": {shown: (digest, outward_digest(by_path[shown], data.bodies[by_path[shown].slug]))
                    for shown, digest in inputs.digests.items()},
        "links": dict(data.links),
    }


def edited_pages(project: Project, cache: EntryCache, inputs: Inputs, base_url: str | None,
                 out: Path) -> PageEdit | None:
    """The pages that change, when only entry files changed since the last site written into
    `out` and none of them changed what other outputs show; None when the full build is needed."""
    last = cache.site
    recorded: dict | None = last.get("entries")
    if (recorded is None or last.get("out") != str(out) or last.get("theme") != inputs.theme
            or set(recorded) != set(inputs.digests)):
        return None
    edited = sorted(shown for shown, digest in inputs.digests.items() if digest != recorded[shown][0])
    if not edited or len(edited) > MAX_EDITED or None in (inputs.digests[s] for s in edited):
        return None
    if output_state(out, last["files"]) != last["files"]:
        return None
    config = project_config(project, base_url)
    cache.use_config(prepared_key(config))
    shown_of = {Path(shown).stem: shown for shown in inputs.digests}  # slug -> file
    prepared: dict[str, Prepared] = {}
    for shown in edited:
        p = cache.get(shown, inputs.digests[shown]) or prepare_entry(inputs.paths[shown], config, shown)
        cache.put(shown, inputs.digests[shown], p)
        if not stands_alone(p, set(shown_of)) or outward_digest(p.entry, p.body) != recorded[shown][1]:
            return None
        prepared[shown] = p
    # What the edited pages show of other entries: the entries in their related lists, as the
    # last full build left them (their files are unchanged, so the cache holds them).
    links: dict[str, Links] = last["links"]
    needed = {s for p in prepared.values() for s in links[p.entry.slug].related} - {p.entry.slug for p in prepared.values()}
    for slug in sorted(needed):
        shown = shown_of.get(slug)
        p = cache.get(shown, inputs.digests[shown]) if shown else None
        if p is None or p.entry is None:
            return None
        prepared[shown] = p
    entries = tuple(sorted((p.entry for p in prepared.values()), key=lambda e: e.slug))
    data = SiteData(config, entries, {p.entry.slug: p.body for p in prepared.values()},
                    {p.entry.slug: links[p.entry.slug] for p in prepared.values()}, Taxonomies((), (), ()))
    renderer = PageRenderer(theme.environment(project.templates_dir), data)
    files = {}
    for shown in edited:
        e = prepared[shown].entry
        files[urls.output_path(urls.entry_url(e.slug))] = renderer.render_entry(e)
    return PageEdit(files, {shown: (inputs.digests[shown], recorded[shown][1]) for shown in edited})
