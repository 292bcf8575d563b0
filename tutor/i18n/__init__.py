"""Every user-facing string, in one catalogue per language.

Strings live in YAML files under ``tutor/i18n/<lang>/`` — one file per area
(``rules.yaml``, ``play.yaml``, …) so that areas can grow independently — and
are looked up by dotted key: ``t("play.quit_saved")``.  English is the default and
the fallback; Russian follows the wording of the primary source where it has
one.  Keys are ``<file stem>.<key>``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

LANGUAGES = ("en", "ru")
DEFAULT_LANGUAGE = "en"
_HERE = Path(__file__).resolve().parent
_current = DEFAULT_LANGUAGE


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """All strings of one language, keyed ``area.key``."""
    strings: dict[str, str] = {}
    folder = _HERE / lang
    for path in sorted(folder.glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for key, value in data.items():
            strings[f"{path.stem}.{key}"] = str(value)
    return strings


def set_language(lang: str) -> None:
    """Choose the language of :func:`t` (unknown languages are an error)."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (one of: {', '.join(LANGUAGES)})")
    _current = lang


def language() -> str:
    return _current


def lookup(key: str, lang: str) -> str | None:
    """The unformatted string ``key`` in ``lang``, else in English, else None.

    For callers that must choose the language per call (``--help`` is
    formatted before any command has set the language) or know whether a key exists.
    """
    return catalogue(lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)


def t(key: str, /, **values: object) -> str:
    """The string ``key`` in the current language, formatted with ``values``.

    Falls back to English, then to the key itself, so a missing translation
    shows up as text rather than as a crash.
    """
    text = lookup(key, _current) or key
    return text.format(**values) if values else text
