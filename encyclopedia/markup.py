"""Markdown: rendering entry bodies to HTML with anchors, a table of contents, highlighting and
entry links, and reading the structure (sections, FAQ, code blocks) that other stages check."""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.tasklists import tasklists_plugin
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from .problems import Problem, did_you_mean
from .urls import slugify

ENTRY_LINK_RE = re.compile(r"^(?:\./)?([a-z0-9]+(?:-[a-z0-9]+)*)\.md(#[A-Za-z0-9_\-]*)?$")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class CodeBlock:
    language: str
    code: str
    line: int  # line of the opening fence in the entry file


@dataclass(frozen=True)
class FAQItem:
    question: str
    answer: str  # plain text


@dataclass(frozen=True)
class RenderedBody:
    """What the body renders to, and what the build learned reading it."""

    html: str
    headings: tuple[Heading, ...]
    links: tuple[tuple[str, int], ...]  # (slug, line) of every link to another entry
    code_blocks: tuple[CodeBlock, ...]
    faq: tuple[FAQItem, ...]
    fields: RenderedFields | None = None  # the frontmatter's Markdown text, rendered (render_fields)


@dataclass(frozen=True)
class RenderedFields:
    """The frontmatter values that hold inline Markdown, each parsed once and rendered as the
    pages show it, with the links to other entries found in them."""

    summary: str
    summary_unlinked: str  # for listings, where the whole item is a link already
    fix: str
    checked: str
    causes: tuple[str, ...]
    symptoms: tuple[tuple[str, str], ...]  # (symptom, why)
    links: tuple[tuple[str, int | None, str], ...]  # (field, item index or None, slug)


@functools.lru_cache(maxsize=256)
def _lexer(lang: str):
    """Pygments' lexer for a fence's language (plain text when Pygments does not know it);
    looked up once per language: finding a lexer by name scans Pygments' registry."""
    try:
        return get_lexer_by_name(lang or "text")
    except ClassNotFound:
        return get_lexer_by_name("text")


_FORMATTER = HtmlFormatter(nowrap=True)  # holds only options; building one per block cost a third of highlighting


def _highlight(code: str, lang: str, _attrs) -> str:
    body = pygments_highlight(code, _lexer(lang), _FORMATTER)
    cls = f' class="language-{html.escape(lang)}"' if lang else ""
    # Focusable: a block wider than the page scrolls, and keyboard users scroll it with the arrows.
    return f'<pre class="highlight" tabindex="0"><code{cls}>{body}</code></pre>\n'


def _make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight, "typographer": False})
    md.enable("table")
    md.enable("strikethrough")
    md.use(anchors_plugin, min_level=2, max_level=3, permalink=True, permalinkSymbol="#",
           permalinkSpace=True, slug_func=slugify)
    md.use(tasklists_plugin)
    md.core.ruler.after("github-tasklists", "checklists_as_lists", _drop_checkboxes)
    return md


def _drop_checkboxes(state) -> None:
    """A "How to confirm" checklist is a list a reader works through, not a form: keep the
    plugin's `task-list-item` class (CSS draws the box) and drop its disabled, unlabelled input."""
    for tok in state.tokens:
        if tok.type == "inline" and tok.children and tok.children[0].type == "html_inline" \
                and tok.children[0].content.startswith('<input class="task-list-item-checkbox"'):
            tok.children = tok.children[1:]


_PARSER = _make_parser()


def render_fields(entry) -> RenderedFields:
    """Render the inline Markdown of an entry's summary, fix, checked note, causes and symptoms;
    `slug.md` links point at entry pages (whether those exist is checked with the collection)."""
    links: list[tuple[str, int | None, str]] = []

    def linked(text: str, field: str, index: int | None = None) -> list:
        tokens = _PARSER.parseInline(text)
        for tok in tokens:
            for child in tok.children or []:
                if child.type == "link_open":
                    m = ENTRY_LINK_RE.match(str(child.attrs.get("href", "")))
                    if m:
                        links.append((field, index, m.group(1)))
                        child.attrs["href"] = f"../{m.group(1)}/{m.group(2) or ''}"
        return tokens

    def render(tokens: list) -> str:
        return _PARSER.renderer.render(tokens, _PARSER.options, {})

    summary = linked(entry.summary, "summary")
    summary_html = render(summary)
    for tok in summary:  # the listing's copy: links become their text
        tok.children = [c for c in tok.children or [] if c.type not in ("link_open", "link_close")]
    return RenderedFields(
        summary=summary_html, summary_unlinked=render(summary),
        fix=render(linked(entry.fix, "fix")),
        checked=render(linked(entry.checked, "checked")) if entry.checked else "",
        causes=tuple(render(linked(c, "causes", i)) for i, c in enumerate(entry.causes)),
        symptoms=tuple((render(linked(s.symptom, "symptoms", i)), render(linked(s.why, "symptoms", i)))
                       for i, s in enumerate(entry.symptoms)),
        links=tuple(links))


def plain_text(markdown_text: str) -> str:
    """A frontmatter value without its Markdown (for meta descriptions, feeds and search data)."""
    return _plain(markdown_text)


def render_body(body: str, body_line: int, source_path: str) -> tuple[RenderedBody, list[Problem]]:
    """Render an entry body. Links written `other-slug.md` become links to that entry's page
    (whether that entry exists is checked by `unknown_links`, which needs the whole collection:
    a body renders the same whatever else is there, so a rendered body can be kept and reused)."""
    problems: list[Problem] = []
    tokens = _PARSER.parse(body)
    headings: list[Heading] = []
    links: list[tuple[str, int]] = []
    blocks: list[CodeBlock] = []
    current_line = body_line
    for i, tok in enumerate(tokens):
        if tok.map:
            current_line = body_line + tok.map[0]
        if tok.type == "heading_open":
            inline = tokens[i + 1]
            text = "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))
            headings.append(Heading(int(tok.tag[1]), text.strip(), str(tok.attrs.get("id", ""))))
        elif tok.type == "fence":
            blocks.append(CodeBlock(tok.info.strip().split(" ")[0].lower(), tok.content, current_line))
        elif tok.type == "inline":
            line = current_line
            for child in tok.children or []:
                if child.type in ("softbreak", "hardbreak"):
                    line += 1
                if child.type != "link_open":
                    continue
                href = str(child.attrs.get("href", ""))
                m = ENTRY_LINK_RE.match(href)
                if not m:
                    if href.endswith(".md") and "://" not in href:
                        problems.append(Problem(source_path, line,
                                                f"link to `{href}`: link other entries as `slug.md`"))
                    continue
                slug, fragment = m.group(1), m.group(2) or ""
                links.append((slug, line))
                child.attrs["href"] = f"../{slug}/{fragment}"
    rendered = _PARSER.renderer.render(tokens, _PARSER.options, {})
    return RenderedBody(rendered, tuple(headings), tuple(links), tuple(blocks),
                        _faq(body)), problems


def unknown_links(body: RenderedBody, source_path: str, known_slugs: set[str]) -> list[Problem]:
    """Links in a rendered body to entries that do not exist, at their line, with a suggestion."""
    return [Problem(source_path, line, f"link to unknown entry `{slug}`{did_you_mean(slug, known_slugs)}")
            for slug, line in body.links if slug not in known_slugs]


def _faq(body: str) -> tuple[FAQItem, ...]:
    """Questions (### headings) and answers under a `## FAQ` section, as plain text."""
    items: list[FAQItem] = []
    in_faq = False
    question = None
    answer: list[str] = []
    in_fence = False
    for line in body.splitlines() + ["## end"]:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        if not in_fence and line.startswith("## ") or (not in_fence and line.startswith("### ")):
            if question and "".join(answer).strip():
                items.append(FAQItem(question, _plain(" ".join(answer))))
            question, answer = None, []
            if line.startswith("## "):
                in_faq = line[3:].strip().lower() in ("faq", "frequently asked questions")
            elif in_faq:
                question = _plain(line[4:])
            continue
        if in_faq and question is not None:
            answer.append(line.strip())
    return tuple(items)


def _plain(markdown_text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown_text)
    text = text.replace("`", "").replace("**", "").replace("*", "")
    return " ".join(text.split())


def pygments_css() -> str:
    """Highlighting styles for light and dark colour schemes, scoped to .highlight: Pygments'
    "default" and "monokai", whose token colours all reach WCAG AA contrast on their own
    backgrounds ("friendly", used before, has comments at 2.6:1 and numbers at 2.8:1)."""
    light = HtmlFormatter(style="default").get_style_defs(".highlight")
    dark = HtmlFormatter(style="monokai").get_style_defs(".highlight")
    dark = "\n".join("  " + line for line in dark.splitlines())
    return (f"/* Generated by Pygments at build time. */\n{light}\n"
            f"@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n")
