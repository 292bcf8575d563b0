"""Spaced review: the tasks a learner got wrong come back later, until they stick (issue 21).

A task counts as *missed* when the learner answers it wrongly or has to be
shown the answer (the last hint).  A missed task goes into box 0 and is due
again after :data:`INTERVALS` [0] days; answered cleanly in a review it moves
up a box and comes back after the next, longer interval; after the last box
it is learned and leaves the review.  Missing it again sends it back to box 0.
This is the Leitner schedule — simple, and the learner can see why a task is
back.

Tasks are kept by lesson id and step number, so a review always shows the
task as the course has it now; a row whose lesson or step no longer exists is
skipped (the course may be edited between sessions).  The review itself is an
ordinary :class:`~tutor.lessons.model.Lesson` (id :data:`REVIEW_ID`), so the
terminal and the browser run it exactly like any lesson.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone

from tutor.lessons.model import Lesson, Step, Text
from tutor.store import Store
from tutor.store.lessons import LessonRows

#: The id of the review "lesson" (never a course lesson's: ids are kebab-case words, this one is reserved).
REVIEW_ID = "review"
#: Days until a missed task is due again, by box; after the last box it is learned.
INTERVALS = (1, 3, 7, 21)


@dataclass(frozen=True, slots=True)
class ReviewItem:
    lesson: str
    step: int
    box: int
    due: str


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


class ReviewBook:
    """The missed tasks of the store's learner (rows: :mod:`tutor.store.lessons`, table ``lesson_review``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rows = LessonRows(store)

    def items(self) -> list[ReviewItem]:
        return [ReviewItem(*row) for row in self._rows.review_items()]

    def due(self, now: datetime | None = None) -> list[ReviewItem]:
        """The tasks due at ``now`` (default: the present), the longest overdue first."""
        stamp = _stamp(now or _now())
        return [item for item in self.items() if item.due <= stamp]

    def missed(self, lesson: str, step: int, now: datetime | None = None) -> None:
        """A wrong answer or a revealed answer: back to box 0, due after the first interval."""
        due = _stamp((now or _now()) + timedelta(days=INTERVALS[0]))
        self._rows.set_review(lesson, step, 0, due)

    def passed(self, lesson: str, step: int, now: datetime | None = None) -> None:
        """Answered cleanly in a review: the next box, or learned after the last."""
        with self.store.transaction():
            box = self._rows.review_box(lesson, step)
            if box is None:
                return
            box += 1
            if box >= len(INTERVALS):
                self._rows.drop_review(lesson, step)
                return
            self._rows.set_review(lesson, step, box, _stamp((now or _now()) + timedelta(days=INTERVALS[box])))

    def reset(self, lesson: str | None = None) -> None:
        self._rows.drop_review(lesson)


@dataclass(frozen=True)
class ReviewLesson:
    """A review as a lesson, and where each of its steps comes from (lesson id, step number)."""

    lesson: Lesson
    origins: tuple[tuple[str, int], ...]


def review_lesson(course: list[Lesson], due: list[ReviewItem]) -> ReviewLesson | None:
    """The due tasks as one lesson (each step titled with its lesson); None when nothing is due."""
    by_id = {lesson.id: lesson for lesson in course}
    steps: list[Step] = []
    origins: list[tuple[str, int]] = []
    for item in due:
        lesson = by_id.get(item.lesson)
        if lesson is None or not 0 <= item.step < len(lesson.steps) or lesson.steps[item.step].task is None:
            continue
        step = lesson.steps[item.step]
        title = lesson.title
        text = Text(f"{title.en} — {step.text.en}", f"{title.get('ru')} — {step.text.get('ru')}",
                    None if step.text.web is None else Text(f"{title.en} — {step.text.web.en}",
                                                             f"{title.get('ru')} — {step.text.web.get('ru')}"))
        steps.append(replace(step, text=text))
        origins.append((lesson.id, item.step))
    if not steps:
        return None
    lesson = Lesson(id=REVIEW_ID, title=Text("Review: tasks you missed", "Повторение: задания с ошибками"),
                    level=1, prerequisites=(), steps=tuple(steps))
    return ReviewLesson(lesson, tuple(origins))
