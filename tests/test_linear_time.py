"""Hostile pastes cost time in proportion to their size, in both engines.

Each input is run at 1x and 4x size (large enough that one-off costs do not dominate); the test fails when time grows faster than linearly
(ratios, not absolute times, so a slow or busy machine does not fail it). Quadratic scanning, as
the URL pattern's unbounded scheme once did on `a.a.a...`, multiplies time by 16 at 4x. A ratio
over the limit is measured again (up to ATTEMPTS times) before the test fails: on a loaded machine
one measurement can land near 8, while a quadratic scan lands near 16 every time.
"""

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from encyclopedia import matching

ROOT = Path(__file__).resolve().parent.parent
INDEX = matching.prepare(json.loads((ROOT / "tests" / "conformance" / "index.json").read_text()))
SIZES = (300_000, 1_200_000)  # 1x and 4x
# Runs of the characters each token pattern can span, and their mixtures.
HOSTILE = ["a.", "a+.-", "'", "\"", "{", "%", "1.", "1:x", "/a", "./", "0x", "a://", "[rank0]", "\\n",
           "x" * 40 + " ", "\x1b[", "File \"", "'a ", "{a} "]
MAX_RATIO_4X = 8.0  # linear is 4; quadratic is 16
ATTEMPTS = 3


def _seconds(unit: str, size: int) -> float:
    text = unit * (size // len(unit))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        matching.diagnose_matches(INDEX, text)
        best = min(best, time.perf_counter() - start)
    return best


def _linear(times: dict) -> bool:
    small, large = times[SIZES[0]], times[SIZES[-1]]
    floor = 0.02  # below this, timer noise and collection pauses dominate
    return large <= max(small, floor) * MAX_RATIO_4X


def _assert_linear(measure, unit: str) -> None:
    """measure() -> {size: seconds}; fails when every one of ATTEMPTS measurements grows too fast."""
    tried = []
    for _ in range(ATTEMPTS):
        tried.append(measure())
        if _linear(tried[-1]):
            return
    pytest.fail(f"{unit!r}: time grows faster than linearly in every attempt: {tried}")


@pytest.mark.parametrize("unit", HOSTILE)
def test_python_engine_time_grows_linearly_on_hostile_input(unit):
    _assert_linear(lambda: {size: _seconds(unit, size) for size in SIZES}, unit)


def test_browser_engine_time_grows_linearly_on_hostile_input():
    node = shutil.which("node")
    assert node, "Node 20 is required for the search engine's tests"

    def measure(unit):
        result = subprocess.run([node, "tests/js/time-hostile.mjs", unit, *map(str, SIZES)], cwd=ROOT,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        return {int(k): v for k, v in json.loads(result.stdout).items()}

    for unit in HOSTILE:
        _assert_linear(lambda unit=unit: measure(unit), unit)


def test_a_quadratic_scan_fails_the_check():
    """The check itself can fail: time that grows 16-fold at 4x the size is caught."""
    with pytest.raises(pytest.fail.Exception, match="faster than linearly"):
        _assert_linear(lambda: {SIZES[0]: 0.05, SIZES[-1]: 0.8}, "quadratic")
