import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def _private_build_cache(tmp_path_factory):
    """Builds run by tests keep their cache in a folder of their own, never the user's."""
    import os
    os.environ["ML_FAILURES_CACHE_DIR"] = str(tmp_path_factory.mktemp("build-cache"))
    yield
