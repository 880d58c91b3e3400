"""Each folder in tests/fixtures/broken is a small site with bad input; expected.txt holds the exact
problems the build must report, every one at once, as path:line: message."""

from pathlib import Path

import pytest

from encyclopedia.problems import BuildError
from encyclopedia.site import Project, build_site

BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir())


def reported(case: str) -> str:
    with pytest.raises(BuildError) as info:
        build_site(Project.at(BROKEN / case))
    return "".join(p.format() + "\n" for p in info.value.problems)


@pytest.mark.parametrize("case", CASES)
def test_build_reports_exact_problems(case):
    expected = (BROKEN / case / "expected.txt").read_text(encoding="utf-8")
    assert reported(case) == expected


if __name__ == "__main__":  # python tests/test_broken_inputs.py rewrites expected.txt files
    import sys
    sys.path.insert(0, str(BROKEN.parent.parent.parent))
    for case in CASES:
        (BROKEN / case / "expected.txt").write_text(reported(case), encoding="utf-8")
        print(f"wrote {case}/expected.txt")
