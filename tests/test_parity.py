"""Python and JavaScript give identical results on every example log, the quality logs and
variations of them (rank prefixes, ANSI colours, CRLF, Markdown quoting), and on queries."""

import json
import shutil
import subprocess
from pathlib import Path

from encyclopedia import matching
from encyclopedia.search_index import split_index
from encyclopedia.site import Project, check_project

ROOT = Path(__file__).resolve().parent.parent


def variations(text: str) -> list[str]:
    lines = text.splitlines()
    return [
        text,
        "\n".join(f"[rank{i % 4}]: {line}" for i, line in enumerate(lines)),
        "\r\n".join(f"\x1b[31m{line}\x1b[0m" for line in lines),
        "```\n" + "\n".join("> " + line for line in lines) + "\n```",
        " ".join(lines),
    ]


def test_python_and_javascript_agree_on_every_result():
    checked = check_project(Project.at(ROOT))
    texts, triage = [], []  # triage: texts also matched as the page's worker does (not every variation)
    for e in checked.entries:
        for example in e.examples:
            triage.append(len(texts))
            texts.extend(variations(example))
    quality = ROOT / "tests" / "quality" / "logs"
    if quality.is_dir():
        texts.extend(p.read_text(encoding="utf-8", errors="replace") for p in sorted(quality.glob("*.log")))
    real = ROOT / "tests" / "real-logs" / "cases.yaml"
    if real.is_file():  # logs copied verbatim from public issue threads
        import yaml
        triage.extend(range(len(texts), len(texts) + len(yaml.safe_load(real.read_text(encoding="utf-8")))))
        texts.extend(c["log"] for c in yaml.safe_load(real.read_text(encoding="utf-8")))
        texts.extend(r["excerpt"] for r in yaml.safe_load(
            (ROOT / "tests" / "threads" / "sample.yaml").read_text(encoding="utf-8")))
    # Characters outside the Basic Multilingual Plane are one character in Python, two in JS.
    texts.append("🔥 warming up " * 300 + "\nRuntimeError: CUDA error: an illegal memory access was "
                 "encountered 🔥" + " 🔥" * 1200 + "\n" + "after 🔥\n" * 400)
    queries = ["oom", "nccl timeout", "incorrect state", "cuda out of memry", "device-side asert",
               "flash attention", "pad token", "weights_only", "bus error", "RuntimeError: CUDA error",
               "RuntimeError: CUDA error: an illegal memory access was encountered",
               "cuda 12.1 python 3.10.12", "exits with return code = -9"]
    threads = ROOT / "tests" / "threads" / "sample.yaml"
    if threads.is_file():  # issue titles as people write them: sentences, versions, other scripts
        import yaml
        queries += [r["title"] for r in yaml.safe_load(threads.read_text(encoding="utf-8"))]
    node = shutil.which("node")
    assert node, "Node 20 is required"
    lean, details = split_index(checked.search_index)
    payload = json.dumps({"index": checked.search_index, "texts": texts, "queries": queries,
                          "lean": lean, "details": details, "triage": triage})
    result = subprocess.run([node, "tests/js/run-search.mjs"], input=payload, cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    js = json.loads(result.stdout)
    assert js["merged"] == checked.search_index  # the two published files give the whole index back
    for i, text in enumerate(texts):
        assert js["tokens"][i] == matching.tokenize(text), text[:200]
        results = matching.diagnose(checked.search, text)
        assert js["diagnose"][i] == results, text[:200]
        words = [matching.verdict(results)] + [matching.result_label(r, j == 0) for j, r in enumerate(results)]
        assert js["words"][i] == words, text[:200]
    for k, i in enumerate(triage):  # as the page shows them
        assert js["triage"][k] == matching.diagnose(checked.search, texts[i]), texts[i][:200]
    query_index = matching.prepare_query(checked.search_index)
    for i, q in enumerate(queries):
        assert js["queries"][i] == matching.query(query_index, q), q
        assert js["searches"][i] == matching.search(checked.search_index, q, prepared=checked.search,
                                                    query_index=query_index), q
