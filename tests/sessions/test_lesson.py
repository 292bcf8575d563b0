"""A whole lesson through LessonSession: attempts, the status line, saving, the next lesson."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.lessons.course import find_lesson, load_course
from tutor.lessons.progress import ProgressBook
from tutor.lessons.runner import Verdict
from tutor.sessions.events import StatusLine
from tutor.sessions.lesson import Answered, LessonDone, LessonSession, next_lesson
from tutor.store import Store


@pytest.fixture(scope="module")
def course() -> list:
    return load_course()


def _to_task(session: LessonSession, n: int) -> None:
    seen = 0
    while True:
        if session.has_task:
            seen += 1
            if seen == n:
                return
        session.advance()


def test_a_whole_lesson_is_saved_with_its_stars_and_names_the_next(course: list, tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        book = ProgressBook(store)
        lesson = find_lesson(course, "singles-pairs")
        session = LessonSession(course, lesson, book)
        events = session.start()
        while not session.finished:
            events = session.answer(session.solution()) if session.has_task else session.advance()
        done = events[-1]
        assert isinstance(done, LessonDone) and done.stars == 3 and done.wrong == 0
        assert book.get(lesson.id) is not None and book.get(lesson.id).stars == 3  # type: ignore[union-attr]
        assert done.next_lesson == course[course.index(lesson) + 1].id


def test_an_unplayable_move_gets_the_status_line_and_is_not_counted(course: list) -> None:
    session = LessonSession(course, find_lesson(course, "singles-pairs"))
    session.start()
    _to_task(session, 3)  # "Lead a pair" from 3557TTK2
    events = session.answer("33")
    assert isinstance(events[0], StatusLine) and not events[0].ok and len(events) == 1
    assert session.run.wrong == 0
    events = session.answer("55")
    assert any(isinstance(e, Answered) and e.outcome.verdict is Verdict.CORRECT for e in events)


def test_one_next_lesson_rule(course: list) -> None:
    assert next_lesson(course, set()) is course[0]
    assert next_lesson(course, {course[0].id}, course[0]) is course[1]
    assert next_lesson(course, {c.id for c in course}) is None
    assert next_lesson(course, {course[1].id}, course[-1]) is course[0]


# ------------------------------------------------------------------ the lines a verdict is told in
from tutor.engine.combos import Combo  # noqa: E402
from tutor.i18n import Phrase  # noqa: E402
from tutor.lessons.model import Mistake, TaskType, Text  # noqa: E402
from tutor.lessons.runner import Hint, Outcome  # noqa: E402
from tutor.sessions.lesson import HintGiven, outcome_lines  # noqa: E402


def test_a_wrong_answer_is_told_as_phrases_rendered_late_in_each_language() -> None:
    outcome = Outcome(Verdict.WRONG, text=Text("Too early.", "Слишком рано."), mistake=Mistake.BEAT_PARTNER,
                      reason="the partner was winning")
    lines = outcome_lines(outcome)
    assert all(isinstance(line, Phrase) for line in lines)
    assert [line.key for line in lines] == ["lessons.wrong", "lessons.feedback", "lessons.mistake",
                                            "lessons.invalid_answer"]
    assert [line.render("en") for line in lines] == [
        "Not this one — try again.", "Too early.", "Beginner mistake: beating your partner", "the partner was winning"]
    assert [line.render("ru") for line in lines][:3] == [
        "Не то — попробуйте ещё раз.", "Слишком рано.", "Ошибка новичка: перехватывать заход у напарника"]


def test_a_right_move_in_a_line_names_the_replies_then_says_what_follows() -> None:
    going_on = outcome_lines(Outcome(Verdict.CORRECT, replies=[(1, Combo.parse("55")), (2, None)]))
    assert going_on[0].render("en") == "Right plays 55" and going_on[0].render("ru") == "Правый: 55"
    assert going_on[-1].key == "lessons.line_continue"
    assert going_on[-2].render("en") == "Left passes" and going_on[-2].render("ru") == "Левый: пас"
    done = outcome_lines(Outcome(Verdict.CORRECT, text=Text("Well led."), step_done=True, won=True))
    assert [line.render("en") for line in done] == ["Correct!", "Well led.", "Your side is out of cards — you win!"]
    assert done[1].render("ru") == "Well led."  # no Russian text written: the author's English


def test_a_not_accepted_answer_says_why_in_one_line() -> None:
    lines = outcome_lines(Outcome(Verdict.INVALID, reason="a trio needs three cards"))
    assert [line.render("en") for line in lines] == ["Not accepted: a trio needs three cards"]
    assert lines[0].render("ru").startswith("Не принимается: ")


def test_a_revealed_name_answer_is_the_kinds_shown_name() -> None:
    given = HintGiven(Hint(answer="trio_single"), TaskType.NAME)
    assert given.line.render("en") == "Answer: trio + 1"  # not the label "trio_single"
    assert HintGiven(Hint(answer="none"), TaskType.NAME).line.render("ru").endswith("нет")
    assert HintGiven(Hint(answer="55"), TaskType.PLAY).line.render("en") == "Answer: 55"
    assert HintGiven(Hint()).line.render("en") == "No hint for this step."


def test_raised_cards_get_the_status_line_without_an_attempt(course: list) -> None:
    session = LessonSession(course, find_lesson(course, "singles-pairs"))
    session.start()
    _to_task(session, 3)  # "Lead a pair" from 3557TTK2
    [status] = session.select("55")
    assert isinstance(status, StatusLine) and status.ok
    [status] = session.select("35")
    assert not status.ok
    assert session.select("  ") == [] and session.run.wrong == 0 and session.has_task
