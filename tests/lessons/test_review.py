"""Spaced review: missed tasks come back later, in the terminal and the browser flow (issue 21)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from tutor.lessons.course import load_course
from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import INTERVALS, REVIEW_ID, RIGHTS_TO_LEARN, ReviewBook, review_lesson
from tutor.sessions.lesson import LessonDone, LessonSession, review_session
from tutor.store import Store

NOW = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)


def test_a_missed_task_comes_back_after_1_3_and_7_days_until_answered_right_twice() -> None:
    book = ReviewBook(Store.open(":memory:"))
    book.missed("cards", 3, NOW)
    assert INTERVALS == (1, 3, 7) and RIGHTS_TO_LEARN == 2
    assert book.due(NOW) == [] and [i.step for i in book.due(NOW + timedelta(days=1))] == [3]
    book.passed("cards", 3, NOW + timedelta(days=1))  # right once: back after 3 days
    assert book.due(NOW + timedelta(days=3)) == [] and len(book.due(NOW + timedelta(days=4))) == 1
    assert (book.items()[0].box, book.items()[0].rights) == (1, 1)
    book.missed("cards", 3, NOW + timedelta(days=4))  # wrong in the review: 7 days, and the count starts again
    assert book.due(NOW + timedelta(days=10)) == [] and len(book.due(NOW + timedelta(days=11))) == 1
    assert (book.items()[0].box, book.items()[0].rights) == (2, 0)
    book.passed("cards", 3, NOW + timedelta(days=11))
    assert book.items()[0].due == (NOW + timedelta(days=18)).isoformat(timespec="seconds")  # 7 days again
    book.passed("cards", 3, NOW + timedelta(days=18))
    assert book.items() == []  # right twice since the last miss: learned


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


def _answer_all(session: LessonSession, wrong: dict[int, str] | None = None) -> None:
    """Play a session through with its solutions, answering ``wrong[step]`` first where given."""
    session.start()
    while not session.finished:
        if not session.has_task:
            session.advance()
            continue
        if wrong and session.run.index in wrong:
            session.answer(wrong[session.run.index])
        session.answer(session.solution())


def test_the_review_schedule_runs_through_the_session_layer_on_injected_dates() -> None:
    """Issue 30: in `ddz learn` (and the web lessons page, the same session), a task answered wrongly
    comes back after 1, 3 and 7 days until it is answered right twice; the dates are injected."""
    store = Store.open(":memory:")
    progress = ProgressBook(store)
    course = load_course()
    cards = next(lesson for lesson in course if lesson.id == "cards")
    _answer_all(LessonSession(course, cards, progress, now=NOW), {3: "2"})  # the ace is right: "2" is a miss
    day = lambda n: NOW + timedelta(days=n)  # noqa: E731
    assert review_session(course, progress, now=day(0)) is None
    assert review_session(course, progress, now=day(1) - timedelta(seconds=1)) is None
    first = review_session(course, progress, now=day(1))
    assert first is not None and first.origins == (("cards", 3),)
    _answer_all(first)  # right (1 of 2)
    assert review_session(course, progress, now=day(3)) is None
    second = review_session(course, progress, now=day(4))  # 1 + 3 days
    assert second is not None
    _answer_all(second, {0: "2"})  # wrong again: the count starts over, next in 7 days
    assert [(i.box, i.rights) for i in ReviewBook(store).items()] == [(2, 0)]
    assert review_session(course, progress, now=day(10)) is None
    third = review_session(course, progress, now=day(11))
    assert third is not None
    _answer_all(third)  # right (1 of 2)
    fourth = review_session(course, progress, now=day(18))
    assert fourth is not None
    _answer_all(fourth)  # right twice: learned
    assert ReviewBook(store).items() == [] and review_session(course, progress, now=day(100)) is None


def test_the_review_is_kept_per_learner(tmp_path: Path) -> None:
    path = tmp_path / "ddz.sqlite3"
    with Store.open(path) as store:
        ReviewBook(store).missed("cards", 3, NOW)
    with Store.open(path, learner=2) as other:
        assert ReviewBook(other).items() == []
        ReviewBook(other).missed("cards", 2, NOW)
    with Store.open(path) as store:
        assert [(i.lesson, i.step) for i in ReviewBook(store).items()] == [("cards", 3)]
