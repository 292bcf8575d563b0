"""The lesson routes: a thin adapter over :class:`tutor.sessions.lesson.LessonSession`.

The course with progress and stars (the same progress book as ``ddz learn``),
and one lesson step by step: each step's text, its position drawn as a table,
its task answered by chosen cards (play and line tasks) or by an option (bid,
name) or a number (score).  Judging is the session's.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, cast

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.i18n import Phrase, language, speaking, t
from tutor.lessons.model import ROB_WORDS, SEATS, SHOW_WORDS, WEB, YOU, Lesson, Setup, TaskType
from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import REVIEW_ID, ReviewBook
from tutor.lessons.runner import bid_choices
from tutor.sessions import lesson as ls
from tutor.sessions.events import StatusLine
from tutor.web import felt, render
from tutor.web.context import Context, chosen_lang
from tutor.web.errors import ApiError, field_str, quoted, refuse
from tutor.web.holder import Holder, Slot



@lru_cache(maxsize=1)
def course() -> list[Lesson]:
    from tutor.lessons.course import load_course

    return load_course()


def _seat(seat: int) -> str:
    return t(f"lessons.seat_{SEATS[seat]}")


def position(setup: Setup, hands: tuple[Cards | None, ...] | None = None,
             counts: tuple[int | None, ...] | None = None, table: Combo | None = None,
             table_by: int | None = None, task: bool = False) -> dict[str, Any]:
    """A lesson position as a table: each seat's role, shown hand or card count, the play to beat.

    The learner's hand is the one fanned at the bottom; on a task step it is the learner's turn.
    """
    seats = []
    for seat in (YOU, 1, 2):
        hand = hands[seat] if hands is not None else setup.hands.get(seat)
        shown = hand is not None and (seat in setup.show or seat == YOU)
        seats.append(felt.seat(
            seat, ls.seat_phrase(seat, title=True).render(),
            None if setup.landlord is None else ("landlord" if setup.landlord == seat else "farmer"),
            cards=hand if shown else None,
            count=counts[seat] if counts is not None else setup.count(seat),
            last=felt.play(table, to_beat=True) if table is not None and table_by == seat else None,
            to_move=task and seat == YOU, fanned=seat == YOU))
    lines = []
    if setup.bids:
        lines.append(t("lessons.bids_line", bids=", ".join(
            f"{_seat(s)} {b if b else t('lessons.bid_pass')}" for s, b in setup.bids)))
    if setup.history:
        lines.append(t("lessons.history_line", plays=", ".join(
            f"{_seat(turn.seat)} {turn.play.text if turn.play is not None else t('lessons.bid_pass')}"
            for turn in setup.history)))
    out = setup.still_out()
    if out is not None:  # the card counter of a lesson that says which cards are gone
        lines.append(t("lessons.still_out_line", cards=render.page_cards(str(out))))
    you = hands[YOU] if hands is not None else setup.hands.get(YOU)
    return felt.felt(seats, you, kitty=setup.kitty, lines=lines)


def _web_prompt(shown: ls.TaskShown) -> str:
    """The catalogue key of a task's default prompt in the browser (the variants' own words, RULES §12)."""
    if shown.task.type is TaskType.SHOW:
        return "course.web_prompt_show"
    if shown.task.type is TaskType.BID and shown.setup is not None and shown.setup.rules.robs:
        return "course.web_prompt_rob"
    return f"lessons.web_prompt_{shown.task.type.value}"


def _task(shown: ls.TaskShown) -> dict[str, Any]:
    task, setup = shown.task, shown.setup
    out: dict[str, Any] = {"type": "task", "task": task.type.value,
                           "prompt": task.prompt.for_front(WEB).get(language()) if task.prompt is not None
                           else t(_web_prompt(shown))}
    if setup is not None:
        out["felt"] = position(setup, shown.hands, shown.counts, shown.table, shown.table_by, task=True)
    #: Play and line tasks are answered by raising cards of the hand at the bottom.
    out["active"] = task.type in (TaskType.PLAY, TaskType.LINE) and shown.hands is not None \
        and shown.hands[YOU] is not None
    if shown.bid_status is not None:
        out["bid_status"] = shown.bid_status.phrase.render()
    robs = setup is not None and setup.rules.robs
    if task.type is TaskType.BID and robs and setup is not None:  # RULES §12.1: what is open now
        open_now = bid_choices(setup)
        out["options"] = [{"answer": word, "label": t(f"variants.web_{word}") if code else t("web.pass")}
                          for word, code in ROB_WORDS.items() if code in open_now]
    elif task.type is TaskType.BID:
        out["options"] = [{"answer": str(b), "label": t("web.bid", n=b) if b else t("web.pass")} for b in (0, 1, 2, 3)]
    elif task.type is TaskType.SHOW:
        out["options"] = [{"answer": word, "label": t(f"course.{word}")} for word in SHOW_WORDS]
    elif task.type is TaskType.NAME:
        out["cards"] = render.cards(task.cards)
        out["options"] = [{"answer": str(kind.value), "label": t(f"rules.kind_{kind.label}")}
                          for kind in Kind] + [{"answer": "none", "label": t("web.kind_none")}]
    return out


def event(item: object) -> dict[str, Any] | None:
    lang = language()
    if isinstance(item, ls.LessonStarted):
        lesson = item.lesson  # the browser's wording of every text (tutor/lessons/wording.py)
        return {"type": "started", "title": t("lessons.lesson_header", number=item.number, total=item.total,
                                              title=lesson.title.for_front(WEB).get(lang), level=lesson.level),
                "summary": lesson.summary.for_front(WEB).get(lang) if lesson.summary else None}
    if isinstance(item, ls.StepShown):
        out: dict[str, Any] = {"type": "step", "header": t("lessons.step_header", number=item.index + 1,
                                                            total=item.total),
                               "text": item.wording.get(lang), "has_task": item.step.task is not None}
        if item.step.task is None and item.step.setup is not None:
            out["felt"] = position(item.step.setup)
        return out
    if isinstance(item, ls.TaskShown):
        return _task(item)
    if isinstance(item, ls.HintGiven):
        return {"type": "hint", "text": render.said(item.line) if isinstance(item.line, Phrase) else item.line.render()}
    if isinstance(item, ls.Restarted):
        return {"type": "say", "text": t("lessons.restarted")}
    if isinstance(item, StatusLine):
        return {"type": "status", "text": render.page_cards(item.render()), "ok": item.ok}
    if isinstance(item, ls.Answered):
        return {"type": "answered", "ok": item.ok, "lines": [render.said(line) if isinstance(line, Phrase) else line.render() for line in item.lines]}
    if isinstance(item, ls.LessonDone):
        return {"type": "done", "text": t("web.lesson_done", stars=item.stars, wrong=item.wrong, hints=item.hints),
                "stars": item.stars, "next": item.next_lesson}
    return None


def course_rows(book: ProgressBook) -> list[dict[str, Any]]:
    progress = book.all()
    lang = language()
    return [{"number": i, "id": lesson.id, "title": lesson.title.get(lang), "level": lesson.level,
             "stars": progress[lesson.id].stars if lesson.id in progress else None}
            for i, lesson in enumerate(course(), 1)]


def route(action: Any) -> Any:
    def work(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
        with context.store() as store, context.lesson.held() as slot:
            book = ProgressBook(store)
            with speaking(chosen_lang(store, context, query.get("lang"))):
                items: list[Any] = []
                if action is not None:
                    if action is not start:
                        context.lesson.current(slot)
                        Holder.check_rev(slot, body.get("rev"))
                    session: ls.LessonSession | None = slot.session
                    if session is not None and session.finished and action is not start:
                        raise refuse(409, "err_lesson_over")
                    items = action(slot, book, body)
                    if action is not select:  # a look at the raised cards changes nothing
                        slot.rev += 1
                current: ls.LessonSession | None = slot.session
                rows = course_rows(book)
                done = [row for row in rows if row["stars"] is not None]
                progress = t("lessons.progress", done=len(done), total=len(rows),
                             stars=sum(row["stars"] for row in done), max_stars=3 * len(rows))
                return {"rev": slot.rev, "course": rows, "progress": progress,
                        "review_due": len(ReviewBook(book.store).due()),
                        "lesson": None if current is None else {"id": current.lesson.id,
                                                                "finished": current.finished},
                        "events": [e for e in (event(i) for i in items) if e]}

    return work


def start(slot: Slot[Any], book: ProgressBook, body: dict[str, Any]) -> list[Any]:
    ident = field_str(body, "id", limit=80)
    from tutor.lessons.course import find_lesson

    if ident == REVIEW_ID:  # the tasks the learner missed, due now (spaced review)
        review = ls.review_session(course(), book, front=WEB)
        if review is None:
            raise refuse(409, "err_no_review")
        review.book = None  # set around each action, as for any lesson
        slot.session = review
        return review.start()

    try:
        lesson = find_lesson(course(), ident)
    except ValueError:
        raise refuse(404, "err_no_lesson", id=quoted(ident)) from None
    session = ls.LessonSession(course(), lesson, None, front=WEB)
    slot.session = session
    return session.start()


def _act(slot: Slot[Any], book: ProgressBook, call: Any) -> list[Any]:
    session = cast(ls.LessonSession, slot.session)  # route() checked that a lesson is in progress
    session.book = book
    try:
        return list(call(session))
    except ValueError:  # nothing to act on now (the session's words are for developers)
        raise refuse(409, "err_not_now") from None
    finally:
        session.book = None


def answer(slot: Slot[Any], book: ProgressBook, body: dict[str, Any]) -> list[Any]:
    text = field_str(body, "answer", limit=80)
    if not cast(ls.LessonSession, slot.session).has_task:
        raise refuse(409, "err_no_task")
    return _act(slot, book, lambda s: s.answer(text))


def select(slot: Slot[Any], book: ProgressBook, body: dict[str, Any]) -> list[Any]:
    text = field_str(body, "cards", limit=80)
    return list(cast(ls.LessonSession, slot.session).select(text))


def advance(slot: Slot[Any], book: ProgressBook, body: dict[str, Any]) -> list[Any]:
    return _act(slot, book, lambda s: s.advance())


ROUTES = [
    ("/api/lessons", "GET", route(None)),
    ("/api/lesson/start", "POST", route(start)),
    ("/api/lesson/answer", "POST", route(answer)),
    ("/api/lesson/select", "POST", route(select)),
    ("/api/lesson/next", "POST", route(advance)),
    ("/api/lesson/hint", "POST", route(lambda s, b, body: _act(s, b, lambda x: x.hint()))),
    ("/api/lesson/restart", "POST", route(lambda s, b, body: _act(s, b, lambda x: x.restart_step()))),
]
