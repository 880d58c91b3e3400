"""Output: choosing a safe output folder, and writing a rendered site into it atomically."""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import tempfile
from pathlib import Path

# Written into every site this tool builds. A folder without it was not written by us, so a
# build refuses to replace it unless told to (`--force`), as Zola asks before it replaces one.
MARKER = ".ml-failures-site"
MARKER_TEXT = (b"This folder is written by the ML Failure Encyclopedia's build "
               b"(python3 build.py); the next build replaces all of it.\n")


class OutputRefused(Exception):
    """The output folder is one a build must not replace; the message says why in one line."""


def check_output_dir(out_dir: Path, protected: list[Path], force: bool = False) -> None:
    """Raise OutputRefused unless out_dir may be replaced by a build.

    Never allowed, even with force: a file, a protected folder (the project root, the entries
    folder, the theme), anything that contains one (an ancestor) or lies inside one other than
    the project root. Allowed with force: a non-empty folder without our marker.
    """
    out = out_dir.resolve()
    shown = str(out_dir)
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"--out {shown} is a file, not a folder: give a folder for the site")
    for guarded in protected:
        g = guarded.resolve()
        if out == g or g.is_relative_to(out):
            raise OutputRefused(f"--out {shown} would replace {g}, which holds your project: "
                                "give a separate folder for the site, such as site/")
    for guarded in protected[1:]:  # inside the project root is fine; inside entries/ or the theme is not
        g = guarded.resolve()
        if out.is_relative_to(g):
            raise OutputRefused(f"--out {shown} is inside {g}: give a folder outside it, such as site/")
    if force or not out.is_dir() or (out / MARKER).is_file():
        return
    try:
        empty = next(out.iterdir(), None) is None
    except OSError as exc:
        raise OutputRefused(f"--out {shown} cannot be read: {exc.strerror}") from None
    if not empty:
        raise OutputRefused(f"--out {shown} is not empty and was not written by this tool (no {MARKER} "
                            "in it): give an empty or new folder, or pass --force to replace it")


def write_site(files: dict[str, bytes], out_dir: Path) -> None:
    """Write files into a temporary sibling of out_dir, then swap it into place.

    The previous site stays complete until the swap. Where the platform can exchange two paths
    in one step (Linux renameat2), a site is at out_dir at every instant; elsewhere there is a
    moment between two renames. Temporary folders left by builds that were killed are removed
    first; if anything fails before the swap, out_dir is untouched and our temporary folder is
    removed.
    """
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out_dir)
    tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(out_dir, "new"), dir=out_dir.parent))
    try:
        for rel, content in sorted({**files, MARKER: MARKER_TEXT}.items()):
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        os.chmod(tmp, 0o755)
        if out_dir.is_dir() and _exchange(tmp, out_dir):
            shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the previous site
            return
        if out_dir.exists():
            old = Path(tempfile.mkdtemp(prefix=_temp_prefix(out_dir, "old"), dir=out_dir.parent))
            old.rmdir()
            os.replace(out_dir, old)
            try:
                os.replace(tmp, out_dir)
            except BaseException:
                os.replace(old, out_dir)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def replace_files(files: dict[str, bytes], out_dir: Path) -> None:
    """Replace a few files of a site written earlier, each atomically (a reader sees the old
    file or the new one, never part of one): what a build that changes only some pages writes.
    Every check has passed before this is called; only the disk can fail here."""
    out_dir = out_dir.resolve()
    for rel, content in sorted(files.items()):
        path = out_dir / rel
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)  # as the full build left it
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _temp_prefix(out_dir: Path, kind: str) -> str:
    # The pid lets a later build tell a folder left by a dead build from one a live build uses.
    return f".{out_dir.name}-{kind}-{os.getpid()}-"


def remove_stale_temporaries(out_dir: Path) -> list[Path]:
    """Remove temporary folders beside out_dir left by builds whose process has ended."""
    pattern = re.compile(rf"\.{re.escape(out_dir.name)}-(?:new|old)-(\d+)-")
    removed = []
    try:
        siblings = list(out_dir.parent.iterdir())
    except OSError:
        return removed
    for p in siblings:
        m = pattern.match(p.name)
        if m and p.is_dir() and not p.is_symlink() and not _alive(int(m.group(1))):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step with renameat2(RENAME_EXCHANGE); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), str(b))
