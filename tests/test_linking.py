"""Related errors: explicit first, then backlinks, then the most similar, capped and deterministic."""

import datetime as dt

from encyclopedia.linking import RELATED_LIMIT, link_entries
from encyclopedia.loading import Entry, Signature
from encyclopedia.markup import RenderedBody


def entry(slug, tags=(), systems=("PyTorch",), category="memory", related=(), sig="boom"):
    return Entry(slug=slug, source_path=f"entries/{slug}.md", title=slug, category=category,
                 severity="low", role="cause", tags=tuple(tags), systems=tuple(systems), summary="s",
                 signatures=(Signature(sig),), aliases=(), symptoms=(), causes=("c",), fix="f",
                 related=tuple(related), references=(), examples=("x",), checked="", updated=dt.date(2026, 1, 1),
                 body="", body_line=1, field_lines=(), item_lines=())


def body(*links):
    return RenderedBody("", (), tuple((s, 1) for s in links), (), ())


def test_related_lists_explicit_then_backlinks_then_similar():
    entries = [
        entry("a", tags=["x", "y"], related=["d"]),
        entry("b", tags=["x", "y"]),             # most similar to a
        entry("c", tags=["x"]),                  # less similar
        entry("d", tags=["z"], category="cuda"),  # explicit
        entry("e", tags=["z"], category="cuda"),  # links to a from its body
    ]
    bodies = {e.slug: body() for e in entries}
    bodies["e"] = body("a")
    links = link_entries(entries, bodies)
    assert links["a"].related[:4] == ("d", "e", "b", "c")
    assert links["a"].backlinks == ("e",)
    assert links["d"].backlinks == ("a",)


def test_related_is_capped_and_ties_break_by_slug():
    entries = [entry("hub", tags=["t"])] + [entry(f"n{i:02d}", tags=["t"]) for i in range(12)]
    links = link_entries(entries, {e.slug: body() for e in entries})
    assert links["hub"].related == tuple(f"n{i:02d}" for i in range(RELATED_LIMIT))


def test_signature_words_make_entries_similar():
    entries = [entry("a", tags=["p"], sig="frobnicator overheated"),
               entry("b", tags=["q"], sig="frobnicator overheated badly"),
               entry("c", tags=["r"], sig="unrelated words here")]
    links = link_entries(entries, {e.slug: body() for e in entries})
    assert links["a"].related[0] == "b"
