"""A normal install works anywhere: the wheel carries the templates and assets, and the
`ml-failures` command finds the content root from the current folder or from --root."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "site"


def test_the_wheel_installed_in_a_fresh_venv_builds_a_site_from_another_folder(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(wheels.glob("*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-c", str(ROOT / "requirements" / "constraints.txt"), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    command = venv / "bin" / "ml-failures"
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)

    inside = subprocess.run([str(command), "build"], cwd=content / "entries", capture_output=True, text=True, timeout=120)
    assert inside.returncode == 0, inside.stderr
    site = content / "site"
    assert (site / "entries" / "widget-overflow" / "index.html").is_file()
    assert (site / "assets" / "diagnose.js").read_bytes() == (ROOT / "assets" / "diagnose.js").read_bytes()

    elsewhere = subprocess.run([str(command), "--root", str(content), "check"], cwd=tmp_path, capture_output=True,
                               text=True, timeout=120)
    assert elsewhere.returncode == 0 and elsewhere.stdout.startswith("Checked 3 entries"), elsewhere.stderr

    nowhere = subprocess.run([str(command), "build"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert nowhere.returncode == 2 and "no site.yaml in this folder" in nowhere.stderr
