"""The command line as users and CI run it: exit codes, output formats, new then check."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURE = HERE / "fixtures" / "site"
BROKEN = HERE / "fixtures" / "broken"


def run(*args, stdin: str | None = None, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture()
def content(tmp_path):
    """A copy of the fixture site's entries, to change freely."""
    entries = tmp_path / "entries"
    shutil.copytree(FIXTURE / "entries", entries)
    return entries


def test_build_writes_the_site_and_ends_with_one_summary_line(content, tmp_path):
    out = tmp_path / "out"
    result = run("build", "--entries", str(content), "--out", str(out), "--base-url", "https://example.org/sub")
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"Built 3 entries into \d+ files \(\d+ pages\) at .+ in \d+\.\d\ds\.\n", result.stdout)
    html = (out / "entries" / "tiny-warning" / "index.html").read_text()
    assert '<link rel="canonical" href="https://example.org/sub/entries/tiny-warning/">' in html


def test_build_with_content_problems_exits_1_lists_every_problem_and_keeps_the_old_site(content, tmp_path):
    out = tmp_path / "out"
    assert run("build", "--entries", str(content), "--out", str(out)).returncode == 0
    before = (out / "index.html").read_bytes()
    (content / "tiny-warning.md").write_text((content / "tiny-warning.md").read_text().replace("severity: low", "severity: lowish"))
    (content / "launcher-exit.md").write_text((content / "launcher-exit.md").read_text().replace("title: Launcher exit summary", "titel: x"))
    result = run("build", "--entries", str(content), "--out", str(out))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert any(re.fullmatch(r".*launcher-exit\.md:2: unknown field `titel`; did you mean `title`\?", line) for line in lines)
    assert any(re.fullmatch(r".*tiny-warning\.md:4: unknown severity `lowish`; did you mean `low`\? .*", line) for line in lines)
    assert lines[-1] == "2 problems in 2 files."
    assert (out / "index.html").read_bytes() == before


def test_usage_errors_exit_2():
    assert run("build", "--no-such-flag").returncode == 2
    assert run("serve", "--port", "not-a-number").returncode == 2
    missing = run("check", "entries/does-not-exist.md")
    assert missing.returncode == 2 and "no such file" in missing.stderr


LOG = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/train.py", line 12, in <module>
[rank3]: WidgetError: widget buffer overflowed after 4096 frobs
gadgetrun.errors.ChildExitedError: worker 3 exited with code 1
"""


def test_diagnose_json_lists_the_root_cause_first_with_line_and_rank(content):
    result = run("diagnose", "-", "--json", "--entries", str(content), stdin=LOG)
    assert result.returncode == 0, result.stderr
    matches = json.loads(result.stdout)
    assert [m["slug"] for m in matches] == ["widget-overflow", "launcher-exit"]
    first = matches[0]
    assert {"slug", "title", "score", "line"} <= set(first)
    assert (first["line"], first["rank"], first["root_cause"]) == (3, 3, True)
    assert matches[1]["line"] == 4 and matches[1]["root_cause"] is False


def test_diagnose_reads_a_file_and_prints_a_readable_report(content, tmp_path):
    log = tmp_path / "job.log"
    log.write_text(LOG)
    result = run("diagnose", str(log), "--entries", str(content))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Root cause: Widget overflow <script>alert(1)</script> (line 3, rank 3)."
    assert lines[2] == "1. Root cause: Widget overflow <script>alert(1)</script> [widget-overflow]"
    # What the failure is comes first (the entry's summary, plain text) and what to do (its fix,
    # Markdown removed), then where and why.
    assert lines[3] == "   The widget buffer overflowed; reduce the batch. Text like <b>this</b> stays text."
    assert lines[4] == "   Fix: Lower batch_size until it fits."
    assert lines[5].startswith("   line 3, rank 3; ")


def test_diagnose_reads_several_logs_one_per_rank_and_gzip_as_one_job(content, tmp_path):
    import gzip
    *head, cause, consequence = LOG.splitlines()
    (tmp_path / "train_rank2.log").write_text(consequence + "\n")
    (tmp_path / "train_rank3.log.gz").write_bytes(gzip.compress(("\n".join(head + [cause]) + "\n").encode()))
    result = run("diagnose", str(tmp_path / "train_rank2.log"), str(tmp_path / "train_rank3.log.gz"), "--json",
                 "--entries", str(content))
    assert result.returncode == 0, result.stderr
    found = {m["slug"]: (m["file"].rsplit("/", 1)[1], m["file_line"], m["rank"]) for m in json.loads(result.stdout)}
    assert found["widget-overflow"][:2] == ("train_rank3.log.gz", 3)
    assert found["launcher-exit"] == ("train_rank2.log", 1, 2)


def test_diagnose_says_where_a_failure_first_shows_on_each_rank(content, tmp_path):
    # The same failure on three ranks in one interleaved log: where it first shows on each,
    # earliest first (line order is time order in one log).
    cause = LOG.splitlines()[2].split(": ", 1)[1]
    interleaved = f"[rank2]: step ok\n[rank1]: {cause}\n[rank0]: step ok\n[rank2]: {cause}\n[rank0]: {cause}\n"
    report = run("diagnose", "--entries", str(content), stdin=interleaved)
    assert report.returncode == 0, report.stderr
    assert "   first on each rank, earliest first: rank 1 line 2, rank 2 line 4, rank 0 line 5" in report.stdout.splitlines()
    # One file per rank: by rank (file order says nothing about time), with file and file line,
    # in the report and in --json.
    for rank, noise in ((0, 4), (1, 1), (2, 2)):
        (tmp_path / f"rank{rank}.log").write_text("step ok\n" * noise + cause + "\n")
    files = [str(tmp_path / f"rank{r}.log") for r in range(3)]
    report = run("diagnose", *files, "--entries", str(content))
    where = [f"rank {r} {tmp_path / f'rank{r}.log'}:{n}" for r, n in ((0, 5), (1, 2), (2, 3))]
    assert "   first on each rank: " + ", ".join(where) in report.stdout.splitlines()
    found = json.loads(run("diagnose", *files, "--json", "--entries", str(content)).stdout)
    ranks = [(p["rank"], p["file"].rsplit("/", 1)[1], p["file_line"]) for p in found[0]["ranks"]]
    assert ranks == [(0, "rank0.log", 5), (1, "rank1.log", 2), (2, "rank2.log", 3)]
    # One rank: no such line.
    single = run("diagnose", files[0], "--entries", str(content))
    assert "first on each rank" not in single.stdout


def test_diagnose_verdict_says_when_a_log_shows_only_consequences(content):
    result = run("diagnose", "--entries", str(content), stdin=LOG.splitlines()[-1] + "\n")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0].startswith("No root cause in this log: it shows consequences")
    assert "1. Consequence (no known cause found in this log): " in result.stdout


def test_diagnose_without_a_match_prints_an_empty_array_and_exits_1(content):
    result = run("diagnose", "--json", "--entries", str(content), stdin="all good\nloss 0.1\n")
    assert result.returncode == 1
    assert json.loads(result.stdout) == []


def test_diagnose_can_use_a_built_index(content, tmp_path):
    out = tmp_path / "out"
    run("build", "--entries", str(content), "--out", str(out))
    result = run("diagnose", "--json", "--index", str(out / "search" / "index.json"), stdin=LOG)
    assert [m["slug"] for m in json.loads(result.stdout)] == ["widget-overflow", "launcher-exit"]
    # The published files, merged, give what the entries give: titles, links, variants.
    direct = run("diagnose", "--json", "--entries", str(content), stdin=LOG)
    assert json.loads(result.stdout) == json.loads(direct.stdout)
    assert json.loads(result.stdout)[0]["variant"] == "Widget 2.x"
    (out / "search" / "details.json").unlink()
    result = run("diagnose", "--index", str(out / "search" / "index.json"), stdin=LOG)
    assert result.returncode == 2
    assert "details.json: No such file or directory (--index needs the site's search/index.json with " \
        "details.json beside it)" in result.stderr


def test_check_reports_exact_messages_with_line_numbers(content):
    entry = content / "tiny-warning.md"
    text = entry.read_text()
    text = text.replace("summary: A harmless warning.", "summary: " + "Long. " * 80)
    text = text.replace("## Prevention\n\nNothing.\n", "```python\ndef broken(:\n    pass\n```\n")
    entry.write_text(text)
    result = run("check", str(entry), "--entries", str(content))
    assert result.returncode == 1
    lines = [re.sub(r"^.*?tiny-warning\.md", "tiny-warning.md", line) for line in result.stderr.splitlines()]
    assert lines == [
        "tiny-warning.md:8: `summary` is 479 characters; the quick answer should be at most 400 (one to three sentences)",
        "tiny-warning.md:29: missing recommended section `## Prevention`",
        "tiny-warning.md:46: Python code block does not parse: invalid syntax",
        "3 problems in 1 file.",
    ]


def test_check_requires_evidence_for_every_signature_but_the_build_does_not(content, tmp_path):
    entry = content / "tiny-warning.md"
    entry.write_text(entry.read_text().replace("    source: https://example.org/source/tiny-warning\n", ""))
    result = run("check", str(entry), "--entries", str(content))
    assert result.returncode == 1
    assert result.stderr.splitlines()[0].endswith(
        "tiny-warning.md:10: signature 1 has no `source`: link the upstream line at a release tag "
        "(https://github.com/OWNER/REPO/blob/TAG/PATH#L123), or a public thread that shows this "
        "wording in a user log")
    assert run("build", "--entries", str(content), "--out", str(tmp_path / "out")).returncode == 0


def test_check_finds_duplicate_and_overly_generic_signatures(content):
    tiny = content / "tiny-warning.md"
    tiny.write_text(tiny.read_text().replace(
        '  - text: "TinyWarning: the gizmo cache was rebuilt from scratch"',
        '  - text: "widget buffer exhausted (capacity {n})"\n    source: https://example.org/x\n'
        '  - text: "TinyWarning: the gizmo cache was rebuilt from scratch"'))
    widget = content / "widget-overflow.md"
    widget.write_text(widget.read_text().replace(
        '  - text: "widget buffer exhausted (capacity {n})"',
        '  - text: "worker {n} exited with code {code}"\n    source: https://example.org/x\n'
        '  - text: "widget buffer exhausted (capacity {n})"'))
    result = run("check", "--entries", str(content))
    lines = [re.sub(r"[^\s(]*/(\w[\w-]*\.md)", r"\1", line) for line in result.stderr.splitlines()]
    assert "tiny-warning.md:10: signature 1 duplicates signature 3 of `widget-overflow` (widget-overflow.md:14)" in lines
    assert any(line.startswith("widget-overflow.md:12: signature 2 matches example 1 of `launcher-exit` (launcher-exit.md:")
               for line in lines), lines


def test_check_finds_a_signature_whose_words_stand_in_a_path(content):
    # Search drops a path from a log whole, so an alias whose distinctive words are inside one
    # would match any line with the common words left over (a libdrm table path in front of
    # "No such file or directory" once claimed every missing file).
    widget = content / "widget-overflow.md"
    widget.write_text(widget.read_text().replace(
        '  - "frobnicator ran dry"', '  - "frobnicator ran dry"\n  - "errors with the /var/lib/frobnicator/widget.db"'))
    result = run("check", str(widget), "--entries", str(content))
    assert result.returncode == 1
    lines = [re.sub(r"[^\s(]*/(\w[\w-]*\.md)", r"\1", line) for line in result.stderr.splitlines()]
    assert lines[0] == ("widget-overflow.md:16: alias 2: `/var/lib/frobnicator/widget.db` is a path, which "
                        "search drops from logs, so only `errors with the` is left to match (weight 0.45, 1.2 "
                        "needed), words any failure may print: sign with words the line prints outside the path")


def test_check_github_format_prints_workflow_annotations(content):
    (content / "tiny-warning.md").write_text((content / "tiny-warning.md").read_text().replace("category: hugging-face", "category: hf"))
    result = run("check", "--format", "github", "--entries", str(content))
    assert result.returncode == 1
    first = result.stdout.splitlines()[0]
    assert re.fullmatch(r"::error file=\S*tiny-warning\.md,line=3::unknown category `hf` \(expected one of: .*\)", first)


def test_new_writes_a_scaffold_that_check_rejects_until_filled_in(content):
    result = run("new", "Gizmo cache corrupted: bad magic", "--entries", str(content))
    assert result.returncode == 0, result.stderr
    path = content / "gizmo-cache-corrupted-bad-magic.md"
    assert path.exists() and str(path.name) in result.stdout
    text = path.read_text()
    modeline = re.match(r"---\n# yaml-language-server: \$schema=(\S+)\n", text)
    assert modeline and (path.parent / modeline.group(1)).resolve() == ROOT / "schema" / "entry.schema.json"
    for section in ("## Why it happens", "## What you'll observe", "## How to confirm", "## The fix", "## Prevention"):
        assert section in text

    again = run("new", "Gizmo cache corrupted: bad magic", "--entries", str(content))
    assert again.returncode == 1 and "already exists" in again.stderr

    check = run("check", str(path), "--entries", str(content))
    assert check.returncode == 1
    assert "gizmo-cache-corrupted-bad-magic.md:7: unknown category `TODO`" in check.stderr
    assert "placeholder TODO" in check.stderr

    filled = (text.replace("category: TODO", "category: memory")
              .replace("tags: [TODO]", "tags: [gizmo]").replace("systems: [TODO]", "systems: [Gizmo]")
              .replace("  TODO\n# The exact", "  The gizmo cache file is corrupt.\n# The exact")
              .replace('  - text: "TODO"\n    variant: TODO\n    source: https://TODO',
                       '  - text: "GizmoError: bad magic number in cache file"\n    variant: Gizmo 1.x\n'
                       '    source: https://example.org/gizmo/cache.py#L12')
              .replace("  - symptom: TODO\n    why: TODO", "  - symptom: Start-up fails.\n    why: The cache is read first.")
              .replace("causes:\n  - TODO", "causes:\n  - A crash while writing the cache.")
              .replace("fix: >-\n  TODO", "fix: >-\n  Delete the cache file.")
              .replace("  - title: TODO\n    url: https://TODO", "  - title: Gizmo docs\n    url: https://example.org/gizmo-cache\n"
                       "  - title: Gizmo issue 12\n    url: https://example.org/gizmo/issues/12")
              .replace("    TODO: paste a log excerpt showing the failure", "    GizmoError: bad magic number in cache file /tmp/x"))
    for name in ("Why it happens", "What you'll observe", "The fix", "Prevention"):
        filled = re.sub(rf"(## {re.escape(name)}\n\n)TODO[^\n]*", r"\1Written.", filled)
    filled = filled.replace("- [ ] TODO: a check or command that tells this failure from its look-alikes", "- [ ] Read the cache header.")
    filled = filled.replace("1. TODO: the most likely fix first, with code where the fix is code.", "1. Delete the cache.")
    path.write_text(filled)
    check = run("check", str(path), "--entries", str(content))
    assert check.returncode == 0, check.stderr
    assert check.stdout == "Checked 1 entry: no problems.\n"


def test_diagnose_on_a_short_text_without_a_signature_lists_guesses_by_its_words(content):
    result = run("diagnose", "--entries", str(content), stdin="why does my widget overflow so often\n")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "No known failure found in this log."
    assert lines[1].startswith("Possibly (its words match these entries")
    assert "[widget-overflow]" in lines[2]
