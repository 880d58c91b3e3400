"""Rewrite tests/golden/ from the fixture site: python tests/update_golden.py"""

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from encyclopedia.site import Project, build_site  # noqa: E402

FIXTURE = HERE / "fixtures" / "site"
GOLDEN = HERE / "golden"
BASE_URL = "https://example.org/encyclopedia/"


def golden_files() -> dict[str, bytes]:
    """The fixture site's output, without the assets: those in assets/ are copied verbatim, and
    assets/pygments.css is Pygments' own stylesheet, which changes with its releases (a test in
    test_site.py checks it is there)."""
    files = build_site(Project.at(FIXTURE), BASE_URL).files
    return {path: data for path, data in files.items() if not path.startswith("assets/")}


if __name__ == "__main__":
    shutil.rmtree(GOLDEN, ignore_errors=True)
    for path, data in golden_files().items():
        target = GOLDEN / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    print(f"Wrote {len(golden_files())} files to {GOLDEN}")
