"""ML Failure Encyclopedia: a static site generator for failure entries, with log search."""

__version__ = "0.1.0"
