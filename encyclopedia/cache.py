"""The build cache: what reading each entry file produced, kept by the file's content, so that a
build reads, parses and renders only the files that changed since the last one; and the
fingerprint of the last site written, so that a build with nothing changed writes nothing.

A cached result is reused only when everything it was computed from is unchanged: the file's
bytes (SHA-256), the configuration, and the generator itself (this package's source and the
versions of the libraries that parse and render entries). Like git's index, a file whose size,
modification time and inode are unchanged since it was hashed is not read again; a file modified
within a second of the last save is always read again (its time stamp cannot be trusted to tell
two edits apart).

The cache lives outside the project (in $XDG_CACHE_HOME/ml-failures, or $ML_FAILURES_CACHE_DIR),
one folder per project root: nothing in a clone or a pull request can plant one. It holds two
files: `index.pickle` (small, read on every build: each file's stat and digest, and the record
of the last site written) and `prepared.sqlite` (large: the prepared entries, one row per file,
so a build reads only the rows it needs and writes only the rows that changed).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import sqlite3
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .loading import Entry
from .markup import RenderedBody
from .problems import Problem

FORMAT = 2
RACY_SECONDS = 1.0
# Libraries whose output a cached entry holds (parsed YAML, rendered Markdown, highlighted code).
LIBRARIES = ("PyYAML", "python-frontmatter", "markdown-it-py", "mdit-py-plugins", "Pygments")


@dataclass(frozen=True)
class Prepared:
    """What one entry file produced: the entry and its rendered body when it loads, and every
    problem found in it alone (problems that need the whole collection are found later)."""

    entry: Entry | None
    body: RenderedBody | None
    problems: tuple[Problem, ...]


@dataclass
class _Item:
    stat: tuple[int, int, int]  # (mtime_ns, size, inode) when hashed
    digest: str


class PreparedStore:
    """The prepared entries on disk: one SQLite row per entry file (its display path, the digest
    of the content it was prepared from, and the pickled Prepared), made by one generator with one
    configuration. Reads fetch single rows; nothing is written until `save`. Any error reading
    (a missing, truncated or foreign file) reads as an empty store, never as a failure."""

    def __init__(self, path: Path, key: str):
        self.path, self.key = path, key
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # `serve` builds on another thread than the one that opened it
        self.broken = False

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is None and not self.broken and self.path.is_file():
            try:
                db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
                if meta.get("format") != str(FORMAT) or meta.get("key") != self.key:
                    db.close()
                    return None
                self._db = db
            except sqlite3.Error:
                self.broken = True
        return self._db

    def config_key(self) -> str | None:
        with self._lock:
            try:
                db = self._connect()
                row = db and db.execute("SELECT value FROM meta WHERE name = 'config'").fetchone()
            except sqlite3.Error:
                self.broken, row = True, None
            return row[0] if row else None

    def get(self, shown: str) -> tuple[str, Prepared] | None:
        with self._lock:
            try:
                db = self._connect()
                row = db and db.execute("SELECT digest, data FROM prepared WHERE path = ?", (shown,)).fetchone()
                return (row[0], pickle.loads(row[1])) if row else None
            except Exception:  # noqa: BLE001 - an unreadable row is a row we do not have
                return None

    def save(self, config_key: str, changed: dict, keep: set[str] | None, clear: bool) -> None:
        """Write the rows that changed in one transaction (`clear`: drop every other row first;
        `keep`: drop rows of files that are gone). A store that cannot be opened is made anew."""
        with self._lock:
            if self.broken or self._connect() is None:
                self.close()
                self.path.unlink(missing_ok=True)
                self.broken, clear = False, True
                self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                self._db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
                self._db.execute("CREATE TABLE IF NOT EXISTS prepared "
                                 "(path TEXT PRIMARY KEY, digest TEXT NOT NULL, data BLOB NOT NULL)")
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if clear:
                    db.execute("DELETE FROM prepared")
                elif keep is not None:
                    gone = [(p,) for (p,) in db.execute("SELECT path FROM prepared") if p not in keep]
                    db.executemany("DELETE FROM prepared WHERE path = ?", gone)
                db.executemany("INSERT OR REPLACE INTO prepared VALUES (?, ?, ?)",
                               [(shown, digest, pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL))
                                for shown, (digest, prepared) in sorted(changed.items())])
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                               [("format", str(FORMAT)), ("key", self.key), ("config", config_key)])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


@dataclass
class EntryCache:
    """What the last builds learned, by display path: each file's stat and digest (small, read
    on every build) and what it prepared to (a row per file in `store`, read only when a build
    needs it; what this build prepared waits in `fresh` until saved). `key` names the generator;
    a cache opened with another key starts empty."""

    key: str
    items: dict[str, _Item] = field(default_factory=dict)
    config_key: str = ""  # the configuration the prepared entries were made with
    saved_at: float = 0.0
    site: dict = field(default_factory=dict)  # the last site written: fingerprint, folder, files
    store: PreparedStore | None = None
    hits: int = 0
    misses: int = 0
    fresh: dict = field(default_factory=dict)  # {path: (digest, Prepared)} prepared since the last save
    keep: set[str] | None = None  # the files of the last build (rows of other files are dropped)
    cleared: bool = False  # the configuration changed: every stored row is stale

    def use_config(self, config_key: str) -> None:
        """Entries are prepared with the configuration (its categories, for one): another
        configuration makes every prepared entry stale."""
        if config_key != self.config_key:
            self.fresh, self.cleared = {}, True
            self.config_key = config_key

    def digest(self, path: Path, shown: str) -> str | None:
        """The SHA-256 of a file's bytes, from the cache when its stat is unchanged; None when
        it is not a regular file that can be read (loading reports why)."""
        try:
            st = os.stat(path, follow_symlinks=False)
        except OSError:
            return None
        if not _is_regular(st.st_mode):
            return None
        stat = (st.st_mtime_ns, st.st_size, st.st_ino)
        item = self.items.get(shown)
        if item is not None and item.stat == stat and st.st_mtime_ns / 1e9 < self.saved_at - RACY_SECONDS:
            return item.digest
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return None
        self.items[shown] = _Item(stat, digest)
        return digest

    def stored(self, shown: str) -> tuple[str, Prepared] | None:
        """(digest, Prepared) last prepared for this file, whatever its content is now."""
        kept = self.fresh.get(shown)
        if kept is None and not self.cleared and self.store is not None:
            kept = self.store.get(shown)
        return kept

    def get(self, shown: str, digest: str | None) -> Prepared | None:
        """The prepared entry for this content, if the cache holds it (the digest is stored
        with it, so a prepared entry never outlives the content it came from)."""
        kept = self.stored(shown) if digest is not None else None
        if kept is not None and kept[0] == digest:
            self.hits += 1
            return kept[1]
        self.misses += 1
        return None

    def put(self, shown: str, digest: str | None, prepared: Prepared) -> None:
        if digest is not None:
            self.fresh[shown] = (digest, prepared)

    def forget_except(self, shown_paths: set[str]) -> None:
        """Drop files that are gone, so the cache does not grow with every rename."""
        for gone in set(self.items) - shown_paths:
            del self.items[gone]
        for gone in set(self.fresh) - shown_paths:
            del self.fresh[gone]
        self.keep = set(shown_paths)


def _is_regular(mode: int) -> bool:
    import stat
    return stat.S_ISREG(mode)


def generator_key() -> str:
    """This package's source and the versions of the libraries that shape a prepared entry."""
    h = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
    package = Path(__file__).resolve().parent
    for source in sorted(package.glob("*.py")):
        h.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    for name in LIBRARIES:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            version = "?"
        h.update(f"{name}=={version}\0".encode())
    return h.hexdigest()


def cache_dir(root: Path) -> Path:
    """Where the cache of the project at `root` lives."""
    base = os.environ.get("ML_FAILURES_CACHE_DIR")
    if not base:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ml-failures")
    project = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    return Path(base) / project


def open_cache(folder: Path, key: str) -> EntryCache:
    """The cache saved in `folder` if it was made with `key`; otherwise an empty one. A cache
    that cannot be read (missing, truncated, another format) is an empty cache, never an error.
    Only the small index is read here; prepared entries are read one by one as a build needs them."""
    store = PreparedStore(folder / "prepared.sqlite", key)
    try:
        with open(folder / "index.pickle", "rb") as f:
            saved = pickle.load(f)
        if saved.get("format") == FORMAT and saved.get("key") == key:
            cache = EntryCache(key, saved["items"], saved["config_key"], saved["saved_at"], saved["site"], store)
            # Rows made with another configuration than the index says (two builds crossed) are stale.
            cache.cleared = store.config_key() not in (None, cache.config_key)
            return cache
    except Exception:  # noqa: BLE001 - any unreadable cache is simply not used
        pass
    return EntryCache(key, store=store)


def save_cache(folder: Path, cache: EntryCache, now: float) -> None:
    """Write the cache: the prepared entries that changed (one transaction), then the index
    (atomically: a reader sees the old file or the new one). Failing to write costs the next
    build time, not correctness (a prepared entry is used only with the digest it was made
    from), so errors are ignored."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if cache.store is None:
            cache.store = PreparedStore(folder / "prepared.sqlite", cache.key)
        if cache.fresh or cache.cleared or cache.keep is not None:
            cache.store.save(cache.config_key, cache.fresh, cache.keep, cache.cleared)
            cache.fresh, cache.cleared, cache.keep = {}, False, None
        _write(folder / "index.pickle", {"format": FORMAT, "key": cache.key, "saved_at": now, "items": cache.items,
                                         "config_key": cache.config_key, "site": cache.site})
        cache.saved_at = now
    except (OSError, sqlite3.Error):
        pass


def _write(path: Path, data: dict) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def theme_fingerprint(cache: EntryCache, config_path: Path, base_url: str | None, theme_dirs: list[Path]) -> str:
    """Every input of a site but the entries, as one digest: the generator, the configuration and
    base URL, and every template and asset."""
    h = hashlib.sha256(f"{cache.key}\0{base_url or ''}\0".encode())
    try:
        h.update(config_path.read_bytes())
    except OSError:
        h.update(b"\0no configuration\0")
    for folder in theme_dirs:
        for f in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(f"\0{f.relative_to(folder).as_posix()}\0".encode() + f.read_bytes())
    return h.hexdigest()


def site_fingerprint(theme: str, entry_digests: dict[str, str | None]) -> str:
    """Everything a site is built from, as one digest: the theme fingerprint and every entry file
    (display path and content digest)."""
    h = hashlib.sha256(theme.encode())
    for shown, digest in sorted(entry_digests.items()):
        h.update(f"\0{shown}\0{digest}".encode())
    return h.hexdigest()


def output_state(out_dir: Path, paths) -> dict[str, tuple[int, int]] | None:
    """(size, modification time) of every file of a written site, or None if one is missing."""
    state = {}
    for rel in paths:
        try:
            st = os.stat(out_dir / rel)
        except OSError:
            return None
        state[rel] = (st.st_size, st.st_mtime_ns)
    return state


def site_is_current(cache: EntryCache, fingerprint: str, out_dir: Path) -> bool:
    """True when the last site this cache wrote was built from exactly these inputs, into this
    folder, and every file of it is still there as it was written."""
    last = cache.site
    if last.get("fingerprint") != fingerprint or last.get("out") != str(out_dir):
        return False
    return output_state(out_dir, last.get("files", {})) == last.get("files")
