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
