#!/usr/bin/env bash
# Refresh requirements/constraints.txt: resolve the project's dependencies and test extras afresh
# in a throw-away virtual environment and pin every version found. Commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"${PYTHON:-python3}" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check '.[test]'
{
  echo "# Every version the build and the tests use, pinned. Used by scripts/test.sh, scripts/serve.sh,"
  echo "# .ci/run and the pull-request workflow. Refresh: bash scripts/lock.sh"
  "$tmp/venv/bin/python" -m pip freeze --all --exclude ml-failure-encyclopedia | grep -v -E '^(pip|setuptools|wheel)=='
} > requirements/constraints.txt
echo "Wrote requirements/constraints.txt"
