#!/usr/bin/env python3
"""Build, serve and check the ML Failure Encyclopedia: `python3 build.py --help`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from encyclopedia.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(root=Path(__file__).resolve().parent))
