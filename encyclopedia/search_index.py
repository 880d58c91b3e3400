"""The signature index (search/index.json): what the browser and `diagnose` search, and its format."""

from __future__ import annotations

import json

from . import matching, urls
from .markup import plain_text
from .loading import Entry
from .taxonomy import category_name

INDEX_VERSION = 1
INDEX_URL = "search/index.json"
DETAILS_URL = "search/details.json"
# Fields kept out of index.json to keep the file every search needs small; the search page loads
# them from details.json for free-text queries and result summaries.
DETAIL_FIELDS = ("summary", "systems")


def build_search_index(entries: list[Entry]) -> dict:
    """The whole index as a JSON-ready dict, entries in slug order (the same input gives the same
    file). `split_index` divides it into the two published files.

    Format (version 1), documented in docs/search.md:
      version  int
      entries  [{slug, url, title, category, severity, role, tags, systems, summary,
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
    """(search/index.json, search/details.json): the matching index without DETAIL_FIELDS, and
    those fields by slug."""
    lean = {**index, "entries": [{k: v for k, v in e.items() if k not in DETAIL_FIELDS}
                                 for e in index["entries"]]}
    details = {"version": index["version"],
               "entries": {e["slug"]: {k: e[k] for k in DETAIL_FIELDS if k in e} for e in index["entries"]}}
    return lean, details


def dump_index(index: dict) -> bytes:
    """Compact, deterministic JSON bytes."""
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
