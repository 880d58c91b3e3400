"""The shared conformance cases, run against the Python implementation (tests/js runs them in Node)."""

import json
from pathlib import Path

import pytest

from encyclopedia import matching

HERE = Path(__file__).resolve().parent / "conformance"
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))
INDEX = json.loads((HERE / "index.json").read_text(encoding="utf-8"))


def test_committed_index_matches_the_fixture_entries():
    from conformance.generate import build_index
    assert (HERE / "index.json").read_bytes() == build_index(), \
        "run: bash scripts/regenerate.sh (or python tests/conformance/generate.py)"


def test_the_browser_engine_reads_the_current_search_rules():
    """assets/search-rules.js is generated from encyclopedia/search_rules.py, the data both
    engines read; an edit to one without regenerating would make the engines disagree."""
    from encyclopedia import search_rules
    committed = (HERE.parent.parent / search_rules.JS_PATH).read_text(encoding="utf-8")
    assert committed == search_rules.javascript(), \
        "run: bash scripts/regenerate.sh (or python -m encyclopedia.search_rules)"


@pytest.mark.parametrize("case", CASES["tokenize"], ids=lambda c: c["name"])
def test_tokenize(case):
    assert matching.tokenize(case["input"], case.get("signature", False)) == case["tokens"]
    assert [line.rank for line in matching.split_lines(case["input"])] == case["ranks"]


@pytest.mark.parametrize("case", CASES["diagnose"], ids=lambda c: c["name"])
def test_diagnose(case):
    results = matching.diagnose(INDEX, case["log"])
    if case.get("exact"):
        assert [r["slug"] for r in results] == [e["slug"] for e in case["expect"]]
    assert len(results) >= len(case["expect"]), [r["slug"] for r in results]
    for got, want in zip(results, case["expect"], strict=False):  # results may list more
        for key, value in want.items():
            assert got[key] == value, (key, got)
    for r in results:
        assert 0 < r["score"] <= 1


@pytest.mark.parametrize("case", CASES["query"], ids=lambda c: c["name"])
def test_query(case):
    results = [r["slug"] for r in matching.query(INDEX, case["q"])]
    if case["top"]:
        assert results[: len(case["top"])] == case["top"]
    else:
        assert results == []


@pytest.mark.parametrize("case", CASES["search"], ids=lambda c: c["name"])
def test_search(case):
    results = [r["slug"] for r in matching.search(INDEX, case["q"])]
    if case.get("exact"):
        assert results == case["top"]
    elif case["top"]:
        assert results[: len(case["top"])] == case["top"]
    else:
        assert results == []
