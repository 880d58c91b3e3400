"""The build pipeline: load, validate, render Markdown, link, index, render pages, in one place."""

from __future__ import annotations

import dataclasses
import multiprocessing as mp
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import matching, theme, urls
from .cache import EntryCache, Prepared, site_fingerprint, theme_fingerprint
from .config import Config, load_config
from .feeds import feed_files
from .linking import check_related, link_entries
from .loading import Entry, check_collection, display_path, display_paths, find_entry_files, load_entries, load_entry
from .markup import render_body, render_fields, unknown_links
from .pages import PageRenderer, SiteData, outward_digest
from .problems import BuildError, Problem
from .schema import SCHEMA_URL, schema_json
from .search_index import build_search_index, index_files
from .taxonomy import build_taxonomies


def _theme_dirs() -> tuple[Path, Path]:
    """Where the templates and assets are: beside the package in a checkout (templates/ and
    assets/ at the top of the repository), inside it in an installed wheel, where setuptools puts
    them as the package data `encyclopedia.templates` and `encyclopedia.assets`."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "templates").is_dir() and (checkout / "assets").is_dir():
        return checkout / "templates", checkout / "assets"
    installed = Path(str(resources.files("encyclopedia")))
    return installed / "templates", installed / "assets"


TEMPLATES_DIR, ASSETS_DIR = _theme_dirs()


@dataclass(frozen=True)
class Project:
    """Where the inputs live: content (site.yaml, entries/) under root, the theme beside the code."""

    root: Path
    entries_dir: Path
    config_path: Path
    templates_dir: Path
    assets_dir: Path

    def protected_dirs(self) -> list[Path]:
        """Folders a build must never replace, the project root first (a site may go inside it,
        not inside the others)."""
        package = Path(__file__).resolve().parent
        return [self.root, self.entries_dir, self.templates_dir, self.assets_dir, package,
                self.root / ".git"]

    @classmethod
    def at(cls, root: Path, entries_dir: Path | None = None) -> Project:
        root = root.resolve()
        return cls(root, (entries_dir or root / "entries"), root / "site.yaml", TEMPLATES_DIR, ASSETS_DIR)


@dataclass(frozen=True)
class Site:
    files: dict  # output path -> bytes
    entries: tuple[Entry, ...]
    pages: PageRenderer | None = None  # what rendered the pages (serve re-renders edited entries with it)


@dataclass(frozen=True)
class Checked:
    """The collection after every check that does not render pages."""

    config: Config
    entries: tuple[Entry, ...]
    bodies: dict
    search_index: dict
    problems: tuple[Problem, ...]
    search: matching.Prepared  # search_index made ready for matching (once, for the self-test and `check`)


def check_project(project: Project, base_url: str | None = None, paths: list[Path] | None = None,
                  cache: EntryCache | None = None, workers: int | None = None) -> Checked:
    """Load, validate, render bodies, check links and run the search self-test.

    With `paths`, only those files are reported on, but the whole collection is loaded so links
    and the self-test see every entry. With a `cache`, files whose content it has seen are not
    read again; the others are prepared on `workers` processes when there are enough of them.
    """
    workers = workers if workers is not None else _usable_cpus()
    config, files = _config_and_files(project, base_url, paths)
    prepared = prepare_entries(files, config, project.root, cache, workers)
    entries, bodies = loaded(prepared)
    index = build_search_index(entries)
    search = matching.prepare(index)
    problems = find_problems(prepared, {f.stem for f in files}, search, workers)
    if paths is not None:
        wanted = {display_path(p, project.root) for p in paths}
        problems = [p for p in problems if p.source_path in wanted]
    return Checked(config, entries, bodies, index, tuple(problems), search)


def loaded(prepared: list[Prepared]) -> tuple[tuple[Entry, ...], dict]:
    """The entries that loaded, in slug order, and their rendered bodies by slug."""
    entries = tuple(sorted((p.entry for p in prepared if p.entry is not None), key=lambda e: e.slug))
    return entries, {p.entry.slug: p.body for p in prepared if p.entry is not None}


def find_problems(prepared: list[Prepared], known: set[str], search: matching.Prepared,
                  workers: int) -> list[Problem]:
    """Every problem, sorted: each file's own (YAML, fields, Markdown), the collection's (duplicate
    slugs, titles and signatures), links to entries that do not exist (in bodies, `related` and
    frontmatter text), and examples that do not diagnose as their own entry."""
    entries = [p.entry for p in prepared if p.entry is not None]  # in file order
    problems = [problem for p in prepared for problem in p.problems]
    problems += check_collection(entries)
    for p in prepared:
        if p.entry is not None:
            problems += unknown_links(p.body, p.entry.source_path, known)
    problems += check_related(entries, known)
    problems += check_field_links(prepared, known)
    problems += self_test(entries, search, workers)
    return sorted(set(problems))


def project_config(project: Project, base_url: str | None = None) -> Config:
    """The project's configuration, with `base_url` in place of its own when given."""
    config = load_config(project.config_path, display_path(project.config_path, project.root))
    return config.with_base_url(base_url) if base_url else config


def prepared_key(config: Config) -> str:
    """What prepared entries depend on in the configuration: everything but the address (loading
    and rendering an entry never read it; pages do, and pages are not cached), so `serve` and
    `build` share the cache."""
    return repr(dataclasses.replace(config, base_url=""))


def stands_alone(prepared: Prepared, known: set[str]) -> bool:
    """True when a file loads, renders and links cleanly on its own (`known`: the slugs it may
    link to); what an edit must be to be shown without the rest of the build."""
    return (prepared.entry is not None and not prepared.problems
            and not unknown_links(prepared.body, prepared.entry.source_path, known)
            and not check_field_links([prepared], known))


def _config_and_files(project: Project, base_url: str | None = None, paths: list[Path] | None = None):
    """The configuration and the entry files (the collection plus any extra `paths`)."""
    config = project_config(project, base_url)
    files = find_entry_files(project.entries_dir) if project.entries_dir.is_dir() else []
    present = {f.resolve() for f in files}
    files += [p for p in paths or [] if p.resolve() not in present]
    return config, files


def _load(project: Project, base_url: str | None = None, paths: list[Path] | None = None):
    """The configuration, the entry files, the entries that load and the problems found loading
    them (without rendering bodies)."""
    config, files = _config_and_files(project, base_url, paths)
    entries, problems = load_entries(files, config, project.root)
    return config, files, entries, problems


@dataclass(frozen=True)
class Inputs:
    """What a build of a project reads, as digests: the theme (generator, configuration, base URL,
    templates, assets; cache.theme_fingerprint) and every entry file by display path."""

    theme: str
    digests: dict  # display path -> SHA-256 of the file (None: not a readable file)
    paths: dict  # display path -> Path

    @property
    def fingerprint(self) -> str:
        return site_fingerprint(self.theme, self.digests)


def project_inputs(project: Project, cache: EntryCache, base_url: str | None = None) -> Inputs:
    """The digests of every input of a build of `project` (file digests come from the cache's
    stat index where it can vouch for them)."""
    files = find_entry_files(project.entries_dir) if project.entries_dir.is_dir() else []
    paths = dict(zip(display_paths(files, project.root), files, strict=True))
    theme_key = theme_fingerprint(cache, project.config_path, base_url, [project.templates_dir, project.assets_dir])
    return Inputs(theme_key, {shown: cache.digest(f, shown) for shown, f in paths.items()}, paths)


def prepare_entries(files: list[Path], config: Config, root: Path, cache: EntryCache | None,
                    workers: int) -> list[Prepared]:
    """Every file loaded, validated and its body rendered, in the order given: from the cache
    where it holds the file's content, the rest spread over `workers` processes (map_in_order)."""
    shown = display_paths(files, root)
    if cache is not None:
        cache.use_config(prepared_key(config))
        digests = [cache.digest(f, s) for f, s in zip(files, shown, strict=True)]
        out: list[Prepared | None] = [cache.get(s, d) for s, d in zip(shown, digests, strict=True)]
    else:
        digests, out = [None] * len(files), [None] * len(files)
    todo = [i for i, p in enumerate(out) if p is None]
    done = map_in_order(lambda k: prepare_entry(files[todo[k]], config, shown[todo[k]]), len(todo), workers)
    for i, prepared in zip(todo, done, strict=True):
        out[i] = prepared
        if cache is not None:
            cache.put(shown[i], digests[i], prepared)
    if cache is not None:
        cache.forget_except(set(shown))
    return out


def _usable_cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def prepare_entry(path: Path, config: Config, shown: str) -> Prepared:
    """One file loaded and validated, and its body rendered if it loads."""
    entry, problems = load_entry(path, config, shown)
    if entry is None:
        return Prepared(None, None, tuple(problems))
    body, found = render_body(entry.body, entry.body_line, entry.source_path)
    body = dataclasses.replace(body, fields=render_fields(entry))
    return Prepared(entry, body, tuple(problems + found))


def load_search_index(project: Project) -> dict:
    """The search index of every entry that loads, without rendering or checking anything else
    (what `diagnose` needs)."""
    return build_search_index(_load(project)[2])


def check_field_links(prepared: list[Prepared], known: set[str]) -> list[Problem]:
    """`slug.md` links inside frontmatter text (summary, fix, checked, causes, symptoms) must exist."""
    return [Problem(p.entry.source_path, p.entry.line_of(field, index), f"link to unknown entry `{slug}` in `{field}`")
            for p in prepared if p.entry is not None
            for field, index, slug in p.body.fields.links if slug not in known]


def self_test(entries: list[Entry], prepared: matching.Prepared, workers: int = 1) -> list[Problem]:
    """Every example must diagnose as its own entry at rank 1."""
    examples = [(e, i, example) for e in entries for i, example in enumerate(e.examples)]
    found = map_in_order(lambda k: _test_example(prepared, *examples[k]), len(examples), workers)
    return [problem for problems in found for problem in problems]


def _test_example(prepared, e: Entry, i: int, example: str) -> list[Problem]:
    """Problems with example i of entry e: not recognised, or recognised as another entry first."""
    results = matching.diagnose_matches(prepared, example)
    line = e.line_of("examples", i)
    if not results:
        return [Problem(e.source_path, line, f"example {i + 1} is not recognised by any "
                        "signature: make sure it contains the error line as printed")]
    if results[0].slug != e.slug:
        mine = next((r for r in results if r.slug == e.slug), None)
        own = f"this entry scores {mine.score}" if mine else "this entry does not match"
        return [Problem(e.source_path, line, f"example {i + 1} diagnoses as `{results[0].slug}` (score "
                        f"{results[0].score}, line {results[0].line}) before this entry; {own}")]
    return []


# Below this many items, starting worker processes costs more than it saves.
PARALLEL_MIN = 200

# What forked workers run: set just before the fork, so children inherit it (with everything it
# refers to) instead of receiving it pickled.
_FORKED_TASK = None


def _run_forked(indices: range) -> list:
    return [_FORKED_TASK(i) for i in indices]


def map_in_order(function, n: int, workers: int = 1) -> list:
    """[function(i) for i in range(n)], spread over `workers` forked processes when there is
    enough work and forking is safe (Linux, and this is the only thread); otherwise here.
    `function` need not be picklable: only indices and results cross between processes."""
    global _FORKED_TASK
    if workers <= 1 or n < PARALLEL_MIN or not _can_fork():
        return [function(i) for i in range(n)]
    size = -(-n // (workers * 4))
    _FORKED_TASK = function
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("fork")) as pool:
            return [x for chunk in pool.map(_run_forked, [range(i, min(i + size, n)) for i in range(0, n, size)])
                    for x in chunk]
    finally:
        _FORKED_TASK = None


def _can_fork() -> bool:
    return threading.active_count() == 1 and "fork" in mp.get_all_start_methods()


def build_site(project: Project, base_url: str | None = None,
               progress: Callable[[str], None] | None = None,
               cache: EntryCache | None = None, workers: int | None = None) -> Site:
    """Build every output file in memory; raises BuildError with every problem found.
    `progress`, if given, is told what the build is doing (the CLI shows it on a terminal)."""
    report = progress or (lambda message: None)
    workers = workers if workers is not None else _usable_cpus()

    def in_parallel(function, n):
        return map_in_order(function, n, workers)

    report("loading and checking entries")
    config, files = _config_and_files(project, base_url)
    prepared = prepare_entries(files, config, project.root, cache, workers)  # read, validate, render Markdown
    entries, bodies = loaded(prepared)
    index = build_search_index(entries)
    problems = find_problems(prepared, {f.stem for f in files}, matching.prepare(index), workers)
    if problems:
        raise BuildError(problems)
    report("linking related errors")
    links = link_entries(list(entries), bodies)
    taxonomies = build_taxonomies(list(entries), config)
    env = theme.environment(project.templates_dir)
    pages = PageRenderer(env, SiteData(config, entries, bodies, links, taxonomies))
    report(f"rendering {len(entries)} entry pages")
    out = Outputs()
    out.add(pages.entry_pages(in_parallel))
    report("rendering indexes, feeds and the search index")
    out.add(pages.listing_pages())
    out.add(index_files(index))
    out.add({SCHEMA_URL: schema_json(config.category_keys).encode()})
    out.add(feed_files(env, config, pages.outward, out.paths()))
    out.add(theme.asset_files(project.assets_dir))
    return Site(out.files, entries, pages)


@dataclass(frozen=True)
class QuickEdit:
    pages: dict  # output path -> bytes: the edited entries' pages
    site: Site | None  # the whole site after the edit, when it changes nothing but those pages


def quick_entry_pages(site: Site, project: Project, paths: list[Path]) -> QuickEdit | None:
    """The pages of edited entries, rendered against the last build's related errors, listings
    and search index: what `serve` shows at once. When no edited entry changed what other
    outputs show (pages.outward_digest), those pages are all that changed, and `site` is the
    whole site after the edit; otherwise the full rebuild that follows replaces these pages (so
    a change to related lists or indexes shows a moment later). None when an edit cannot be
    shown this way: an entry that is new, removed or renamed, or that does not load, render or
    link cleanly on its own (the full rebuild reports why)."""
    renderer = site.pages
    if renderer is None:
        return None
    data = renderer.data
    position = {e.slug: i for i, e in enumerate(data.entries)}
    known = set(position)
    entries, bodies = list(data.entries), dict(data.bodies)
    edited, alone = [], True
    for path in paths:
        prepared = prepare_entry(path, data.config, display_path(path, project.root))
        entry = prepared.entry
        if not stands_alone(prepared, known) or entry.slug not in known or entry.slug in edited:
            return None
        old = entries[position[entry.slug]]
        alone = alone and outward_digest(old, bodies[old.slug]) == outward_digest(entry, prepared.body)
        entries[position[entry.slug]] = entry
        bodies[entry.slug] = prepared.body
        edited.append(entry.slug)
    quick = PageRenderer(renderer.env, dataclasses.replace(data, entries=tuple(entries), bodies=bodies))
    pages = {urls.output_path(urls.entry_url(slug)): quick.render_entry(entries[position[slug]]) for slug in edited}
    return QuickEdit(pages, Site({**site.files, **pages}, tuple(entries), quick) if alone else None)


class Outputs:
    """The site's files as they are rendered; two stages may not claim the same path."""

    def __init__(self):
        self.files: dict[str, bytes] = {}

    def add(self, files: dict[str, bytes]) -> None:
        for path, content in files.items():
            if path in self.files:
                raise ValueError(f"two outputs claim {path}")
            self.files[path] = content

    def paths(self) -> list[str]:
        return list(self.files)
