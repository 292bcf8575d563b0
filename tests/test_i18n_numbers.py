"""Numbers in a sentence take the language's separators (round 14): «11 740», «0,25» in Russian.

``ddz solve --lang ru`` printed "11,740/с" and "0.00 с": Python's English marks inside Russian text.
tutor/i18n writes numbers without the machine's locale: the catalogue string says how (``{n:,}``,
``{s:.2f}``), the language says with which marks (tutor/i18n: number, fill).
"""

from __future__ import annotations

import pytest

from tutor.i18n import Phrase, fill, number, set_language, speaking, t

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("value", "options", "en", "ru"),
    [
        (11740, {}, "11,740", f"11{NBSP}740"),
        (1234567, {}, "1,234,567", f"1{NBSP}234{NBSP}567"),
        (740, {}, "740", "740"),
        (0.25, {}, "0.25", "0,25"),
        (11740.456, {"decimals": 2}, "11,740.46", f"11{NBSP}740,46"),
        (0.0, {"decimals": 2}, "0.00", "0,00"),
        (0.456, {"percent": True}, "46%", "46%"),  # as the catalogues write {chance}%
        (0.0312, {"decimals": 3, "signed": True}, "+0.031", "+0,031"),
        (-0.5, {"decimals": 1, "signed": True}, "-0.5", "-0,5"),
        (12345678901, {"group": False}, "12345678901", "12345678901"),
        (86400.0, {"group": False}, "86400", "86400"),
    ],
)
def test_number_writes_the_languages_separators(value: float, options: dict[str, object], en: str, ru: str) -> None:
    assert number(value, lang="en", **options) == en  # type: ignore[arg-type]
    assert number(value, lang="ru", **options) == ru  # type: ignore[arg-type]


def test_number_follows_the_language_spoken() -> None:
    with speaking("ru"):
        assert number(2.5) == "2,5"
    assert number(2.5) == "2.5"


def test_the_solvers_figures_line_reads_as_russian_in_russian() -> None:
    try:
        set_language("ru")
        line = t("solve.stats", nodes=11740, seconds=0.004, rate=11740.4)
        assert line == f"11{NBSP}740 позиций за 0,00 с (11{NBSP}740/с)."
        assert "(2,2 с)" in t("solve.unknown", nodes=5, seconds=2.25)
        set_language("en")
        assert t("solve.stats", nodes=11740, seconds=0.004, rate=11740.4) == "11,740 positions in 0.00 s (11,740/s)."
    finally:
        set_language("en")


def test_a_phrase_rendered_later_takes_the_separators_of_its_language() -> None:
    phrase = Phrase("solve.stats", {"nodes": 2000, "seconds": 1.5, "rate": 1333.3})
    assert phrase.render("ru") == f"2{NBSP}000 позиций за 1,50 с (1{NBSP}333/с)."
    assert phrase.render("en") == "2,000 positions in 1.50 s (1,333/s)."


def test_widths_hold_and_text_values_are_left_alone() -> None:
    """One mark for one: a table column keeps its width; a value given as text (a card string, a date) is not a number."""
    assert fill("[{n:>10,}]", "ru", {"n": 11740}) == f"[    11{NBSP}740]"
    assert fill("{when} {n}", "ru", {"when": "2026.12.03", "n": 7}) == "2026.12.03 7"
    assert fill("{flag}", "ru", {"flag": True}) == "True"
    assert fill("{{literal}} {n:.1f}", "ru", {"n": 0.5}) == "{literal} 0,5"
