"""The browser's wording of the course: no terminal notation on a page of drawn cards (issue 21)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutor.lessons.course import load_course
from tutor.lessons.loader import format_path
from tutor.lessons.model import WEB, Text
from tutor.lessons.wording import browser_problems, lesson_texts, terminal_notation


def test_every_course_text_reads_as_the_page_in_the_browser_in_both_languages() -> None:
    """Titles, steps, prompts, hints, feedback and success texts: what the browser shows of each
    (its web wording, else the text with tens spelled) has no card letters, commands, keys or typing."""
    problems = [f"{lesson.id} {format_path(where)}: {message}"
                for lesson in load_course() for where, text in lesson_texts(lesson)
                for message in browser_problems(text)]
    assert problems == []


@pytest.mark.parametrize("text, found", [
    ("QQ beats it, but TT is enough.", ["TT"]),
    ("The ROCKET (both jokers, XD) beats everything.", ["XD"]),
    ("Answer: 3456789TJQK.", ["3456789TJQK"]),
    ("He beats your 2 with X.", ["X"]),
    ("At the table (`ddz play`) three helpers:", ["`", "ddz", "`"]),
    ("- counter (c): how many cards", ["(c)"]),
    ("- hint (h, подсказка): идея для хода", ["(h, подсказка)"]),
    ("You type cards the way they are shown", ["type"]),
    ("Карты вводятся так же, как показаны", ["вводятся"]),
    ("Enter to continue", ["Enter"]),
    ("Answer: none — two pairs are two plays.", ["Answer: none"]),
    ("Назовите («нет», если это не комбинация).", ["«нет»"]),
])
def test_terminal_notation_is_found(text: str, found: list[str]) -> None:
    assert terminal_notation(text) == found


@pytest.mark.parametrize("text", [
    "QQ beats it, but 10 10 is enough.", "The rocket (both jokers) beats everything.", "Tap the cards, then Play.",
    "Answer: 33 (44 works too).", "J Q K A and 2", "Нажмите «Подсказка»; ни у кого нет пар.", "The 2 is HIGH: A 2 beats an A.",
    "Крестьяне играют в команде", "None of them beats it.",
])
def test_page_wording_is_not_flagged(text: str) -> None:
    assert terminal_notation(text) == []


def test_tens_are_spelled_for_the_author_but_jokers_need_a_name_or_a_web_wording() -> None:
    """A ten is «10» in every sentence and every case; a joker's name is declined in Russian
    («бьёт малым джокером»), so the page never inserts it: the author names it or writes a web wording."""
    assert browser_problems(Text("QQ beats it, but TT is enough.", "QQ бьёт, но хватит TT.")) == []
    assert Text("TT is enough.").for_front(WEB).en == "10 10 is enough."
    joker = Text("He beats your 2 with X.", "Он бьёт двойку джокером X.")
    assert [m.split(" (")[0] for m in browser_problems(joker)] == ["a joker by its letter"] * 2
    named = Text(joker.en, joker.ru, Text("He beats your 2 with the small joker.", "Он бьёт двойку малым джокером."))
    assert browser_problems(named) == []
    command = Text("Play it (ddz play --open-hand).", "Сыграйте (ddz play --open-hand).")
    assert all("ddz" in m for m in browser_problems(command))
    half = Text("counter (c)", "счётчик (c)", Text("the counter"))
    assert browser_problems(half) == ["the browser's wording has no Russian (ru): add web.ru"]


#: The "not" column of the Russian glossary (docs/lessons.md): words the course and the coach replaced.
_NOT_RUSSIAN = re.compile(
    r"партн[её]р|торговл|(?<![а-яё])ход(?:ит|ите|ить)? первым|удваива\w* (?:ставку|партию)|складн"
    r"|(?<![а-яё])(?:вернуть|вернёт|вернут|возвраща(?:ет|ют|ть)|забрать|забира(?:ет|ть)|заберёт|отнять"
    r"|отнима(?:ет|ть)|отда(?:ть|ёт|ют)|перехват(?:ить|ит|ывать|ывает)|взять|возьмёт|удерж(?:ать|ат|ивает)"
    r"|сохраня(?:ет|ть)) ход(?![а-яё])",
    re.IGNORECASE)


def test_the_russian_glossary_holds_in_the_lessons_and_the_catalogues() -> None:
    """«заход» for the lead (never «ход первым», «вернуть ход»), «напарник», «удваивает стоимость партии»."""
    from tutor.paths import lessons_dir

    root = Path(__file__).resolve().parents[2]
    files = [*sorted(lessons_dir().glob("*.yaml")), *sorted((root / "tutor" / "i18n" / "ru").glob("*.yaml"))]
    found = [f"{path.name}:{n}: {m.group(0)}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in _NOT_RUSSIAN.finditer(line)]
    assert found == []
    assert _NOT_RUSSIAN.search("двойка вернёт ход") and _NOT_RUSSIAN.search("Вы ходите первым")
    assert _NOT_RUSSIAN.search("Торговля: ставки") and not _NOT_RUSSIAN.search("Торг: ставки")
    assert not _NOT_RUSSIAN.search("двойка вернёт заход") and not _NOT_RUSSIAN.search("пять ходов")
