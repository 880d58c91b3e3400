"""Incremental builds: a build that reuses the cache writes exactly what a cold build writes,
over a series of edits of every kind of input; preparing entries on several processes changes
nothing either."""

import shutil
from pathlib import Path

import pytest

from encyclopedia import cli
from encyclopedia import site as site_module
from encyclopedia.output import MARKER
from encyclopedia.site import Project, build_site

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site"
ROOT = Path(__file__).resolve().parent.parent


def read_site(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != MARKER}


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A content root, a theme of its own (so templates and assets can be edited), a cache."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    for name in ("templates", "assets"):
        shutil.copytree(ROOT / name, tmp_path / name)
    monkeypatch.setattr(site_module, "TEMPLATES_DIR", tmp_path / "templates")
    monkeypatch.setattr(site_module, "ASSETS_DIR", tmp_path / "assets")
    monkeypatch.setenv("ML_FAILURES_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def test_incremental_builds_equal_cold_builds(workspace, capsys):
    content, out = workspace / "content", workspace / "site"
    entries = content / "entries"

    def incremental() -> str:
        assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
        return capsys.readouterr().out

    def cold() -> dict[str, bytes]:
        return {k: v for k, v in build_site(Project.at(content), workers=1).files.items()}

    steps = [
        ("first build", lambda: None),
        ("nothing changed", lambda: None),
        ("an entry's body", lambda: edit(entries / "widget-overflow.md", "## Why it happens\n",
                                         "## Why it happens\n\nA new first paragraph.\n\n")),
        ("an entry's title", lambda: edit(entries / "tiny-warning.md", "title: ", "title: Renamed ")),
        ("an entry added", lambda: (entries / "widget-overflow-copy.md").write_text(
            (entries / "widget-overflow.md").read_text().replace("widget buffer", "gadget spool"))),
        ("an entry deleted", lambda: (entries / "widget-overflow-copy.md").unlink()),
        ("an entry renamed", lambda: (entries / "tiny-warning.md").rename(entries / "tiny-warning-renamed.md")),
        ("a template", lambda: edit(workspace / "templates" / "base.html", "</body>", "<!-- edited --></body>")),
        ("the configuration", lambda: edit(content / "site.yaml", "title: ", "title: Edited ")),
        ("an asset", lambda: (workspace / "assets" / "style.css").write_text(
            (workspace / "assets" / "style.css").read_text() + "\n/* edited */\n")),
    ]
    seen = set()
    for what, change in steps:
        change()
        said = incremental()
        expected = cold()
        assert read_site(out) == expected, f"after {what}, the incremental build differs from a cold one"
        if what == "nothing changed":
            assert said.startswith("Nothing changed since the last build"), said
        else:
            assert said.startswith("Built "), f"after {what}: {said}"
        seen.add(expected.get("index.html"))
    assert len(seen) > 3  # the edits did change the site


def test_a_file_deleted_from_the_site_is_written_again(workspace, capsys):
    content, out = workspace / "content", workspace / "site"
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    (out / "index.html").unlink()
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    assert capsys.readouterr().out.count("Built ") == 2
    assert (out / "index.html").is_file()


def test_a_corrupt_cache_is_ignored(workspace, capsys):
    content, out = workspace / "content", workspace / "site"
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    corrupted = list((workspace / "cache").rglob("*.pickle"))
    assert len(corrupted) == 2  # the index and the prepared entries
    for f in corrupted:
        f.write_bytes(b"not a pickle")
    shutil.rmtree(out)
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    assert read_site(out) == build_site(Project.at(content), workers=1).files


def test_a_build_with_nothing_changed_reads_only_the_small_index(workspace, capsys):
    """Deciding that nothing changed must not read the prepared entries (the large part of the
    cache): with that file unreadable, the no-op build still says so, and the next real build
    prepares everything again and still equals a cold build."""
    content, out = workspace / "content", workspace / "site"
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    [prepared] = list((workspace / "cache").rglob("prepared.pickle"))
    prepared.write_bytes(b"unreadable")
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Nothing changed")
    edit(content / "entries" / "tiny-warning.md", "title: ", "title: Edited ")
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    assert read_site(out) == build_site(Project.at(content), workers=1).files


def test_no_cache_builds_the_same_site(workspace, capsys):
    content, out = workspace / "content", workspace / "site"
    assert cli.main(["build", "--root", str(content), "--out", str(out), "--no-cache"]) == 0
    assert not (workspace / "cache").exists()
    assert read_site(out) == build_site(Project.at(content), workers=1).files


def test_entries_prepared_on_processes_equal_entries_prepared_here(monkeypatch):
    monkeypatch.setattr(site_module, "PARALLEL_MIN", 1)
    serial = build_site(Project.at(ROOT), workers=1).files
    parallel = build_site(Project.at(ROOT), workers=2).files
    assert parallel == serial


def test_problems_are_the_same_from_the_cache(workspace):
    """A broken entry is reported the same way on a build that reads it from the cache."""
    from encyclopedia.cache import EntryCache
    from encyclopedia.problems import BuildError
    content = workspace / "content"
    edit(content / "entries" / "tiny-warning.md", "severity: ", "severity: extreme\nseverity_old: ")
    cache = EntryCache("test")
    messages = []
    for _ in range(2):
        with pytest.raises(BuildError) as exc:
            build_site(Project.at(content), cache=cache)
        messages.append([p.format() for p in exc.value.problems])
    assert messages[0] == messages[1] and messages[0]
    assert cache.hits == 3  # the second build read nothing again
