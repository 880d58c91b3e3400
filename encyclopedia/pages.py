"""The HTML pages: entry pages, listings, the search page and the 404 page, rendered into memory
as {output path: bytes}. Feeds, the search index, the schema and assets are made elsewhere
(feeds.py, search_index.py, schema.py, theme.py)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from jinja2 import Environment
from markupsafe import Markup

from . import markup, urls
from .config import Config
from .linking import Links
from .loading import Entry
from .markup import RenderedBody
from .search_index import DETAILS_URL, INDEX_URL
from .taxonomy import Taxonomies, Term, category_name

RECENT_LIMIT = 10
# What only an entry's own page shows. Every other output (listings, other entries' related
# lists, feeds) is rendered from `outward(entry)`, with these left out, so an edit to them
# changes that one page and nothing else, whatever the templates do (incremental.py counts on it).
PAGE_ONLY = {"body": "", "body_line": 0, "checked": "", "causes": (), "symptoms": (), "references": (),
             "field_lines": (), "item_lines": ()}
ROLE_LABELS = {"consequence": "Usually a consequence", "warning": "Warning, not a failure"}


@dataclass(frozen=True)
class SiteData:
    """Everything the pages are made from."""

    config: Config
    entries: tuple[Entry, ...]  # sorted by slug
    bodies: dict  # slug -> RenderedBody
    links: dict  # slug -> Links
    taxonomies: Taxonomies


def outward(entry: Entry) -> Entry:
    """The entry as pages other than its own see it (see PAGE_ONLY)."""
    return dataclasses.replace(entry, **PAGE_ONLY)


def outward_digest(entry: Entry, body: RenderedBody) -> str:
    """A digest of everything of an entry that outputs other than its own page read: its outward
    view, the entries its body links to (backlinks and related lists), its rendered summary and
    fix. While it is unchanged, an edit to the entry changes its own page and nothing else."""
    fields = body.fields
    seen = (outward(entry), sorted({slug for slug, _ in body.links}), fields.summary, fields.summary_unlinked,
            fields.fix)
    return hashlib.sha256(repr(seen).encode()).hexdigest()


class PageRenderer:
    def __init__(self, env: Environment, data: SiteData):
        self.data = data
        self.env = env
        self.env.filters["jsonld"] = _jsonld
        self.outward = tuple(outward(e) for e in data.entries)  # what listings and related lists show
        self.by_slug = {e.slug: e for e in self.outward}

    # -- helpers -------------------------------------------------------------------------------
    def _render(self, template: str, url: str, **context) -> bytes:
        cfg = self.data.config
        # The 404 page is served at any address, so only absolute paths work from it.
        root = urls.base_path(cfg.base_url) if url == "404.html" else urls.path_to_root(url)

        def link(target: str) -> str:
            return root + target

        html = self.env.get_template(template).render(
            site=cfg, page_url=url, link=link, root=root,
            canonical=urls.absolute(cfg.base_url, url if url != "404.html" else ""),
            category_name=category_name, severity_label=_severity_label,
            role_labels=ROLE_LABELS, system_url=urls.system_url,
            index_url=INDEX_URL, details_url=DETAILS_URL,
            summary_md=lambda e: Markup(self.data.bodies[e.slug].fields.summary_unlinked),
            plain_text=markup.plain_text, **context)
        return html.encode("utf-8")

    # -- pages ---------------------------------------------------------------------------------
    def entry_pages(self, map_in_order=None) -> dict[str, bytes]:
        """One page per entry. `map_in_order(function, n)`, if given, returns [function(i) for i
        in range(n)], computed however it likes (the build spreads the pages over processes)."""
        entries = self.data.entries
        mapper = map_in_order or (lambda function, n: [function(i) for i in range(n)])
        pages = mapper(lambda i: self.render_entry(entries[i]), len(entries))
        return {urls.output_path(urls.entry_url(e.slug)): page for e, page in zip(entries, pages, strict=True)}

    def listing_pages(self) -> dict[str, bytes]:
        """The home page, the A-Z list, the tag, category and system indexes and their pages, the
        search page and the 404 page."""
        d, entries = self.data, self.outward
        files: dict[str, bytes] = {}
        recent = sorted(entries, key=lambda e: (-e.updated.toordinal(), e.slug))[:RECENT_LIMIT]
        files["index.html"] = self._render("home.html", "", recent=recent,
                                           categories=d.taxonomies.categories, count=len(entries))
        all_url = "entries/"
        files[urls.output_path(all_url)] = self._render(
            "listing.html", all_url, heading="All entries", description=f"{len(entries)} failures, A to Z.",
            items=sorted(entries, key=lambda e: (e.title.lower(), e.slug)), breadcrumbs=[])
        for kind, terms, heading, index_url in (
            ("tag", d.taxonomies.tags, "Tags", "tags/"),
            ("category", d.taxonomies.categories, "Categories", "categories/"),
            ("system", d.taxonomies.systems, "Systems", "systems/"),
        ):
            files[urls.output_path(index_url)] = self._render("terms.html", index_url, heading=heading,
                                                              kind=kind, terms=terms)
            for term in terms:
                files[urls.output_path(term.url)] = self.render_term(term, heading, index_url)
        files["search/index.html"] = self._render("search.html", "search/")
        files["404.html"] = self._render("404.html", "404.html")
        return files

    def render_entry(self, e: Entry) -> bytes:
        d = self.data
        body: RenderedBody = d.bodies[e.slug]
        links: Links = d.links[e.slug]
        url = urls.entry_url(e.slug)
        cfg = d.config
        edit_url = f"{cfg.repository}/edit/{cfg.branch}/{quote(e.source_path)}"
        report_url = f"{cfg.repository}/issues/new?" + urlencode({
            "template": "entry-problem.yml", "title": f"[{e.slug}] ", "entry": e.slug})
        toc = [h for h in body.headings if h.level in (2, 3)]
        fields = body.fields
        return self._render(
            "entry.html", url, entry=e, body_html=body.html, toc=toc,
            related=[self.by_slug[s] for s in links.related],
            summary_html=fields.summary, fix_html=fields.fix, checked_html=fields.checked,
            causes_html=list(fields.causes), symptoms_html=list(fields.symptoms),
            edit_url=edit_url, report_url=report_url, jsonld=self.entry_jsonld(e, body))

    def render_term(self, term: Term, heading: str, index_url: str) -> bytes:
        items = [self.by_slug[s] for s in term.slugs]
        label = {"tag": "Tag", "category": "Category", "system": "System"}[term.kind]
        return self._render("listing.html", term.url, heading=f"{label}: {term.name}",
                            description=term.description or f"{len(items)} entr{'y' if len(items) == 1 else 'ies'}.",
                            items=items, breadcrumbs=[(heading, index_url)])

    def entry_jsonld(self, e: Entry, body: RenderedBody) -> list[dict]:
        cfg = self.data.config
        url = urls.absolute(cfg.base_url, urls.entry_url(e.slug))
        graph = [
            {
                "@context": "https://schema.org",
                "@type": "TechArticle",
                "headline": e.title,
                "description": markup.plain_text(e.summary),
                "dateModified": e.updated.isoformat(),
                "url": url,
                "keywords": ", ".join(e.tags),
                "about": list(e.systems),
                "publisher": {"@type": "Organization", "name": cfg.title},
            },
            {
                "@context": "https://schema.org",
                "@type": "BreadcrumbList",
                "itemListElement": [
                    {"@type": "ListItem", "position": 1, "name": cfg.title, "item": cfg.base_url},
                    {"@type": "ListItem", "position": 2, "name": category_name(e.category),
                     "item": urls.absolute(cfg.base_url, urls.category_url(e.category))},
                    {"@type": "ListItem", "position": 3, "name": e.title, "item": url},
                ],
            },
        ]
        if body.faq:
            graph.append({
                "@context": "https://schema.org",
                "@type": "FAQPage",
                "mainEntity": [{"@type": "Question", "name": q.question,
                                "acceptedAnswer": {"@type": "Answer", "text": q.answer}}
                               for q in body.faq],
            })
        return graph


def _severity_label(severity: str) -> str:
    return f"Severity: {severity}"


def _jsonld(value) -> Markup:
    """JSON for a <script type="application/ld+json"> block; `<` is escaped so text cannot end it."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, indent=None)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)
