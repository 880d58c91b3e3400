"""The fixture site compared file by file with tests/golden/ (update: python tests/update_golden.py)."""

import difflib

from update_golden import GOLDEN, golden_files


def test_fixture_site_matches_golden_output_file_by_file():
    built = golden_files()
    expected = {p.relative_to(GOLDEN).as_posix(): p.read_bytes() for p in GOLDEN.rglob("*") if p.is_file()}
    assert sorted(built) == sorted(expected), "file set differs: bash scripts/regenerate.sh if intended"
    diffs = []
    for path in sorted(built):
        if built[path] != expected[path]:
            diff = difflib.unified_diff(expected[path].decode().splitlines(), built[path].decode().splitlines(),
                                        f"golden/{path}", f"built/{path}", lineterm="", n=2)
            diffs.append("\n".join(list(diff)[:40]))
    assert not diffs, "output differs from golden (bash scripts/regenerate.sh if intended):\n" + "\n\n".join(diffs)
