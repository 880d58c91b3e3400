"""The coverage of the sample of real failure threads (tests/threads/sample.yaml): printed, and
held to the figure published in docs/coverage.md, so an entry or search change that loses
threads shows up (a change that gains some should raise the published figure)."""

import re
from pathlib import Path

from threads.measure import coverage, load_sample, log_figures, log_summary, measure, summary

ROOT = Path(__file__).resolve().parent.parent


def published() -> float:
    text = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- covered: ([0-9]+) of ([0-9]+) -->", text)
    assert m, "docs/coverage.md must state the figure as <!-- covered: N of M -->"
    return int(m.group(1)) / int(m.group(2))


def test_sample_records_are_complete_and_name_existing_entries():
    slugs = {p.stem for p in (ROOT / "entries").glob("*.md")}
    records = load_sample()
    assert len({r["url"] for r in records}) == len(records)
    for r in records:
        assert {"url", "project", "title", "key", "entry", "kind", "excerpt"} <= set(r), r["url"]
        assert r["kind"] in ("log", "title")
        assert r["entry"] is None or r["entry"] in slugs, (r["url"], r["entry"])


def test_coverage_of_the_sample_is_at_least_the_published_figure(capsys):
    records = load_sample()
    outcomes = measure(records)
    with capsys.disabled():
        print("\n" + summary(outcomes, len(records)))
    assert coverage(outcomes) >= published() - 1e-9


def test_diagnose_on_the_real_log_excerpts_is_at_least_the_published_figures(capsys):
    text = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- logs: right ([0-9]+) of ([0-9]+), quiet ([0-9]+) of ([0-9]+) -->", text)
    assert m, "docs/coverage.md must state <!-- logs: right N of M, quiet K of L -->"
    figures = log_figures()
    with capsys.disabled():
        print(log_summary(figures))
    assert (figures.positives, figures.negatives) == (int(m.group(2)), int(m.group(4))), figures
    assert figures.right >= int(m.group(1)) and figures.quiet >= int(m.group(3)), figures
