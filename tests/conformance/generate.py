"""Rebuild tests/conformance/index.json from tests/conformance/entries: python tests/conformance/generate.py"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from encyclopedia.search_index import dump_index  # noqa: E402
from encyclopedia.site import Project, check_project  # noqa: E402


def build_index() -> bytes:
    checked = check_project(Project.at(HERE))
    if checked.problems:
        raise SystemExit("\n".join(p.format() for p in checked.problems))
    return dump_index(checked.search_index) + b"\n"


if __name__ == "__main__":
    (HERE / "index.json").write_bytes(build_index())
    print(f"Wrote {HERE / 'index.json'}")
