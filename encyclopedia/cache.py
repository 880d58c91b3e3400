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
one folder per project root: nothing in a clone or a pull request can plant one.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .loading import Entry
from .markup import RenderedBody
from .problems import Problem

FORMAT = 1
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


@dataclass
class EntryCache:
    """What the last builds learned, by display path: each file's stat and digest (small, read
    on every build) and what it prepared to (large, read only when a build needs it). `key`
    names the generator; a cache opened with another key starts empty."""

    key: str
    items: dict[str, _Item] = field(default_factory=dict)
    config_key: str = ""  # the configuration the prepared entries were made with
    saved_at: float = 0.0
    site: dict = field(default_factory=dict)  # the last site written: fingerprint, folder, files
    load_prepared: Callable[[], dict] | None = None  # reads {path: (digest, Prepared)} when first needed
    hits: int = 0
    misses: int = 0
    _prepared: dict | None = None
    prepared_changed: bool = False

    def prepared(self) -> dict[str, tuple[str, Prepared]]:
        if self._prepared is None:
            self._prepared = (self.load_prepared or dict)()
        return self._prepared

    def use_config(self, config_key: str) -> None:
        """Entries are prepared with the configuration (its categories, for one): another
        configuration makes every prepared entry stale."""
        if config_key != self.config_key:
            self._prepared, self.prepared_changed = {}, True
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

    def get(self, shown: str, digest: str | None) -> Prepared | None:
        """The prepared entry for this content, if the cache holds it (the digest is stored
        with it, so a prepared entry never outlives the content it came from)."""
        kept = self.prepared().get(shown) if digest is not None else None
        if kept is not None and kept[0] == digest:
            self.hits += 1
            return kept[1]
        self.misses += 1
        return None

    def put(self, shown: str, digest: str | None, prepared: Prepared) -> None:
        if digest is not None:
            self.prepared()[shown] = (digest, prepared)
            self.prepared_changed = True

    def forget_except(self, shown_paths: set[str]) -> None:
        """Drop files that are gone, so the cache does not grow with every rename."""
        for gone in set(self.items) - shown_paths:
            del self.items[gone]
        if self._prepared is not None:
            for gone in set(self._prepared) - shown_paths:
                del self._prepared[gone]
                self.prepared_changed = True


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
    Only the small index is read here; prepared entries are read when a build first needs one."""
    try:
        with open(folder / "index.pickle", "rb") as f:
            saved = pickle.load(f)
        if saved.get("format") == FORMAT and saved.get("key") == key:
            return EntryCache(key, saved["items"], saved["config_key"], saved["saved_at"], saved["site"],
                              load_prepared=lambda: _read_prepared(folder, key, saved["config_key"]))
    except Exception:  # noqa: BLE001 - any unreadable cache is simply not used
        pass
    return EntryCache(key)


def _read_prepared(folder: Path, key: str, config_key: str) -> dict:
    try:
        with open(folder / "prepared.pickle", "rb") as f:
            saved = pickle.load(f)
        if saved.get("format") == FORMAT and saved.get("key") == key and saved.get("config_key") == config_key:
            return saved["prepared"]
    except Exception:  # noqa: BLE001
        pass
    return {}


def save_cache(folder: Path, cache: EntryCache, now: float) -> None:
    """Write the cache, each file atomically (a reader sees the old file or the new one): the
    prepared entries only when they changed, then the index. Failing to write costs the next
    build time, not correctness (a prepared entry is used only with the digest it was made
    from), so errors are ignored."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if cache.prepared_changed and cache._prepared is not None:
            _write(folder / "prepared.pickle", {"format": FORMAT, "key": cache.key,
                                                "config_key": cache.config_key, "prepared": cache._prepared})
            cache.prepared_changed = False
        _write(folder / "index.pickle", {"format": FORMAT, "key": cache.key, "saved_at": now, "items": cache.items,
                                         "config_key": cache.config_key, "site": cache.site})
        cache.saved_at = now
    except OSError:
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


def site_fingerprint(cache: EntryCache, config_path: Path, base_url: str | None, entry_files: list[tuple[Path, str]],
                     theme_dirs: list[Path]) -> str:
    """Everything a site is built from, as one digest: the generator, the configuration and
    base URL, every entry file (path and content) and every template and asset."""
    h = hashlib.sha256(f"{cache.key}\0{base_url or ''}\0".encode())
    try:
        h.update(config_path.read_bytes())
    except OSError:
        h.update(b"\0no configuration\0")
    for path, shown in entry_files:
        h.update(f"\0{shown}\0{cache.digest(path, shown)}".encode())
    for folder in theme_dirs:
        for f in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(f"\0{f.relative_to(folder).as_posix()}\0".encode() + f.read_bytes())
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
