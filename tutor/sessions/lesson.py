"""A lesson of the course, headless: the learner's answers in, events out.

The judging of answers is :class:`tutor.lessons.runner.LessonRun`'s (is it
right, which hint comes next, how many stars); the flow around it is here —
what counts as an attempt (an unplayable move is explained with the status
line and *not* counted), when a step is finished, saving the result in the
learner's progress book, and which lesson comes next (one rule: the next
lesson of the course not yet done after this one, else the first not done).

Example (also in ``docs/api.md``)::

    session = LessonSession(course, "basics-1")
    events = session.start()
    while not session.finished:
        events = session.answer(session.solution()) if session.has_task else session.advance()
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tutor.coach.status import BidStatus, bid_status
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.i18n import Phrase
from tutor.lessons.model import SEATS, TERMINAL, YOU, Lesson, Setup, Step, Task, TaskType, Text
from tutor.lessons.moves import parse_move
from tutor.lessons.table import shown_counts, shown_hands
from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import REVIEW_ID, ReviewBook, review_lesson
from tutor.lessons.runner import Hint, LessonRun, Outcome, Verdict
from tutor.sessions.events import StatusLine


@dataclass(frozen=True, slots=True)
class LessonStarted:
    lesson: Lesson
    number: int
    total: int
    #: Prerequisites of the lesson the learner has not done yet (a note, never a lock).
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StepShown:
    """A new step: its text, and for a step without a task the position to look at."""

    index: int
    total: int
    step: Step
    #: The step's text in the wording of the front end the session speaks to (:meth:`Text.for_front`).
    text: Text | None = None

    @property
    def wording(self) -> Text:
        """The text to show: the front end's wording, else the step's own."""
        return self.text if self.text is not None else self.step.text


@dataclass(frozen=True, slots=True)
class TaskShown:
    """The task of the step as it stands now (after replies, or after a restart)."""

    task: Task
    setup: Setup | None
    #: For play and line tasks: the hands the lesson shows, counts, the table and who played it.
    hands: tuple[Cards | None, ...] | None = None
    counts: tuple[int | None, ...] | None = None
    table: Combo | None = None
    table_by: int | None = None
    #: For bid tasks: the bidding status line of the learner's hand.
    bid_status: BidStatus | None = None


@dataclass(frozen=True, slots=True)
class HintGiven:
    hint: Hint
    #: The task's type (a revealed "name" answer is shown by the kind's name).
    task_type: TaskType | None = None

    @property
    def line(self) -> Phrase:
        """The hint as one line: the author's hint, else the answer as the learner would give it."""
        if self.hint.text is not None:
            return Phrase("lessons.hint", {"text": self.hint.text})
        if self.hint.answer is not None:
            return Phrase("lessons.hint_answer", {"answer": answer_phrase(self.task_type, self.hint.answer)})
        return Phrase("lessons.no_hint")


@dataclass(frozen=True, slots=True)
class Restarted:
    pass


@dataclass(frozen=True, slots=True)
class Answered:
    """The verdict on an answer (the runner's :class:`~tutor.lessons.runner.Outcome`)."""

    outcome: Outcome

    @property
    def ok(self) -> bool:
        return self.outcome.verdict is Verdict.CORRECT

    @property
    def lines(self) -> tuple[Phrase, ...]:
        """What to tell the learner, one phrase a line (see :func:`outcome_lines`)."""
        return outcome_lines(self.outcome)


@dataclass(frozen=True, slots=True)
class LessonDone:
    stars: int
    wrong: int
    hints: int
    #: The best stars ever for this lesson (may be more than this time's).
    best_stars: int
    #: The id of the lesson to do next, or None when the course is done.
    next_lesson: str | None


@dataclass(frozen=True, slots=True)
class LessonQuit:
    pass


LessonEvent = (
    LessonStarted | StepShown | TaskShown | HintGiven | Restarted | Answered | StatusLine | LessonDone | LessonQuit
)


def seat_phrase(seat: int, title: bool = False) -> Phrase:
    """A lesson seat from the learner's chair ("you", "right", "left"; ``title``: at a line's start)."""
    return Phrase(f"lessons.seat_{'title_' if title else ''}{SEATS[seat]}")


def answer_phrase(task_type: TaskType | None, answer: str) -> Phrase | str:
    """A revealed answer as the learner would give it: a kind by its shown name, not its label."""
    if task_type == TaskType.NAME:
        return Phrase("lessons.none_word") if answer == "none" else Phrase(f"rules.kind_{answer}")
    return answer


def outcome_lines(outcome: Outcome) -> tuple[Phrase, ...]:
    """The verdict on an answer as lines, the first one saying right or wrong.

    Not accepted (not counted): why.  Wrong: the author's feedback, the
    beginner mistake it shows, the engine's or solver's reason.  Right: the
    other seats' replies, then either the step's success text (and "you win"
    after a line) or "your turn again".  Data, so that the terminal and the
    web page say the same thing, each in the learner's language.
    """
    if outcome.verdict is Verdict.INVALID:
        return (Phrase("lessons.invalid", {"reason": outcome.reason}),)
    lines: list[Phrase] = []
    if outcome.verdict is Verdict.WRONG:
        lines.append(Phrase("lessons.wrong"))
        if outcome.text is not None:
            lines.append(Phrase("lessons.feedback", {"text": outcome.text}))
        if outcome.mistake is not None:
            lines.append(Phrase("lessons.mistake", {"name": Phrase(f"lessons.mistake_{outcome.mistake.value}")}))
        if outcome.reason:
            lines.append(Phrase("lessons.invalid_answer", {"reason": outcome.reason}))
        return tuple(lines)
    for seat, move in outcome.replies:
        who = seat_phrase(seat, title=True)
        lines.append(Phrase("lessons.reply_pass", {"seat": who}) if move is None
                     else Phrase("lessons.reply", {"seat": who, "move": move.text}))
    if outcome.step_done:
        lines.append(Phrase("lessons.correct"))
        if outcome.text is not None:
            lines.append(Phrase("lessons.feedback", {"text": outcome.text}))
        if outcome.won:
            lines.append(Phrase("lessons.line_won"))
    else:
        lines.append(Phrase("lessons.line_continue"))
    return tuple(lines)


def next_lesson(course: list[Lesson], done: set[str], after: Lesson | None = None) -> Lesson | None:
    """The one "next lesson" rule: the first lesson not done after ``after``, else the first not done."""
    start = course.index(after) + 1 if after is not None else 0
    for lesson in course[start:] + course[:start]:
        if lesson.id not in done and lesson is not after:
            return lesson
    return None


class LessonSession:
    """One go at a lesson.

    Args:
        course: the whole course (for the lesson's number and the next lesson).
        lesson: the lesson to do (an item of ``course``).
        book: where the result is saved (None: nothing saved).
        run: an existing run to continue (tests, resumed lessons).
        front: ``"terminal"`` or ``"web"``: which wording of texts that speak of typing or
            terminal commands the steps show (:meth:`Text.for_front`).
        origins: for a review lesson, the (lesson id, step) each step comes from.
        now: the present for the review's schedule (tests inject a date; default: the clock — a date
            for the learner's calendar, never a budget).

    Every missed task (a wrong answer, or the answer shown by the last hint) is put in the
    learner's spaced review; in a review, a task answered cleanly moves on to a longer interval.
    """

    def __init__(self, course: list[Lesson], lesson: Lesson, book: ProgressBook | None = None,
                 run: LessonRun | None = None, front: str = TERMINAL,
                 origins: tuple[tuple[str, int], ...] | None = None, now: datetime | None = None) -> None:
        self.front = front
        self.now = now
        #: A review (:mod:`tutor.lessons.review`): where each step comes from; None for a course lesson.
        self.origins = origins
        #: Wrong answers and revealed answers on the current step (a miss goes to the review).
        self._slipped = False
        self.course = course
        self.lesson = lesson
        self.book = book
        self.run = run or LessonRun(lesson)
        self.quit = False
        self.done: LessonDone | None = None

    @property
    def finished(self) -> bool:
        return self.done is not None or self.quit

    @property
    def has_task(self) -> bool:
        return not self.run.finished and self.run.step.task is not None

    def solution(self) -> str:
        """The step's expected answer (what the runner's last hint gives away)."""
        return self.run.solution()

    # -------------------------------------------------------------- flow
    def start(self) -> list[LessonEvent]:
        number = self.course.index(self.lesson) + 1 if self.lesson in self.course else 0
        progress = self.book.all() if self.book is not None else {}
        missing = tuple(p for p in self.lesson.prerequisites if p not in progress)
        return [LessonStarted(self.lesson, number, len(self.course), missing), *self._enter_step()]

    def _enter_step(self) -> list[LessonEvent]:
        if self.run.finished:
            return self._finish()
        step = self.run.step
        events: list[LessonEvent] = [StepShown(self.run.index, len(self.lesson.steps), step,
                                               step.text.for_front(self.front))]
        if self.run.step.task is not None:
            events.append(self._task_state())
        return events

    def _task_state(self) -> TaskShown:
        run = self.run
        task = run.step.task
        assert task is not None
        setup = run.setup
        if task.type in (TaskType.PLAY, TaskType.LINE) and run.game is not None and setup is not None:
            game = run.game
            return TaskShown(task, setup, shown_hands(setup, game), shown_counts(setup, game), game.table,
                             game.table_seat)
        status = None
        if task.type == TaskType.BID and setup is not None and YOU in setup.hands and not setup.rules.robs:
            status = bid_status(setup.hands[YOU])
        return TaskShown(task, setup, bid_status=status)

    def advance(self) -> list[LessonEvent]:
        """Past a step without a task (or a finished one): the next step."""
        self.run.advance()
        return self._enter_step()

    def stop(self) -> list[LessonEvent]:
        self.quit = True
        return [LessonQuit()]

    def hint(self) -> list[LessonEvent]:
        task = self.run.step.task
        hint = self.run.hint()
        if hint.answer is not None:
            self._slip()
        if hint.text is not None:
            hint = Hint(hint.text.for_front(self.front), hint.answer)
        return [HintGiven(hint, task.type if task is not None else None)]

    def restart_step(self) -> list[LessonEvent]:
        self.run.restart_step()
        return [Restarted(), self._task_state()]

    def select(self, text: str) -> list[LessonEvent]:
        """Cards raised, nothing answered yet: the play status line (as ``ddz play`` shows it).

        Empty when the step has no hand to play from or nothing is raised. Not an attempt.
        """
        if not self.has_task or not text.strip():
            return []
        status = self._status_line(text)
        return [] if status is None else [status]

    def answer(self, text: str) -> list[LessonEvent]:
        """An answer to the task; an unplayable move gets the status line and is not counted."""
        task = self.run.step.task
        if task is None:
            raise ValueError("this step has no task: advance() to go on")
        events: list[LessonEvent] = []
        if task.type in (TaskType.PLAY, TaskType.LINE):
            status = self._status_line(text)
            if status is not None:
                events.append(status)
                if not status.ok:
                    return events
        outcome = self.run.answer(text)
        if outcome.text is not None:
            outcome.text = outcome.text.for_front(self.front)
        events.append(Answered(outcome))
        if outcome.verdict is Verdict.WRONG:
            self._slip()
        if outcome.step_done:
            self._step_done()
            self.run.advance()
            return events + self._enter_step()
        if outcome.verdict is Verdict.CORRECT:
            events.append(self._task_state())
        return events

    def _status_line(self, answer: str) -> StatusLine | None:
        """The play status line of ``ddz play``, or None when the step has no hand to play from."""
        game, setup = self.run.game, self.run.setup
        if game is None or setup is None or YOU not in setup.hands:
            return None
        hand = game.hand(YOU)
        try:
            is_pass = parse_move(answer).is_pass
        except ValueError:
            is_pass = False
        from tutor.coach.status import pass_status, play_status

        text = answer.split("/")[0]
        ok = (pass_status(game.table) if is_pass else play_status(hand, game.table, text)).ok
        return StatusLine(hand, game.table, text, is_pass, ok)

    def _origin(self) -> tuple[str, int]:
        index = self.run.index
        return self.origins[index] if self.origins is not None else (self.lesson.id, index)

    def _reviews(self) -> ReviewBook | None:
        return ReviewBook(self.book.store) if self.book is not None else None

    def _slip(self) -> None:
        """The first miss on a step goes to the review at once (quitting later keeps it)."""
        if self._slipped:
            return
        self._slipped = True
        reviews = self._reviews()
        if reviews is not None:
            reviews.missed(*self._origin(), now=self.now)

    def _step_done(self) -> None:
        reviews = self._reviews()
        if reviews is not None and self.origins is not None and not self._slipped:
            reviews.passed(*self._origin(), now=self.now)
        self._slipped = False

    def _finish(self) -> list[LessonEvent]:
        run = self.run
        best = run.stars
        done_ids: set[str] = set()
        if self.origins is not None:  # a review: nothing to record as a lesson
            following = next_lesson(self.course, set(self.book.all()) if self.book is not None else set())
            self.done = LessonDone(run.stars, run.wrong, run.hints_used, run.stars,
                                   following.id if following else None)
            return [self.done]
        if self.book is not None:
            saved = self.book.record(self.lesson.id, run.stars, run.wrong, run.hints_used)
            best = saved.stars
            done_ids = set(self.book.all())
        done_ids.add(self.lesson.id)
        following = next_lesson(self.course, done_ids, self.lesson)
        self.done = LessonDone(run.stars, run.wrong, run.hints_used, best, following.id if following else None)
        return [self.done]


def review_session(course: list[Lesson], book: ProgressBook, front: str = TERMINAL,
                   now: datetime | None = None) -> LessonSession | None:
    """A session over the tasks due for review in ``book``'s store at ``now`` (default: the present);
    None when none is due."""
    review = review_lesson(course, ReviewBook(book.store).due(now))
    if review is None:
        return None
    return LessonSession(course, review.lesson, book, front=front, origins=review.origins, now=now)
