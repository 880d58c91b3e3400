"""The command line: parses arguments, runs the engine, prints, and picks the exit code.

Exit codes: 0 success, 1 content problems (or, for diagnose, no match), 2 usage errors,
3 an internal error (a bug: the message asks for a report).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from jinja2 import TemplateError

from .problems import BuildError, Problem, did_you_mean

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
MAX_LOG_BYTES = 256 * 1024 * 1024  # what `diagnose` reads at most from one log
SHORT_TEXT = 300  # characters: as in the search box, shorter input is also searched by its words


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535, got {port}")
    return port


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of processes: {text!r}") from None
    if not 1 <= jobs <= 256:
        raise argparse.ArgumentTypeError(f"--jobs is 1-256, got {jobs}")
    return jobs


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 already; keep its message short and ours
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def make_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python3 build.py", description="Build, serve and check the ML Failure Encyclopedia. "
                "Run it inside the encyclopedia's folder (the one with site.yaml), or pass --root DIR "
                "before or after the command.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    b = sub.add_parser("build", help="build entries/ into site/ (the default command)")
    _build_args(b)

    s = sub.add_parser("serve", help="build, serve on 127.0.0.1, rebuild and reload on changes")
    s.add_argument("--entries", type=Path, default=None, help="entries folder (default: entries/)")
    s.add_argument("--base-url", default=None, help="public address to render (default: the local one)")
    s.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")

    c = sub.add_parser("check", help="validate entries without writing a site")
    c.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="entry files to report on (default: all)")
    c.add_argument("--entries", type=Path, default=None, help="entries folder (default: entries/)")
    c.add_argument("--format", choices=("text", "github"), default="text",
                   help="github prints GitHub Actions annotations")

    d = sub.add_parser("diagnose", help="find the failures a log shows")
    d.add_argument("files", nargs="*", metavar="FILE",
                   help="log files (gzip too), read as one job, e.g. one per rank; - or none for standard input")
    d.add_argument("--json", action="store_true", help="print a JSON array of matches")
    d.add_argument("--index", type=Path, default=None,
                   help="a built search/index.json to use instead of building one from entries/")
    d.add_argument("--entries", type=Path, default=None, help="entries folder (default: entries/)")

    n = sub.add_parser("new", help="write a new entry from the template")
    n.add_argument("title", help='the failure\'s title, e.g. "CUDA out of memory"')
    n.add_argument("--slug", default=None, help="file name to use (default: made from the title)")
    n.add_argument("--entries", type=Path, default=None, help="entries folder (default: entries/)")

    sub.add_parser("schema", help="regenerate schema/entry.schema.json and the field table in docs/")
    return p


def _build_args(p):
    p.add_argument("--entries", type=Path, default=None, help="entries folder (default: entries/)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: site/)")
    p.add_argument("--force", action="store_true",
                   help="replace an output folder that is not empty and was not written by this tool")
    p.add_argument("--base-url", default=None,
                   help="public address of the site, e.g. https://example.org/encyclopedia/")
    p.add_argument("--no-cache", action="store_true",
                   help="read and render every entry again, ignoring the build cache (the output is "
                        "the same byte for byte; this only costs time)")
    p.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                   help="processes to prepare entries on (default: one per CPU)")


COMMANDS = ("build", "serve", "check", "diagnose", "new", "schema")


def main(argv: list[str] | None = None, root: Path | None = None) -> int:
    """Run one command; never lets an exception escape (a bug exits 3 with a short message)."""
    try:
        code = _main(argv, root)
        # Output shorter than the buffer is only written here; a reader that went away before
        # then must show up inside this try, not in the interpreter's final flush (exit 120).
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # The reader went away (`diagnose log | head`): not an error. Point stdout at devnull so
        # the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the one place that turns a bug into a message
        print(f"internal error: {type(exc).__name__}: {exc}\nThis is a bug in the generator; please report "
              "it with the command you ran.", file=sys.stderr)
        return EXIT_INTERNAL


def find_root(start: Path) -> Path | None:
    """The content root: the nearest folder at or above `start` that holds site.yaml."""
    for folder in (start, *start.parents):
        if (folder / "site.yaml").is_file():
            return folder
    return None


def _take_root_option(argv: list[str]) -> tuple[list[str], Path | None]:
    """`--root DIR` may stand anywhere on the command line; it names the content root."""
    for i, arg in enumerate(argv):
        if arg == "--root" and i + 1 < len(argv):
            return argv[:i] + argv[i + 2:], Path(argv[i + 1])
        if arg.startswith("--root="):
            return argv[:i] + argv[i + 1:], Path(arg.split("=", 1)[1])
    return argv, None


def _main(argv: list[str] | None, root: Path | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    argv, given_root = _take_root_option(argv)
    if given_root is not None:
        root = given_root
        if not (root / "site.yaml").is_file():
            print(f"error: --root {root} holds no site.yaml", file=sys.stderr)
            return EXIT_USAGE
    elif root is None:
        root = find_root(Path.cwd())
        if root is None and not any(a in ("-h", "--help") for a in argv):
            print("error: no site.yaml in this folder or any above it: run inside an encyclopedia's "
                  "folder, or pass --root DIR", file=sys.stderr)
            return EXIT_USAGE
    # `build.py` alone, or with only options, builds; a first word that is no command is a typo.
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["build", *argv]
    elif argv[0] not in COMMANDS and argv[0] not in ("-h", "--help"):
        print(f"error: unknown command `{argv[0]}`{did_you_mean(argv[0], COMMANDS, cutoff=0.5)} "
              f"(commands: {', '.join(COMMANDS)})", file=sys.stderr)
        return EXIT_USAGE
    args = make_parser().parse_args(argv)
    root = (root or Path.cwd()).resolve()
    command = args.command
    try:
        if command == "build":
            return cmd_build(root, args)
        if command == "serve":
            from .server import serve
            return serve(root, args.entries, args.port, args.base_url)
        if command == "check":
            return cmd_check(root, args)
        if command == "diagnose":
            return cmd_diagnose(root, args)
        if command == "new":
            return cmd_new(root, args)
        if command == "schema":
            return cmd_schema(root)
    except BuildError as exc:
        report_problems(exc.problems)
        return EXIT_PROBLEMS
    except TemplateError as exc:
        where = f"{exc.filename}:{exc.lineno}: " if getattr(exc, "lineno", None) and getattr(exc, "filename", None) else ""
        print(f"{where}template error: {exc.message or exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_USAGE


def report_problems(problems: list[Problem], fmt: str = "text", stream=None) -> None:
    stream = stream or sys.stderr
    for p in problems:
        print(p.github() if fmt == "github" else p.format(), file=stream)
    files = len({p.source_path for p in problems})
    print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in {files} file{'s' if files != 1 else ''}.",
          file=stream)


def _project(root: Path, entries: Path | None):
    from .site import Project
    return Project.at(root, (entries.resolve() if entries else None))


def _progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"\r\033[K{message}", end="", file=sys.stderr, flush=True)


def cmd_build(root: Path, args) -> int:
    from .cache import cache_dir, generator_key, open_cache, output_state, save_cache, site_is_current
    from .config import url_problem
    from .incremental import edited_pages, site_record
    from .output import OutputRefused, check_output_dir, write_site
    from .site import build_site, project_inputs
    start = time.perf_counter()
    why = url_problem(args.base_url) if args.base_url is not None else None
    if why:
        print(f"error: --base-url {why}", file=sys.stderr)
        return EXIT_USAGE
    project = _project(root, args.entries)
    if not project.entries_dir.is_dir():
        print(f"error: no entries folder at {project.entries_dir}", file=sys.stderr)
        return EXIT_USAGE
    out = args.out or root / "site"
    try:
        check_output_dir(out, project.protected_dirs(), force=args.force)
    except OutputRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out = out.resolve()
    cache, inputs, folder = None, None, cache_dir(project.root)
    if not args.no_cache:
        cache = open_cache(folder, generator_key())
        inputs = project_inputs(project, cache, args.base_url)
        if site_is_current(cache, inputs.fingerprint, out):
            took = time.perf_counter() - start
            print(f"Nothing changed since the last build: {_rel(out, root)} is up to date ({took:.2f}s).")
            return EXIT_OK
        try:
            edit = edited_pages(project, cache, inputs, args.base_url, out)
        except Exception:  # noqa: BLE001 - whatever stops the short way, the full build reports it
            edit = None
        if edit is not None:
            return _write_edit(edit, cache, inputs, out, root, folder, start)
    try:
        site = build_site(project, args.base_url, progress=lambda stage: _progress(f"building: {stage}…"),
                          cache=cache, workers=args.jobs)
        _progress(f"building: writing {len(site.files)} files…")
        try:
            write_site(site.files, out)
        except OSError as exc:
            _progress("")
            print(f"error: cannot write the site to {out}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
        if cache is not None:
            cache.site = site_record(site, inputs, out, output_state(out, sorted(site.files)))
    finally:
        _progress("")  # clear the progress line, whatever happened
        if cache is not None:  # prepared entries are worth keeping even when the build failed
            save_cache(folder, cache, time.time())
    pages = sum(1 for p in site.files if p.endswith(".html"))
    took = time.perf_counter() - start
    reused = f", {cache.hits} of {cache.hits + cache.misses} entries unchanged" if cache is not None and cache.hits else ""
    print(f"Built {len(site.entries)} entries into {len(site.files)} files ({pages} pages) "
          f"at {_rel(out, root)} in {took:.2f}s{reused}.")
    return EXIT_OK


def _write_edit(edit, cache, inputs, out: Path, root: Path, folder: Path, start: float) -> int:
    """Write the pages of entries whose edits show nowhere else, and record the site as built
    from the new inputs (see incremental.py)."""
    from .cache import output_state, save_cache
    from .output import replace_files
    try:
        replace_files(edit.files, out)
    except OSError as exc:
        print(f"error: cannot write the site to {out}: {exc.strerror or exc}", file=sys.stderr)
        cache.site = {}  # the folder may hold some of the new pages: the next build writes all of it
        save_cache(folder, cache, time.time())
        return EXIT_USAGE
    record = dict(cache.site)
    record["files"] = {**record["files"], **output_state(out, sorted(edit.files))}
    record["entries"] = {**record["entries"], **edit.entries}
    record["fingerprint"] = inputs.fingerprint
    cache.site = record
    save_cache(folder, cache, time.time())
    took = time.perf_counter() - start
    n = len(edit.files)
    print(f"Built {n} page{'s' if n != 1 else ''} at {_rel(out, root)} in {took:.2f}s: only the edited "
          f"entr{'ies' if n != 1 else 'y'}'s own page{'s' if n != 1 else ''} changed, the rest of the site is as it was.")
    return EXIT_OK


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() + "/"
    except ValueError:
        return str(path)


def cmd_check(root: Path, args) -> int:
    from .checks import check_entries
    project = _project(root, args.entries)
    paths = [p for p in args.paths] or None
    for p in paths or []:
        if not p.exists():
            print(f"error: no such file: {p}", file=sys.stderr)
            return EXIT_USAGE
        if not p.is_file():
            print(f"error: {p} is not a regular file (check reads entry files)", file=sys.stderr)
            return EXIT_USAGE
    problems, count = check_entries(project, paths)
    if problems:
        report_problems(problems, args.format, stream=sys.stdout if args.format == "github" else sys.stderr)
        return EXIT_PROBLEMS
    print(f"Checked {count} entr{'y' if count == 1 else 'ies'}: no problems.")
    return EXIT_OK


def cmd_diagnose(root: Path, args) -> int:
    from . import matching
    if args.index:
        from .search_index import DETAILS_URL, merge_details
        details_path = args.index.parent / Path(DETAILS_URL).name
        try:
            index = merge_details(json.loads(args.index.read_text(encoding="utf-8")),
                                  json.loads(details_path.read_text(encoding="utf-8")))
            prepared = matching.prepare(index)  # also the check that it is an index at all
        except OSError as exc:
            print(f"error: cannot read {exc.filename}: {exc.strerror} (--index needs the site's "
                  f"search/index.json with {details_path.name} beside it)", file=sys.stderr)
            return EXIT_USAGE
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            print(f"error: {args.index} is not a search index built by this tool "
                  "(site/search/index.json, with details.json beside it)", file=sys.stderr)
            return EXIT_USAGE
    else:
        from .site import load_search_index
        index = load_search_index(_project(root, args.entries))
        prepared = matching.prepare(index)
    from .logs import LogError, read_job
    if not args.files and sys.stdin.isatty():
        print("Reading a log from standard input: paste it, then press Ctrl+D (or pass a file).",
              file=sys.stderr)
    try:
        job = read_job(args.files, sys.stdin.buffer, MAX_LOG_BYTES)
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    results = matching.diagnose(prepared, job.text)
    for r in results:
        r["file"], r["file_line"] = job.locate(r["line"])
        for first in r["ranks"]:
            first["file"], first["file_line"] = job.locate(first["line"])
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return EXIT_OK if results else EXIT_PROBLEMS
    print(format_report(results, several=len(job.parts) > 1))
    if not results and 0 < len(job.text.strip()) <= SHORT_TEXT:
        # A title or a few words: what the search box would list, said as a guess.
        guesses = matching.query(index, job.text, limit=3)
        if guesses:
            print("Possibly (its words match these entries; no error signature matched):")
            for g in guesses:
                print(f"   {g['title']} [{g['slug']}]: entries/{g['slug']}.md")
    return EXIT_OK if results else EXIT_PROBLEMS


RANKS_LISTED = 8  # ranks named per result in the terminal report


def format_report(results: list[dict], several: bool = False) -> str:
    """The terminal report: the verdict first, then each result with the browser's labels."""
    from .matching import result_label, verdict
    def place(r):
        return f"{r['file']}:{r['file_line']}" if several else f"line {r['line']}"
    out = [verdict(results, place)]
    for i, r in enumerate(results):
        where = place(r) + (f", rank {r['rank']}" if r["rank"] is not None else "")
        label = result_label(r, i == 0)
        if r["alternative_to"]:
            label += f" as {r['alternative_to']}"
        out.append("")
        out.append(f"{i + 1}. {label}: {r['title']} [{r['slug']}]")
        if r.get("summary"):
            out.append(f"   {r['summary']}")
        if r.get("fix"):
            out.append(f"   Fix: {r['fix']}")
        out.append(f"   {where}; {r['category']}, severity {r['severity']}, confidence {r['score']:.2f}")
        first = r["text"].splitlines()[0] if r["text"] else ""
        out.append(f"   > {first[:200]}")
        out.append(f"   matched: {r['signature']}" + (f" ({r['variant']})" if r["variant"] else ""))
        if len(r["ranks"]) > 1:
            # A failure seen on several ranks: where it showed first on each. In one log, line
            # order is time order; across files (one per rank) it is not, so they go by rank.
            order = r["ranks"] if several else sorted(r["ranks"], key=lambda p: (p["line"], p["rank"]))
            shown = [f"rank {p['rank']} {place(p)}" for p in order]
            more = f", and {len(shown) - RANKS_LISTED} more" if len(shown) > RANKS_LISTED else ""
            head = "first on each rank" if several else "first on each rank, earliest first"
            out.append(f"   {head}: {', '.join(shown[:RANKS_LISTED])}{more}")
        out.append(f"   read: entries/{r['slug']}.md")
    return "\n".join(out)


def cmd_new(root: Path, args) -> int:
    from .scaffold import new_entry
    project = _project(root, args.entries)
    try:
        path = new_entry(project, args.title, args.slug)
    except FileExistsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Wrote {_rel(path, root).rstrip('/')}")
    print(f"Fill in every field, then run: python3 build.py check {_rel(path, root).rstrip('/')}")
    return EXIT_OK


def cmd_schema(root: Path) -> int:
    from .scaffold import write_schema_files
    for path in write_schema_files(_project(root, None)):
        print(f"Wrote {_rel(path, root).rstrip('/')}")
    return EXIT_OK
