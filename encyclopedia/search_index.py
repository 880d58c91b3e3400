"""The signature index (search/index.json): what the browser and `diagnose` search, and its format."""

from __future__ import annotations

import json

from . import matching, urls
from .loading import Entry
from .markup import plain_text
from .taxonomy import category_name

INDEX_VERSION = 2
INDEX_URL = "search/index.json"
DETAILS_URL = "search/details.json"
# search/index.json holds only what matching a log needs (the browser's log triage worker and
# `diagnose --index` load it; it grows with every entry, so it stays lean); search/details.json
# holds what results show and free-text queries search. Signature variants go to details too,
# as one list per entry in signature order.
LEAN_FIELDS = ("slug", "role", "signatures", "aliases")


def build_search_index(entries: list[Entry]) -> dict:
    """The whole index as a JSON-ready dict, entries in slug order (the same input gives the same
    files). What `diagnose` and the tests search; `split_index` divides it into the two published
    files (docs/search.md gives their format). Its shape:
      version  int
      entries  [{slug, url, title, category, severity, role, tags, systems, summary, fix,
                 signatures: [[text] or [text, variant], ...], aliases: [...] (only when any)}]
      weights  {word: weight in (0, 1)} for the words of signatures and aliases that weigh less
               than 1; any other word weighs 1
      categories  {category key: display name} for the categories entries use
    """
    entries = sorted(entries, key=lambda e: e.slug)
    items = []
    vocabulary: set[str] = set()
    documents: list[set[str]] = []
    for e in entries:
        item = {
            "slug": e.slug,
            "url": urls.entry_url(e.slug),
            "title": e.title,
            "category": e.category,
            "severity": e.severity,
            "role": e.role,
            "tags": list(e.tags),
            "systems": list(e.systems),
            "summary": plain_text(e.summary),
            "fix": plain_text(e.fix),
            "signatures": [[s.text, s.variant] if s.variant else [s.text] for s in e.signatures],
        }
        if e.aliases:
            item["aliases"] = list(e.aliases)
        items.append(item)
        sig_words = set()
        for text in [s.text for s in e.signatures] + list(e.aliases):
            sig_words.update(matching.tokenize(text, signature=True))
        vocabulary |= sig_words
        doc = set(sig_words)
        for example in e.examples:
            doc.update(matching.tokenize(example))
        documents.append(doc)
    return {
        "version": INDEX_VERSION,
        "entries": items,
        "weights": {w: v for w, v in matching.compute_weights(documents, vocabulary).items() if v < 1.0},
        "categories": {e.category: category_name(e.category) for e in entries},
    }


def split_index(index: dict) -> tuple[dict, dict]:
    """(search/index.json, search/details.json) from the whole index; `merge_details` undoes it."""
    lean_entries, details = [], {}
    for e in index["entries"]:
        lean = {k: e[k] for k in LEAN_FIELDS if k in e}
        lean["signatures"] = [[s[0]] for s in e["signatures"]]
        lean_entries.append(lean)
        extra = {k: v for k, v in e.items() if k not in LEAN_FIELDS}
        variants = [s[1] if len(s) > 1 else "" for s in e["signatures"]]
        if any(variants):
            extra["variants"] = variants
        details[e["slug"]] = extra
    return ({"version": index["version"], "entries": lean_entries, "weights": index["weights"]},
            {"version": index["version"], "entries": details, "categories": index["categories"]})


def merge_details(lean: dict, details: dict) -> dict:
    """The whole index again from its two published files (what `split_index` divided)."""
    entries = []
    for e in lean["entries"]:
        extra = dict(details["entries"][e["slug"]])
        variants = extra.pop("variants", [])
        sigs = [[s[0], variants[i]] if i < len(variants) and variants[i] else [s[0]]
                for i, s in enumerate(e["signatures"])]
        entries.append({**e, **extra, "signatures": sigs})
    return {"version": lean["version"], "entries": entries, "weights": lean["weights"],
            "categories": details["categories"]}


def dump_index(index: dict) -> bytes:
    """Compact, deterministic JSON bytes."""
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def index_files(index: dict) -> dict[str, bytes]:
    """The two published files: what matching needs (INDEX_URL) and what results show (DETAILS_URL)."""
    lean, details = split_index(index)
    return {INDEX_URL: dump_index(lean), DETAILS_URL: dump_index(details)}
