"""``ddz learn`` (the course and its interactive runner) and ``ddz lessons validate``.

The decisions — is this answer right, which hint comes next, how many stars —
are made by :mod:`tutor.lessons.runner`; this module only shows the steps,
reads what the learner types and saves progress in the learner's store.
"""

from __future__ import annotations

import json
from dataclasses import asdict
import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tutor.cli.errors import handle_user_errors
from tutor.cli.help_text import TranslatedCommand, TranslatedGroup, use_language
from tutor.cli.render import cards_text
from tutor.coach.status import bid_status, pass_status, play_status
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.i18n import language, t
from tutor.lessons.course import find_lesson, load_course
from tutor.lessons.model import SEATS, YOU, Lesson, Setup, TaskType
from tutor.lessons.moves import parse_move
from tutor.lessons.progress import ProgressBook
from tutor.lessons.runner import LessonRun, Outcome, Verdict
from tutor.lessons.validate import validate_paths
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


def _answer_text(run: LessonRun, answer: str) -> str:
    """A revealed answer as the learner would type it: kinds by their shown names, not labels."""
    task = run.step.task
    if task is not None and task.type == TaskType.NAME:
        return t("lessons.none_word") if answer == "none" else t(f"rules.kind_{answer}")
    return answer


def _open_book() -> tuple[Store, ProgressBook]:
    store = Store.open()
    return store, ProgressBook(store)


def _choose_language(lang: str | None, store: Store) -> None:
    use_language(store.get_setting("lang", None), given=lang)


# ---------------------------------------------------------------------- showing


def show_setup(console: Console, setup: Setup, trick_hands: list[Cards | None] | None = None,
               counts: list[int | None] | None = None, table: Combo | None = None,
               table_by: int | None = None) -> None:
    """Print a lesson position: roles, hands (shown or counted), the table, the history."""
    if setup.landlord is not None:
        console.print(t("lessons.landlord_line", seat=_seat(setup.landlord), bid=setup.bid or "?"))
    else:
        console.print(t("lessons.no_landlord"))
    if setup.bids:
        bids = ", ".join(f"{_seat(s)} {b if b else t('lessons.bid_pass')}" for s, b in setup.bids)
        console.print(t("lessons.bids_line", bids=bids))
    if setup.kitty is not None:
        console.print(t("lessons.kitty_line", cards=_cards(setup.kitty)))
    hands = trick_hands if trick_hands is not None else [setup.hands.get(s) for s in range(3)]
    held = counts if counts is not None else [setup.count(s) for s in range(3)]
    for seat in (2, 1, 0):
        role = t("lessons.role_landlord") if setup.landlord == seat else t("lessons.role_farmer")
        if setup.landlord is None:
            role = "—"
        hand = hands[seat]
        if hand is not None and (seat in setup.show or seat == YOU):
            line = Text("  " + t("lessons.hand_line", seat=_seat(seat), role=role, cards="").rstrip() + " ")
            line.append_text(cards_text(hand, empty="—"))
            console.print(line)
        elif held[seat] is not None:
            console.print("  " + t("lessons.hand_hidden", seat=_seat(seat), role=role, count=held[seat]))
        elif setup.landlord is not None or seat == YOU:
            console.print("  " + t("lessons.hand_unknown", seat=_seat(seat), role=role))
    if setup.history:
        plays = ", ".join(
            f"{_seat(turn.seat)} {turn.play.text if turn.play is not None else t('lessons.bid_pass')}"
            for turn in setup.history
        )
        console.print(t("lessons.history_line", plays=plays))
    if table is not None and table_by is not None:
        console.print(t("lessons.table_line", cards=table.text, kind=_kind_name(table.kind), seat=_seat(table_by)))
    elif setup.landlord is not None and trick_hands is not None:
        console.print(t("lessons.lead_line"))


def _status_line(run: LessonRun, answer: str) -> tuple[str, bool] | None:
    """The play status line of ``ddz play`` («Trio + 1 · can be played», or why not).

    Returns (line, playable), or None when the step has no hand to play from.
    """
    if run.trick is None or run.trick.hands[YOU] is None:
        return None
    hand = run.trick.hands[YOU]
    assert hand is not None
    try:
        spec = parse_move(answer)
    except ValueError:
        spec = None
    if spec is not None and spec.is_pass:
        status = pass_status(run.trick.table)
    else:
        status = play_status(hand, run.trick.table, answer.split("/")[0])
    return status.line, status.ok


def _show_outcome(console: Console, run: LessonRun, outcome: Outcome) -> None:
    lang = language()
    if outcome.verdict is Verdict.INVALID:
        console.print(t("lessons.invalid", reason=outcome.reason))
        return
    if outcome.verdict is Verdict.WRONG:
        console.print(t("lessons.wrong"))
        if outcome.text is not None:
            console.print(outcome.text.get(lang))
        if outcome.mistake is not None:
            console.print(t("lessons.mistake", name=t(f"lessons.mistake_{outcome.mistake.value}")))
        if outcome.reason:
            console.print(outcome.reason)
        return
    for seat, move in outcome.replies:
        if move is None:
            console.print(t("lessons.reply_pass", seat=_seat(seat).capitalize()))
        else:
            console.print(t("lessons.reply", seat=_seat(seat).capitalize(), move=move.text))
    if outcome.step_done:
        console.print(t("lessons.correct"))
        if outcome.text is not None:
            console.print(outcome.text.get(lang))
        if outcome.won:
            console.print(t("lessons.line_won"))
    else:
        console.print(t("lessons.line_continue"))


def _prompt_key(run: LessonRun) -> str:
    task = run.step.task
    assert task is not None
    return {
        TaskType.PLAY: "lessons.prompt_play",
        TaskType.LINE: "lessons.prompt_line",
        TaskType.BID: "lessons.prompt_bid",
        TaskType.NAME: "lessons.prompt_name",
        TaskType.SCORE: "lessons.prompt_score",
    }[task.type]


def _show_task_state(console: Console, run: LessonRun) -> None:
    task = run.step.task
    setup = run.setup
    if setup is not None:
        if task is not None and task.type in (TaskType.PLAY, TaskType.LINE) and run.trick is not None:
            show_setup(console, setup, list(run.trick.hands), list(run.trick.counts), run.trick.table,
                       run.trick.table_by)
        else:
            show_setup(console, setup)
    if task is not None and task.type == TaskType.BID and setup is not None and YOU in setup.hands:
        console.print(Text(bid_status(setup.hands[YOU]).line, style="dim"))
    if task is not None and task.type == TaskType.NAME and task.cards is not None:
        console.print(t("lessons.cards_to_name", cards=_cards(task.cards)))
        console.print(t("lessons.kinds_list"))
    if task is not None and task.prompt is not None:
        console.print(task.prompt.get(language()))


def run_lesson(lesson: Lesson, number: int, total: int, console: Console, read: Callable[[str], str | None],
               run: LessonRun | None = None) -> LessonRun | None:
    """Walk the learner through ``lesson``; None when they quit before the end."""
    run = run or LessonRun(lesson)
    lang = language()
    console.print(f"[bold]{t('lessons.lesson_header', number=number, total=total, title=lesson.title.get(lang), level=lesson.level)}[/bold]")
    if lesson.summary is not None:
        console.print(lesson.summary.get(lang))
    while not run.finished:
        step = run.step
        console.print()
        console.print(f"[dim]{t('lessons.step_header', number=run.index + 1, total=len(lesson.steps))}[/dim]")
        console.print(step.text.get(lang))
        if step.task is None:
            if step.setup is not None:
                show_setup(console, step.setup)
            answer = read(t("lessons.continue_prompt"))
            # Between steps nothing is typed as cards, so a lone "q" may quit too.
            if answer is None or answer.strip().lower() in QUIT_WORDS | {"q"}:
                console.print(t("lessons.quit"))
                return None
            run.advance()
            continue
        _show_task_state(console, run)
        console.print(f"[dim]{t('lessons.commands')}[/dim]")
        while True:
            answer = read(t(_prompt_key(run)))
            if answer is None or answer.strip().lower() in QUIT_WORDS:
                console.print(t("lessons.quit"))
                return None
            word = answer.strip().lower()
            if not word:
                continue
            if word in HINT_WORDS:
                hint = run.hint()
                if hint.text is not None:
                    console.print(t("lessons.hint", text=hint.text.get(lang)))
                elif hint.answer is not None:
                    console.print(t("lessons.hint_answer", answer=_answer_text(run, hint.answer)))
                else:
                    console.print(t("lessons.no_hint"))
                continue
            if word in RESTART_WORDS:
                run.restart_step()
                console.print(t("lessons.restarted"))
                _show_task_state(console, run)
                continue
            if step.task.type in (TaskType.PLAY, TaskType.LINE):
                status = _status_line(run, answer)
                if status is not None:
                    console.print(Text(status[0], style="dim" if status[1] else "yellow"))
                    if not status[1]:
                        continue  # not playable: explained, not counted (as in ddz play)
            outcome = run.answer(answer)
            _show_outcome(console, run, outcome)
            if outcome.step_done:
                break
            if outcome.verdict is Verdict.CORRECT:
                _show_task_state(console, run)
        run.advance()
    return run


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
    for i, lesson in enumerate(course, 1):
        done = progress.get(lesson.id)
        stars = _stars(done.stars) if done else t("lessons.not_done")
        table.add_row(str(i), lesson.title.get(lang), lesson.id, str(lesson.level), stars)
    console.print(table)
    done_count = sum(1 for lesson in course if lesson.id in progress)
    total_stars = sum(progress[lesson.id].stars for lesson in course if lesson.id in progress)
    console.print(t("lessons.progress", done=done_count, total=len(course), stars=total_stars,
                    max_stars=3 * len(course)))
    upcoming = next((lesson for lesson in course if lesson.id not in progress), None)
    console.print(t("lessons.next_lesson", id=upcoming.id) if upcoming else t("lessons.all_done"))


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
@click.option("--lang", type=click.Choice(["en", "ru"]), default=None)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def learn_command(lesson: str | None, reset: bool, lang: str | None, as_json: bool) -> None:
    # Help text: help.learn.  The store stays open for the whole lesson (progress is saved at its end).
    console = _console()
    course = load_course()
    store, book = _open_book()
    try:
        _choose_language(lang, store)
        if reset:
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
        chosen = find_lesson(course, lesson)
        number = course.index(chosen) + 1
        progress = book.all()
        missing = [p for p in chosen.prerequisites if p not in progress]
        if missing:
            console.print(f"[dim]{t('lessons.prerequisite_note', ids=', '.join(missing))}[/dim]")
        run = run_lesson(chosen, number, len(course), console, _reader())
        if run is None:
            return
        saved = book.record(chosen.id, run.stars, run.wrong, run.hints_used)
        console.print()
        console.print(t("lessons.lesson_done", stars=_stars(run.stars), wrong=run.wrong, hints=run.hints_used))
        if saved.stars > run.stars:
            console.print(t("lessons.best_stars", stars=_stars(saved.stars)))
        nxt = course[number] if number < len(course) else None
        console.print(t("lessons.next_lesson", id=nxt.id) if nxt else t("lessons.all_done"))
    finally:
        store.close()


@click.group("lessons", cls=TranslatedGroup)
def lessons_group() -> None:
    # Help text: help.lessons.  Only gathers the authors' tools.
    pass


@lessons_group.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True)
@click.option("--view/--no-view", "view", default=True)
@handle_user_errors
def validate_command(paths: tuple[Path, ...], as_json: bool, view: bool) -> None:
    # Help text: help.lessons.validate.  Exit status 1 when anything is wrong.
    report = validate_paths(list(paths) or None, view=view)
    if as_json:
        click.echo(json.dumps(
            {"files": report.files, "lessons": len(report.lessons),
             "claims": {"proven": report.claims.proven, "unchecked": report.claims.unchecked,
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
        if report.ok:
            click.echo(t("lessons.validate_ok", files=report.files, lessons=len(report.lessons)))
        else:
            click.echo(t("lessons.validate_problems", count=len(report.problems), files=report.files))
    if not report.ok:
        # 2 when a file could not be read at all, 1 when what was read is wrong.
        sys.exit(2 if any(p.code == "io" for p in report.problems) else 1)


COMMANDS = [learn_command, lessons_group]
