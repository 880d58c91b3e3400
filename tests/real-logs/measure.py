"""Search on real logs: python3 tests/real-logs/measure.py [-v] [--split tune|holdout]

cases.yaml holds logs copied verbatim from public issue threads (docs/search.md says how they
were drawn), each labelled with the entry that explains it, or null when no entry does. Each case
belongs to one half by a hash of its URL: `tune` (its failures may be read to improve search) and
`holdout` (measured, never read for tuning). A positive counts when `diagnose` names its entry
first; a negative when `diagnose` reports nothing but, at most, warnings.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from encyclopedia import matching  # noqa: E402
from encyclopedia.site import Project, load_search_index  # noqa: E402


def split_of(url: str) -> str:
    return "tune" if hashlib.sha256(url.encode()).digest()[0] % 2 == 0 else "holdout"


def load_cases() -> list[dict]:
    return yaml.safe_load((HERE / "cases.yaml").read_text(encoding="utf-8"))


def outcomes(cases: list[dict]) -> list[tuple[dict, bool, list]]:
    prepared = matching.prepare(load_search_index(Project.at(ROOT)))
    out = []
    for c in cases:
        found = matching.diagnose_matches(prepared, c["log"])
        if c["entry"]:
            ok = bool(found) and found[0].slug == c["entry"]
        else:
            ok = not [m for m in found if m.role != "warning"]
        out.append((c, ok, found))
    return out


def figures(results) -> dict:
    pos = [ok for c, ok, _ in results if c["entry"]]
    neg = [ok for c, ok, _ in results if not c["entry"]]
    return {"positives": len(pos), "right": sum(pos), "negatives": len(neg), "quiet": sum(neg)}


def line(name: str, f: dict) -> str:
    return (f"{name}: right entry first {f['right']}/{f['positives']}, "
            f"nothing reported {f['quiet']}/{f['negatives']}")


if __name__ == "__main__":
    wanted = sys.argv[sys.argv.index("--split") + 1] if "--split" in sys.argv else None
    cases = load_cases()
    results = outcomes(cases)
    for half in ("tune", "holdout"):
        part = [r for r in results if split_of(r[0]["url"]) == half]
        print(line(half, figures(part)))
        if "-v" in sys.argv and half == wanted:
            for c, ok, found in part:
                if not ok:
                    print(f"  want {c['entry']}, got {[(m.slug, m.score) for m in found[:3]]}  {c['url']}")
