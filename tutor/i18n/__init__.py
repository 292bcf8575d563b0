"""Every user-facing string, in one catalogue per language.

Strings live in YAML files under ``tutor/i18n/<lang>/`` — one file per area
(``rules.yaml``, ``play.yaml``, …) so that areas can grow independently — and
are looked up by dotted key: ``t("play.quit_saved")``.  English is the default and
the fallback; Russian follows the wording of the primary source where it has
one.  Keys are ``<file stem>.<key>``.
"""

from __future__ import annotations

import importlib
import os
import re
import string
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

LANGUAGES = ("en", "ru")
DEFAULT_LANGUAGE = "en"
_HERE = os.path.dirname(os.path.abspath(__file__))
_current = DEFAULT_LANGUAGE
#: The language of one rendering call (see :func:`speaking`); None = the default of :func:`set_language`.
_speaking: ContextVar[str | None] = ContextVar("ddz_speaking", default=None)


def _yaml_module() -> ModuleType:
    """PyYAML, imported afresh when an interrupted import left half of it behind.

    Ctrl-C often lands while a command reads its first string, that is while
    ``import yaml`` runs.  Python then keeps the submodules that had finished
    (``yaml.error`` …) in ``sys.modules``; the next import of the package (the
    one that prints "interrupted") no longer binds them to it and fails with
    "partially initialized module 'yaml'", a traceback instead of one line.
    Dropping every ``yaml`` module and importing once more gives a whole one.
    """
    try:
        import yaml

        yaml.SafeLoader  # noqa: B018 - fails on a half-initialised module
        return yaml
    except (ImportError, AttributeError):
        for name in [name for name in sys.modules if name == "yaml" or name.startswith("yaml.")]:
            del sys.modules[name]
        return importlib.import_module("yaml")


#: Characters a flat file may not hold: those YAML does not print (controls but tab and newline,
#: U+FFFE/F), its other line breaks (CR, NEL, U+2028/9) and a byte-order mark.  A set, not a
#: regular expression: compiling those cost more than reading the file (a negated class of YAML's
#: printable characters, 60 M instructions).
_NOT_FLAT = frozenset(
    [chr(c) for c in (*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))]
    + ["\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff"]
)
#: Plain keys YAML 1.1 reads as a boolean or null, not as the word: left to PyYAML.
_NOT_PLAIN_WORDS = frozenset(
    w
    for word in ("yes", "no", "true", "false", "on", "off", "null")
    for w in (word, word.title(), word.upper())
)
#: Largest catalogue file read without PyYAML (the bound of :data:`tutor.files.MAX_BYTES`, well above any).
_FLAT_MAX_BYTES = 5 * 1024 * 1024


def flat_strings(path: str) -> dict[str, str] | None:
    """The ``key: "text"`` pairs of a flat catalogue file, or None when it is anything more.

    Issue 33: PyYAML and the bounded loader (:mod:`tutor.files`) cost about 120 M instructions
    to import — a third of ``ddz solve``'s start — to read files that are one quoted string a
    line.  Such a file (comments, blank lines, ``key: "text"`` with no backslash nor quote in the
    text, no key twice, no key YAML would read as a boolean or null) means exactly what PyYAML
    makes of it (``tests/test_i18n_flat.py`` compares the two on every catalogue); anything else
    (help.yaml's folded blocks, a duplicate, bad UTF-8 …) is None and goes to the full loader,
    which also words the errors.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(_FLAT_MAX_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if len(data) > _FLAT_MAX_BYTES or not _NOT_FLAT.isdisjoint(text):
        return None
    strings: dict[str, str] = {}
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        # key: "text" — an ASCII identifier, the text quoted without a quote or a backslash inside.
        key, colon, quoted = line.partition(': "')
        value = quoted[:-1]
        if (
            not colon
            or not (key.isascii() and key.isidentifier())
            or not quoted.endswith('"')
            or '"' in value
            or "\\" in value
            or key in strings
            or key in _NOT_PLAIN_WORDS
        ):
            return None
        strings[key] = value
    return strings


@lru_cache(maxsize=None)
def area_strings(lang: str, area: str) -> dict[str, str]:
    """The strings of one area (one file, ``<lang>/<area>.yaml``), keyed ``area.key``; {} when none.

    Loaded on first use and only that file: a command that prints three strings
    does not parse them all (``ddz --help`` reads ``help.yaml`` alone).  A flat
    file is read without PyYAML (:func:`flat_strings`), any other with libyaml's
    loader when it is there.
    """
    path = os.path.join(_HERE, lang, f"{area}.yaml")
    if not area.isidentifier() or not os.path.isfile(path):
        return {}
    flat = flat_strings(path)
    if flat is not None:
        return {f"{area}.{key}": value for key, value in flat.items()}
    _yaml_module()  # a whole PyYAML first (see there), then the one bounded loader of every YAML file
    from tutor.files import load_yaml_file  # JSON types only, bounded

    data: dict[str, Any] = load_yaml_file(path) or {}
    return {f"{area}.{key}": str(value) for key, value in data.items()}


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """All strings of one language, keyed ``area.key``."""
    strings: dict[str, str] = {}
    folder = os.path.join(_HERE, lang)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".yaml"):
            strings.update(area_strings(lang, name[: -len(".yaml")]))
    return strings


def set_language(lang: str) -> None:
    """Choose the language of :func:`t` (unknown languages are an error)."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (one of: {', '.join(LANGUAGES)})")
    _current = lang


def language() -> str:
    """The language :func:`t` uses now: the one of :func:`speaking`, else the default."""
    return _speaking.get() or _current


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Render everything inside the block in ``lang``, without changing the default.

    What a session produces is data; a front end renders it for one learner
    with ``with speaking(learner_lang): ...``, so two learners in two languages
    can share one process.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (one of: {', '.join(LANGUAGES)})")
    token = _speaking.set(lang)
    try:
        yield
    finally:
        _speaking.reset(token)


@runtime_checkable
class Renderable(Protocol):
    """Anything a phrase can hold that renders itself in a language (a phrase, an author's text)."""

    def render(self, lang: str | None = None) -> str: ...


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence as data: a catalogue key and its values, rendered late in any language.

    Values may themselves be phrases (a combination's name inside a remark) or
    any :class:`Renderable` (a lesson author's text, written per language
    outside the catalogues); ``lower`` lower-cases the first letter when the
    phrase sits inside another.  Only phrases and plain values can be stored
    (:meth:`to_data`).
    """

    key: str
    values: Mapping[str, object] = field(default_factory=dict)
    lower: bool = False

    def render(self, lang: str | None = None) -> str:
        """The text in ``lang`` (default: the current language)."""
        chosen = lang or language()
        values = {k: v.render(chosen) if isinstance(v, Renderable) else v for k, v in self.values.items()}
        text = plurals(lookup(self.key, chosen) or self.key, chosen, values)
        text = fill(text, chosen, values) if values else text
        return text[:1].lower() + text[1:] if self.lower else text

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready form for the store (values nested the same way)."""
        values = {k: v.to_data() if isinstance(v, Phrase) else v for k, v in self.values.items()}
        data: dict[str, Any] = {"key": self.key, "values": values}
        if self.lower:
            data["lower"] = True
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Phrase:
        """Read back :meth:`to_data` (raises ValueError on anything else)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("key"), str):
            raise ValueError(f"not a stored phrase: {str(data)[:40]!r}")
        raw = data.get("values") or {}
        if not isinstance(raw, Mapping):
            raise ValueError(f"not a stored phrase: {str(data)[:40]!r}")
        values = {
            str(k): cls.from_data(v) if isinstance(v, Mapping) else v for k, v in raw.items()
        }
        return cls(data["key"], values, bool(data.get("lower", False)))


#: A plural choice inside a catalogue string: ``{n|card|cards}`` (English: one, other) or
#: ``{n|карта|карты|карт}`` (Russian: one, few, many) — the form for the value of ``n``.
_PLURAL = re.compile(r"\{(\w+)\|([^{}]*)\}")


def plural_index(lang: str, n: int) -> int:
    """Which form of a plural choice ``n`` takes in ``lang`` (CLDR's rules for whole numbers).

    English: 0 for one, 1 for other.  Russian: 0 for one (1, 21, 101…), 1 for few (2–4, 22–24…),
    2 for many (0, 5–20, 25–30…).  The page uses the same rule (``Intl.PluralRules``).
    """
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


def plurals(text: str, lang: str, values: Mapping[str, object]) -> str:
    """Resolve every ``{name|form|form…}`` of ``text`` by the whole number ``values[name]``."""
    if "|" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        value = values.get(match.group(1))
        forms = match.group(2).split("|")
        if isinstance(value, str) and value.isdigit():
            value = int(value)  # a count stored as text (remarks saved before issue 29)
        if not isinstance(value, int) or isinstance(value, bool):
            return forms[-1]
        return forms[min(plural_index(lang, value), len(forms) - 1)]

    return _PLURAL.sub(one, text)


def lookup(key: str, lang: str) -> str | None:
    """The unformatted string ``key`` in ``lang``, else in English, else None.

    For callers that must choose the language per call (``--help`` is
    formatted before any command has set the language) or know whether a key exists.
    """
    area = key.partition(".")[0]
    return area_strings(lang, area).get(key) or area_strings(DEFAULT_LANGUAGE, area).get(key)


def t(key: str, /, **values: object) -> str:
    """The string ``key`` in the current language, formatted with ``values``.

    Falls back to English, then to the key itself, so a missing translation
    shows up as text rather than as a crash.
    """
    lang = language()
    text = plurals(lookup(key, lang) or key, lang, values)
    return fill(text, lang, values) if values else text


# ------------------------------------------------------------------ numbers
#: The decimal mark and the group separator of each language (CLDR): English 11,740.5; Russian
#: «11 740,5» with a no-break space (U+00A0, as the browser's ``Intl.NumberFormat("ru")`` writes it):
#: the browser and the terminal's plain sentences (tutor/cli/say.py) never break a line there
#: (rich still may: its wrapping takes any Unicode space for a gap).
SEPARATORS: dict[str, tuple[str, str]] = {"en": (".", ","), "ru": (",", "\u00a0")}


def _localised(text: str, lang: str) -> str:
    """Python's English digits (``11,740.50``) with the separators of ``lang``.

    Works on the formatted text, not on the machine's locale (``locale.format_string`` would make the
    same call print differently on two machines): one character for one, so a table's widths hold.
    """
    decimal, group = SEPARATORS.get(lang, SEPARATORS[DEFAULT_LANGUAGE])
    if (decimal, group) != SEPARATORS[DEFAULT_LANGUAGE]:
        text = text.translate({ord("."): decimal, ord(","): group})
    return text


def number(value: float, decimals: int | None = None, *, lang: str | None = None, group: bool = True,
           percent: bool = False, signed: bool = False) -> str:
    """``value`` written for a sentence in ``lang`` (default: the current language), independent of the locale.

    Whole numbers are grouped (``11,740`` / «11 740»; ``group=False`` for identifiers such as a deal
    number), decimals take the language's mark (``0.25`` / «0,25»); ``decimals`` fixes their count.
    ``percent`` writes a share (0.45) as a percentage (``45%``, «45%»: no space, as every catalogue
    writes ``{chance}%``); ``signed`` writes a plus before a positive number (a difference: ``+0.031``).
    """
    chosen = lang or language()
    head = ("+" if signed else "") + ("," if group else "")
    if percent:
        spec = f"{head}.{0 if decimals is None else decimals}%"
    elif decimals is not None:
        spec = f"{head}.{decimals}f"
    else:
        spec = head if isinstance(value, int) else f"{head}g"
    return _localised(format(value, spec), chosen)


class _NumberFormatter(string.Formatter):
    """``str.format`` whose numbers take the separators of one language (see :func:`_localised`)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        text = format(value, format_spec)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _localised(text, self.lang)
        return text


def fill(text: str, lang: str, values: Mapping[str, object]) -> str:
    """``text.format(**values)``, with every number written the way ``lang`` writes numbers.

    A catalogue string says how a number is shown (``{nodes:,}``, ``{seconds:.2f}``); the language
    says with which separators: the same key prints ``11,740 … 0.25 s`` in English and
    «11 740 … 0,25 с» in Russian.  English keeps ``str.format`` itself (the common path, no cost).
    """
    if SEPARATORS.get(lang, SEPARATORS[DEFAULT_LANGUAGE]) == SEPARATORS[DEFAULT_LANGUAGE]:
        return text.format(**values)
    return _NumberFormatter(lang).vformat(text, (), dict(values))
