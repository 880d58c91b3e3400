"""Loading entries: reading files, parsing frontmatter and validating it against the schema."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import frontmatter
import yaml

from .config import Config
from .problems import Problem, did_you_mean
from .schema import FIELDS, FIELDS_BY_NAME, SLUG_PATTERN, URL_PATTERN, Field
from .urls import slugify

SLUG_RE = re.compile(SLUG_PATTERN)
MAX_ENTRY_BYTES = 2_000_000
# Characters no page, feed or JSON file may carry: C0 controls but tab and line breaks, DEL, lone
# surrogates (YAML's "\ud800" escape) and the non-characters XML forbids.
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
URL_RE = re.compile(URL_PATTERN)


@dataclass(frozen=True)
class Signature:
    text: str
    variant: str = ""
    source: str = ""  # evidence URL; `check` requires one


@dataclass(frozen=True)
class Symptom:
    symptom: str
    why: str


@dataclass(frozen=True)
class Reference:
    title: str
    url: str


@dataclass(frozen=True)
class Entry:
    """What one entry file says, validated. Nothing computed from other entries lives here."""

    slug: str
    source_path: str
    title: str
    category: str
    severity: str
    role: str
    tags: tuple[str, ...]
    systems: tuple[str, ...]
    summary: str
    signatures: tuple[Signature, ...]
    aliases: tuple[str, ...]
    symptoms: tuple[Symptom, ...]
    causes: tuple[str, ...]
    fix: str
    related: tuple[str, ...]
    references: tuple[Reference, ...]
    examples: tuple[str, ...]
    checked: str
    updated: dt.date
    body: str
    body_line: int  # line number of the first body line in the file
    field_lines: tuple[tuple[str, int], ...]  # (field, line of its key)
    item_lines: tuple[tuple[str, tuple[int, ...]], ...]  # (field, line of each list item)

    def line_of(self, field: str, index: int | None = None) -> int:
        if index is not None:
            items = dict(self.item_lines).get(field, ())
            if index < len(items):
                return items[index]
        return dict(self.field_lines).get(field, 1)


def find_entry_files(entries_dir: Path) -> list[Path]:
    """Every entry file under entries_dir, in a stable order."""
    return sorted(p for p in entries_dir.rglob("*.md") if p.is_file())


def display_path(path: Path, root: Path | None) -> str:
    """The path as problems show it: relative to the project root where possible."""
    return display_paths([path], root)[0]


def display_paths(paths: list[Path], root: Path | None) -> list[str]:
    """display_path of many files, resolving each folder and the root once (a collection's files
    share one folder, and resolving is most of the cost of a build with nothing to do)."""
    base = (root or Path.cwd()).resolve()
    folders: dict[Path, Path] = {}
    out = []
    for path in paths:
        parent = path.absolute().parent
        if parent not in folders:
            folders[parent] = parent.resolve()
        try:  # the folder resolved, not the file: a symbolic link is shown where it is, not where it points
            out.append((folders[parent] / path.name).relative_to(base).as_posix())
        except ValueError:
            out.append(path.as_posix())
    return out


def load_entries(paths: list[Path], config: Config, root: Path | None = None
                 ) -> tuple[list[Entry], list[Problem]]:
    """Load and validate every file; returns the valid entries and every problem found.

    Collection-wide rules (duplicate slugs, tag and system spellings that collide) are checked
    here too; rules that need rendered bodies (links) are checked by later stages.
    """
    entries: list[Entry] = []
    problems: list[Problem] = []
    for path in paths:
        entry, found = load_entry(path, config, display_path(path, root))
        problems.extend(found)
        if entry is not None:
            entries.append(entry)
    problems.extend(check_collection(entries))
    return entries, problems


class _Unreadable(Exception):
    """A file that cannot be read any further; the problem says why."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def load_entry(path: Path, config: Config, shown: str) -> tuple[Entry | None, list[Problem]]:
    """Parse and validate one entry file: read it, split frontmatter from body, compose the
    YAML, check every field, then make the Entry. Every problem in the file is reported, except
    after one that stops reading (an unreadable file, no frontmatter, broken YAML)."""
    problems: list[Problem] = []
    slug = path.stem
    if not SLUG_RE.match(slug):
        problems.append(Problem(shown, 1, f"file name `{path.name}` is not a valid slug: use "
                                          f"lowercase letters, digits and hyphens, e.g. `{slugify(slug)}.md`"))
    try:
        text = _read_text(path, shown)
        fm_text, body, body_line = _split(text, shown)
        mapping = _mapping(fm_text, shown)
    except _Unreadable as stop:
        return None, problems + [stop.problem]
    values, field_lines, item_lines = _field_values(mapping, shown, problems)
    problems += _check_fields(values, field_lines, item_lines, shown, config)
    bad = CONTROL_RE.search(body)
    if bad:
        problems.append(Problem(shown, body_line + body.count("\n", 0, bad.start()),
                                f"the body contains the control character U+{ord(bad.group()):04X}, "
                                "which no page may carry: remove it"))
    if problems:
        return None, problems
    return _entry(slug, shown, values, body, body_line, field_lines, item_lines), []


def _read_text(path: Path, shown: str) -> str:
    """The file's text, with a byte-order mark dropped and line ends made `\\n`."""
    if path.is_symlink():
        raise _Unreadable(Problem(shown, 1, "is a symbolic link: an entry must be a file in the "
                                            "entries folder itself (a link can point anywhere, and "
                                            "its target would be published)"))
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise _Unreadable(Problem(shown, 1, "not a regular file (a pipe, device or folder): "
                                                "entries are Markdown files"))
        if info.st_size > MAX_ENTRY_BYTES:
            raise _Unreadable(Problem(shown, 1, f"file is {info.st_size:,} bytes; an entry is text "
                                                f"of at most {MAX_ENTRY_BYTES:,} bytes"))
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _Unreadable(Problem(shown, line, "file is not valid UTF-8")) from None
    except OSError as exc:
        raise _Unreadable(Problem(shown, 1, f"cannot read file: {exc.strerror}")) from None
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")  # CRLF and old Mac CR


def _split(text: str, shown: str) -> tuple[str, str, int]:
    """The frontmatter's YAML text, the body, and the file line the body starts on."""
    if not text.startswith("---"):
        raise _Unreadable(Problem(shown, 1, "missing frontmatter: the file must start with a `---` "
                                            "line, then the YAML fields, then another `---` line"))
    try:
        fm_text, body = frontmatter.YAMLHandler().split(text)
    except ValueError:
        raise _Unreadable(Problem(shown, 1, "frontmatter is not closed: did you forget the `---` "
                                            "line after the last field?")) from None
    # python-frontmatter's split drops the delimiters: the YAML text starts right after the
    # opening `---` (so YAML line 0 is file line 1) and the body right after the closing one.
    body_line = text.count("\n", 0, len(text) - len(body)) + 1
    while body.startswith("\n"):
        body = body[1:]
        body_line += 1
    return fm_text, body, body_line


FM_START_LINE = 1  # the file line of the frontmatter's first YAML line


def _mapping(fm_text: str, shown: str):
    """The frontmatter's mapping node and its value, as (node, data)."""
    try:
        node, data = _compose(fm_text)
    except RecursionError:
        raise _Unreadable(Problem(shown, 1, "YAML is nested too deeply to read: frontmatter "
                                            "fields are flat values and short lists")) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = FM_START_LINE + (mark.line if mark else 0)
        what = exc.problem or "invalid YAML"
        ctx = f" ({exc.context})" if exc.context else ""
        if exc.context and exc.context_mark and mark and exc.context_mark.line != mark.line:
            ctx = f" ({exc.context} that starts at line {FM_START_LINE + exc.context_mark.line})"
        raise _Unreadable(Problem(shown, line, f"YAML syntax error: {what}{ctx}")) from None
    if node is None or not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        got = _describe(data) if node is not None else "nothing"
        raise _Unreadable(Problem(shown, 2, f"frontmatter must be a mapping of fields "
                                            f"(`title: ...` lines), got {got}"))
    return node, data


def _field_values(mapping, shown: str, problems: list[Problem]):
    """Each known field's value, the line of every field and of every list item; duplicate and
    unknown fields are added to `problems`."""
    node, data = mapping
    field_lines: dict[str, int] = {}
    item_lines: dict[str, tuple[int, ...]] = {}
    values: dict[str, object] = {}
    for key_node, value_node in node.value:
        key = key_node.value
        line = FM_START_LINE + key_node.start_mark.line
        if key in field_lines:
            problems.append(Problem(shown, line, f"field `{key}` appears twice (first at line {field_lines[key]})"))
            continue
        field_lines[key] = line
        if key not in FIELDS_BY_NAME:
            hint = did_you_mean(key, FIELDS_BY_NAME) or "; known fields: " + ", ".join(f.name for f in FIELDS)
            problems.append(Problem(shown, line, f"unknown field `{key}`{hint}"))
            continue
        values[key] = data[key]
        if isinstance(value_node, yaml.SequenceNode):
            item_lines[key] = tuple(FM_START_LINE + n.start_mark.line for n in value_node.value)
    return values, field_lines, item_lines


def _check_fields(values: dict, field_lines: dict, item_lines: dict, shown: str,
                  config: Config) -> list[Problem]:
    """Every field's own rules, and the required fields that are missing (unless an unknown
    field is a likely misspelling of one: that is reported as unknown, with the suggestion)."""
    misspelt = {match for key in field_lines if key not in FIELDS_BY_NAME
                for match in difflib.get_close_matches(str(key), list(FIELDS_BY_NAME), n=1)}
    found: list[Problem] = []
    for f in FIELDS:
        if f.name not in field_lines:
            if f.required and f.name not in misspelt:
                found.append(Problem(shown, 1, f"missing required field `{f.name}`"))
        elif f.name in values:
            found.extend(_check_field(f, values[f.name], shown, field_lines[f.name],
                                      item_lines.get(f.name, ()), config))
    return found


def _entry(slug: str, shown: str, values: dict, body: str, body_line: int, field_lines: dict,
           item_lines: dict) -> Entry:
    """The Entry from fields that passed every check."""
    def strs(name):
        return tuple(str(v).strip() for v in values.get(name) or ())

    signatures = tuple(Signature(s["text"].strip(), (s.get("variant") or "").strip(),
                                 (s.get("source") or "").strip())
                       for s in values["signatures"])
    updated = values["updated"]
    if isinstance(updated, str):
        updated = dt.date.fromisoformat(updated)
    return Entry(
        slug=slug,
        source_path=shown,
        title=values["title"].strip(),
        category=values["category"],
        severity=values["severity"],
        role=values.get("role") or "cause",
        tags=strs("tags"),
        systems=strs("systems"),
        summary=" ".join(values["summary"].split()),
        signatures=signatures,
        aliases=strs("aliases"),
        symptoms=tuple(Symptom(" ".join(s["symptom"].split()), " ".join(s["why"].split()))
                       for s in values["symptoms"]),
        causes=tuple(" ".join(c.split()) for c in values["causes"]),
        fix=" ".join(values["fix"].split()),
        related=strs("related"),
        references=tuple(Reference(r["title"].strip(), r["url"].strip()) for r in values["references"]),
        examples=tuple(e.rstrip("\n") for e in values["examples"]),
        checked=" ".join(str(values.get("checked") or "").split()),
        updated=updated,
        body=body,
        body_line=body_line,
        field_lines=tuple(sorted(field_lines.items())),
        item_lines=tuple(sorted(item_lines.items())),
    )


def _compose(fm_text: str):
    """The frontmatter's node tree (for line numbers) and its value. libyaml composes it about
    ten times faster than PyYAML's pure-Python loader; when libyaml is missing or rejects the
    text, the pure-Python loader reads it again, so every error message is PyYAML's own."""
    if _FAST_LOADER is not None:
        try:
            return _compose_with(_FAST_LOADER, fm_text)
        except (yaml.YAMLError, RecursionError):
            pass
    return _compose_with(yaml.SafeLoader, fm_text)


def _compose_with(loader_class, fm_text: str):
    loader = loader_class(fm_text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


_FAST_LOADER = getattr(yaml, "CSafeLoader", None)


def _describe(value) -> str:
    """What arrived, in words, including the YAML 1.1 readings that surprise people."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        word = "true" if value else "false"
        return f"the boolean {word} (YAML reads unquoted yes/no/on/off/true/false as booleans: put the text in quotes)"
    if isinstance(value, (int, float)):
        return f"the number {value!r} (YAML reads unquoted numbers such as 1.10 as numbers: put the text in quotes)"
    if isinstance(value, (dt.date, dt.datetime)):
        return f"the date {value.isoformat()}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _is_text(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


def control_character(text: str) -> str | None:
    """The first character of `text` that no output file may carry, as U+XXXX, or None."""
    m = CONTROL_RE.search(text)
    return f"U+{ord(m.group()):04X}" if m else None


@dataclass
class _FieldProblems:
    """Problems found in one field, each at the field's line unless an item's line is given."""

    shown: str
    line: int
    out: list[Problem]

    def err(self, message: str, at: int | None = None) -> None:
        self.out.append(Problem(self.shown, self.line if at is None else at, message))

    def no_control(self, text: str, what: str, at: int | None = None) -> bool:
        """Whether `text` is free of control characters (reporting the first one if not)."""
        bad = control_character(text)
        if bad:
            self.err(f"{what} contains the control character {bad}, which no page or feed may carry: "
                     "remove it", at)
        return bad is None


def _check_text(f: Field, value, p: _FieldProblems, items, config: Config) -> None:
    if _is_text(value) and not p.no_control(value, f"`{f.name}`"):
        return
    if not _is_text(value):
        p.err(f"`{f.name}` must be text, got {_describe(value) if value != '' else 'an empty string'}")
    elif f.max_length and len(value.strip()) > f.max_length:
        p.err(f"`{f.name}` is {len(value.strip())} characters long; keep it under {f.max_length}")


def _check_enum(f: Field, value, p: _FieldProblems, items, config: Config) -> None:
    choices = list(f.choices or config.category_keys)
    if not isinstance(value, str):
        p.err(f"`{f.name}` must be one of {', '.join(choices)}; got {_describe(value)}")
    elif value not in choices:
        hint = did_you_mean(value, choices, cutoff=0.5)
        p.err(f"unknown {f.name} `{value}`{hint} (expected one of: {', '.join(choices)})")


def _check_date(f: Field, value, p: _FieldProblems, items, config: Config) -> None:
    if isinstance(value, dt.datetime) or not isinstance(value, (dt.date, str)):
        p.err(f"`{f.name}` must be a date written YYYY-MM-DD, got {_describe(value)}")
    elif isinstance(value, str):
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            p.err(f"`{f.name}` must be a date written YYYY-MM-DD, got {value!r}")


def _check_list(f: Field, value, p: _FieldProblems, items: tuple[int, ...], config: Config) -> None:
    if not isinstance(value, list):
        if value is None:
            p.err(f"`{f.name}` is empty: give a list, e.g. `{f.name}: [first, second]`" if f.min_items
                  else f"`{f.name}` is empty: give a list or remove the field")
        else:
            p.err(f"`{f.name}` must be a list, got {_describe(value)}")
        return
    if len(value) < f.min_items:
        p.err(f"`{f.name}` needs at least {f.min_items} item{'s' if f.min_items > 1 else ''}")
    seen: dict[str, int] = {}  # normalised string item -> its index, to report repeats
    for i, item in enumerate(value):
        at = items[i] if i < len(items) else p.line
        if f.kind == "strings":
            _check_string_item(f, value, i, item, at, seen, p)
        else:
            _check_record_item(f, i, item, at, p)


def _check_string_item(f: Field, value: list, i: int, item, at: int, seen: dict[str, int], p: _FieldProblems) -> None:
    if not _is_text(item):
        p.err(f"`{f.name}` item {i + 1} must be text, got {_describe(item)}", at)
        return
    text = item.strip()
    if not p.no_control(text, f"`{f.name}` item {i + 1}", at):
        return
    if f.pattern and not re.match(f.pattern, text) and text != "TODO":  # `check` names placeholders
        suggestion = slugify(text)
        p.err(f"{f.name[:-1] if f.name.endswith('s') else f.name} `{text}` must be lowercase "
              f"kebab-case; write `{suggestion}`", at)
    key = slugify(text) if f.name in ("tags", "systems") else text
    if key in seen:
        first = str(value[seen[key]]).strip()
        p.err(f"`{f.name}` lists `{text}` twice" if first == text else
              f"`{f.name}` lists `{first}` and `{text}`, which are the same once normalised", at)
    seen.setdefault(key, i)


def _check_record_item(f: Field, i: int, item, at: int, p: _FieldProblems) -> None:
    if isinstance(item, str) and item.strip():
        first, *rest = [k for k, _, _ in f.keys]
        p.err(f"`{f.name}` item {i + 1} is a plain string: write it as `- {first}: ...` with "
              + " and ".join(f"`{k}:`" for k in rest) + " on the lines below", at)
        return
    if not isinstance(item, dict):
        keys = ", ".join(k for k, _, _ in f.keys)
        p.err(f"`{f.name}` item {i + 1} must be a mapping with {keys}; got {_describe(item)}", at)
        return
    known = [k for k, _, _ in f.keys]
    for k in item:
        if k not in known:
            hint = did_you_mean(k, known) or f" (expected {', '.join(known)})"
            p.err(f"`{f.name}` item {i + 1} has unknown key `{k}`{hint}", at)
    for k, required, _ in f.keys:
        if k not in item:
            if required:
                p.err(f"`{f.name}` item {i + 1} is missing `{k}`", at)
            continue
        if not _is_text(item[k]):
            p.err(f"`{f.name}` item {i + 1}: `{k}` must be text, got {_describe(item[k])}", at)
        elif not p.no_control(item[k], f"`{f.name}` item {i + 1}: `{k}`", at):
            pass
        elif k in f.url_keys and not URL_RE.match(item[k].strip()):
            p.err(f"`{f.name}` item {i + 1}: `{k}` must be an http(s) address with a host, "
                  f"got `{item[k].strip()}`", at)


# How each kind of field is checked (schema.Field.kind); the rest are lists of strings or records.
_KIND_CHECKS = {"string": _check_text, "text": _check_text, "enum": _check_enum, "date": _check_date}


def _check_field(f: Field, value, shown: str, line: int, items: tuple[int, ...], config: Config) -> list[Problem]:
    """Every problem with one frontmatter field's value, by the field's kind."""
    p = _FieldProblems(shown, line, [])
    _KIND_CHECKS.get(f.kind, _check_list)(f, value, p, items, config)
    return p.out


def check_collection(entries: list[Entry]) -> list[Problem]:
    """Rules that span entries: duplicate slugs and names that collide once normalised."""
    problems: list[Problem] = []
    by_slug: dict[str, Entry] = {}
    for e in entries:
        if e.slug in by_slug:
            problems.append(Problem(e.source_path, 1, f"duplicate slug `{e.slug}`: "
                                                      f"{by_slug[e.slug].source_path} has the same file name"))
        else:
            by_slug[e.slug] = e
    for field in ("tags", "systems"):
        first: dict[str, tuple[str, Entry]] = {}
        for e in entries:
            for i, name in enumerate(getattr(e, field)):
                key = slugify(name)
                if key in first and first[key][0] != name:
                    spelled, other = first[key]
                    problems.append(Problem(e.source_path, e.line_of(field, i),
                                            f"{field[:-1] if field == 'tags' else 'system'} `{name}` collides "
                                            f"with `{spelled}` ({other.source_path}) once normalised; "
                                            f"spell it `{spelled}`"))
                first.setdefault(key, (name, e))
    return problems
