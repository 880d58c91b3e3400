"""Coverage of the sample of real failure threads: python3 tests/threads/measure.py [-v]

sample.yaml holds threads drawn from public issue trackers (docs/coverage.md says how), each with
the failure it shows and the entry that covers it (`entry`, or null). A thread counts as covered
when an entry covers it and the encyclopedia's own search names that entry first: `diagnose` on
its log excerpt; the search box on its title when the thread shows no log, or when `diagnose`
finds nothing in the excerpt (search excerpts are cut, often above the error line, and a reader
with that failure would then search by the thread's words). A wrong answer from `diagnose` is
never replaced by the title's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from encyclopedia import matching  # noqa: E402
from encyclopedia.site import Project, load_search_index  # noqa: E402

SAMPLE = HERE / "sample.yaml"
UNIDENTIFIED = "unidentified"


@dataclass(frozen=True)
class Outcome:
    url: str
    kind: str
    entry: str | None
    found: str | None  # what search names first

    @property
    def covered(self) -> bool:
        return self.entry is not None and self.found == self.entry


@lru_cache(maxsize=1)
def _search():
    """The search index built from entries/, and its prepared form (built once per run: both
    measurements read the same entries)."""
    index = load_search_index(Project.at(ROOT))
    return index, matching.prepare(index), matching.prepare_query(index)


def load_sample() -> list[dict]:
    return yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))


def first_result(index: dict, prepared, record: dict, query_index=None) -> str | None:
    if record["kind"] == "log":
        found = matching.diagnose_matches(prepared, record["excerpt"])
        if found:
            return found[0].slug
    found = matching.search(index, record["title"], limit=1, prepared=prepared, query_index=query_index)
    return found[0]["slug"] if found else None


def measure(records: list[dict] | None = None) -> list[Outcome]:
    records = load_sample() if records is None else records
    index, prepared, query_index = _search()
    return [Outcome(r["url"], r["kind"], r.get("entry"), first_result(index, prepared, r, query_index))
            for r in records if r["key"] != UNIDENTIFIED]


def summary(outcomes: list[Outcome], drawn: int) -> str:
    covered = sum(o.covered for o in outcomes)
    with_entry = sum(o.entry is not None for o in outcomes)
    lines = [f"threads drawn: {drawn}; failure identifiable from the thread: {len(outcomes)}",
             f"with an entry: {with_entry} ({with_entry / len(outcomes):.1%})",
             f"covered (entry named first by search): {covered} ({covered / len(outcomes):.1%})"]
    for kind in ("log", "title"):
        part = [o for o in outcomes if o.kind == kind]
        if part:
            n = sum(o.covered for o in part)
            lines.append(f"  {kind} excerpts: {n}/{len(part)} ({n / len(part):.1%})")
    return "\n".join(lines)


@dataclass(frozen=True)
class LogFigures:
    """`diagnose` alone on the verbatim log excerpts (no fallback to the title)."""

    positives: int  # excerpts of a failure an entry covers
    right: int  # ... whose first result is that entry
    silent: int  # ... where nothing is reported (excerpts cut above the error)
    negatives: int  # excerpts of a failure no entry covers
    quiet: int  # ... where nothing but warnings is reported


def log_figures(records: list[dict] | None = None) -> LogFigures:
    records = load_sample() if records is None else records
    _, prepared, _ = _search()
    logs = [r for r in records if r["kind"] == "log" and r["key"] != UNIDENTIFIED]
    pos = [r for r in logs if r.get("entry")]
    neg = [r for r in logs if not r.get("entry")]
    right = silent = quiet = 0
    for r in pos:
        found = matching.diagnose_matches(prepared, r["excerpt"])
        right += bool(found) and found[0].slug == r["entry"]
        silent += not found
    for r in neg:
        quiet += not [m for m in matching.diagnose_matches(prepared, r["excerpt"]) if m.role != "warning"]
    return LogFigures(len(pos), right, silent, len(neg), quiet)


def log_summary(f: LogFigures) -> str:
    return (f"diagnose on log excerpts: right entry first {f.right}/{f.positives} "
            f"({f.silent} silent, {f.positives - f.right - f.silent} wrong); "
            f"no entry: nothing reported {f.quiet}/{f.negatives}")


def coverage(outcomes: list[Outcome]) -> float:
    return sum(o.covered for o in outcomes) / len(outcomes)


if __name__ == "__main__":
    records = load_sample()
    outcomes = measure(records)
    if "-v" in sys.argv:
        for o in outcomes:
            if not o.covered:
                state = "no entry" if o.entry is None else f"found {o.found}, want {o.entry}"
                print(f"{o.kind:5} {state:60} {o.url}")
    print(summary(outcomes, len(records)))
    print(log_summary(log_figures(records)))
