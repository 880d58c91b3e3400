"""A corpus shaped like the real encyclopedia, for build benchmarks: N entries whose Markdown
bodies are the real entries' bodies (tables, checklists, code blocks: the real cost), taken in
turn, with frontmatter of the real size whose signatures and examples are made of rare random
words, so that every entry is distinct and the build's self-test holds at any size.

    python3 benchmarks/corpus.py N OUT      (writes OUT/site.yaml and OUT/entries/)
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYLLABLES = "ka lo mi nu pe ra si to vu xe ya zo bre cla dri fro glu pla tri sto".split()
ENTRY_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\([a-z0-9-]+\.md(#[^)]*)?\)")  # text may hold [brackets]


def real_bodies() -> list[str]:
    """The body of every real entry, with links to other entries turned into their text (the
    corpus has other slugs)."""
    bodies = []
    for path in sorted((ROOT / "entries").glob("*.md")):
        body = re.split(r"(?m)^---[ \t]*$", path.read_text(), maxsplit=2)[2]
        bodies.append(ENTRY_LINK.sub(r"\1", body))
    return bodies


def entry_text(i: int, rng: random.Random, vocab: list[str], tags: list[str], systems: list[str],
               categories: list[str], body: str) -> str:
    def words(k: int) -> str:
        return " ".join(rng.choice(vocab) for _ in range(k))

    signatures = [f"RuntimeError: {words(rng.randint(7, 11))} {{value}}" for _ in range(rng.randint(2, 4))]
    sig_yaml = "\n".join(f"  - text: {json.dumps(s)}\n    variant: v{j}\n    source: https://example.org/{i}/s{j}"
                         for j, s in enumerate(signatures))
    examples = "\n".join(
        f"  - |\n    [rank{j}]: Traceback (most recent call last):\n    [rank{j}]:   File \"train.py\", line {i}, in step\n"
        f"    [rank{j}]: {s.replace('{value}', str(i))}" for j, s in enumerate(signatures[:2]))
    symptoms = "\n".join(f"  - symptom: {json.dumps(words(8))}\n    why: {json.dumps(words(14))}" for _ in range(3))
    causes = "\n".join(f"  - {json.dumps(words(12))}" for _ in range(3))
    return f"""---
title: {json.dumps(words(5).capitalize())}
category: {rng.choice(categories)}
severity: {rng.choice(['low', 'medium', 'high', 'critical'])}
tags: [{', '.join(sorted(set(rng.sample(tags, 4))))}]
systems: [{', '.join(sorted(set(rng.sample(systems, 2))))}]
summary: {json.dumps(words(25) + '.')}
signatures:
{sig_yaml}
symptoms:
{symptoms}
causes:
{causes}
fix: {json.dumps(words(20))}
references:
  - title: Reference one
    url: https://example.org/{i}/a
  - title: Reference two
    url: https://example.org/{i}/b
examples:
{examples}
updated: 2026-{1 + i % 12:02d}-{1 + i % 28:02d}
---
{body}"""


def write_corpus(n: int, out: Path, seed: int = 7) -> list[str]:
    """Write n entries into out/entries and the real site.yaml into out; returns the slugs."""
    import yaml
    rng = random.Random(seed)
    shutil.rmtree(out, ignore_errors=True)
    (out / "entries").mkdir(parents=True)
    shutil.copy(ROOT / "site.yaml", out / "site.yaml")
    categories = list(yaml.safe_load((ROOT / "site.yaml").read_text())["categories"])
    vocab = sorted({"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(3, 5))) for _ in range(max(4000, 5 * n))})
    tags = sorted({"".join(rng.choice(SYLLABLES) for _ in range(2)) for _ in range(400)})
    systems = sorted({"".join(rng.choice(SYLLABLES) for _ in range(2)).capitalize() for _ in range(40)})
    bodies = real_bodies()
    slugs = []
    for i in range(n):
        slug = f"failure-{i:05d}"
        (out / "entries" / f"{slug}.md").write_text(
            entry_text(i, rng, vocab, tags, systems, categories, bodies[i % len(bodies)]))
        slugs.append(slug)
    return slugs


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write_corpus(int(sys.argv[1]), Path(sys.argv[2]))
