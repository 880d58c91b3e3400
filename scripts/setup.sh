#!/usr/bin/env bash
# Set up .venv/ with the project and its locked dependencies, as scripts/serve.sh and
# scripts/test.sh do before they run: `bash scripts/setup.sh` (build and serve) or
# `bash scripts/setup.sh test` (also what the tests need). Then run `.venv/bin/python build.py ...`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
ensure_env "${1:-}"
