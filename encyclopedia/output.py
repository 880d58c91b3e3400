"""Output: writing a rendered site to disk atomically, so a failed build never leaves a broken one."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def write_site(files: dict[str, bytes], out_dir: Path) -> None:
    """Write files into a temporary sibling of out_dir, then swap it into place.

    The previous site stays complete until the rename; if anything fails before it, out_dir is
    untouched and the temporary folder is removed.
    """
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-new-", dir=out_dir.parent))
    try:
        for rel, content in sorted(files.items()):
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        os.chmod(tmp, 0o755)
        if out_dir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-old-", dir=out_dir.parent))
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
