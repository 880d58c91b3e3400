"""Runs the Node test suite (tests/js) from pytest, so one command runs every test."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_node_test_suite_passes():
    node = shutil.which("node")
    assert node, "Node 20 is required for the search engine's tests"
    result = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
