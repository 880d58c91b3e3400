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


# Python's own errors, raised by user code everywhere: no entry may claim them. Each shares words
# with some signature (`list index out of range` with nn.Embedding's `index out of range in self`,
# `'X' object has no attribute 'Y'` with removed-API errors), which is what makes them a test.
GENERIC_ERRORS = [
    "IndexError: list index out of range",
    "IndexError: string index out of range",
    "IndexError: tuple index out of range",
    "KeyError: 'input_ids'",
    "TypeError: 'NoneType' object is not subscriptable",
    "TypeError: 'int' object is not callable",
    "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
    "TypeError: list indices must be integers or slices, not str",
    "TypeError: __init__() missing 1 required positional argument: 'config'",
    "AttributeError: 'NoneType' object has no attribute 'shape'",
    "AttributeError: 'list' object has no attribute 'to'",
    "AttributeError: 'dict' object has no attribute 'input_ids'",
    "ValueError: too many values to unpack (expected 2)",
    "ValueError: invalid literal for int() with base 10: 'abc'",
    "ZeroDivisionError: division by zero",
    "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.json'",
    "NameError: name 'np' is not defined",
    "UnboundLocalError: cannot access local variable 'tr_loss' where it is not associated with a value",
    "RecursionError: maximum recursion depth exceeded while calling a Python object",
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte",
]


@pytest.mark.parametrize("line", GENERIC_ERRORS)
def test_python_own_errors_are_claimed_by_no_entry(prepared, line):
    results = matching.diagnose_matches(prepared, f'Traceback (most recent call last):\n  File "train.py", line 7, in <module>\n    main()\n{line}\n')
    assert [(r.slug, r.score) for r in results if r.role != "warning"] == []
