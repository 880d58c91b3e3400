"""Problems found in the input: collected by every stage, reported once by the CLI."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, located as precisely as the stage that found it could."""

    source_path: str
    line: int
    message: str

    def format(self) -> str:
        return f"{self.source_path}:{self.line}: {self.message}"

    def github(self) -> str:
        """The problem as a GitHub Actions workflow command (an annotation on the diff)."""
        msg = self.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        path = self.source_path.replace("%", "%25").replace(",", "%2C").replace(":", "%3A")
        return f"::error file={path},line={self.line}::{msg}"


class BuildError(Exception):
    """Raised when input problems stop a build; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__(f"{len(self.problems)} problem(s)")


def did_you_mean(name: str, options, cutoff: float = 0.6) -> str:
    """"; did you mean `x`?" for the closest option to a misspelt name, or "" when none is close."""
    close = difflib.get_close_matches(str(name), sorted(options), n=1, cutoff=cutoff)
    return f"; did you mean `{close[0]}`?" if close else ""
