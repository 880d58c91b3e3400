"""Reading the logs `diagnose` is given: standard input or files (gzip too), several files joined
as one job with each line traced back to its file."""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from pathlib import Path

from .matching import split_lines

RANK_IN_NAME_RE = re.compile(r"rank[_-]?([0-9]+)", re.IGNORECASE)


class LogError(Exception):
    """A log that cannot be read; the message names it."""


@dataclass(frozen=True)
class Job:
    """Logs read as one text; `parts` says which lines came from which file (1-based, inclusive)."""

    text: str
    parts: tuple[tuple[str, int, int], ...]  # (shown name, first line, last line) in the joined text

    def locate(self, line: int) -> tuple[str, int]:
        """The file a joined-text line came from, and its line number in that file."""
        for name, first, last in self.parts:
            if first <= line <= last:
                return name, line - first + 1
        return self.parts[-1][0], line


def read_bytes(name: str, stdin, limit: int) -> bytes:
    """At most limit + 1 bytes of one log ("-" is standard input), gunzipped if compressed."""
    try:
        if name == "-":
            data = stdin.read(limit + 1)
        else:
            with open(name, "rb") as fh:
                data = fh.read(limit + 1)
    except OSError as exc:
        raise LogError(f"cannot read {name}: {exc.strerror}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=__import__("io").BytesIO(data)) as gz:
                data = gz.read(limit + 1)
        except (OSError, EOFError) as exc:
            raise LogError(f"cannot read {name}: not a whole gzip file ({exc})") from None
    if len(data) > limit:
        shown = "standard input" if name == "-" else name
        raise LogError(f"{shown} is larger than {limit // 2**20} MB; pass the part of the log around the failure")
    return data


def read_job(names: list[str], stdin, limit: int) -> Job:
    """One job from several logs (one per rank, say). A file named for its rank (`rank3.log`,
    `train_rank_3.txt`) whose lines carry no rank prefix gets one, so results name the rank."""
    texts, parts, line = [], [], 1
    total = 0
    for name in names or ["-"]:
        data = read_bytes(name, stdin, limit - total)
        total += len(data)
        text = data.decode("utf-8", errors="replace").rstrip("\n")
        lines = text.split("\n") if text else [""]
        m = RANK_IN_NAME_RE.search(Path(name).name) if len(names) > 1 else None
        if m and all(ln.rank is None for ln in split_lines(text)):
            lines = [f"[rank{m.group(1)}]: {ln}" for ln in lines]
        texts.append("\n".join(lines))
        parts.append((name, line, line + len(lines) - 1))
        line += len(lines)
    return Job("\n".join(texts), tuple(parts))
