"""The theme: the Jinja environment over templates/, and the static files under assets/."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from .markup import pygments_css


def environment(templates_dir: Path) -> Environment:
    """One environment per build, shared by the HTML pages and the feeds."""
    return Environment(
        loader=FileSystemLoader(str(templates_dir)),
        # HTML and XML (feed, sitemap) escaped; robots.txt is plain text.
        autoescape=select_autoescape(["html", "xml"], disabled_extensions=["txt"],
                                     default_for_string=True, default=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # one build, one Environment: no need to stat a template on every page
    )


def asset_files(assets_dir: Path) -> dict[str, bytes]:
    """assets/ as it is, plus the highlighting styles generated from Pygments."""
    files = {"assets/pygments.css": pygments_css().encode()}
    for asset in sorted(p for p in assets_dir.rglob("*") if p.is_file()):
        files["assets/" + asset.relative_to(assets_dir).as_posix()] = asset.read_bytes()
    return files
