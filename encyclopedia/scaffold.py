"""Scaffolding: new entries from the template, and the generated schema files."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path

from .config import load_config
from .loading import SLUG_RE, display_path
from .schema import RECOMMENDED_SECTIONS, fields_markdown, schema_json
from .urls import slugify

SCHEMA_PATH = "schema/entry.schema.json"
DOCS_PATH = "docs/entry-format.md"

TEMPLATE = """\
---
# yaml-language-server: $schema={schema}
# Every field is documented in docs/entry-format.md. Fill in each placeholder, then run:
#   python3 build.py check {path}
title: {title}
# One of: {categories}
category: TODO
# low | medium | high | critical
severity: medium
# Uncomment for a failure that is usually the effect of an earlier one, or for a warning:
# role: consequence
tags: [TODO]
# Frameworks and libraries as their projects spell them, e.g. PyTorch, NCCL, DeepSpeed
systems: [TODO]
# The quick answer: one to three sentences.
summary: >-
  TODO
# The exact error strings users see, each with the versions or framework that print it (checked,
# e.g. with the releases themselves) and its evidence: the upstream line at a release tag
# (https://github.com/OWNER/REPO/blob/TAG/PATH#L123) or a public thread showing it in a log.
# Numbers, paths, shapes and quoted names match anything already; mark other variable parts {{}}.
signatures:
  - text: "TODO"
    variant: TODO
    source: https://TODO
# Phrases people search for that no release prints (optional):
# aliases: []
symptoms:
  - symptom: TODO
    why: TODO
causes:
  - TODO
fix: >-
  TODO
# Slugs of look-alikes, usual causes and consequences (optional):
# related: []
references:
  - title: TODO
    url: https://TODO
# Written by the reviewer who checks the entry (not its writer): how the wordings, labels and
# claims were checked, and when. Shown to readers under the references (optional).
# checked: >-
#   YYYY-MM-DD, reviewer: ...
# Realistic log excerpts; search must diagnose each as this entry.
examples:
  - |
    TODO: paste a log excerpt showing the failure
updated: {today}
---

{sections}
"""

SECTION_HINTS = {
    "Why it happens": "TODO: the mechanism, concretely.",
    "What you'll observe": "TODO: what the reader sees, in the order they see it.",
    "How to confirm": "- [ ] TODO: a check or command that tells this failure from its look-alikes",
    "The fix": "1. TODO: the most likely fix first, with code where the fix is code.",
    "Prevention": "TODO: how to keep it from coming back.",
}


MAX_SLUG_CHARS = 80


def _shorten(slug: str) -> str:
    """A slug made from a long title, cut at a word boundary (file names have length limits)."""
    if len(slug) <= MAX_SLUG_CHARS:
        return slug
    return slug[:MAX_SLUG_CHARS + 1].rsplit("-", 1)[0]


def new_entry(project, title: str, slug: str | None = None, today: dt.date | None = None) -> Path:
    """Write entries/<slug>.md from the template; refuses to overwrite an existing entry."""
    title = " ".join(title.split())
    if not title:
        raise ValueError("the title is empty")
    if slug is None:
        slug = slugify(title)
        if slug.startswith("u-") or slug == "x":
            raise ValueError("the title has no Latin letters or digits to make a file name from: "
                             "pass --slug, e.g. --slug cuda-out-of-memory")
        slug = _shorten(slug)
    if len(slug) > MAX_SLUG_CHARS:
        raise ValueError(f"the slug is {len(slug)} characters long; keep it under {MAX_SLUG_CHARS}")
    if not SLUG_RE.match(slug):
        raise ValueError(f"`{slug}` is not a valid slug: use lowercase letters, digits and hyphens")
    path = project.entries_dir / f"{slug}.md"
    if path.exists():
        raise FileExistsError(f"{display_path(path, project.root)} already exists; pick another title or --slug")
    config = load_config(project.config_path)
    sections = "\n\n".join(f"## {name}\n\n{SECTION_HINTS[name]}" for name in RECOMMENDED_SECTIONS)
    schema = Path(os.path.relpath(project.root / SCHEMA_PATH, path.parent)).as_posix()
    text = TEMPLATE.format(
        path=display_path(path, project.root), title=json.dumps(title), schema=schema,
        categories=", ".join(config.category_keys),
        today=(today or dt.date.today()).isoformat(), sections=sections)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(text)
    return path



def schema_text(project) -> str:
    config = load_config(project.config_path)
    return schema_json(config.category_keys)


def docs_text(current: str) -> str:
    """docs/entry-format.md with the field table between its markers regenerated."""
    return re.sub(r"(<!-- fields:start -->\n).*?(<!-- fields:end -->)",
                  lambda m: m.group(1) + fields_markdown() + m.group(2), current, flags=re.S)


def write_schema_files(project) -> list[Path]:
    schema_path = project.root / SCHEMA_PATH
    schema_path.parent.mkdir(parents=True, exist_ok=True)
    schema_path.write_text(schema_text(project), encoding="utf-8")
    docs_path = project.root / DOCS_PATH
    docs_path.write_text(docs_text(docs_path.read_text(encoding="utf-8")), encoding="utf-8")
    return [schema_path, docs_path]
