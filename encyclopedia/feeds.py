"""What machines read, rendered from templates: sitemap.xml, robots.txt and feed.xml. Every
address in them is absolute, since they are read from anywhere."""

from __future__ import annotations

from jinja2 import Environment

from . import markup, urls
from .config import Config
from .loading import Entry

CONTENT_LICENSE = ("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/")
FEED_LIMIT = 50


def feed_files(env: Environment, config: Config, entries: tuple[Entry, ...],
               page_paths: list[str]) -> dict[str, bytes]:
    """The three files; `page_paths` are the site's output paths, of which the sitemap lists the
    pages (`.../index.html`), entries with their dates."""
    def render(template: str, **context) -> bytes:
        return env.get_template(template).render(
            site=config, absolute=lambda url: urls.absolute(config.base_url, url), **context).encode("utf-8")

    dates = {urls.output_path(urls.entry_url(e.slug)): e.updated.isoformat() for e in entries}
    pages = [(path[: -len("index.html")], dates.get(path))
             for path in sorted(p for p in page_paths if p.endswith("index.html"))]
    newest = sorted(entries, key=lambda e: (-e.updated.toordinal(), e.slug))[:FEED_LIMIT]
    updated = newest[0].updated.isoformat() if newest else "1970-01-01"
    return {
        "sitemap.xml": render("sitemap.xml", pages=pages),
        "robots.txt": render("robots.txt"),
        "feed.xml": render("feed.xml", entries=newest, updated=updated, license=CONTENT_LICENSE,
                           entry_url=urls.entry_url, plain_text=markup.plain_text),
    }
