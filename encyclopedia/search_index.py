"""The signature index (search/index.json): what the browser and `diagnose` search, and its format."""

from __future__ import annotations

import json

from . import matching, urls
from .loading import Entry

INDEX_VERSION = 1
INDEX_URL = "search/index.json"


def build_search_index(entries: list[Entry]) -> dict:
    """The index as a JSON-ready dict; entries in slug order, so the same input gives the same file.

    Format (version 1), documented in docs/search.md:
      version  int
      entries  [{slug, url, title, category, severity, role, tags, systems, summary,
                 signatures: [[text, variant], ...], aliases: [...]}]
      weights  {word: weight in (0, 1]} for every word of every signature and alias
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
            "summary": e.summary,
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
        "weights": matching.compute_weights(documents, vocabulary),
    }


def dump_index(index: dict) -> bytes:
    """Compact, deterministic JSON bytes."""
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
