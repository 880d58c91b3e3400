"""Search on logs copied verbatim from public issue threads (tests/real-logs/cases.yaml): the
figures are printed and held to those published in docs/search.md, so a change that loses a real
log shows up (one that gains should raise the published figure)."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("real_logs_measure", ROOT / "tests" / "real-logs" / "measure.py")
measure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measure)


def test_cases_are_complete():
    cases = measure.load_cases()
    slugs = {p.stem for p in (ROOT / "entries").glob("*.md")}
    assert len({c["url"] for c in cases}) == len(cases)
    for c in cases:
        assert {"url", "project", "title", "entry", "log"} <= set(c), c.get("url")
        assert c["url"].startswith("https://github.com/"), c["url"]
        assert c["entry"] is None or c["entry"] in slugs, (c["url"], c["entry"])
        assert c["log"].strip(), c["url"]


def test_real_logs_are_diagnosed_at_least_as_well_as_published(capsys):
    text = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    results = measure.outcomes(measure.load_cases())
    for half in ("tune", "holdout"):
        m = re.search(rf"<!-- real-logs {half}: right ([0-9]+) of ([0-9]+), quiet ([0-9]+) of ([0-9]+) -->", text)
        assert m, f"docs/search.md must state <!-- real-logs {half}: right N of M, quiet K of L -->"
        f = measure.figures([r for r in results if measure.split_of(r[0]["url"]) == half])
        with capsys.disabled():
            print("\n" + measure.line(half, f))
        assert (f["positives"], f["negatives"]) == (int(m.group(2)), int(m.group(4))), f
        assert f["right"] >= int(m.group(1)) and f["quiet"] >= int(m.group(3)), f
