"""Taxonomies: the tag, category and system groupings and the pages that list them."""

from __future__ import annotations

from dataclasses import dataclass

from . import urls
from .config import Config
from .loading import Entry


@dataclass(frozen=True)
class Term:
    """One tag, category or system and the entries filed under it (sorted by title)."""

    kind: str  # "tag", "category" or "system"
    key: str
    name: str
    description: str
    url: str
    slugs: tuple[str, ...]


@dataclass(frozen=True)
class Taxonomies:
    tags: tuple[Term, ...]
    categories: tuple[Term, ...]  # in configured order, empty ones included
    systems: tuple[Term, ...]


def build_taxonomies(entries: list[Entry], config: Config) -> Taxonomies:
    order = sorted(entries, key=lambda e: (e.title.lower(), e.slug))
    tags: dict[str, list[str]] = {}
    systems: dict[str, tuple[str, list[str]]] = {}
    cats: dict[str, list[str]] = {key: [] for key in config.category_keys}
    for e in order:
        cats[e.category].append(e.slug)
        for t in e.tags:
            tags.setdefault(t, []).append(e.slug)
        for s in e.systems:
            key = urls.slugify(s)
            systems.setdefault(key, (s, []))[1].append(e.slug)
    return Taxonomies(
        tags=tuple(Term("tag", t, t, "", urls.tag_url(t), tuple(slugs))
                   for t, slugs in sorted(tags.items())),
        categories=tuple(Term("category", k, category_name(k), config.category_description(k),
                              urls.category_url(k), tuple(cats[k])) for k in config.category_keys),
        systems=tuple(Term("system", k, name, "", urls.system_url(name), tuple(slugs))
                      for k, (name, slugs) in sorted(systems.items(), key=lambda kv: kv[1][0].lower())),
    )


def category_name(key: str) -> str:
    """The display name of a category key: `data-loading` reads `Data loading`."""
    special = {"cuda": "CUDA", "hugging-face": "Hugging Face"}
    return special.get(key, key.replace("-", " ").capitalize())
