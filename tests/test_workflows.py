"""The GitHub files in .github/: workflows, issue forms and the pull request template.

GitHub only reports a broken workflow once it runs, so these tests check what could silently break:
the commands the workflows run against the README and the CLI, the issue form that entry pages link
to, and that every action is pinned to a version tag.
"""

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GITHUB = ROOT / ".github"
WORKFLOWS = GITHUB / "workflows"
YAML_FILES = sorted(p for p in GITHUB.rglob("*") if p.suffix in (".yml", ".yaml"))

# owner/repo[/path]@v4, @v4.1 or @v4.1.2
PINNED_RE = re.compile(r"^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@v\d+(?:\.\d+){0,2}$")


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    """The `on:` mapping. YAML 1.1 reads the bare key `on` as the boolean True."""
    on = workflow.get(True, workflow.get("on"))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return {name: None for name in on}
    return on or {}


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def run_lines(workflow: dict) -> list[str]:
    return [line.strip() for step in steps(workflow) for line in str(step.get("run", "")).splitlines()]


def index_of(lines: list[str], pattern: str) -> int:
    return next(i for i, line in enumerate(lines) if re.search(pattern, line))


@pytest.fixture(scope="module")
def pr():
    return load(WORKFLOWS / "pr.yml")


@pytest.fixture(scope="module")
def deploy():
    return load(WORKFLOWS / "deploy.yml")


SETUP = "bash scripts/setup.sh test"


def test_the_readme_opens_with_the_serve_and_test_scripts_which_share_the_setup():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    assert [line.split()[:2] for line in block.splitlines()] == [["bash", "scripts/serve.sh"],
                                                                   ["bash", "scripts/test.sh"]]
    for script in ("serve.sh", "test.sh", "setup.sh"):
        assert "ensure_env" in (ROOT / "scripts" / script).read_text()


def test_the_github_folder_holds_the_expected_files():
    expected = {
        "workflows/pr.yml", "workflows/deploy.yml", "pull_request_template.md",
        "ISSUE_TEMPLATE/entry-problem.yml", "ISSUE_TEMPLATE/missing-failure.yml",
        "ISSUE_TEMPLATE/config.yml",
    }
    present = {p.relative_to(GITHUB).as_posix() for p in GITHUB.rglob("*") if p.is_file()}
    assert expected <= present


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.relative_to(GITHUB).as_posix())
def test_every_yaml_file_in_the_github_folder_parses_to_a_mapping(path):
    assert isinstance(load(path), dict)


@pytest.mark.parametrize("path", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_every_workflow_has_triggers_and_jobs_with_steps(path):
    workflow = load(path)
    assert triggers(workflow), f"{path.name} has no `on:` triggers"
    assert workflow.get("jobs")
    for name, job in workflow["jobs"].items():
        assert job.get("runs-on"), f"job {name} has no runs-on"
        assert job.get("steps"), f"job {name} has no steps"


@pytest.mark.parametrize("path", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_version_tag(path):
    workflow = load(path)
    uses = [step["uses"] for step in steps(workflow) if "uses" in step]
    uses += [job["uses"] for job in workflow["jobs"].values() if "uses" in job]
    assert uses
    unpinned = [u for u in uses if not PINNED_RE.match(u)]
    assert not unpinned, f"not pinned to a version tag: {unpinned}"


def test_the_pr_workflow_runs_on_pull_requests_and_pushes_to_main(pr):
    on = triggers(pr)
    assert "pull_request" in on
    assert "main" in on["push"]["branches"]


def test_the_pr_workflow_installs_the_project_as_the_readme_commands_do(pr):
    assert SETUP in run_lines(pr)


def test_the_pr_workflow_checks_entries_with_github_annotations(pr):
    assert ".venv/bin/python build.py check --format github" in run_lines(pr)


def test_the_pr_workflow_runs_the_tests_through_the_test_script(pr):
    assert "bash scripts/test.sh" in run_lines(pr)
    assert (ROOT / "scripts" / "test.sh").is_file()


def test_the_pr_workflow_installs_chromium_before_the_tests(pr):
    lines = run_lines(pr)
    assert index_of(lines, r"apt-get install -y chromium") < index_of(lines, r"scripts/test\.sh")


def test_the_pr_workflow_installs_before_checking_and_builds_the_site_last(pr):
    lines = run_lines(pr)
    install = lines.index(SETUP)
    check = index_of(lines, r"build\.py check")
    build = index_of(lines, r"build\.py build")
    assert install < check < build
    assert build == len(lines) - 1


def test_the_pr_workflow_sets_up_the_python_and_node_versions_the_readme_needs(pr):
    with_by_action = {s["uses"].split("@")[0]: s.get("with", {}) for s in steps(pr) if "uses" in s}
    assert str(with_by_action["actions/setup-python"]["python-version"]) == "3.11"
    assert str(with_by_action["actions/setup-node"]["node-version"]) == "20"


def test_the_workflows_only_use_commands_the_cli_has(pr, deploy):
    from encyclopedia.cli import COMMANDS
    for line in run_lines(pr) + run_lines(deploy):
        match = re.search(r"build\.py (\S+)", line)
        if match:
            assert match.group(1) in COMMANDS, line


def test_the_deploy_workflow_runs_on_pushes_to_main_and_by_hand(deploy):
    on = triggers(deploy)
    assert "main" in on["push"]["branches"]
    assert "workflow_dispatch" in on


def test_the_deploy_workflow_builds_with_the_pages_base_url(deploy):
    all_steps = steps(deploy)
    pages = next(i for i, s in enumerate(all_steps) if s.get("uses", "").startswith("actions/configure-pages@"))
    assert all_steps[pages].get("id") == "pages"
    build = next(i for i, s in enumerate(all_steps) if "build.py build" in str(s.get("run", "")))
    assert pages < build
    assert '--base-url "${{ steps.pages.outputs.base_url }}/"' in all_steps[build]["run"]


def test_the_deploy_workflow_uploads_the_site_folder(deploy):
    upload = next(s for s in steps(deploy) if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    build = next(s["run"] for s in steps(deploy) if "build.py build" in str(s.get("run", "")))
    assert "--out" not in build, "the build must write to site/, the folder that is uploaded"


def test_the_deploy_workflow_deploys_with_pages_permissions_one_at_a_time(deploy):
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in steps(deploy))
    assert deploy["permissions"]["pages"] == "write"
    assert deploy["permissions"]["id-token"] == "write"
    assert deploy["concurrency"]["group"] == "pages"


def form_ids(form: dict) -> dict:
    return {item["id"]: item for item in form["body"] if "id" in item}


def test_the_entry_problem_form_has_an_input_with_id_entry():
    form = load(GITHUB / "ISSUE_TEMPLATE" / "entry-problem.yml")
    assert form_ids(form)["entry"]["type"] == "input"


def test_the_entry_problem_form_offers_the_problem_kinds_and_a_shell_log():
    ids = form_ids(load(GITHUB / "ISSUE_TEMPLATE" / "entry-problem.yml"))
    kinds = next(item for item in ids.values() if item["type"] == "dropdown")["attributes"]["options"]
    assert kinds == ["Wrong fix", "Wrong or outdated error string", "Missing variant", "Broken link", "Other"]
    assert any(item["type"] == "textarea" and item["attributes"].get("render") == "shell" for item in ids.values())


@pytest.mark.parametrize("name", ["entry-problem.yml", "missing-failure.yml"])
def test_every_issue_form_has_a_name_a_description_and_unique_ids(name):
    form = load(GITHUB / "ISSUE_TEMPLATE" / name)
    assert form["name"] and form["description"]
    ids = [item["id"] for item in form["body"] if "id" in item]
    assert len(ids) == len(set(ids))
    for item in form["body"]:
        assert item["type"] in ("markdown", "input", "textarea", "dropdown", "checkboxes")
        assert "label" in item["attributes"] or item["type"] == "markdown"


def test_blank_issues_stay_enabled():
    assert load(GITHUB / "ISSUE_TEMPLATE" / "config.yml")["blank_issues_enabled"] is True


def test_the_report_link_on_entry_pages_fills_in_fields_the_form_has():
    from encyclopedia.site import Project, build_site
    site = build_site(Project.at(ROOT / "tests" / "fixtures" / "site"))
    page = next(content.decode() for path, content in sorted(site.files.items())
                if re.fullmatch(r"entries/[a-z0-9-]+/index\.html", path))
    link = re.search(r'href="([^"]*/issues/new\?[^"]*)"', page).group(1).replace("&amp;", "&")
    query = parse_qs(urlsplit(link).query)
    template = GITHUB / "ISSUE_TEMPLATE" / query.pop("template")[0]
    assert template.is_file()
    query.pop("title", None)
    assert set(query) <= set(form_ids(load(template)))
    assert "entry" in query


def test_the_pull_request_template_lists_the_contributor_checklist():
    text = (GITHUB / "pull_request_template.md").read_text(encoding="utf-8")
    assert "python3 build.py check" in text
    for words in ("signature", "reference", "example", "copied", "updated"):
        assert words in text.lower()
