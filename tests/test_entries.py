"""The real encyclopedia in entries/: it builds, passes every contributor check, and its
frontmatter validates against the published JSON Schema with a standard validator."""

import json
from pathlib import Path

import frontmatter
import jsonschema
import pytest

from encyclopedia.checks import check_entries
from encyclopedia.scaffold import docs_text, schema_text
from encyclopedia.site import Project

ROOT = Path(__file__).resolve().parent.parent
ENTRY_FILES = sorted((ROOT / "entries").glob("*.md"))
PROJECT = Project.at(ROOT)


def test_every_entry_passes_check_including_the_search_self_test():
    problems, count = check_entries(PROJECT)
    assert [p.format() for p in problems] == []
    assert count == len(ENTRY_FILES)


def test_committed_schema_and_field_docs_are_generated_from_the_schema_module():
    assert (ROOT / "schema" / "entry.schema.json").read_text() == schema_text(PROJECT), "run: python3 build.py schema"
    docs = (ROOT / "docs" / "entry-format.md").read_text()
    assert docs == docs_text(docs), "run: python3 build.py schema"


@pytest.mark.parametrize("path", ENTRY_FILES, ids=lambda p: p.stem)
def test_entry_frontmatter_validates_against_the_published_schema(path):
    schema = json.loads((ROOT / "schema" / "entry.schema.json").read_text())
    meta = frontmatter.load(path).metadata
    meta["updated"] = meta["updated"].isoformat()  # YAML reads the date as a date; JSON has strings
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(meta)


def test_schema_rejects_what_the_checker_rejects():
    schema = json.loads((ROOT / "schema" / "entry.schema.json").read_text())
    meta = frontmatter.load(ENTRY_FILES[0]).metadata
    meta["updated"] = meta["updated"].isoformat()
    validator = jsonschema.Draft202012Validator(schema)
    for change in ({"severity": "severe"}, {"tags": ["FP16"]}, {"titel": "x"}, {"title": False},
                   {"references": [{"title": "x", "url": "https://example.org/x"}]},
                   {"signatures": [{"text": "x", "variant": "y"}]},
                   {"signatures": [{"text": "x", "source": "https://"}]},
                   {"references": [{"title": "x", "url": "ftp://x"}]}, {"category": "gpu"}):
        bad = dict(meta, **change)
        assert list(validator.iter_errors(bad)), change


def test_every_real_example_still_wins_when_the_collection_grows_by_a_thousand_entries(tmp_path):
    """Word weights come from the whole collection: unrelated entries must not make real ones fight."""
    import shutil
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from search import make_entries

    from encyclopedia import matching
    from encyclopedia.site import load_search_index, self_test

    content = tmp_path / "content"
    shutil.copytree(ROOT / "entries", content / "entries")
    shutil.copy(ROOT / "site.yaml", content / "site.yaml")
    make_entries(content / "synthetic", 1000)
    for p in (content / "synthetic").iterdir():
        p.rename(content / "entries" / p.name)
    project = Project.at(content)
    index = load_search_index(project)
    from encyclopedia.site import _load
    entries = [e for e in _load(project)[2] if not e.slug.startswith("synthetic-")]
    assert len(entries) == len(ENTRY_FILES)
    assert [p.format() for p in self_test(entries, matching.prepare(index))] == []
