#!/usr/bin/env bash
# Build the site and serve it at http://127.0.0.1:8000/, rebuilding on every change.
# Extra arguments go to `build.py serve` (e.g. --port 8080). Sets up .venv/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
ensure_env
exec "$PY" build.py serve "$@"
