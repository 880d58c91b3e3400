"""Property-based tests (Hypothesis): whatever a contributor writes in frontmatter, a body or the
site configuration, the build either succeeds or reports `path:line: message` problems; it
never raises anything else and never writes outside its output."""

import re
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encyclopedia.output import OutputRefused, check_output_dir
from encyclopedia.problems import BuildError
from encyclopedia.schema import FIELDS
from encyclopedia.site import Project, build_site

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site"
ENTRY = FIXTURE / "entries" / "tiny-warning.md"
PROBLEM_RE = re.compile(r"^(site\.yaml|entries/[^:]+\.md):[1-9][0-9]*: \S")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40) | st.dates()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


def build_outcome(content: Path) -> list[str]:
    """The problems a build reports ([] when it succeeds); fails the test on anything else."""
    try:
        build_site(Project.at(content))
    except BuildError as exc:
        found = [p.format() for p in exc.problems]
        assert found and all(PROBLEM_RE.match(p) for p in found), found
        return found
    return []


def with_content(change) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(FIXTURE, content)
        change(content)
        return build_outcome(content)


def split(text: str):
    _, fm, body = text.split("---\n", 2)
    return yaml.safe_load(fm), body


@SETTINGS
@given(field=st.sampled_from([f.name for f in FIELDS] + ["unknown_field"]), value=values)
def test_any_value_in_any_field_builds_or_is_reported(field, value):
    def change(content):
        meta, body = split(ENTRY.read_text())
        meta[field] = value
        fm = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
        (content / "entries" / "tiny-warning.md").write_text(f"---\n{fm}---\n{body}", encoding="utf-8")
    with_content(change)


@SETTINGS
@given(body=st.text(max_size=400))
def test_any_markdown_body_builds_or_is_reported(body):
    def change(content):
        head = ENTRY.read_text().split("---\n", 2)
        (content / "entries" / "tiny-warning.md").write_text(f"---\n{head[1]}---\n{body}", encoding="utf-8")
    with_content(change)


@SETTINGS
@given(key=st.sampled_from(["title", "description", "base_url", "repository", "branch", "categories", "other"]),
       value=values | st.dictionaries(st.text(max_size=12), st.text(max_size=12), max_size=3))
def test_any_configuration_value_builds_or_is_reported(key, value):
    def change(content):
        config = yaml.safe_load((FIXTURE / "site.yaml").read_text())
        config[key] = value
        (content / "site.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    with_content(change)


@SETTINGS
@given(parts=st.lists(st.sampled_from(["..", ".", "entries", "site", "x", "", "/", "proj"]), max_size=5))
def test_an_output_path_is_either_refused_or_outside_everything_protected(parts):
    with tempfile.TemporaryDirectory() as tmp:
        proj = Path(tmp) / "a" / "proj"
        (proj / "entries").mkdir(parents=True)
        out = proj.joinpath(*parts) if parts else proj
        protected = [proj, proj / "entries"]
        try:
            check_output_dir(out, protected, force=True)
        except OutputRefused:
            return
        target = out.resolve()
        for guarded in protected:
            assert target != guarded and not guarded.is_relative_to(target)
        assert not target.is_relative_to(proj / "entries")
