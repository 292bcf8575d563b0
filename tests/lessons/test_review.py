"""Spaced review: missed tasks come back later, in the terminal and the browser flow (issue 21)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tutor.lessons.course import load_course
from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import INTERVALS, REVIEW_ID, ReviewBook, review_lesson
from tutor.sessions.lesson import LessonDone, LessonSession, review_session
from tutor.store import Store

NOW = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)


def test_a_missed_task_climbs_the_boxes_and_falls_back_on_a_miss() -> None:
    book = ReviewBook(Store.open(":memory:"))
    book.missed("cards", 3, NOW)
    assert book.due(NOW) == [] and [i.step for i in book.due(NOW + timedelta(days=1))] == [3]
    book.passed("cards", 3, NOW + timedelta(days=1))
    assert book.due(NOW + timedelta(days=3)) == []  # box 1: three days after the review
    assert book.items()[0].box == 1
    book.missed("cards", 3, NOW + timedelta(days=2))
    assert book.items()[0].box == 0
    for _ in INTERVALS:
        book.passed("cards", 3, NOW)
    assert book.items() == []  # learned


def test_a_wrong_answer_sends_the_task_to_the_review_and_a_clean_review_moves_it_on() -> None:
    store = Store.open(":memory:")
    progress = ProgressBook(store)
    course = load_course()
    cards = next(lesson for lesson in course if lesson.id == "cards")
    session = LessonSession(course, cards, progress)
    session.start()
    while not session.finished:
        if not session.has_task:
            session.advance()
            continue
        if session.run.index == 3:
            session.answer("2")  # the lesson wants the ace: a miss
        session.answer(session.solution())
    reviews = ReviewBook(store)
    assert [(i.lesson, i.step) for i in reviews.items()] == [("cards", 3)]
    assert review_session(course, progress) is None  # due tomorrow, not now
    due = reviews.items()
    review = review_lesson(course, due)
    assert review is not None and review.lesson.id == REVIEW_ID and review.origins == (("cards", 3),)
    assert review.lesson.steps[0].text.en.startswith(cards.title.en)
    again = LessonSession(course, review.lesson, progress, origins=review.origins)
    events = again.start()
    events = again.answer(again.solution())
    assert any(isinstance(e, LessonDone) for e in events)
    assert reviews.items()[0].box == 1
    assert REVIEW_ID not in progress.all()  # a review is not a lesson of the course
