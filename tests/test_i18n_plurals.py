"""Plurals by the language's rules (issue 29): no "card(s)", no «карт: 2» in a sentence, no «ход(а/ов)».

Counts in the catalogues take a plural choice ``{n|card|cards}`` / ``{n|карта|карты|карт}``
(tutor/i18n plural_index, CLDR's rules).  This scans every catalogue for the hand-made
workarounds and renders the coach's count lines with 1, 2, 5, 21 to check the forms.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tutor.i18n import Phrase, set_language, t

CATALOGUES = Path(__file__).resolve().parents[1] / "tutor" / "i18n"
#: "card(s)", "game(s)", "ход(а/ов)", "карт(ы)": a plural written by hand.
HACK = re.compile(r"\w\((s|es|а|ы|ов|и|а/ов|ы/ов)\)|\w\([а-я]+/[а-я]+\)")
#: «осталось карт: {n}» — a Russian count as a label inside a sentence (status lines of figures excepted).
RU_LABEL = re.compile(r"(карт|ходов|подсказок|отмен|партий|ошибок|моментов): \{\w+\}")
#: Status lines that list figures as "label: value" (a table, not a sentence) — the accepted form.
FIGURE_LINES = {"coach.bid_status", "coach.bid_status_pass", "coach.bid_status_eval"}


def _strings(lang: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for path in sorted((CATALOGUES / lang).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        out += [(f"{path.stem}.{k}", v) for k, v in data.items() if isinstance(v, str)]
    return out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_hand_made_plural_in_any_catalogue(lang: str) -> None:
    bad = [key for key, text in _strings(lang) if HACK.search(text)]
    assert not bad, f"hand-made plurals in {lang}: {bad}"


def test_no_russian_count_said_as_a_label_in_the_coach_review_mistakes_or_play_lines() -> None:
    areas = ("coach.", "mistakes.", "play.")
    bad = [key for key, text in _strings("ru") if key.startswith(areas) and key not in FIGURE_LINES and RU_LABEL.search(text)]
    assert not bad, bad


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 1, "it stops Right, who has 1 card left"),
        ("en", 2, "it stops Right, who has 2 cards left"),
        ("ru", 1, "останавливает игрока Правый: у него осталась 1 карта"),
        ("ru", 2, "останавливает игрока Правый: у него осталось 2 карты"),
        ("ru", 5, "останавливает игрока Правый: у него осталось 5 карт"),
        ("ru", 21, "останавливает игрока Правый: у него осталась 21 карта"),
    ],
)
def test_the_coach_counts_cards_by_the_plural_rules(lang: str, n: int, expected: str) -> None:
    line = Phrase("coach.reason_stops", {"seat": Phrase("play.seat_1"), "n": n}).render(lang)
    assert line == expected


def test_review_and_play_counts_in_russian() -> None:
    set_language("ru")
    try:
        assert "1 подсказку и сделали 3 отмены" in t("coach.review_help", hints=1, undos=3)
        assert t("play.cards_count", n=2) == "2 карты" and t("play.cards_count", n=5) == "5 карт"
        small = Phrase("coach.review_small_costs", {"n": 1, "points": 8}).render()
        assert "1 ход стоил немного" in small
        # A count saved as text by an older version still takes its form.
        assert Phrase("coach.spends_high_cards_early", {"cards": "2", "left": "12"}).render().count("12 карт;") == 1
    finally:
        set_language("en")
    assert t("coach.review_help", hints=1, undos=0) == "You used 1 hint and 0 undos (free: shown, never deducted)."


def test_the_quality_bench_counts_its_verdicts_by_the_plural_rules() -> None:
    assert t("bench.coach_quality_flags", inaccuracy=1, mistake=2, blunder=0, shipped=3).startswith(
        "Flagged by the reference: 1 inaccuracy, 2 mistakes, 0 blunders;")
    ru = Phrase("bench.coach_quality_flags", {"inaccuracy": 1, "mistake": 2, "blunder": 5, "shipped": 3}).render("ru")
    assert ru.startswith("Отмечено эталоном: 1 неточность, 2 ошибки, 5 грубых ошибок;")
