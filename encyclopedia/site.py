"""The build pipeline: load, validate, render Markdown, link, index, render pages, in one place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import matching
from .config import Config, load_config
from .linking import check_related, link_entries
from .loading import Entry, display_path, find_entry_files, load_entries
from .markup import inline_entry_links, render_body
from .pages import PageRenderer, SiteData
from .problems import BuildError, Problem
from .search_index import build_search_index
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
    def at(cls, root: Path, entries_dir: Path | None = None) -> "Project":
        root = root.resolve()
        return cls(root, (entries_dir or root / "entries"), root / "site.yaml", TEMPLATES_DIR, ASSETS_DIR)


@dataclass(frozen=True)
class Site:
    files: dict  # output path -> bytes
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Checked:
    """The collection after every check that does not render pages."""

    config: Config
    entries: tuple[Entry, ...]
    bodies: dict
    search_index: dict
    problems: tuple[Problem, ...]


def check_project(project: Project, base_url: str | None = None, paths: list[Path] | None = None) -> Checked:
    """Load, validate, render bodies, check links and run the search self-test.

    With `paths`, only those files are reported on, but the whole collection is loaded so links
    and the self-test see every entry.
    """
    config, files, entries, problems = _load(project, base_url, paths)
    known = {f.stem for f in files}
    bodies = {}
    for e in entries:
        body, found = render_body(e.body, e.body_line, e.source_path, known)
        bodies[e.slug] = body
        problems.extend(found)
    problems.extend(check_related(entries, known))
    problems.extend(check_field_links(entries, known))
    index = build_search_index(entries)
    problems.extend(self_test(entries, index))
    if paths is not None:
        wanted = {display_path(p, project.root) for p in paths}
        problems = [p for p in problems if p.source_path in wanted]
    entries = sorted(entries, key=lambda e: e.slug)
    return Checked(config, tuple(entries), bodies, index, tuple(sorted(set(problems))))


def _load(project: Project, base_url: str | None = None, paths: list[Path] | None = None):
    """The configuration, the entry files (the collection plus any extra `paths`), the entries
    that load and the problems found loading them."""
    config = load_config(project.config_path, display_path(project.config_path, project.root))
    if base_url:
        config = config.with_base_url(base_url)
    files = find_entry_files(project.entries_dir) if project.entries_dir.is_dir() else []
    present = {f.resolve() for f in files}
    files += [p for p in paths or [] if p.resolve() not in present]
    entries, problems = load_entries(files, config, project.root)
    return config, files, entries, problems


def load_search_index(project: Project) -> dict:
    """The search index of every entry that loads, without rendering or checking anything else
    (what `diagnose` needs)."""
    return build_search_index(_load(project)[2])


def check_field_links(entries: list[Entry], known: set[str]) -> list[Problem]:
    """`slug.md` links inside frontmatter text (summary, fix, causes, symptoms) must exist."""
    problems = []
    for e in entries:
        texts = [("summary", None, e.summary), ("fix", None, e.fix), ("checked", None, e.checked)]
        texts += [("causes", i, c) for i, c in enumerate(e.causes)]
        texts += [("symptoms", i, s.symptom + " " + s.why) for i, s in enumerate(e.symptoms)]
        for field, index, text in texts:
            for slug in inline_entry_links(text):
                if slug not in known:
                    problems.append(Problem(e.source_path, e.line_of(field, index),
                                            f"link to unknown entry `{slug}` in `{field}`"))
    return problems


def self_test(entries: list[Entry], index: dict) -> list[Problem]:
    """Every example must diagnose as its own entry at rank 1."""
    prepared = matching.prepare(index)
    problems = []
    for e in entries:
        for i, example in enumerate(e.examples):
            results = matching.diagnose_matches(prepared, example)
            line = e.line_of("examples", i)
            if not results:
                problems.append(Problem(e.source_path, line, f"example {i + 1} is not recognised by any "
                                        "signature: make sure it contains the error line as printed"))
            elif results[0].slug != e.slug:
                mine = next((r for r in results if r.slug == e.slug), None)
                own = f"this entry scores {mine.score}" if mine else "this entry does not match"
                problems.append(Problem(e.source_path, line,
                                        f"example {i + 1} diagnoses as `{results[0].slug}` (score "
                                        f"{results[0].score}, line {results[0].line}) before this entry; {own}"))
    return problems


def build_site(project: Project, base_url: str | None = None,
               progress: Callable[[str], None] | None = None) -> Site:
    """Build every output file in memory; raises BuildError with every problem found.
    `progress`, if given, is told what the build is doing (the CLI shows it on a terminal)."""
    report = progress or (lambda message: None)
    report("loading and checking entries")
    checked = check_project(project, base_url)
    if checked.problems:
        raise BuildError(list(checked.problems))
    entries = list(checked.entries)
    report("linking related errors")
    links = link_entries(entries, checked.bodies)
    taxonomies = build_taxonomies(entries, checked.config)
    data = SiteData(checked.config, checked.entries, checked.bodies, links, taxonomies, checked.search_index)
    files = PageRenderer(project.templates_dir, project.assets_dir, data).render_all(report)
    return Site(files, checked.entries)

