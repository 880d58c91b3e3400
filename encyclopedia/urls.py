"""The one place that maps pages to site-relative URLs, output paths and links between them."""

from __future__ import annotations

import hashlib
import posixpath
import re
import unicodedata

ENTRY_DIR = "entries"


def slugify(text: str) -> str:
    """A lowercase, hyphenated, ASCII slug for a title, tag or system name. Text with no Latin
    letters or digits (a name in CJK script) gets a short stable hash, so two such names never
    share an address."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    ascii_text = ascii_text.lower().replace("+", "p").replace("#", "sharp")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    if slug:
        return slug
    return "u-" + hashlib.sha1(text.strip().encode("utf-8")).hexdigest()[:8] if text.strip() else "x"


def entry_url(slug: str) -> str:
    return f"{ENTRY_DIR}/{slug}/"


def tag_url(tag: str) -> str:
    return f"tags/{tag}/"


def category_url(category: str) -> str:
    return f"categories/{category}/"


def system_url(system: str) -> str:
    return f"systems/{slugify(system)}/"


def output_path(url: str) -> str:
    """Where a site-relative URL is written under the output folder."""
    if url == "" or url.endswith("/"):
        return url + "index.html"
    return url


def path_to_root(page_url: str) -> str:
    """The relative prefix that leads from a page back to the site root ("./", "../../"), so
    links work under any base path or host, and from files opened directly."""
    page_dir = page_url if page_url.endswith("/") or page_url == "" else posixpath.dirname(page_url) + "/"
    return "../" * page_dir.count("/") or "./"


def absolute(base_url: str, url: str) -> str:
    """The full address of a site-relative URL, for canonical links, feeds and sitemaps."""
    return base_url.rstrip("/") + "/" + url


def base_path(base_url: str) -> str:
    """The path part of the base URL ("/" or "/encyclopedia/"), for pages served at any depth."""
    rest = base_url.split("://", 1)[-1]
    path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return path if path.endswith("/") else path + "/"
