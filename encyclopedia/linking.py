"""Links between entries: validating `related`, backlinks, and the related-errors ranking."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from . import matching
from .loading import Entry
from .markup import RenderedBody
from .problems import Problem, did_you_mean

RELATED_LIMIT = 6
# Features shared by more entries than this are too common to say two entries are alike; skipping
# them keeps the similarity pass near-linear in the number of entries.
MAX_POSTING = 200
FEATURE_WEIGHTS = {"tag": 3.0, "system": 1.0, "category": 1.5, "word": 0.6}


@dataclass(frozen=True)
class Links:
    """What the collection says about one entry."""

    related: tuple[str, ...]  # explicit first, then backlinks, then most similar
    backlinks: tuple[str, ...]  # entries that link here (in `related` or the body)


def check_related(entries: list[Entry], slugs: set[str]) -> list[Problem]:
    """Problems with `related` lists: unknown slugs (with a suggestion) and self-references."""
    problems = []
    for e in entries:
        for i, slug in enumerate(e.related):
            if slug == e.slug:
                problems.append(Problem(e.source_path, e.line_of("related", i),
                                        f"`related` lists the entry itself (`{slug}`)"))
            elif slug not in slugs:
                problems.append(Problem(e.source_path, e.line_of("related", i),
                                        f"unknown related entry `{slug}`{did_you_mean(slug, slugs)}"))
    return problems


def _features(e: Entry) -> set[tuple[str, str]]:
    feats = {("tag", t) for t in e.tags}
    feats |= {("system", s.lower()) for s in e.systems}
    feats.add(("category", e.category))
    for s in e.signatures:
        feats |= {("word", w) for w in matching.tokenize(s.text, signature=True)
                  if w != matching.WILD and w not in matching.STOPWORDS and len(w) > 2}
    return feats


def link_entries(entries: list[Entry], bodies: dict[str, RenderedBody]) -> dict[str, Links]:
    """Backlinks and related errors for every entry, deterministic and near-linear in size."""
    by_slug = {e.slug: e for e in entries}
    backlinks: dict[str, set[str]] = {e.slug: set() for e in entries}
    for e in entries:
        targets = set(e.related) | {slug for slug, _ in bodies[e.slug].links}
        for t in targets:
            if t in backlinks and t != e.slug:
                backlinks[t].add(e.slug)

    feats = {e.slug: _features(e) for e in entries}
    postings: dict[tuple[str, str], list[str]] = {}
    for slug in sorted(feats):
        for f in feats[slug]:
            postings.setdefault(f, []).append(slug)
    n = len(entries)
    weight = {f: FEATURE_WEIGHTS[f[0]] * math.log(1 + n / len(p)) for f, p in postings.items()}

    out = {}
    for e in entries:
        scores: dict[str, float] = {}
        for f in feats[e.slug]:
            plist = postings[f]
            if len(plist) > MAX_POSTING:
                continue
            for other in plist:
                if other != e.slug:
                    scores[other] = scores.get(other, 0.0) + weight[f]
        chosen: list[str] = []
        for slug in list(e.related) + sorted(backlinks[e.slug]):
            if slug in by_slug and slug != e.slug and slug not in chosen:
                chosen.append(slug)
        # Only the best few are needed: cut at the score of the last one that could be chosen
        # (less a margin wider than the rounding), then order that short list exactly.
        need = RELATED_LIMIT + len(chosen)
        candidates = scores.items()
        if len(scores) > need:
            cutoff = heapq.nlargest(need, scores.values())[-1] - 1e-6
            candidates = [kv for kv in candidates if kv[1] >= cutoff]
        similar = sorted(candidates, key=lambda kv: (-round(kv[1], 9), kv[0]))
        for slug, _ in similar:
            if len(chosen) >= RELATED_LIMIT:
                break
            if slug not in chosen:
                chosen.append(slug)
        out[e.slug] = Links(tuple(chosen[:max(RELATED_LIMIT, len(e.related))]),
                            tuple(sorted(backlinks[e.slug])))
    return out
