# Sourced by the scripts here: makes .venv/ with the project and the locked dependencies in it, so
# the commands work the same on a fresh Debian/Ubuntu machine, whose system Python refuses
# `pip install` outside a virtual environment (PEP 668), and on any other.
#   ensure_env           the project and what it needs to build and serve
#   ensure_env test      also what the tests need
# Versions come from requirements/constraints.txt (refresh it with: bash scripts/lock.sh).

ensure_env() {
  local extras="${1:-}" root py stamp want
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  py="${PYTHON:-python3}"
  if [ ! -x "$root/.venv/bin/python" ]; then
    echo "Creating a virtual environment in .venv/ ..." >&2
    if ! "$py" -m venv "$root/.venv" >/dev/null 2>&1; then
      rm -rf "$root/.venv"
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing python3-venv (Debian/Ubuntu) ..." >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        "$py" -m venv "$root/.venv"
      else
        echo "error: '$py -m venv' failed; on Debian/Ubuntu run: sudo apt-get install python3-venv" >&2
        return 1
      fi
    fi
  fi
  # Reinstall only when the project's requirements or the lock changed since the last install.
  want="$(cat "$root/pyproject.toml" "$root/requirements/constraints.txt" | cksum) ${extras}"
  stamp="$root/.venv/.installed"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    local target="$root"
    [ -n "$extras" ] && target="$root[$extras]"
    "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      -c "$root/requirements/constraints.txt" -e "$target"
    printf '%s' "$want" > "$stamp"
  fi
  PY="$root/.venv/bin/python"
}
