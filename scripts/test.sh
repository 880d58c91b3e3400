#!/usr/bin/env bash
# Run the whole test suite: Python (pytest), the search engine in Node (node --test, run from
# pytest), and the browser tests in headless Chromium. Sets up .venv/ with the locked test
# dependencies first; extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
ensure_env test

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's chromium for the browser tests..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "warning: could not install chromium; browser tests will be skipped" >&2
  else
    echo "note: chromium is not installed (apt-get install chromium); browser tests will be skipped" >&2
  fi
fi

exec "$PY" -m pytest "$@"
