"""Hostile and unusual input: every case ends in a clear message (path:line for content, one
line and exit 2 for usage), never a traceback, a hang or a file written outside the output."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from encyclopedia import urls
from encyclopedia.cli import main
from encyclopedia.problems import BuildError
from encyclopedia.site import Project, build_site

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURE = HERE / "fixtures" / "site"


def run(*args, stdin=None, cwd=ROOT, timeout=60):
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture()
def content(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "content")
    return tmp_path / "content"


def problems_of(content) -> list[str]:
    with pytest.raises(BuildError) as info:
        build_site(Project.at(content))
    return [p.format() for p in info.value.problems]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_category_key_that_is_a_path_is_refused_and_nothing_is_written_outside(content, tmp_path):
    edit(content / "site.yaml", "  memory:", "  ../../../escaped:")
    assert any("category key '../../../escaped' must be lowercase kebab-case" in p for p in problems_of(content))
    assert not list(tmp_path.rglob("escaped*"))


@pytest.mark.parametrize("base_url", ['https://example.org/"x', "https://example.org/\nDisallow: /",
                                      "https://", "https:///path", "javascript:alert(1)"])
def test_a_base_url_that_would_break_html_xml_or_robots_is_refused(content, tmp_path, base_url):
    result = run("build", "--entries", str(content / "entries"), "--out", str(tmp_path / "out"),
                 "--base-url", base_url)
    assert result.returncode == 2 and result.stderr.startswith("error: --base-url must be an http(s) address")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("field, value", [("title", '"Tiny \\x01 warning"'), ("summary", '"bell \\x07 here"'),
                                          ("title", '"lone \\ud800 surrogate"')])
def test_control_characters_written_as_yaml_escapes_are_reported(content, field, value):
    entry = content / "entries" / "tiny-warning.md"
    lines = [line if not line.startswith(f"{field}:") else f"{field}: {value}" for line in entry.read_text().splitlines()]
    entry.write_text("\n".join(lines) + "\n")
    found = [p for p in problems_of(content) if "tiny-warning.md" in p]
    assert len(found) == 1 and "contains the control character U+" in found[0]


def test_deeply_nested_yaml_is_a_problem_with_its_file_not_a_recursion_error(content):
    entry = content / "entries" / "tiny-warning.md"
    edit(entry, "tags: [", "aliases: " + "[" * 5000 + "]" * 5000 + "\ntags: [")
    assert "entries/tiny-warning.md:1: YAML is nested too deeply to read" in " ".join(problems_of(content))


def test_a_symlinked_entry_is_refused_so_outside_files_are_never_published(content, tmp_path):
    outside = tmp_path / "secret.md"
    shutil.copy(content / "entries" / "tiny-warning.md", outside)
    (content / "entries" / "tiny-warning.md").unlink()
    (content / "entries" / "tiny-warning.md").symlink_to(outside)
    assert any(p.startswith("entries/tiny-warning.md:1: is a symbolic link") for p in problems_of(content))


def test_a_file_with_old_mac_line_endings_loads(content):
    entry = content / "entries" / "tiny-warning.md"
    entry.write_bytes(entry.read_bytes().replace(b"\n", b"\r"))
    assert "entries/tiny-warning/index.html" in build_site(Project.at(content)).files


def test_names_in_scripts_without_latin_letters_get_distinct_stable_addresses():
    assert urls.slugify("深度学习") != urls.slugify("分布式训练")
    assert urls.slugify("深度学习") == urls.slugify("深度学习").lower()
    assert urls.slugify("深度学习").startswith("u-") and urls.slugify("") == "x"


def test_new_asks_for_a_slug_when_the_title_has_none_and_shortens_long_titles(content):
    cjk = run("new", "显存不足", "--entries", str(content / "entries"))
    assert cjk.returncode == 2 and "pass --slug" in cjk.stderr
    long = run("new", "word " * 200, "--entries", str(content / "entries"))
    assert long.returncode == 0, long.stderr
    written = [p for p in (content / "entries").iterdir() if p.name.startswith("word-")]
    assert len(written) == 1 and len(written[0].stem) <= 80


def test_a_mistyped_command_is_named_with_a_suggestion():
    result = run("buidl")
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: unknown command `buidl`; did you mean `build`?")


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_serve_refuses_an_impossible_port(port):
    result = run("serve", "--port", port)
    assert result.returncode == 2 and "argument --port" in result.stderr and "Traceback" not in result.stderr


def test_check_refuses_devices_and_named_pipes_without_hanging(tmp_path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        result = run("check", path, timeout=20)
        assert result.returncode == 2 and "is not a regular file" in result.stderr


def test_diagnose_refuses_an_index_that_is_not_one(tmp_path):
    (tmp_path / "details.json").write_text('{"version": 2, "entries": {}, "categories": {}}')
    for text in ('{"x": 1}', "[]", '{"entries": [{"slug": 1}]}', "not json"):
        (tmp_path / "index.json").write_text(text)
        result = run("diagnose", "--index", str(tmp_path / "index.json"), stdin="boom\n")
        assert result.returncode == 2, text
        assert "is not a search index built by this tool" in result.stderr and "Traceback" not in result.stderr


def test_diagnose_into_a_closed_pipe_ends_quietly():
    # The reader is gone before diagnose writes a byte (as `| head -1` is, once output is long).
    log = "RuntimeError: CUDA error: an illegal memory access was encountered\n" * 2000
    proc = subprocess.Popen([sys.executable, "build.py", "diagnose", "-"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    proc.stdin.write(log)
    proc.stdin.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) in (0, 1), err
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_an_unwritable_output_folder_is_a_message(content, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    result = run("build", "--entries", str(content / "entries"), "--out", str(locked / "site"))
    assert result.returncode == 2 and "cannot write the site" in result.stderr


def test_an_unexpected_error_exits_3_with_a_message_not_a_traceback(monkeypatch, capsys):
    from encyclopedia import cli

    def broken(root, args):
        raise ZeroDivisionError("boom")
    monkeypatch.setattr(cli, "cmd_check", broken)
    assert main(["check"], root=ROOT) == 3
    err = capsys.readouterr().err
    assert err.startswith("internal error: ZeroDivisionError: boom") and "Traceback" not in err
