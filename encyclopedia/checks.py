"""Contributor checks: everything the build reports, plus the quality rules a reviewer would ask for."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from . import matching
from .loading import Entry, display_path
from .problems import Problem
from .schema import FIELDS, RECOMMENDED_SECTIONS, SUMMARY_MAX_CHARS
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
    ctx = signature_context(checked.entries, checked.search) if targets else None
    for path in paths or sorted(project.entries_dir.rglob("*.md")):
        problems.extend(check_placeholders(path, display_path(path, project.root)))
    for e in targets:
        body = checked.bodies[e.slug]
        problems.extend(check_code_blocks(e, body.code_blocks))
        problems.extend(check_sections(e, [h.text for h in body.headings if h.level == 2]))
        problems.extend(check_summary(e))
        problems.extend(check_signatures(e, ctx))
        problems.extend(check_path_words(e, ctx))
        problems.extend(check_sources(e))
        problems.extend(check_counts(e))
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


def check_counts(e: Entry) -> list[Problem]:
    """Fields the build accepts with fewer items than a reviewer asks for (`checked_min_items`)."""
    out = []
    for f in FIELDS:
        if not f.checked_min_items:
            continue
        have = len(getattr(e, f.name))
        if have < f.checked_min_items:
            out.append(Problem(e.source_path, e.line_of(f.name),
                               f"`{f.name}` has {have} item{'s' if have != 1 else ''}; give at least "
                               f"{f.checked_min_items}"))
    return out


def check_sources(e: Entry) -> list[Problem]:
    """Every signature names its evidence, so readers can see where a wording and its label come from."""
    return [Problem(e.source_path, e.line_of("signatures", i),
                    f"signature {i + 1} has no `source`: link the upstream line at a release tag "
                    "(https://github.com/OWNER/REPO/blob/TAG/PATH#L123), or a public thread that shows "
                    "this wording in a user log")
            for i, s in enumerate(e.signatures) if not s.source]


def _signature_key(text: str) -> tuple[str, ...]:
    return tuple(t for t in matching.tokenize(text, signature=True) if t != matching.WILD)


@dataclass(frozen=True)
class SignatureContext:
    """What comparing one entry's signatures with the rest of the collection needs, computed once."""

    entries: tuple
    keys: dict  # normalised signature words -> [(entry, signature number)]
    index_of: dict  # (slug, signature text) -> index in the prepared search index
    example_scores: dict  # (slug, example number) -> {signature index: score on that example}
    totals: dict  # (slug, "signature" or "alias", text) -> weight of its words in the index


def signature_context(entries, prepared: matching.Prepared) -> SignatureContext:
    keys: dict = {}
    for o in entries:
        for j, s in enumerate(o.signatures):
            keys.setdefault(_signature_key(s.text), []).append((o, j))
    index_of = {(prepared.entries[p.entry]["slug"], p.text): si
                for si, p in enumerate(prepared.signatures) if p.kind == "signature"}
    # One scan per example gives every signature's score on it, so comparing signatures with
    # examples costs as much as diagnosing each example once.
    example_scores = {(o.slug, k): matching.signature_scores(prepared, ex)
                      for o in entries for k, ex in enumerate(o.examples)}
    totals = {(prepared.entries[p.entry]["slug"], p.kind, p.text): p.total for p in prepared.signatures}
    return SignatureContext(tuple(entries), keys, index_of, example_scores, totals)


def _owner_score(ctx: SignatureContext, owner: Entry, k: int) -> float:
    """How strongly an entry's own signatures match its k-th example."""
    scores = ctx.example_scores[(owner.slug, k)]
    own = [ctx.index_of.get((owner.slug, s.text)) for s in owner.signatures]
    return max((scores.get(si, 0.0) for si in own if si is not None), default=0.0)


def check_path_words(e: Entry, ctx: SignatureContext) -> list[Problem]:
    """A signature or alias whose distinctive words stand in a path: search drops a path whole, so
    what is left (`No such file or directory` after `/opt/amdgpu/share/libdrm/amdgpu.ids`) is too
    little to name this failure, and every log line with those common words would match it."""
    out = []
    for field, kind, texts in (("signatures", "signature", [s.text for s in e.signatures]),
                               ("aliases", "alias", list(e.aliases))):
        for i, text in enumerate(texts):
            paths = matching.paths_in(text)
            total = ctx.totals.get((e.slug, kind, text))
            if not paths or total is None or total >= matching.MIN_INFO:
                continue
            left = [t for t in matching.tokenize(text, signature=True) if t != matching.WILD]
            out.append(Problem(e.source_path, e.line_of(field, i),
                               f"{kind} {i + 1}: `{paths[0]}` is a path, which search drops from logs, "
                               f"so only `{' '.join(left)}` is left to match (weight {total:.2f}, "
                               f"{matching.MIN_INFO} needed), words any failure may print: sign with "
                               "words the line prints outside the path"))
    return out


def check_signatures(e: Entry, ctx: SignatureContext) -> list[Problem]:
    """Duplicate signatures across entries, and signatures that match another entry's example as
    strongly as their own entry's examples."""
    out = []
    others = [o for o in ctx.entries if o.slug != e.slug]
    # Consequence and warning lines legitimately appear inside other failures' logs.
    compare_examples = e.role == "cause"
    example_scores = ctx.example_scores
    for i, s in enumerate(e.signatures):
        line = e.line_of("signatures", i)
        dup = next(((o, j) for o, j in ctx.keys.get(_signature_key(s.text), []) if o.slug != e.slug), None)
        if dup:
            o, j = dup
            out.append(Problem(e.source_path, line, f"signature {i + 1} duplicates signature {j + 1} of "
                                                    f"`{o.slug}` ({o.source_path}:{o.line_of('signatures', j)})"))
            continue
        si = ctx.index_of.get((e.slug, s.text))
        if si is None or not compare_examples:
            continue
        own = max((example_scores[(e.slug, k)].get(si, 0.0) for k in range(len(e.examples))), default=0.0)
        # A signature that also matches a log of a more specific failure (an NCCL "Cuda failure"
        # line inside an ECC error's log) is fine while it matches its own entry's examples and
        # the other failure's signatures match that log more strongly; it is a problem when it
        # matches none of its own examples, or as strongly as the other entry's own signatures.
        clash = next(((o, k, theirs) for o in others for k in range(len(o.examples))
                      if (theirs := example_scores[(o.slug, k)].get(si, 0.0)) > 0 and theirs >= own
                      and (own == 0 or theirs >= _owner_score(ctx, o, k))), None)
        if clash:
            o, k, theirs = clash
            out.append(Problem(e.source_path, line,
                               f"signature {i + 1} matches example {k + 1} of `{o.slug}` "
                               f"({o.source_path}:{o.line_of('examples', k)}) as strongly as this "
                               f"entry's own examples (score {theirs:.2f}): sign with the words "
                               "only this failure prints"))
    return out
