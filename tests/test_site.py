"""Building small fixture sites and the real one: pages, links, escaping, determinism, atomic output."""

import json
import posixpath
import re
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from encyclopedia import output
from encyclopedia.problems import BuildError
from encyclopedia.search_index import merge_details
from encyclopedia.site import Project, build_site, check_project

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURE = HERE / "fixtures" / "site"
BASE = "https://example.org/encyclopedia/"


class LinkParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[tuple[dict, str]] = []
        self._script = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if key in a and a[key] is not None:
                self.links.append(a[key])
        if tag == "script":
            self._script = (a, "")

    def handle_data(self, data):
        if self._script is not None:
            self._script = (self._script[0], self._script[1] + data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append(self._script)
            self._script = None


def parse(html: bytes) -> LinkParser:
    p = LinkParser()
    p.feed(html.decode("utf-8"))
    return p


@pytest.fixture(scope="module")
def fixture_site():
    return build_site(Project.at(FIXTURE), BASE).files


@pytest.fixture(scope="module")
def real_site():
    return build_site(Project.at(ROOT), BASE).files


def broken_links(files: dict[str, bytes]) -> list[str]:
    """Every internal href/src that does not resolve to a built file (and fragment)."""
    parsed = {path: parse(data) for path, data in files.items() if path.endswith(".html")}
    problems = []
    for path, page in parsed.items():
        if path == "404.html":
            continue
        base_dir = posixpath.dirname(path)
        for link in page.links:
            if link.startswith(("http://", "https://", "mailto:", "data:")):
                continue
            target, _, fragment = link.partition("#")
            target = target.split("?")[0]
            if target == "":
                resolved = path
            else:
                resolved = posixpath.normpath(posixpath.join(base_dir, target))
                if target.endswith("/") or resolved == ".":
                    resolved = (resolved + "/index.html").lstrip("./") if resolved != "." else "index.html"
            if resolved.startswith(".."):
                problems.append(f"{path}: {link} leaves the site")
                continue
            if resolved not in files:
                problems.append(f"{path}: {link} -> {resolved} missing")
                continue
            if fragment and resolved.endswith(".html") and fragment not in parsed[resolved].ids:
                problems.append(f"{path}: {link} -> no #{fragment} in {resolved}")
    return problems


def test_every_internal_link_in_the_fixture_site_resolves(fixture_site):
    assert broken_links(fixture_site) == []


def test_every_internal_link_in_the_real_site_resolves(real_site):
    assert broken_links(real_site) == []


def test_fixture_site_has_every_kind_of_page(fixture_site):
    for path in ["index.html", "entries/index.html", "entries/widget-overflow/index.html",
                 "tags/index.html", "tags/overflow/index.html", "categories/index.html",
                 "categories/memory/index.html", "systems/index.html", "systems/widgetpp/index.html",
                 "search/index.html", "search/index.json", "404.html", "sitemap.xml", "robots.txt",
                 "feed.xml", "schema/entry.schema.json", "assets/style.css", "assets/diagnose.js",
                 "assets/pygments.css"]:
        assert path in fixture_site, path


def test_code_styles_cover_light_and_dark_schemes_and_are_linked(fixture_site):
    css = fixture_site["assets/pygments.css"].decode()
    light, _, dark = css.partition("@media (prefers-color-scheme: dark)")
    assert ".highlight .k " in light and ".highlight .k " in dark
    assert 'href="../../assets/pygments.css"' in fixture_site["entries/widget-overflow/index.html"].decode()


def test_tag_index_lists_each_tag_with_its_count(fixture_site):
    html = fixture_site["tags/index.html"].decode()
    assert '<a href="../tags/overflow/">overflow</a> <span class="count">2</span>' in html
    assert '<a href="../tags/widgets/">widgets</a> <span class="count">1</span>' in html


def test_entry_page_shows_severity_as_text_and_related_errors_with_category(fixture_site):
    html = fixture_site["entries/widget-overflow/index.html"].decode()
    assert "Severity: critical" in html
    related = html[html.index('id="related"'):]
    assert "Launcher exit summary" in related and "Distributed" in related and "Severity: medium" in related


def test_entry_page_links_to_edit_and_report_and_shows_last_updated(fixture_site):
    html = fixture_site["entries/widget-overflow/index.html"].decode()
    assert 'href="https://github.com/example/encyclopedia/edit/main/entries/widget-overflow.md"' in html
    assert "issues/new?template=entry-problem.yml&amp;title=%5Bwidget-overflow%5D+&amp;entry=widget-overflow" in html
    assert '<time datetime="2026-11-20">20 November 2026</time>' in html


def test_body_links_to_other_entries_become_page_links(fixture_site):
    html = fixture_site["entries/widget-overflow/index.html"].decode()
    assert '<a href="../launcher-exit/#why-it-happens">the launcher page</a>' in html


def test_untrusted_text_is_escaped_and_raw_html_is_not_passed_through(fixture_site):
    for path, data in fixture_site.items():
        if path.endswith(".html"):
            html = data.decode()
            assert "<script>alert(1)" not in html, path
            assert "<b>this</b>" not in html, path
    html = fixture_site["entries/widget-overflow/index.html"].decode()
    assert "The &lt;em&gt;raw&lt;/em&gt; HTML here is shown as text." in html
    assert "&lt;frob&gt;" in html


def test_json_ld_describes_the_article_breadcrumbs_and_faq(fixture_site):
    page = parse(fixture_site["entries/widget-overflow/index.html"])
    blocks = [json.loads(text) for attrs, text in page.scripts if attrs.get("type") == "application/ld+json"]
    types = [b["@type"] for b in blocks]
    assert types == ["TechArticle", "BreadcrumbList", "FAQPage"]
    assert blocks[0]["headline"] == "Widget overflow <script>alert(1)</script>"
    assert [q["name"] for q in blocks[2]["mainEntity"]] == ["Is it a hardware fault?", "Does it happen on CPU?"]
    other = parse(fixture_site["entries/launcher-exit/index.html"])
    assert "FAQPage" not in str(other.scripts)


def test_canonical_and_open_graph_use_the_base_url_subpath(fixture_site):
    html = fixture_site["entries/launcher-exit/index.html"].decode()
    assert '<link rel="canonical" href="https://example.org/encyclopedia/entries/launcher-exit/">' in html
    assert '<meta property="og:url" content="https://example.org/encyclopedia/entries/launcher-exit/">' in html
    not_found = fixture_site["404.html"].decode()
    assert 'href="/encyclopedia/assets/style.css"' in not_found
    assert 'href="/encyclopedia/search/"' in not_found


def test_feed_sitemap_and_robots_are_well_formed(fixture_site):
    atom = ET.fromstring(fixture_site["feed.xml"])
    ns = {"a": "http://www.w3.org/2005/Atom"}
    titles = [e.find("a:title", ns).text for e in atom.findall("a:entry", ns)]
    assert titles == ["Launcher exit summary", "Widget overflow <script>alert(1)</script>", "Tiny warning"]
    sitemap = ET.fromstring(fixture_site["sitemap.xml"])
    locs = [u[0].text for u in sitemap]
    assert "https://example.org/encyclopedia/entries/tiny-warning/" in locs
    assert all(loc.startswith(BASE) for loc in locs)
    assert b"Sitemap: https://example.org/encyclopedia/sitemap.xml" in fixture_site["robots.txt"]


def test_search_index_is_versioned_sorted_and_complete(fixture_site):
    index = json.loads(fixture_site["search/index.json"])
    assert index["version"] == 2
    assert [e["slug"] for e in index["entries"]] == ["launcher-exit", "tiny-warning", "widget-overflow"]
    widget = index["entries"][2]
    # Only what matching a log needs; variants and everything results show are in details.json.
    assert widget == {"slug": "widget-overflow", "role": "cause", "aliases": ["frobnicator ran dry"],
                      "signatures": [["WidgetError: widget buffer overflowed after {n} frobs"],
                                     ["widget buffer exhausted (capacity {n})"]]}
    assert "frobs" not in index["weights"]  # a word of one entry weighs 1, the default
    assert 0 < index["weights"]["the"] < 0.2
    details = json.loads(fixture_site["search/details.json"])
    assert details["version"] == 2
    assert details["categories"]["memory"] == "Memory"
    assert details["entries"]["widget-overflow"] == {
        "url": "entries/widget-overflow/", "title": "Widget overflow <script>alert(1)</script>",
        "category": "memory", "severity": "critical", "tags": ["widgets", "overflow"],
        "summary": "The widget buffer overflowed; reduce the batch. Text like <b>this</b> stays text.",
        "fix": "Lower batch_size until it fits.", "systems": ["PyTorch", "Widget++"], "variants": ["Widget 2.x", ""]}
    # The two files merged give back the whole index the build searched.
    assert merge_details(index, details) == check_project(Project.at(FIXTURE)).search_index


def test_same_input_builds_byte_identical_output():
    first = build_site(Project.at(FIXTURE), BASE).files
    second = build_site(Project.at(FIXTURE), BASE).files
    assert first == second


def test_failed_build_leaves_the_previous_site_intact(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    out = tmp_path / "site"
    output.write_site(build_site(Project.at(content)).files, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (content / "entries" / "tiny-warning.md").write_text("no frontmatter\n")
    with pytest.raises(BuildError):
        output.write_site(build_site(Project.at(content)).files, out)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_interrupted_write_keeps_the_previous_site_and_leaves_no_temporary_folder(tmp_path, monkeypatch):
    out = tmp_path / "site"
    output.write_site({"index.html": b"old", "a/b.html": b"old b"}, out)
    real_write = Path.write_bytes
    calls = {"n": 0}

    def failing_write(self, data):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk full")
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing_write)
    with pytest.raises(OSError):
        output.write_site({"index.html": b"new", "a/b.html": b"new b", "c.html": b"c"}, out)
    monkeypatch.undo()
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_write_replaces_stale_files(tmp_path):
    out = tmp_path / "site"
    output.write_site({"old.html": b"x"}, out)
    output.write_site({"new.html": b"y"}, out)
    assert sorted(p.name for p in out.iterdir()) == [output.MARKER, "new.html"]


def _contrast(fg: str, bg: str) -> float:
    def luminance(color: str) -> float:
        color = color.lstrip("#")
        if len(color) == 3:
            color = "".join(c * 2 for c in color)
        channels = [int(color[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted([luminance(fg), luminance(bg)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_highlighted_code_is_readable_in_both_colour_schemes():
    """Every token colour of the highlighting styles reaches WCAG AA (4.5:1) on the code
    background, in light and dark mode (whitespace markers and the error token aside)."""
    import re

    from encyclopedia.markup import pygments_css
    light, dark = pygments_css().split("@media (prefers-color-scheme: dark)")
    for scheme in (light, dark):
        background = re.search(r"\.highlight \{ background: (#[0-9A-Fa-f]{3,6})", scheme).group(1)
        colours = re.findall(r"\.highlight \.(\w+) \{[^}]*?(?<!-)color: (#[0-9A-Fa-f]{3,6})", scheme)
        assert len(colours) > 20
        low = [(token, colour, round(_contrast(colour, background), 2)) for token, colour in colours
               if _contrast(colour, background) < 4.5]
        assert not [t for t in low if t[0] not in ("w", "err")], low


def test_every_scrolling_block_can_be_reached_with_the_keyboard(real_site):
    # Code and log blocks scroll when wider (or, for logs, taller) than the page; a reader without
    # a mouse scrolls them with the arrow keys once they can be focused (axe:
    # scrollable-region-focusable).
    blocks = 0
    for path, data in real_site.items():
        if path.endswith(".html"):
            for tag in re.findall(r"<pre\b[^>]*>", data.decode("utf-8")):
                blocks += 1
                assert 'tabindex="0"' in tag, (path, tag)
    assert blocks > 500
