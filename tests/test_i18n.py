"""The string catalogues: one place for every user-facing string, complete in both languages."""

from __future__ import annotations

import re
import subprocess
import sys
import string
from pathlib import Path

import pytest

from tutor.i18n import LANGUAGES, catalogue, set_language, t

ROOT = Path(__file__).resolve().parents[1]
_KEY_USE = re.compile(r"""\bt\(\s*["']([a-z_]+\.[A-Za-z0-9_.]+)["']""")


def _fields(text: str) -> set[str]:
    """The values a string uses; a plural choice ``{n|card|cards}`` uses ``n``."""
    return {name.partition("|")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def test_plurals_take_the_form_the_number_needs() -> None:
    """"1 hint", "2 hints"; in Russian one / few / many: 1 карта, 3 карты, 5, 11, 12 карт, 21 карта, 22 карты."""
    from tutor.i18n import plural_index, plurals

    english = {n: plurals("{n} {n|hint|hints}", "en", {"n": n}).format(n=n) for n in (0, 1, 2)}
    assert english == {0: "0 hints", 1: "1 hint", 2: "2 hints"}
    russian = [plural_index("ru", n) for n in (1, 3, 5, 11, 12, 14, 21, 22, 25, 101, 111)]
    assert russian == [0, 1, 2, 2, 2, 2, 0, 1, 2, 0, 2]
    set_language("en")
    assert t("coach.review_help", hints=1, undos=1).startswith("You used 1 hint and 1 undo ")
    assert t("play.stats_by_level", level="easy", games=1, wins=0) == "Against easy: 1 game, 0 won"


def test_every_language_has_every_key() -> None:
    english = catalogue("en")
    for lang in LANGUAGES:
        missing = sorted(set(english) - set(catalogue(lang)))
        extra = sorted(set(catalogue(lang)) - set(english))
        assert not missing, f"{lang} lacks {missing[:10]}"
        assert not extra, f"{lang} has keys English lacks: {extra[:10]}"


def test_translations_use_the_same_placeholders() -> None:
    english = catalogue("en")
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            assert _fields(text) == _fields(english[key]), f"{lang}:{key} placeholders differ from English"


def test_every_literal_key_in_the_code_exists() -> None:
    english = catalogue("en")
    used = {
        (path.relative_to(ROOT).as_posix(), key)
        for path in (ROOT / "tutor").rglob("*.py")
        for key in _KEY_USE.findall(path.read_text(encoding="utf-8"))
    }
    unknown = sorted((where, key) for where, key in used if key not in english)
    assert not unknown, f"unknown string keys: {unknown[:10]}"


def test_missing_key_falls_back_to_english_then_the_key() -> None:
    set_language("ru")
    try:
        assert t("no_such_area.no_such_key") == "no_such_area.no_such_key"
    finally:
        set_language("en")


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        set_language("xx")


def test_a_half_imported_yaml_is_imported_afresh() -> None:
    """Ctrl-C during ``import yaml`` leaves half a package in ``sys.modules``.

    The line that reports the interrupt is the next string read; it must not
    fail on that half package (seen as a traceback instead of "interrupted"
    under load, tests/cli/test_interrupt.py).
    """
    code = (
        "import sys, types\n"
        "sys.modules['yaml'] = types.ModuleType('yaml')\n"
        "from tutor.i18n import t\n"
        "print(t('cli.interrupted'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == t("cli.interrupted")
