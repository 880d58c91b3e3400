#!/usr/bin/env bash
# Rewrite every generated file from its source, in one go: the entry JSON Schema and the field
# table in docs/entry-format.md (from encyclopedia/schema.py), the golden fixture site
# (tests/golden/), the broken-input expectations (tests/fixtures/broken/*/expected.txt), the
# conformance index (tests/conformance/index.json) and the browser engine's data
# (assets/search-rules.js, from encyclopedia/search_rules.py). Review the diff before committing:
# a change you did not intend is a bug, not a new expectation.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
ensure_env test
"$PY" -m encyclopedia.search_rules
"$PY" build.py schema
"$PY" tests/update_golden.py
"$PY" tests/test_broken_inputs.py
"$PY" tests/conformance/generate.py
git status --short -- schema docs/entry-format.md tests/golden tests/fixtures/broken tests/conformance assets/search-rules.js 2>/dev/null || true
