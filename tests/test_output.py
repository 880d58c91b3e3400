"""The output folder: which folders a build may replace, the marker it leaves, the atomic swap and
the clean-up of temporary folders left by killed builds."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from encyclopedia import output
from encyclopedia.output import MARKER, OutputRefused, check_output_dir

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURE = HERE / "fixtures" / "site"


def build(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "build", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture()
def project(tmp_path):
    """A project folder with entries, a bystander file beside it and an unrelated folder."""
    proj = tmp_path / "proj"
    shutil.copytree(FIXTURE / "entries", proj / "entries")
    (tmp_path / "bystander.txt").write_text("keep me")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("keep me too")
    return proj


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("target, why", [
    ("{entries}", "would replace"),
    ("{entries}/sub", "is inside"),
    ("{proj}/..", "would replace"),
    ("{tmp}/bystander.txt", "is a file, not a folder"),
    ("{tmp}/notes", "is not empty and was not written by this tool"),
])
def test_build_refuses_an_output_folder_it_must_not_replace_in_one_line_with_exit_2(project, tmp_path, target, why):
    before = snapshot(tmp_path)
    out = target.format(entries=project / "entries", proj=project, tmp=tmp_path)
    result = build("--entries", str(project / "entries"), "--out", out)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and why in result.stderr, result.stderr
    assert snapshot(tmp_path) == before


def test_build_refuses_the_repository_root_and_its_git_folder_even_with_force():
    for out in (".", "..", ".git", "encyclopedia", "templates"):
        result = build("--out", out, "--force")
        assert result.returncode == 2, out
        assert result.stderr.startswith(f"error: --out {out} ")
    assert (ROOT / ".git").exists() and (ROOT / "encyclopedia" / "cli.py").is_file()


def test_force_replaces_a_foreign_folder_and_the_site_then_carries_the_marker(project, tmp_path):
    result = build("--entries", str(project / "entries"), "--out", str(tmp_path / "notes"), "--force")
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "notes" / "todo.txt").exists()
    assert (tmp_path / "notes" / MARKER).is_file()
    again = build("--entries", str(project / "entries"), "--out", str(tmp_path / "notes"))
    assert again.returncode == 0, again.stderr


def test_an_empty_or_new_folder_is_accepted(tmp_path):
    (tmp_path / "empty").mkdir()
    check_output_dir(tmp_path / "empty", [tmp_path / "proj"])
    check_output_dir(tmp_path / "new" / "site", [tmp_path / "proj"])
    (tmp_path / "empty" / "x").write_text("x")
    with pytest.raises(OutputRefused):
        check_output_dir(tmp_path / "empty", [tmp_path / "proj"])


def test_the_swap_exchanges_folders_and_leaves_no_temporary_folder(tmp_path):
    out = tmp_path / "site"
    output.write_site({"index.html": b"one"}, out)
    inode = out.stat().st_ino
    output.write_site({"index.html": b"two"}, out)
    assert (out / "index.html").read_bytes() == b"two"
    assert out.stat().st_ino != inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_temporary_folders_of_killed_builds_are_removed_and_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    for name in (f".site-new-{dead}-abc", f".site-old-{dead}-def", f".site-new-{os.getpid()}-live",
                 ".site-new-notapid", ".other-new-1-x"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "page.html").write_text("x")
    output.write_site({"index.html": b"x"}, tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".other-new-1-x", f".site-new-{os.getpid()}-live", ".site-new-notapid", "site"]


def test_a_build_killed_at_any_point_leaves_a_whole_site_and_the_next_one_cleans_up(project, tmp_path):
    """Kill builds at many moments; after each, site/ is a complete earlier or later site."""
    out = tmp_path / "site"
    assert build("--entries", str(project / "entries"), "--out", str(out)).returncode == 0
    whole = snapshot(out)
    code = ("import sys; sys.argv = ['build.py', 'build', '--entries', %r, '--out', %r]; "  # noqa: UP031
            "sys.path.insert(0, %r); from encyclopedia.cli import main; main(root=__import__('pathlib').Path(%r))"
            % (str(project / "entries"), str(out), str(ROOT), str(ROOT)))
    import time
    for delay in [0.05 * i for i in range(1, 16)]:
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.kill()
        proc.wait()
        assert snapshot(out) == whole, f"site changed or broke when killed after {delay:.2f}s"
    assert build("--entries", str(project / "entries"), "--out", str(out)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bystander.txt", "notes", "proj", "site"]
