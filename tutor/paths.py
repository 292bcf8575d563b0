"""Where the shipped data folders are, in a checkout and in an installed copy.

In a source checkout (and an editable install) ``lessons/``, ``puzzles/`` and
``benchmarks/`` sit at the top of the repository; a wheel carries copies under
``tutor/_data/`` (see ``pyproject.toml``).  Everything that loads shipped data
asks this module, so both layouts work without configuration.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder ``name`` (``"lessons"``, ``"puzzles"``, ``"benchmarks"``)."""
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    return _PACKAGE / "_data" / name


def checkout_root() -> Path | None:
    """The source checkout this ``tutor`` runs from, or None for an installed copy.

    Commands that rewrite shipped files (``ddz bench solver --write``) work
    only in a checkout: an installed package is never modified.
    """
    root = _PACKAGE.parent
    if (root / "pyproject.toml").is_file() and (root / "tutor").resolve() == _PACKAGE:
        return root
    return None


def lessons_dir() -> Path:
    return data_dir("lessons")


def puzzles_dir() -> Path:
    return data_dir("puzzles")


def benchmarks_dir() -> Path:
    return data_dir("benchmarks")
