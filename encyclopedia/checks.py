"""Contributor checks: everything the build reports, plus the quality rules a reviewer would ask for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from . import matching
from .loading import Entry, display_path
from .problems import Problem
from .schema import RECOMMENDED_SECTIONS, SUMMARY_MAX_CHARS
from .site import Project, check_project

PLACEHOLDER = "TODO"
PLACEHOLDER_RE = re.compile(r"\bTODO\b")
SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)")


def check_entries(project: Project, paths: list[Path] | None = None) -> tuple[list[Problem], int]:
    """Every problem in the entries at `paths` (default: all), and how many entries were checked."""
    checked = check_project(project, paths=paths)
    problems = list(checked.problems)
    if paths is not None:
        wanted = {display_path(p, project.root) for p in paths}
        targets = [e for e in checked.entries if e.source_path in wanted]
        count = len(wanted)
    else:
        targets = list(checked.entries)
        count = len(targets) + len({p.source_path for p in problems} - {e.source_path for e in targets})
    prepared = matching.prepare(checked.search_index)
    for path in paths or sorted(project.entries_dir.rglob("*.md")):
        problems.extend(check_placeholders(path, display_path(path, project.root)))
    for e in targets:
        body = checked.bodies[e.slug]
        problems.extend(check_code_blocks(e, body.code_blocks))
        problems.extend(check_sections(e, [h.text for h in body.headings if h.level == 2]))
        problems.extend(check_summary(e))
        problems.extend(check_signatures(e, checked.entries, prepared))
    return sorted(set(problems)), count



def check_placeholders(path: Path, shown: str) -> list[Problem]:
    """Scaffold placeholders (`TODO`) left anywhere in the file, even one that does not load."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [Problem(shown, i + 1, f"the placeholder {PLACEHOLDER} is still here: replace it")
            for i, line in enumerate(lines) if PLACEHOLDER_RE.search(line)]


def check_code_blocks(e: Entry, blocks) -> list[Problem]:
    out = []
    for block in blocks:
        if block.language not in ("python", "py", "python3"):
            continue
        try:
            ast.parse(block.code)
        except SyntaxError as exc:
            line = block.line + (exc.lineno or 1)
            out.append(Problem(e.source_path, line, f"Python code block does not parse: {exc.msg}"))
    return out


def check_sections(e: Entry, h2: list[str]) -> list[Problem]:
    present = {h.strip().lower() for h in h2}
    out = []
    for name in RECOMMENDED_SECTIONS:
        if name.lower() not in present:
            out.append(Problem(e.source_path, e.body_line, f"missing recommended section `## {name}`"))
    return out


def check_summary(e: Entry) -> list[Problem]:
    sentences = len(SENTENCE_END_RE.findall(e.summary.replace("e.g.", "eg").replace("i.e.", "ie")))
    line = e.line_of("summary")
    if len(e.summary) > SUMMARY_MAX_CHARS:
        return [Problem(e.source_path, line, f"`summary` is {len(e.summary)} characters; the quick answer "
                                             f"should be at most {SUMMARY_MAX_CHARS} (one to three sentences)")]
    if sentences > 3:
        return [Problem(e.source_path, line, f"`summary` has {sentences} sentences; keep the quick answer "
                                             "to one to three")]
    return []


def _signature_key(text: str) -> tuple[str, ...]:
    return tuple(t for t in matching.tokenize(text, signature=True) if t != matching.WILD)


def check_signatures(e: Entry, entries, prepared: matching.Prepared) -> list[Problem]:
    """Duplicate signatures across entries, and signatures that match another entry's example as
    strongly as their own entry's examples."""
    out = []
    others = [o for o in entries if o.slug != e.slug]
    keys = {}
    for o in others:
        for j, s in enumerate(o.signatures):
            keys.setdefault(_signature_key(s.text), (o, j))
    # Consequence and warning lines legitimately appear inside other failures' logs.
    compare_examples = e.role == "cause"
    sig_index = [s for s in prepared.signatures if prepared.entries[s.entry]["slug"] == e.slug
                 and s.kind == "signature"]
    for i, s in enumerate(e.signatures):
        line = e.line_of("signatures", i)
        key = _signature_key(s.text)
        if key in keys:
            o, j = keys[key]
            out.append(Problem(e.source_path, line, f"signature {i + 1} duplicates signature {j + 1} of "
                                                    f"`{o.slug}` ({o.source_path}:{o.line_of('signatures', j)})"))
            continue
        prep_sig = next((p for p in sig_index if p.text == s.text), None)
        if prep_sig is None or not compare_examples:
            continue
        own = max((_score(prepared, prep_sig, ex) for ex in e.examples), default=0.0)
        for o in others:
            for k, ex in enumerate(o.examples):
                theirs = _score(prepared, prep_sig, ex)
                if theirs > 0 and theirs >= own:
                    out.append(Problem(e.source_path, line,
                                       f"signature {i + 1} matches example {k + 1} of `{o.slug}` "
                                       f"({o.source_path}:{o.line_of('examples', k)}) as strongly as this "
                                       f"entry's own examples (score {theirs:.2f}): sign with the words "
                                       "only this failure prints"))
                    break
            else:
                continue
            break
    return out


def _score(prepared: matching.Prepared, sig: matching.PreparedSignature, text: str) -> float:
    single = matching.Prepared(prepared.entries, (sig,),
                               {sig.tokens[a]: [0] for a in sig.anchors},
                               frozenset(t for t in sig.tokens if t != matching.WILD))
    results = matching.diagnose_matches(single, text)
    return results[0].score if results else 0.0
