"""Search quality on logs written in the shapes real logs take: the expected root cause comes
first, logs without a known failure get no match. Both sets were written apart from the entries'
own examples, modelled on public issue threads (each log's source is in expected.json);
tests/quality-holdout was written after the matcher was tuned on tests/quality, and measured
before it was used for anything else."""

import json
from pathlib import Path

import pytest

from encyclopedia import matching
from encyclopedia.site import Project, check_project

ROOT = Path(__file__).resolve().parent.parent
SETS = [ROOT / "tests" / "quality", ROOT / "tests" / "quality-holdout"]
CASES = [(folder, name, want) for folder in SETS
         for name, want in sorted(json.loads((folder / "expected.json").read_text(encoding="utf-8")).items())]


@pytest.fixture(scope="module")
def prepared():
    return check_project(Project.at(ROOT)).search


@pytest.mark.parametrize("folder, name, want", CASES, ids=[f"{c[0].name}/{c[1].removesuffix('.log')}" for c in CASES])
def test_log_is_diagnosed_with_the_expected_root_cause(prepared, folder, name, want):
    results = matching.diagnose_matches(prepared, (folder / "logs" / name).read_text(encoding="utf-8", errors="replace"))
    if want["root"] is None:
        # No failure: nothing is reported but, at most, warnings the log does print.
        assert [r.slug for r in results if r.role != "warning"] == [], [(r.slug, r.score) for r in results]
        return
    assert results and results[0].slug == want["root"], [(r.slug, r.score) for r in results]
    allowed = {want["root"], *want.get("also", [])}
    # Unexpected entries may appear only as alternatives for the same lines, weaker than the root,
    # or as warnings the log prints (listed after the failures, as the triage shows them).
    for r in results[1:]:
        assert r.slug in allowed or r.alternative_to or r.role == "warning" or r.score < results[0].score, \
            (r.slug, r.score)


@pytest.mark.parametrize("folder", SETS, ids=lambda f: f.name)
def test_quality_set_covers_many_entries_and_negatives(folder):
    roots = [e["root"] for e in json.loads((folder / "expected.json").read_text(encoding="utf-8")).values()]
    assert len({r for r in roots if r}) >= 30
    assert roots.count(None) >= 8
