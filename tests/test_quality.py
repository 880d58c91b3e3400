"""Search quality on logs written in the shapes real logs take (tests/quality): the expected root
cause comes first, logs without a known failure get no match. These logs were written apart from
the entries' own examples, modelled on public issue threads (see each log's source)."""

import json
from pathlib import Path

import pytest

from encyclopedia import matching
from encyclopedia.site import Project, check_project

ROOT = Path(__file__).resolve().parent.parent
QUALITY = ROOT / "tests" / "quality"
EXPECTED = json.loads((QUALITY / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def prepared():
    return matching.prepare(check_project(Project.at(ROOT)).search_index)


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=lambda n: n.removesuffix(".log"))
def test_log_is_diagnosed_with_the_expected_root_cause(prepared, name):
    want = EXPECTED[name]
    results = matching.diagnose_matches(prepared, (QUALITY / "logs" / name).read_text(encoding="utf-8", errors="replace"))
    if want["root"] is None:
        assert [r.slug for r in results] == []
    else:
        assert results and results[0].slug == want["root"], [(r.slug, r.score) for r in results]
        allowed = {want["root"], *want.get("also", [])}
        # Other failures may be listed; unexpected ones may only be alternatives for the same lines.
        assert all(r.slug in allowed or r.alternative_to for r in results), [(r.slug, r.score) for r in results]


def test_quality_set_covers_many_entries_and_negatives():
    roots = [e["root"] for e in EXPECTED.values()]
    assert len({r for r in roots if r}) >= 30
    assert roots.count(None) >= 8
