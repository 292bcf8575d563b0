"""Spaced review: the tasks a learner got wrong come back later, until they stick (issues 21, 30).

A task counts as *missed* when the learner answers it wrongly or has to be
shown the answer (the last hint).  A missed task comes back after 1 day, then
3, then 7 (:data:`INTERVALS`; every 7 days after that): each review moves it
one interval on, whatever the answer.  It leaves the review once answered
right :data:`RIGHTS_TO_LEARN` times (twice) since its last miss; a miss starts
that count again.  Simple, and the learner can see why a task is back.

Tasks are kept by lesson id and step number, so a review always shows the
task as the course has it now; a row whose lesson or step no longer exists is
skipped (the course may be edited between sessions).  The review itself is an
ordinary :class:`~tutor.lessons.model.Lesson` (id :data:`REVIEW_ID`), so the
terminal and the browser run it exactly like any lesson.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone

from tutor.engine.rules import STANDARD
from tutor.lessons.model import Lesson, Step, Text
from tutor.store import Store
from tutor.store.lessons import LessonRows

#: The id of the review "lesson" (never a course lesson's: ids are kebab-case words, this one is reserved).
REVIEW_ID = "review"
#: Days until a missed task is due again, by box (the review after the last box keeps the last interval).
INTERVALS = (1, 3, 7)
#: Right answers in reviews (since the last miss) that retire a task: it is learned.
RIGHTS_TO_LEARN = 2


@dataclass(frozen=True, slots=True)
class ReviewItem:
    lesson: str
    step: int
    box: int
    due: str
    #: Right answers in reviews since the last miss.
    rights: int = 0


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
        """A wrong answer or a revealed answer: due after the first interval when new; a task already in
        the review moves one interval on, and its count of right answers starts again."""
        with self.store.transaction():
            state = self._rows.review_state(lesson, step)
            box = 0 if state is None else min(state[0] + 1, len(INTERVALS) - 1)
            self._rows.set_review(lesson, step, box, self._due(box, now), rights=0)

    def passed(self, lesson: str, step: int, now: datetime | None = None) -> None:
        """Answered cleanly in a review: learned at the second right answer, else one interval on."""
        with self.store.transaction():
            state = self._rows.review_state(lesson, step)
            if state is None:
                return
            box, rights = min(state[0] + 1, len(INTERVALS) - 1), state[1] + 1
            if rights >= RIGHTS_TO_LEARN:
                self._rows.drop_review(lesson, step)
                return
            self._rows.set_review(lesson, step, box, self._due(box, now), rights=rights)

    @staticmethod
    def _due(box: int, now: datetime | None) -> str:
        return _stamp((now or _now()) + timedelta(days=INTERVALS[box]))

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
                    level=1, prerequisites=(), steps=tuple(steps),
                    # one lesson's rules do not fit steps of several: each step keeps its own (Step.rules),
                    # which the runner answers under; the lesson-wide value is only the validator's
                    rules=steps[0].rules if len({s.rules for s in steps}) == 1 else STANDARD)
    return ReviewLesson(lesson, tuple(origins))
