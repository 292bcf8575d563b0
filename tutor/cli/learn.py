"""``ddz learn`` (the course and its interactive runner) and ``ddz lessons validate``.

The flow — what counts as an attempt, when a step is done, saving the result,
the next lesson — is :class:`tutor.sessions.lesson.LessonSession`'s, and the
judging is :mod:`tutor.lessons.runner`'s; this module only reads what the
learner types and renders the session's events.
"""

from __future__ import annotations

import json
from dataclasses import asdict
import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from tutor.cli.errors import GivenPath, UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand, TranslatedGroup, use_language
from tutor.cli.render import Narrowable, cards_text, numbered
from tutor.cli.say import reflowed
from tutor.cli.say import say
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.i18n import language, t
from tutor.lessons.course import find_lesson, load_course
from tutor.lessons.model import SEATS, YOU, Lesson, Setup, Step, TaskType
from tutor.lessons.progress import ProgressBook
from tutor.files import shown
from tutor.lessons.review import REVIEW_ID, ReviewBook
from tutor.lessons.validate import expand_paths, validate_paths
from tutor.sessions.events import StatusLine
from tutor.sessions.lesson import (
    Answered,
    HintGiven,
    LessonDone,
    LessonEvent,
    LessonQuit,
    LessonSession,
    LessonStarted,
    Restarted,
    next_lesson,
    review_session,
    StepShown,
    TaskShown,
)
from tutor.store import Store

# No one-letter words: a lone Q is the queen and R the red joker (RULES §1).
QUIT_WORDS = frozenset({"quit", "exit", "выход"})
HINT_WORDS = frozenset({"h", "hint", "?", "подсказка"})
RESTART_WORDS = frozenset({"restart", "заново"})


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _stars(n: int) -> str:
    return "★" * n + "☆" * (3 - n)


def _seat(seat: int) -> str:
    return t(f"lessons.seat_{SEATS[seat]}")


def _cards(cards: Cards | Combo | int) -> str:
    """Cards as the learner types them (``10`` shown as ``T``, jokers ``X``/``D``)."""
    if isinstance(cards, Combo):
        return cards.text
    return str(cards if isinstance(cards, Cards) else Cards(cards))


def _kind_name(kind: Kind) -> str:
    """The combination's name as the table shows it («trio + 1»), in the learner's language."""
    return t(f"rules.kind_{kind.label}")


def _open_book() -> tuple[Store, ProgressBook]:
    store = Store.open()
    return store, ProgressBook(store)


def _choose_language(lang: str | None, store: Store) -> None:
    use_language(store.get_setting("lang", None), given=lang)


# ---------------------------------------------------------------------- showing


def show_setup(console: Console, setup: Setup, trick_hands: list[Cards | None] | None = None,
               counts: list[int | None] | None = None, table: Combo | None = None,
               table_by: int | None = None) -> None:
    """Print a lesson position: roles, hands (shown or counted), the table, the history.

    The seats are the lesson's (``rules.players``: you, right, left — or across too with four players)."""
    layout = setup.rules.seat_layout

    def seat_name(seat: int) -> str:
        return t(f"lessons.seat_{layout[seat]}")

    if setup.landlord is not None:
        console.print(t("lessons.landlord_line", seat=seat_name(setup.landlord), bid=setup.bid or "?"))
    else:
        console.print(t("lessons.no_landlord"))
    if setup.bids:
        bids = ", ".join(f"{seat_name(s)} {b if b else t('lessons.bid_pass')}" for s, b in setup.bids)
        console.print(t("lessons.bids_line", bids=bids))
    if setup.kitty is not None:
        console.print(t("lessons.kitty_line", cards=_cards(setup.kitty)))
    hands = trick_hands if trick_hands is not None else [setup.hands.get(s) for s in range(len(layout))]
    held = counts if counts is not None else [setup.count(s) for s in range(len(layout))]
    for seat in reversed(range(len(layout))):  # the last seat (left) first, you at the bottom
        role = t("lessons.role_landlord") if setup.landlord == seat else t("lessons.role_farmer")
        if setup.landlord is None:
            role = "—"
        hand = hands[seat]
        if hand is not None and (seat in setup.show or seat == YOU):
            line = Text("  " + t("lessons.hand_line", seat=seat_name(seat), role=role, cards="").rstrip() + " ")
            line.append_text(cards_text(hand, empty="—", grouped=True))
            console.print(line)
        elif held[seat] is not None:
            console.print("  " + t("lessons.hand_hidden", seat=seat_name(seat), role=role, count=held[seat]))
        elif setup.landlord is not None or seat == YOU:
            console.print("  " + t("lessons.hand_unknown", seat=seat_name(seat), role=role))
    out = setup.still_out()
    if out is not None:
        console.print(t("lessons.still_out_line", cards=_cards(out)))
    if setup.history:
        plays = ", ".join(
            f"{seat_name(turn.seat)} {turn.play.text if turn.play is not None else t('lessons.bid_pass')}"
            for turn in setup.history
        )
        console.print(t("lessons.history_line", plays=plays))
    if table is not None and table_by is not None:
        console.print(t("lessons.table_line", cards=table.text, kind=_kind_name(table.kind), seat=seat_name(table_by)))
    elif setup.landlord is not None and trick_hands is not None:
        console.print(t("lessons.lead_line"))


_PROMPT_KEYS = {
    TaskType.PLAY: "lessons.prompt_play",
    TaskType.LINE: "lessons.prompt_line",
    TaskType.BID: "lessons.prompt_bid",
    TaskType.NAME: "lessons.prompt_name",
    TaskType.SCORE: "lessons.prompt_score",
}


def _prompt_key(step: Step) -> str:
    """The answer prompt of a task: a rob auction's words (RULES §12.1) and the open hand's (§12.2) too."""
    assert step.task is not None
    if step.task.type == TaskType.SHOW:
        return "course.prompt_show"
    if step.task.type == TaskType.BID and step.setup is not None and step.setup.rules.robs:
        return "course.prompt_rob"
    return _PROMPT_KEYS[step.task.type]


def _show_task(console: Console, shown: TaskShown) -> None:
    task, setup = shown.task, shown.setup
    if setup is not None:
        if shown.hands is not None and shown.counts is not None:
            show_setup(console, setup, list(shown.hands), list(shown.counts), shown.table, shown.table_by)
        else:
            show_setup(console, setup)
    if shown.bid_status is not None:
        console.print(Text(shown.bid_status.line, style="dim"))
    if task.type == TaskType.NAME and task.cards is not None:
        console.print(t("lessons.cards_to_name", cards=_cards(task.cards)))
        console.print(t("lessons.kinds_list"))
    if task.prompt is not None:
        console.print(reflowed(task.prompt.get(language())))


def render_lesson_event(console: Console, event: LessonEvent) -> None:
    """One lesson session event as terminal output, in the current language."""
    lang = language()
    if isinstance(event, LessonStarted):
        lesson = event.lesson
        if event.missing:
            console.print(f"[dim]{t('lessons.prerequisite_note', ids=', '.join(event.missing))}[/dim]")
        title = t("lessons.lesson_header", number=event.number, total=event.total, title=lesson.title.get(lang),
                  level=lesson.level)
        console.print(f"[bold]{title}[/bold]")
        if lesson.summary is not None:
            console.print(reflowed(lesson.summary.get(lang)))
    elif isinstance(event, StepShown):
        console.print()
        console.print(f"[dim]{t('lessons.step_header', number=event.index + 1, total=event.total)}[/dim]")
        console.print(reflowed(event.wording.get(lang)))  # the terminal wraps it to its width
        if event.step.task is None and event.step.setup is not None:
            show_setup(console, event.step.setup)
    elif isinstance(event, TaskShown):
        _show_task(console, event)
    elif isinstance(event, HintGiven):
        console.print(reflowed(event.line.render()))  # an author's hint, wrapped like the step
    elif isinstance(event, Restarted):
        console.print(t("lessons.restarted"))
    elif isinstance(event, StatusLine):
        console.print(Text(event.render(), style="dim" if event.ok else "yellow"))
    elif isinstance(event, Answered):
        for line in event.lines:
            console.print(reflowed(line.render()))  # an author's feedback too
    elif isinstance(event, LessonDone):
        console.print()
        console.print(t("lessons.lesson_done", stars=_stars(event.stars), wrong=event.wrong, hints=event.hints))
        if event.best_stars > event.stars:
            console.print(t("lessons.best_stars", stars=_stars(event.best_stars)))
        console.print(t("lessons.next_lesson", id=event.next_lesson) if event.next_lesson else t("lessons.all_done"))
    elif isinstance(event, LessonQuit):
        console.print(t("lessons.quit"))


def run_lesson(session: LessonSession, console: Console, read: Callable[[str], str | None]) -> None:
    """Read the learner's lines into ``session`` and render what it says, until done or quit."""
    for event in session.start():
        render_lesson_event(console, event)
    while not session.finished:
        task_step = session.has_task
        if task_step:
            console.print(f"[dim]{t('lessons.commands')}[/dim]")
            prompt = t(_prompt_key(session.run.step))
        else:
            prompt = t("lessons.continue_prompt")
        answer = read(prompt)
        word = "" if answer is None else answer.strip().lower()
        # Between steps nothing is typed as cards, so a lone "q" may quit too.
        if answer is None or word in QUIT_WORDS or (not task_step and word == "q"):
            events = session.stop()
        elif not task_step:
            events = session.advance()
        elif not word:
            continue
        elif word in HINT_WORDS:
            events = session.hint()
        elif word in RESTART_WORDS:
            events = session.restart_step()
        else:
            events = session.answer(answer)
        for event in events:
            render_lesson_event(console, event)


# ---------------------------------------------------------------------- commands


def _course_table(console: Console, course: list[Lesson], book: ProgressBook) -> None:
    progress = book.all()
    lang = language()
    table = Table(title=t("lessons.course_title"), show_lines=False, expand=False)
    table.add_column(t("lessons.col_number"), justify="right")
    table.add_column(t("lessons.col_lesson"), overflow="fold")
    table.add_column(t("lessons.col_id"), overflow="fold")
    table.add_column(t("lessons.col_level"), justify="center")
    table.add_column(t("lessons.col_stars"))
    # Below 60 columns the five columns cut titles and codes inside words («старши|нство», «how-a|-game»):
    # one lesson a paragraph instead, wrapped between words.
    lines = [Text(t("lessons.course_title"), style="italic")]
    for i, lesson in enumerate(course, 1):
        done = progress.get(lesson.id)
        stars = _stars(done.stars) if done else t("lessons.not_done")
        table.add_row(str(i), lesson.title.get(lang), lesson.id, str(lesson.level), stars)
        lines.append(Text(t("lessons.course_row", n=i, title=lesson.title.get(lang), id=lesson.id,
                             level=lesson.level, stars=stars)))
    console.print(Narrowable(table, Group(lines[0], numbered(lines[1:]))))
    done_count = sum(1 for lesson in course if lesson.id in progress)
    total_stars = sum(progress[lesson.id].stars for lesson in course if lesson.id in progress)
    console.print(t("lessons.progress", done=done_count, total=len(course), stars=total_stars,
                    max_stars=3 * len(course)))
    upcoming = next_lesson(course, set(progress))
    console.print(t("lessons.next_lesson", id=upcoming.id) if upcoming else t("lessons.all_done"))
    due = len(ReviewBook(book.store).due())
    if due:
        console.print(t("lessons.review_due", count=due))


def _reader() -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        try:
            return click.prompt(prompt, default="", show_default=False, prompt_suffix=" > ")
        except click.Abort as error:
            if isinstance(error.__context__, KeyboardInterrupt):  # Ctrl-C: exit 130 (tutor.cli.main)
                raise KeyboardInterrupt from None
            return None
        except EOFError:
            return None

    return read


@click.command("learn", cls=TranslatedCommand)
@click.argument("lesson", required=False)
@click.option("--reset", is_flag=True)
@click.option("--yes", "-y", "yes", is_flag=True)
@click.option("--lang", type=click.Choice(["en", "ru"]), default=None)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def learn_command(lesson: str | None, reset: bool, yes: bool, lang: str | None, as_json: bool) -> None:
    # Help text: help.learn.  The store stays open for the whole lesson (progress is saved at its end).
    # --reset forgets progress: only after a yes (typed, or --yes for scripts); an empty LESSON is refused.
    if lesson is not None and not lesson.strip():
        raise UserError(t("lessons.empty_lesson"))
    console = _console()
    course = load_course()
    store, book = _open_book()
    try:
        _choose_language(lang, store)
        if reset:
            question = t("lessons.reset_ask_one", id=find_lesson(course, lesson).id) if lesson \
                else t("lessons.reset_ask_all")
            if not yes and not click.confirm(question, default=False):
                say(t("lessons.reset_kept"))
                return
            if lesson:
                chosen = find_lesson(course, lesson)
                book.reset(chosen.id)
                console.print(t("lessons.reset_one", id=chosen.id))
            else:
                console.print(t("lessons.reset_all", count=book.reset()))
            return
        if lesson is None:
            if as_json:
                progress = book.all()
                rows = [
                    {"number": i, "id": les.id, "title": les.title.get(language()), "level": les.level,
                     "prerequisites": list(les.prerequisites),
                     "stars": progress[les.id].stars if les.id in progress else 0}
                    for i, les in enumerate(course, 1)
                ]
                click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
            else:
                _course_table(console, course, book)
            return
        if lesson.strip().lower() == REVIEW_ID:
            session = review_session(course, book)
            if session is None:
                console.print(t("lessons.review_none"))
                return
            run_lesson(session, console, _reader())
            return
        run_lesson(LessonSession(course, find_lesson(course, lesson), book), console, _reader())
    finally:
        store.close()


@click.group("lessons", cls=TranslatedGroup)
def lessons_group() -> None:
    # Help text: help.lessons.  Only gathers the authors' tools.
    pass


@lessons_group.command("validate")
@click.argument("paths", nargs=-1, type=GivenPath(path_type=Path))
@click.option("--json", "as_json", is_flag=True)
@click.option("--view/--no-view", "view", default=True)
@handle_user_errors
def validate_command(paths: tuple[Path, ...], as_json: bool, view: bool) -> None:
    # Help text: help.lessons.validate.  Exit status 1 when anything is wrong, 2 when nothing is there to check.
    if paths and not expand_paths(list(paths)):
        raise UserError(t("lessons.validate_nothing", path=shown(paths[0])))
    report = validate_paths(list(paths) or None, view=view)
    if as_json:
        click.echo(json.dumps(
            {"files": report.files, "lessons": len(report.lessons),
             "course": report.figures(),
             "claims": {"proven": report.claims.proven, "unchecked": report.claims.unchecked,
                        "reachable": report.claims.reachable,
                        **report.claims.by_kind},
             "problems": [asdict(p) for p in report.problems]}, ensure_ascii=False, indent=2))
    else:
        for problem in report.problems:
            click.echo(str(problem))
        kinds = report.claims.by_kind
        if report.ok:  # with problems: one line each and the count, nothing else
            click.echo(t("lessons.validate_claims", proven=report.claims.proven, accepted=kinds.get("accepted", 0),
                         mistakes=kinds.get("mistake", 0), unique=kinds.get("unique", 0),
                         in_deal=kinds.get("accepted_in_deal", 0), unchecked=report.claims.unchecked,
                         view_mistakes=kinds.get("mistake_view", 0), view_unique=kinds.get("unique_view", 0),
                         view_unclear=kinds.get("view_unclear", 0)))
            click.echo(t("lessons.validate_coach", view_accepted=kinds.get("accepted_view", 0),
                         bid_accepted=kinds.get("bid_accepted", 0), bid_mistakes=kinds.get("bid_mistake", 0),
                         scoped=kinds.get("not_contradicted_view", 0),
                         reachable=report.claims.reachable))
            click.echo(t("lessons.validate_course", **report.figures()))
        if report.ok:
            click.echo(t("lessons.validate_ok", files=report.files, lessons=len(report.lessons)))
        else:
            click.echo(t("lessons.validate_problems", count=len(report.problems), files=report.files))
    if not report.ok:
        # 2 when a file could not be read at all, 1 when what was read is wrong.
        sys.exit(2 if any(p.code == "io" for p in report.problems) else 1)


COMMANDS = [learn_command, lessons_group]
