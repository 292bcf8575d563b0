"""``ddz puzzle`` (today's, random, by id, replay, stats) and ``ddz puzzles`` (generate, validate).

The solving loop reads input exactly as ``ddz play`` does (the same card
notation, commands and status line — :mod:`tutor.cli.input` and
:mod:`tutor.coach.status`); everything that judges a move lives in
:mod:`tutor.puzzles.solving`.  The learner's rating, streak and per-theme
results go to the store (:mod:`tutor.puzzles.progress`).
"""

from __future__ import annotations

import json
import os
import random
import sys
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

import click
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tutor.cli.daily import daily_report, print_daily_report
from tutor.cli.errors import BoundedFloat, BoundedInt, GivenPath, GivenText, MAX_DEAL, handle_user_errors, workers_type
from tutor.cli.help_text import TranslatedCommand, TranslatedGroup, use_language
from tutor.cli.input import Command, parse_entry
from tutor.cli.input import Reader, stdin_reader
from tutor.cli.render import Narrowable, cards_text, combo_text
from tutor.cli.say import say
from tutor.coach.status import combo_name
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD
from tutor.files import InvalidFile, ascii_int, one_line, shown
from tutor.i18n import LANGUAGES, t
from tutor.paths import puzzles_dir
from tutor.puzzles.daily import daily_puzzle_id, parse_date
from tutor.puzzles.library import Library, dump_file, load_file, load_library
from tutor.puzzles.model import PERSONAL_PREFIX, Puzzle, PuzzleFormatError
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.solving import Attempt, Outcome, Played
from tutor.sessions.events import Options, StatusLine
from tutor.sessions.puzzle import (
    Correct,
    MovesMade,
    NotLegal,
    PositionShown,
    PuzzleEvent,
    PuzzleHint,
    PuzzleOver,
    PuzzleSession,
    PuzzleStarted,
    SolutionShown,
    Unclear,
    Wrong,
    goal_phrase,
    display_title,
    idle_phrase,
    moment_data,
    moment_phrase,
    plural,
    pick_random,
    replay_queue,
    seat_phrase,
    with_personal,
)
from tutor.puzzles.themes import Theme
from tutor.solver.position import Role
from tutor.solver.solver import Solver
from tutor.store import Store

SOLUTION_WORDS = ("solution", "s", "решение")


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


# ------------------------------------------------------------------- drawing
def player_name(puzzle: Puzzle, player: int) -> str:
    """"You", "Your partner", "Landlord", "Farmer (right)"… from the learner's seat (index 0)."""
    return seat_phrase(puzzle, player).render()


def theme_name(theme: str) -> str:
    return t(f"puzzles.theme_{theme}")


def goal_text(puzzle: Puzzle) -> str:
    return goal_phrase(puzzle).render()


def header(puzzle: Puzzle, rating: float | None = None, daily: date | None = None) -> Text:
    """What is shown before solving: the id and the rating (the goal heads the position) —
    no title, no themes: they name the idea ("bomb finish") and would give the answer away."""
    text = Text()
    if daily is not None:
        text.append(t("puzzles.daily_title", date=daily.isoformat()) + " · ", style="bold")
    text.append(t("puzzles.puzzle_id", id=puzzle.id), style="bold")
    text.append(" · ")
    text.append(t("puzzles.rating", rating=round(rating if rating is not None else puzzle.rating)))
    return text


def reveal(puzzle: Puzzle) -> Text:
    """Shown once the puzzle is over (solved, solution shown or abandoned): its title and themes."""
    text = Text(t("puzzles.revealed_title", title=display_title(puzzle)), style="dim")
    if puzzle.themes:
        text.append("\n" + t("puzzles.themes", themes=", ".join(theme_name(x) for x in puzzle.themes)))
    return text


def position_panel(attempt: Attempt) -> Narrowable:
    """All hands face up, whose turn it is, and the play to beat."""
    puzzle, pos = attempt.puzzle, attempt.position
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    stacked: list[RenderableType] = [Text(goal_text(puzzle), style="bold")]
    for player, hand in enumerate(pos.hands):
        name = Text(player_name(puzzle, player), style="bold" if player == pos.to_move else "")
        if player == pos.to_move and not pos.is_over:
            name = Text("▶ ") + name
        role = Text(t("puzzles.role_landlord") if pos.roles[player] is Role.LANDLORD else t("puzzles.role_farmer"),
                    style="bold magenta" if pos.roles[player] is Role.LANDLORD else "")
        grid.add_row(name, role, cards_text(hand, "—", grouped=True))
        stacked.append(Text.assemble(name, "  ", role))
        stacked.append(Text.assemble("  ", cards_text(hand, "—", grouped=True)))
    parts: list[RenderableType] = [grid]
    if pos.table is not None and pos.table_by is not None:
        who = player_name(puzzle, pos.table_by)  # a label («Ваш напарник»), here inside a sentence: lower case
        line = Text(t("puzzles.to_beat", who=who[:1].lower() + who[1:]) + " ", style="bold")
        line.append_text(combo_text(pos.table))
        parts.append(line)
    elif not pos.is_over:
        parts.append(Text(t("puzzles.leads", who=player_name(puzzle, pos.to_move)), style="dim"))
    for note in (idle_phrase(puzzle), moment_phrase(puzzle, counts=False)):  # a duel's idle hand; a personal puzzle's moment
        if note is not None:
            parts.append(Text(note.render(), style="dim"))
    title = goal_text(puzzle)
    return Narrowable(Panel(Group(*parts), title=title, title_align="left"),
                      Panel(Group(*stacked, *parts[1:])), wide_from=cell_len(title) + len("╭─  ─╮"))


def played_text(puzzle: Puzzle, played: Played) -> Text:
    text = Text(f"{player_name(puzzle, played.player)}: ", style="bold")
    if played.move is None:
        text.append(t("puzzles.passes"), style="dim")
    else:
        text.append_text(combo_text(played.move))
    return text


def _move_words(move: Combo | None) -> str:
    return t("puzzles.pass_word") if move is None else f"{move.text} ({combo_name(move)})"


# ------------------------------------------------------------------- solving
def render_puzzle_event(console: Console, event: PuzzleEvent) -> None:
    """One puzzle session event as terminal output, in the current language."""
    if isinstance(event, PuzzleStarted):
        console.print(header(event.puzzle, event.rating, event.daily))
        console.print(Text(t("puzzles.intro"), style="dim"))
    elif isinstance(event, PositionShown):
        console.print(position_panel(event.attempt))
    elif isinstance(event, StatusLine):
        console.print(Text(event.render(), style="green" if event.ok else "yellow"))
    elif isinstance(event, NotLegal):
        console.print(Text(t("puzzles.not_legal"), style="yellow"))
    elif isinstance(event, Unclear):  # not "wrong": the solver could not settle it within its budget
        console.print(Text("? " + t("puzzles.unclear"), style="yellow"))
    elif isinstance(event, Options):
        for i, option in enumerate(event.options, 1):
            console.print(f"  {i}. {combo_name(option)}")
    elif isinstance(event, PuzzleHint):
        if event.level == 1:
            kind = t("puzzles.pass_word") if event.move is None else combo_name(event.move)
            kind = kind[:1].lower() + kind[1:]  # inside a sentence: «ход — стрит из 5 карт», not «— Стрит»
            console.print(Text(t("puzzles.hint_kind", kind=kind), style="cyan"))
        else:
            console.print(Text(t("puzzles.hint_move", move=_move_words(event.move)), style="cyan"))


def _render_all(console: Console, session: PuzzleSession, events: list[PuzzleEvent]) -> None:
    puzzle = session.puzzle
    for event in events:
        if isinstance(event, MovesMade):
            for played in event.played:
                console.print(played_text(puzzle, played))
        elif isinstance(event, Correct):
            console.print(Text("✓ " + t("puzzles.correct"), style="bold green"))
            for played in event.replies:
                console.print(played_text(puzzle, played))
        elif isinstance(event, Wrong):
            said = t("puzzles.wrong_stake" if event.keeps_win else "puzzles.wrong")  # a stake: the win kept
            console.print(Text("✗ " + said, style="bold red"))
            for played in event.refutation:
                console.print(Text("   ") + played_text(puzzle, played))
            console.print(t("puzzles.try_again"))
        elif isinstance(event, SolutionShown):
            console.print(Text(t("puzzles.solution_title"), style="bold"))
            for played in event.played:
                console.print(played_text(puzzle, played))
        elif isinstance(event, PuzzleOver):
            _render_over(console, puzzle, event)
        else:
            render_puzzle_event(console, event)


def _render_over(console: Console, puzzle: Puzzle, over: PuzzleOver) -> None:
    if over.solved:
        console.print(Text(t("puzzles.solved"), style="bold green"))
    console.print(reveal(puzzle))  # title and themes only now: before, they would give the idea away
    record = over.record
    if record is not None:
        if record.outcome in (Outcome.SOLVED, Outcome.FAILED):
            console.print(t("puzzles.rating_change", before=round(record.rating_before),
                            after=round(record.rating_after), change=f"{record.change:+.0f}"))
        elif record.outcome is Outcome.UNFINISHED:
            console.print(Text(t("puzzles.unfinished"), style="dim"))
        else:
            console.print(Text(t("puzzles.unrated"), style="dim"))
    if over.streak is not None:
        console.print(plural("puzzles.streak", over.streak).render())


def _act(session: PuzzleSession, line: str) -> list[PuzzleEvent] | None:
    """One line → the session action (None: the learner leaves; [] after help)."""
    word = line.strip().lower()
    if word in SOLUTION_WORDS:
        return session.solution()
    if session.choosing:
        number = ascii_int(word, 3)
        return session.choose(number) if number is not None else []
    entry = parse_entry(line)
    if entry.command is Command.QUIT:
        return None
    if entry.command is Command.HINT:
        return session.hint()
    if entry.command in (Command.HELP, Command.CONFIRM, Command.UNDO, Command.COUNTER):
        return []
    if entry.command is Command.PASS:
        return session.pass_()
    return session.select(entry.text)  # a lone digit is a card here, not a choice


def solve_interactively(console: Console, session: PuzzleSession, read: Reader) -> None:
    """The solving loop: read lines into ``session``, render its events, until the attempt ends."""
    _render_all(console, session, session.start())
    while not session.finished:
        if session.choosing:
            prompt = t("puzzles.choose_prompt", last=session.choosing)
        else:
            prompt = t("puzzles.prompt_you") if session.learners_own_seat else t("puzzles.prompt_partner")
        line = read(prompt)
        events = None if line is None else _act(session, line)
        if events is None:
            events = session.stop()
        elif not events and line is not None and not session.choosing:
            console.print(t("puzzles.help"))
        _render_all(console, session, events)


def _open(lang: str | None) -> tuple[Store, PuzzleProgress]:
    store = Store.open()
    if lang is not None:
        store.set_setting("lang", lang)
    use_language(store.get_setting("lang", None), given=lang)
    return store, PuzzleProgress(store)


#: Fields ``--json`` leaves out before the puzzle is solved: they give the idea away.
SPOILERS = ("title", "themes", "difficulty")


def _public_data(puzzle: Puzzle) -> dict[str, Any]:
    """Position, goal and rating — no solution, title, themes or difficulty signals (they hint)."""
    return {k: v for k, v in puzzle.to_data(with_solution=False).items() if k not in SPOILERS}


def _public(puzzle: Puzzle, extra: dict[str, Any] | None = None) -> str:
    """The puzzle as JSON for solving: position, goal and rating — no solution, title or themes."""
    data = _public_data(puzzle)
    if extra:
        data.update(extra)
    return json.dumps(data, ensure_ascii=False, indent=2)


def _run(puzzle: Puzzle, lang: str | None, daily: date | None = None) -> None:
    console = _console()
    store, progress = _open(lang)
    with store:
        session = PuzzleSession(puzzle, progress=progress, day=daily or date.today(), daily=daily is not None)
        solve_interactively(console, session, stdin_reader(console))


# ------------------------------------------------------------------ commands
class PuzzleGroup(TranslatedGroup):
    """A group whose unknown sub-command is a puzzle id: ``ddz puzzle 3f9a1c``."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        return _id_command(cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        command = self.get_command(ctx, name)
        return name, command, args[1:]


def _id_command(ident: str) -> click.Command:
    @click.command(ident, cls=TranslatedCommand, help_key="puzzle.id", help_values={"id": ident})
    @click.option("--json", "as_json", is_flag=True)
    @click.option("--lang", type=click.Choice(LANGUAGES), default=None)
    @handle_user_errors
    def show(as_json: bool, lang: str | None) -> None:
        library = load_library()
        if ident.startswith(PERSONAL_PREFIX):
            # The ids `ddz puzzle mine --list` shows are the learner's own puzzles: in the store, not the library.
            with Store.open() as store:
                library = with_personal(library, PuzzleProgress(store))
        puzzle = library.get(ident)
        if as_json:
            click.echo(_public(puzzle))
            return
        _run(puzzle, lang)

    return show


@click.group("puzzle", cls=PuzzleGroup, invoke_without_command=True)
@click.option("--date", "day_text", default=None, metavar="YYYY-MM-DD")
@click.option("--json", "as_json", is_flag=True)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@click.pass_context
@handle_user_errors
def puzzle_group(ctx: click.Context, day_text: str | None, as_json: bool, lang: str | None) -> None:
    # Help text: help.puzzle.  Without a subcommand: today's puzzle.
    if ctx.invoked_subcommand is not None:
        return
    day = parse_date(day_text) if day_text else date.today()
    library = load_library()
    puzzle = library.get(daily_puzzle_id(library, day))
    if as_json:
        click.echo(_public(puzzle, {"date": day.isoformat()}))
        return
    _run(puzzle, lang, daily=day)


@puzzle_group.command("random")
@click.option("--theme", type=GivenText(), default=None)
@click.option("--rating", type=BoundedFloat(0, 5000), default=None)
@click.option("--json", "as_json", is_flag=True)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def random_command(theme: str | None, rating: float | None, as_json: bool, lang: str | None) -> None:
    # Help text: help.puzzle.random.
    library = load_library()
    with Store.open() as store:
        progress = PuzzleProgress(store)
        target = progress.learner_rating().rating if rating is None else rating
        seen = progress.attempted_ids()
    puzzle = pick_random(library, theme, target, random.Random(), seen)
    if as_json:
        click.echo(_public(puzzle))
        return
    _run(puzzle, lang)


@puzzle_group.command("replay")
@click.option("--theme", type=GivenText(), default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def replay_command(theme: str | None, lang: str | None) -> None:
    # Help text: help.puzzle.replay.
    with Store.open() as store:
        use_language(store.get_setting("lang", None), given=lang)
        progress = PuzzleProgress(store)
        library = with_personal(load_library(), progress)
        waiting = replay_queue(library, progress, theme)
    if not waiting:
        say(t("puzzles.nothing_to_replay"))
        return
    _run(library.get(waiting[0]), lang)


@puzzle_group.command("mine")
@click.option("--list", "as_list", is_flag=True)
@click.option("--json", "as_json", is_flag=True)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def mine_command(as_list: bool, as_json: bool, lang: str | None) -> None:
    # Help text: help.puzzle.mine.  Finished games are looked at first (new ones only).
    from tutor.puzzles import personal

    store, progress = _open(lang)
    with store:
        if not as_json:
            say(t("puzzles.mine_scanning"), err=True)
        personal.scan(store)
        mine = progress.personal()
        last = progress.last_outcomes()
        waiting = personal.waiting(progress)
    if as_json:
        click.echo(json.dumps([{**_public_data(p), **moment_data(p), "last": last.get(p.id)} for p in mine],
                              ensure_ascii=False, indent=2))
        return
    if as_list:
        if not mine:
            say(t("puzzles.mine_none"))
        for puzzle in mine:
            status = t(f"puzzles.mine_{last.get(puzzle.id, 'new')}")
            moment = moment_phrase(puzzle)
            say(t("puzzles.mine_row", id=puzzle.id,
                         source=puzzle.source.describe() if moment is None else moment.render(),
                         rating=round(puzzle.rating), status=status))
        return
    if not waiting:
        say(t("puzzles.mine_none") if not mine else t("puzzles.mine_all_solved", n=len(mine)))
        return
    say(plural("puzzles.mine_waiting", len(waiting)).render())
    _run(waiting[0], lang)


def mention_personal(console: Console, store: Store, game_id: int, wait: bool = True) -> bool:
    """After a game: say what its scan for personal puzzles found (nothing when there are none).

    The session scans the game in the background (:mod:`tutor.sessions.scans`); with ``wait`` False
    this says nothing yet while that scan runs (returns False: ask again later).  A game no
    background scan has (it failed, or none was started) is scanned here.
    """
    from tutor.puzzles import personal
    from tutor.sessions import scans

    if wait and game_id in scans.pending(store.path):
        console.print(Text(t("mine.scanning_game"), style="dim"))
        scans.wait(store.path, game_id)
    found = scans.result(store.path, game_id)
    if found is None:
        if game_id in scans.pending(store.path):
            return False
        found = personal.scan(store, game_id)
    if found:  # a missed win, or a hard only move the learner found (issue 30): each said as what it is
        from tutor.puzzles.progress import PuzzleProgress

        missed, only, partner = personal.kinds_of_game(PuzzleProgress(store), game_id)
        stakes = personal.stakes_of_game(PuzzleProgress(store), game_id)
        opponents = personal.opponents_of_game(PuzzleProgress(store), game_id)
        finds = personal.opponent_finds_of_game(PuzzleProgress(store), game_id)
        partner_finds = personal.partner_finds_of_game(PuzzleProgress(store), game_id)
        kept = personal.found_of_game(PuzzleProgress(store), game_id)  # a win kept by one of few plays (round 14)
        fastest = personal.fastest_of_game(PuzzleProgress(store), game_id)  # one play at the pace (round 15)
        for key, n in (("puzzles.from_game", missed), ("mine.found_only", only),
                       ("mine.found_partner", partner), ("mine.found_stake", stakes),
                       ("mine.found_opponent", opponents), ("mine.found_opponent_only", finds),
                       ("mine.found_partner_only", partner_finds), ("mine.found_several", kept),
                       ("mine.found_fastest", fastest)):
            if n:
                console.print(Text(plural(key, n).render(), style="cyan"))
    return True


@puzzle_group.command("stats")
@click.option("--json", "as_json", is_flag=True)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def stats_command(as_json: bool, lang: str | None) -> None:
    # Help text: help.puzzle.stats.
    store, progress = _open(lang)
    with store:
        stats = progress.stats(date.today())
    if as_json:
        click.echo(json.dumps({
            "rating": round(stats.rating.rating), "rd": round(stats.rating.rd),
            "attempts": stats.attempts, "solved": stats.solved, "failed": stats.failed,
            "assisted": stats.assisted, "streak": stats.streak, "best_streak": stats.best_streak,
            "themes": {r.theme: {"attempts": r.attempts, "solved": r.solved, "failed": r.failed}
                       for r in stats.themes},
            "to_replay": stats.to_replay,
        }, indent=2))
        return
    console = _console()
    console.print(Text(t("puzzles.stats_rating", rating=round(stats.rating.rating), rd=round(stats.rating.rd)),
                       style="bold"))
    console.print(t("puzzles.stats_counts", attempts=stats.attempts, solved=stats.solved, failed=stats.failed,
                    assisted=stats.assisted))
    console.print(t("puzzles.stats_streak", n=stats.streak, best=stats.best_streak))
    if stats.themes:
        table = Table(title=t("puzzles.stats_themes"), title_justify="left")
        table.add_column(t("puzzles.col_theme"))
        table.add_column(t("puzzles.col_attempts"), justify="right")
        table.add_column(t("puzzles.col_solved"), justify="right")
        table.add_column(t("puzzles.col_failed"), justify="right")
        for row in stats.themes:
            table.add_row(theme_name(row.theme), str(row.attempts), str(row.solved), str(row.failed))
        console.print(table)
    console.print(t("puzzles.stats_replay", n=len(stats.to_replay)))


# ------------------------------------------------------------ ddz puzzles …
@click.group("puzzles", cls=TranslatedGroup)
def puzzles_group() -> None:
    # Help text: help.puzzles.  Only gathers the library tools.
    pass


@puzzles_group.command("generate")
@click.option("-n", "count", type=BoundedInt(1, 10_000), required=True)
@click.option("--seed", type=BoundedInt(0, MAX_DEAL // 100_000), default=0, show_default=True)
@click.option("--workers", type=workers_type(), default=1, show_default=True)
@click.option("--out", "out", type=GivenPath(dir_okay=False, path_type=Path), default=None)
@click.option("--max-nodes", type=BoundedInt(1000, 10**10), default=200_000, show_default=True)
@click.option("--theme", type=GivenText(), default=None)
@click.option("--daily", is_flag=True)
@handle_user_errors
def generate_command(count: int, seed: int, workers: int, out: Path | None, max_nodes: int,
                     theme: str | None, daily: bool) -> None:
    # Help text: help.puzzles.generate.  The progress bar goes to stderr, on a terminal only.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from tutor.puzzles.daily_pool import in_pool
    from tutor.puzzles.generate import generate

    # Never into the installed package (that would change the daily puzzle): the current folder by default.
    out = out or Path.cwd() / f"generated-{seed}.yaml"
    if not out.parent.is_dir() or not os.access(out.parent, os.W_OK):
        raise ValueError(t("puzzles.generate_cannot_write", path=shown(out)))
    known = list(load_library()) if puzzles_dir().is_dir() else []
    if out.exists():
        known += load_file(out)
    # New ids only, so the output can join the library; but a daily pool *replaces* puzzles/daily.yaml, and
    # skipping the pool's own puzzles made the same seed give a year without any of them (docs/puzzles.md).
    existing = {p.id for p in known if not (daily and in_pool(p))}
    err = Console(stderr=True, highlight=False)
    with Progress(t("puzzles.generating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("generate", total=count)
        if daily:  # the daily pool: real games' positions, one process, the proof's own node budget
            from tutor.puzzles.daily_pool import ROOT_NODES, generate_daily

            puzzles = generate_daily(count, seed,  # puzzles are classic endgames
                                     partial(Solver, max_nodes=ROOT_NODES, workers=1, rules=STANDARD),
                                     skip_ids=existing, progress=lambda n: bar.update(task, completed=n))
        else:
            puzzles = generate(count, seed, partial(Solver, max_nodes=max_nodes, rules=STANDARD), workers=workers,
                               skip_ids=existing, progress=lambda n: bar.update(task, completed=n),
                               theme=Theme.parse(theme).value if theme else None)
    command = (f"ddz puzzles generate -n {count} --seed {seed}" + (f" --theme {theme}" if theme else "")
               + (" --daily" if daily else ""))
    try:
        dump_file(puzzles, out, description=f"Generated by `{command}`.")
    except OSError as error:
        raise ValueError(t("puzzles.generate_cannot_write", path=shown(out)) + f" ({error.strerror})") from None
    say(t("puzzles.generated", n=len(puzzles), path=str(out)))


@puzzles_group.command("validate")
@click.argument("paths", nargs=-1, type=GivenPath(path_type=Path))
@click.option("--full", is_flag=True)
@click.option("--schema-only", is_flag=True)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def validate_command(paths: tuple[Path, ...], full: bool, schema_only: bool, as_json: bool) -> None:
    # Help text: help.puzzles.validate.  Exit status 1 when any puzzle is wrong.
    import time

    from tutor.puzzles.verify import verify_all

    started = time.perf_counter()
    try:
        if paths:
            puzzles = [p for path in paths for p in load_file(path)]
            Library(puzzles)  # duplicate ids
        else:
            puzzles = list(load_library(check=True))
    except (InvalidFile, PuzzleFormatError) as error:
        # Read but invalid: one line, exit 1 (a file that cannot be read at all is exit 2).
        click.echo(t("cli.error", message=one_line(str(error), 390)), err=True)
        sys.exit(1)
    problems: dict[str, list[str]] = {}
    if not schema_only:
        for verdict in verify_all(puzzles, partial(Solver, max_seconds=30.0, rules=STANDARD), full=full):
            if not verdict.ok:
                problems[verdict.puzzle_id] = verdict.problems
    daily = daily_report(puzzles, problems, schema_only)
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({"puzzles": len(puzzles), "problems": problems, "seconds": round(seconds, 2),
                               **({"daily": daily.to_data()} if daily is not None else {})}, indent=2))
    else:
        for ident, items in problems.items():
            for item in items:
                click.echo(f"{ident}: {item}")
        if daily is not None:
            print_daily_report(daily)
        click.echo(t("puzzles.validated", n=len(puzzles), bad=len(problems), seconds=seconds))
    if problems:
        sys.exit(1)


#: ``puzzles`` here; the ``puzzle`` group is listed by tutor/cli/streak.py, which adds ``puzzle streak`` to it.
COMMANDS = [puzzles_group]


