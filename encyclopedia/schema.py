"""The one definition of the entry frontmatter: fields, types, rules and their documentation.

The loader validates against FIELDS, `entry_json_schema()` publishes them as a JSON Schema, and
`fields_markdown()` writes the reference table in docs/entry-format.md, so the three cannot drift.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

SEVERITIES = ("low", "medium", "high", "critical")
ROLES = ("cause", "consequence", "warning")
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
SUMMARY_MAX_CHARS = 400
TITLE_MAX_CHARS = 100
# An absolute http(s) address with a host name: a bare `https://` or `https:///x` is not a link.
URL_PATTERN = r"^https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]+)?(?:[/?#]\S*)?$"

RECOMMENDED_SECTIONS = (
    "Why it happens",
    "What you'll observe",
    "How to confirm",
    "The fix",
    "Prevention",
)


@dataclass(frozen=True)
class Field:
    """One frontmatter field.

    kind is one of: "string", "text" (long string), "enum", "date", "strings" (list of strings),
    "records" (list of mappings with the keys in `keys`).
    """

    name: str
    kind: str
    required: bool
    doc: str
    choices: tuple[str, ...] = ()
    pattern: str | None = None
    max_length: int | None = None
    min_items: int = 0
    keys: tuple[tuple[str, bool, str], ...] = ()  # (key, required, doc)
    url_keys: tuple[str, ...] = field(default=())
    # Keys the build accepts without, but `check` (and the published JSON Schema) require: a
    # synthetic or old collection still builds, a contributor is told what is missing.
    checked_keys: tuple[str, ...] = field(default=())
    checked_min_items: int = 0  # likewise for the number of items
    example: str = ""


FIELDS: tuple[Field, ...] = (
    Field("title", "string", True, "The failure's name as a reader would say it.",
          max_length=TITLE_MAX_CHARS, example="CUDA out of memory"),
    Field("category", "enum", True,
          "One of the categories configured in site.yaml.", example="memory"),
    Field("severity", "enum", True,
          "How badly it hurts: low (a warning or a nuisance), medium (a run fails, the fix is "
          "local), high (a run fails and the fix takes investigation), critical (hardware or a "
          "whole job is lost).", choices=SEVERITIES, example="high"),
    Field("role", "enum", False,
          "How search ranks this failure when a log shows several: cause (the default), "
          "consequence (usually a symptom of an earlier failure, such as a launcher's summary or "
          "peers timing out after one rank died) or warning (printed, but not a failure). "
          "Consequences and warnings are listed after a cause found in the same log.",
          choices=ROLES, example="cause"),
    Field("tags", "strings", True, "Lowercase kebab-case topic words.", pattern=SLUG_PATTERN,
          min_items=1, example="[cuda, oom]"),
    Field("systems", "strings", True,
          "Affected frameworks, libraries and tools, spelled as their projects spell them.",
          min_items=1, example="[PyTorch, CUDA]"),
    Field("summary", "text", True,
          f"The quick answer: one to three sentences, at most {SUMMARY_MAX_CHARS} characters.",
          example="The GPU has no free block large enough for a new tensor."),
    Field("signatures", "records", True,
          "The exact error strings users see, each labelled with the variant that prints it (a "
          "version range or a framework) and the evidence for it. Variable parts (numbers, sizes, "
          "hex, paths, shapes, versions, quoted names) match anything already; mark any other "
          "variable part with {} or {name}.",
          min_items=1, url_keys=("source",), checked_keys=("source",),
          keys=(("text", True, "The error string."),
                ("variant", False, "Which versions or framework print this wording, as checked."),
                ("source", False, "Evidence for the wording and its label: the upstream line at a "
                                  "release tag, or a public thread that shows it in a user log.")),
          example="- text: \"CUDA out of memory. Tried to allocate {size}\"\n  variant: PyTorch 2.1+\n"
                  "  source: https://github.com/pytorch/pytorch/blob/v2.1.0/c10/cuda/CUDACachingAllocator.cpp"),
    Field("aliases", "strings", False,
          "Phrases people search for that no release prints verbatim (old wordings from blog "
          "posts, paraphrases). Searched and matched, shown as aliases, never as signatures.",
          example="[\"APIs are called in the incorrect state\"]"),
    Field("symptoms", "records", True,
          "What the reader observes, and why each happens.", min_items=1,
          keys=(("symptom", True, "What you observe."),
                ("why", True, "Why it happens.")),
          example="- symptom: Fails on the first batch\n  why: The model alone fills the GPU."),
    Field("causes", "strings", True, "Root causes, most likely first.", min_items=1),
    Field("fix", "text", True, "The recommended fix, in one or two sentences."),
    Field("related", "strings", False,
          "Slugs of look-alikes, usual causes and usual consequences.", pattern=SLUG_PATTERN),
    Field("references", "records", True,
          "Upstream documentation and issue threads, each with a title and an http(s) URL: at "
          "least two, so a reader can check the entry against more than one source.",
          min_items=1, checked_min_items=2, url_keys=("url",),
          keys=(("title", True, "What the page is."), ("url", True, "Its http(s) address."))),
    Field("examples", "strings", True,
          "One or more realistic log excerpts showing the failure; search must diagnose each "
          "as this entry.", min_items=1),
    Field("checked", "text", False,
          "How the wordings, version labels and claims were checked, by whom (a reviewer who did "
          "not write the entry) and when; shown to readers under the references.",
          example="2026-12-01, reviewer: every wording in torch 1.13-2.9 wheels (since tool); ..."),
    Field("updated", "date", True, "When the entry last changed, as YYYY-MM-DD.",
          example="2026-11-29"),
)

FIELDS_BY_NAME = {f.name: f for f in FIELDS}


SCHEMA_URL = "schema/entry.schema.json"  # where the site publishes it


def schema_json(categories: list[str]) -> str:
    """The JSON Schema as the site publishes it and `build.py schema` writes it."""
    return json.dumps(entry_json_schema(categories), indent=2, sort_keys=True) + "\n"


def entry_json_schema(categories: list[str]) -> dict:
    """The frontmatter as a JSON Schema (draft 2020-12), for editors and external validators."""
    props: dict = {}
    for f in FIELDS:
        props[f.name] = _field_schema(f, categories)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "entry.schema.json",
        "title": "ML Failure Encyclopedia entry frontmatter",
        "type": "object",
        "additionalProperties": False,
        "required": [f.name for f in FIELDS if f.required],
        "properties": props,
    }


def _field_schema(f: Field, categories: list[str]) -> dict:
    nonempty = {"type": "string", "minLength": 1, "pattern": r"\S"}
    if f.kind in ("string", "text"):
        s = dict(nonempty)
        if f.max_length:
            s["maxLength"] = f.max_length
    elif f.kind == "enum":
        s = {"type": "string", "enum": list(f.choices or categories)}
    elif f.kind == "date":
        s = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
    elif f.kind == "strings":
        item = dict(nonempty)
        if f.pattern:
            item["pattern"] = f.pattern
        s = {"type": "array", "items": item}
    elif f.kind == "records":
        rec_props = {}
        for key, _req, doc in f.keys:
            rec_props[key] = dict(nonempty, description=doc)
            if key in f.url_keys:
                rec_props[key]["pattern"] = URL_PATTERN
        record = {
            "type": "object",
            "additionalProperties": False,
            "required": [k for k, req, _ in f.keys if req or k in f.checked_keys],
            "properties": rec_props,
        }
        s = {"type": "array", "items": record}
    else:  # pragma: no cover - FIELDS is static
        raise ValueError(f.kind)
    if f.kind in ("strings", "records") and (f.min_items or f.checked_min_items):
        s["minItems"] = max(f.min_items, f.checked_min_items)
    s["description"] = f.doc
    return s


def fields_markdown() -> str:
    """The field reference table used in docs/entry-format.md."""
    rows = ["| field | required | type | meaning |", "| --- | --- | --- | --- |"]
    kinds = {"string": "string", "text": "string", "enum": "one of", "date": "date",
             "strings": "list of strings", "records": "list"}
    for f in FIELDS:
        kind = kinds[f.kind]
        if f.kind == "enum":
            kind = "one of " + (", ".join(f"`{c}`" for c in f.choices) if f.choices
                                else "the configured categories")
        if f.kind == "records":
            kind = "list of {" + ", ".join(k + ("" if req or k in f.checked_keys else "?")
                                           for k, req, _ in f.keys) + "}"
        rows.append(f"| `{f.name}` | {'yes' if f.required else 'no'} | {kind} | {f.doc} |")
    return "\n".join(rows) + "\n"
