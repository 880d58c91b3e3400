"""The site configuration (site.yaml): title, addresses and the list of categories."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .problems import BuildError, Problem, did_you_mean
from .schema import SLUG_PATTERN, URL_PATTERN
from .urls import slugify

REQUIRED_KEYS = ("title", "description", "base_url", "repository", "branch", "categories")


@dataclass(frozen=True)
class Config:
    title: str
    description: str
    base_url: str
    repository: str
    branch: str
    categories: tuple[tuple[str, str], ...]  # (key, one-line description), in display order

    @property
    def category_keys(self) -> list[str]:
        return [key for key, _ in self.categories]

    def category_description(self, key: str) -> str:
        return dict(self.categories)[key]

    def with_base_url(self, base_url: str) -> Config:
        return Config(self.title, self.description, normalize_base_url(base_url),
                      self.repository, self.branch, self.categories)


def normalize_base_url(url: str) -> str:
    return url if url.endswith("/") else url + "/"


def url_problem(url: str) -> str | None:
    """Why `url` cannot be the site's address (it is written into HTML, XML, robots.txt and
    links), or None. Quotes, angle brackets, spaces and control characters are refused."""
    if not re.match(URL_PATTERN, url) or re.search(r'["<>\\^`{|}]', url):
        return (f"must be an http(s) address with a host and no quotes, spaces or brackets, "
                f"got {url!r}")
    return None


def load_config(path: Path, shown: str | None = None) -> Config:
    """Read site.yaml; every problem in it is raised at once as a BuildError."""
    shown = shown or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BuildError([Problem(shown, 1, f"cannot read the site configuration: {exc.strerror}")]) from exc
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        raise BuildError([Problem(shown, line, f"YAML syntax error: {exc.problem}")]) from exc
    if not isinstance(data, dict):
        raise BuildError([Problem(shown, 1, "the site configuration must be a mapping of keys")])
    problems = []
    for key in data:
        if key not in REQUIRED_KEYS:
            problems.append(Problem(shown, 1, f"unknown key `{key}`{did_you_mean(key, REQUIRED_KEYS)}"))
    for key in REQUIRED_KEYS:
        if key not in data:
            problems.append(Problem(shown, 1, f"missing key `{key}`"))
        elif key != "categories" and not (isinstance(data[key], str) and data[key].strip()):
            problems.append(Problem(shown, 1, f"`{key}` must be a non-empty string"))
    cats = data.get("categories")
    if "categories" in data and not (
        isinstance(cats, dict) and cats
        and all(isinstance(k, str) and isinstance(v, str) for k, v in cats.items())
    ):
        problems.append(Problem(shown, 1, "`categories` must map each category key to a one-line description"))
    if problems:
        raise BuildError(problems)
    for key in ("base_url", "repository"):
        why = url_problem(data[key].strip())
        if why:
            problems.append(Problem(shown, 1, f"`{key}` {why}"))
    for key in cats:
        if not re.match(SLUG_PATTERN, key):
            problems.append(Problem(shown, 1, f"category key {key!r} must be lowercase kebab-case "
                                              "(letters, digits, single hyphens): it becomes the page "
                                              f"address categories/<key>/; write `{slugify(key)}`"))
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", data["branch"].strip()) or ".." in data["branch"]:
        problems.append(Problem(shown, 1, f"`branch` must be a branch name, got {data['branch']!r}"))
    if problems:
        raise BuildError(problems)
    base = data["base_url"].strip()
    return Config(
        title=data["title"].strip(),
        description=" ".join(data["description"].split()),
        base_url=normalize_base_url(base),
        repository=data["repository"].strip().rstrip("/"),
        branch=data["branch"].strip(),
        categories=tuple((k, v.strip()) for k, v in cats.items()),
    )
