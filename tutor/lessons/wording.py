"""The browser's wording of lesson texts: a page of drawn cards never speaks the terminal's notation.

In the terminal a learner types cards as letters (``T`` the ten, ``X`` and ``D`` the jokers), runs
``ddz`` commands and presses keys (``c`` for the counter, Enter to go on).  In the browser there is
nothing to type: cards are tapped, helpers are buttons.  A lesson text shown in the browser is
:meth:`Text.for_front` of the text — its ``web`` wording, else the text with the tens spelled
(``TT`` → ``10 10``) — and this module finds what would still read as the terminal's:

- a card letter ``T``, ``X`` or ``D`` standing for a card, alone or in a run (``XD``, ``9TJQK``);
- a ``ddz`` command, a key name (``counter (c)``, Enter), typing (``type 33345``, «введите»), the
  typed answer ``none`` of a name task (the page has a button for it);
- a joker written by its letter in a text without a ``web`` wording: the page would have to insert
  the joker's name, and Russian declines it («бьёт малым джокером»), so the author writes the name
  or a ``web`` wording (a ten is spelled ``10`` in every case, so tens are spelled for the author).

The validator reports each as ``terminal_wording``; tests/lessons/test_wording.py runs it on the course.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tutor.lessons.model import WEB, Lesson, Text
from tutor.lessons.loader import FieldPath

#: A card run holding a ten or a joker by its letter (``T``, ``XD``, ``888999TTT``): terminal notation.
_LETTER_CARDS = re.compile(r"(?<![\w`])[3-9JQKA2]*[TXD][3-9TJQKA2XD]*(?![\w`])")
#: The same with a joker in it: the page cannot spell it for the author (Russian declines it).
_JOKER_LETTERS = re.compile(r"(?<![\w`])[3-9TJQKA2]*[XD][3-9TJQKA2XD]*(?![\w`])")
#: Commands, keys and typing, in both languages.
_TERMINAL = re.compile(
    r"`|\bddz\b|\((?:[chuq])(?:,[^)]*)?\)|\bEnter\b|\bq to quit\b|\btyp(?:e|es|ed|ing)\b"
    r"|\b[Вв]в(?:едите|одите|одятся|ести)\b|\b[Нн]аб(?:ерите|ирайте)\b|\b[Нн]апечатайте\b"
    # the typed answer of a name task (the page has a button «not a combination»)
    r"|\bAnswer: none\b|\(none\b|Ответ: нет\b|«нет»",
)


def terminal_notation(text: str) -> list[str]:
    """What in ``text`` is the terminal's notation (card letters, commands, keys, typing), in order."""
    found = [(m.start(), m.group(0)) for m in _LETTER_CARDS.finditer(text)]
    found += [(m.start(), m.group(0)) for m in _TERMINAL.finditer(text)]
    return [piece for _, piece in sorted(found)]


def lesson_texts(lesson: Lesson) -> Iterator[tuple[FieldPath, Text]]:
    """Every text of a lesson with its field path: title, summary, each step's text and task texts."""
    yield ("title",), lesson.title
    if lesson.summary is not None:
        yield ("summary",), lesson.summary
    for step in lesson.steps:
        yield (*step.where, "text"), step.text
        task = step.task
        if task is None:
            continue
        at: FieldPath = (*step.where, "task")
        if task.prompt is not None:
            yield (*at, "prompt"), task.prompt
        for i, hint in enumerate(task.hints):
            yield (*at, "hints", i), hint
        for i, feedback in enumerate(task.feedback):
            yield (*at, "feedback", i, "text"), feedback.text
        if task.success is not None:
            yield (*at, "success"), task.success


def browser_problems(text: Text) -> list[str]:
    """Why ``text`` would read as the terminal's in the browser (empty: it reads as the page's)."""
    problems = []
    shown = text.for_front(WEB)
    for lang, raw, page in (("en", text.en, shown.en), ("ru", text.ru, shown.ru)):
        if raw is None:
            continue
        if page is None:
            problems.append(f"the browser's wording has no Russian ({lang}): add web.ru")
            continue
        found = terminal_notation(page)
        if found:
            pieces = ", ".join(dict.fromkeys(found))
            problems.append(f"the browser would show the terminal's {pieces} ({lang}): add a web wording")
        elif text.web is None and _JOKER_LETTERS.search(raw):
            problems.append(f"a joker by its letter ({lang}): write its name, or add a web wording")
    return problems


__all__ = ["browser_problems", "lesson_texts", "terminal_notation"]
