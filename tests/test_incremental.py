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

    widget = entries / "widget-overflow.md"
    # (what changes, the change, whether only the edited entries' own pages may be rebuilt)
    steps = [
        ("first build", lambda: None, False),
        ("nothing changed", lambda: None, False),
        ("an entry's body", lambda: edit(widget, "## Why it happens\n",
                                         "## Why it happens\n\nA new first paragraph.\n\n"), True),
        ("an entry's causes, references and checked text", lambda: (
            edit(widget, "  - A batch larger than the buffer.\n", "  - A batch larger than the buffer.\n  - A new cause.\n"),
            edit(widget, "    url: https://example.org/issues/42\n",
                 "    url: https://example.org/issues/42\n  - title: Issue 43\n    url: https://example.org/issues/43\n"),
            edit(widget, "2026-11-30, a reviewer", "2026-12-01, a second reviewer")), True),
        ("two entries' bodies at once", lambda: (
            edit(widget, "Details.", "More details."),
            (entries / "launcher-exit.md").write_text((entries / "launcher-exit.md").read_text() + "\nA last line.\n")),
         True),
        ("a body link that makes a backlink", lambda: edit(
            entries / "tiny-warning.md", "\n## ", "\nSee also [the widget page](widget-overflow.md).\n\n## "), False),
        ("an entry's summary (shown in listings)", lambda: edit(widget, "summary: The widget", "summary: This widget"),
         False),
        ("a listing template that reads bodies", lambda: edit(
            workspace / "templates" / "_macros.html", "{{ e.title }}", "{{ e.title }}{{ e.body }}{{ e.checked }}"), False),
        ("an entry's body, shown by that template", lambda: edit(widget, "More details.", "Other details."), True),
        ("an entry's title", lambda: edit(entries / "tiny-warning.md", "title: ", "title: Renamed "), False),
        ("an entry added", lambda: (entries / "widget-overflow-copy.md").write_text(
            widget.read_text().replace("widget buffer", "gadget spool")), False),
        ("an entry deleted", lambda: (entries / "widget-overflow-copy.md").unlink(), False),
        ("an entry renamed", lambda: (entries / "tiny-warning.md").rename(entries / "tiny-warning-renamed.md"), False),
        ("a template", lambda: edit(workspace / "templates" / "base.html", "</body>", "<!-- edited --></body>"), False),
        ("the configuration", lambda: edit(content / "site.yaml", "title: ", "title: Edited "), False),
        ("an asset", lambda: (workspace / "assets" / "style.css").write_text(
            (workspace / "assets" / "style.css").read_text() + "\n/* edited */\n"), False),
        ("an entry's body after all that", lambda: edit(widget, "Other details.", "Last details."), True),
    ]
    seen = set()
    for what, change, own_pages_only in steps:
        change()
        said = incremental()
        expected = cold()
        assert read_site(out) == expected, f"after {what}, the incremental build differs from a cold one"
        if what == "nothing changed":
            assert said.startswith("Nothing changed since the last build"), said
        elif own_pages_only:
            assert "only the edited" in said, f"after {what}, the whole site was built: {said}"
        else:
            assert said.startswith("Built ") and "entries into" in said, f"after {what}: {said}"
        seen.add(expected.get("index.html"))
    assert len(seen) > 3  # the edits did change the site


def test_an_edit_with_a_problem_is_reported_and_writes_nothing(workspace, capsys):
    """A body edit that breaks a link is not taken the short way: the full build reports it and
    the site stays as it was; fixing it rebuilds just the page again."""
    content, out = workspace / "content", workspace / "site"
    widget = content / "entries" / "widget-overflow.md"
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    before = read_site(out)
    edit(widget, "Details.", "See [nothing](no-such-entry.md).")
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "link to unknown entry `no-such-entry`" in captured.err
    assert read_site(out) == before
    edit(widget, "See [nothing](no-such-entry.md).", "Details, again.")
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    assert "only the edited" in capsys.readouterr().out
    assert read_site(out) == build_site(Project.at(content), workers=1).files


def test_a_page_changed_by_hand_makes_a_full_build(workspace, capsys):
    """The short way trusts the site folder only while it is as the last build left it."""
    content, out = workspace / "content", workspace / "site"
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    (out / "entries" / "launcher-exit" / "index.html").write_text("changed by hand, longer than before " * 20)
    edit(content / "entries" / "widget-overflow.md", "Details.", "More details.")
    assert cli.main(["build", "--root", str(content), "--out", str(out)]) == 0
    assert "entries into" in capsys.readouterr().out.splitlines()[-1]
    assert read_site(out) == build_site(Project.at(content), workers=1).files


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
    corrupted = sorted((workspace / "cache").rglob("*.pickle")) + sorted((workspace / "cache").rglob("*.sqlite"))
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
    [prepared] = list((workspace / "cache").rglob("prepared.sqlite"))
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
