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
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tutor.cli.errors import BoundedFloat, BoundedInt, MAX_DEAL, handle_user_errors, workers_type
from tutor.cli.help_text import TranslatedCommand, TranslatedGroup, use_language
from tutor.cli.input import Command, Entry, parse_entry, selection_status
from tutor.cli.play import Reader, stdin_reader
from tutor.cli.render import cards_text, combo_text
from tutor.coach.status import combo_name
from tutor.engine.combos import Combo, Kind
from tutor.files import InvalidFile, shown
from tutor.i18n import LANGUAGES, t
from tutor.paths import puzzles_dir
from tutor.puzzles.daily import daily_id, parse_date
from tutor.puzzles.library import Library, dump_file, load_file, load_library
from tutor.puzzles.model import GoalType, Puzzle, PuzzleFormatError
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.solving import Attempt, Outcome, Played
from tutor.puzzles.themes import TITLE_ORDER, Theme
from tutor.solver.position import Role
from tutor.solver.solver import Solver
from tutor.store import Store

SOLUTION_WORDS = ("solution", "s", "решение")
#: Solver budget while solving interactively (the shipped positions need far less).
INTERACTIVE_SECONDS = 20.0


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _solver() -> Solver:
    return Solver(max_seconds=INTERACTIVE_SECONDS)


# ------------------------------------------------------------------- drawing
def player_name(puzzle: Puzzle, player: int) -> str:
    """"You", "Your partner", "Landlord", "Farmer (right)"… from the learner's seat (index 0)."""
    pos = puzzle.position
    learner = pos.to_move
    if player == learner:
        return t("puzzles.you")
    if pos.roles[player] is pos.roles[learner]:
        return t("puzzles.partner")
    if pos.roles[player] is Role.LANDLORD:
        return t("puzzles.landlord")
    if pos.players == 2:
        return t("puzzles.farmer")
    return t("puzzles.farmer_right") if (player - learner) % 3 == 1 else t("puzzles.farmer_left")


def theme_name(theme: str) -> str:
    return t(f"puzzles.theme_{theme}")


def goal_text(puzzle: Puzzle) -> str:
    side = t("puzzles.side_landlord") if puzzle.solver_side is Role.LANDLORD else t("puzzles.side_farmers")
    if puzzle.goal.type is GoalType.WIN_IN:
        return t("puzzles.goal_win_in", side=side, n=puzzle.goal.plays)
    if puzzle.goal.type is GoalType.WIN_WITH_BOMB:
        return t("puzzles.goal_win_with_bomb", side=side)
    return t("puzzles.goal_win", side=side)


def display_title(puzzle: Puzzle) -> str:
    """The title in the current language: generated titles are rebuilt from the themes."""
    if puzzle.source.kind != "generated":
        return puzzle.title
    who = t("puzzles.title_landlord") if puzzle.solver_side is Role.LANDLORD else t("puzzles.title_farmer")
    main = next((theme.value for theme in TITLE_ORDER if theme.value in puzzle.themes), None)
    return f"{who}: {theme_name(main) if main else t('puzzles.title_only_win')}"


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


def position_panel(attempt: Attempt) -> Panel:
    """All hands face up, whose turn it is, and the play to beat."""
    puzzle, pos = attempt.puzzle, attempt.position
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    for player, hand in enumerate(pos.hands):
        name = Text(player_name(puzzle, player), style="bold" if player == pos.to_move else "")
        if player == pos.to_move and not pos.is_over:
            name = Text("▶ ") + name
        role = t("puzzles.role_landlord") if pos.roles[player] is Role.LANDLORD else t("puzzles.role_farmer")
        grid.add_row(name, Text(role, style="bold magenta" if pos.roles[player] is Role.LANDLORD else ""),
                     cards_text(hand, "—"))
    parts: list[RenderableType] = [grid]
    if pos.table is not None and pos.table_by is not None:
        line = Text(t("puzzles.to_beat", who=player_name(puzzle, pos.table_by)) + " ", style="bold")
        line.append_text(combo_text(pos.table))
        parts.append(line)
    elif not pos.is_over:
        parts.append(Text(t("puzzles.leads", who=player_name(puzzle, pos.to_move)), style="dim"))
    return Panel(Group(*parts), title=goal_text(puzzle), title_align="left")


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
def _read_move(console: Console, attempt: Attempt, read: Reader) -> str | Combo | None:
    """One line → a move, a command word (``hint``, ``solution``, ``quit``, ``help``) or None (EOF)."""
    pos = attempt.position
    prompt = t("puzzles.prompt_you") if pos.to_move == attempt.puzzle.position.to_move else t("puzzles.prompt_partner")
    while True:
        line = read(prompt)
        if line is None:
            return None
        word = line.strip().lower()
        if word in SOLUTION_WORDS:
            return "solution"
        entry = parse_entry(line)
        if entry.command in (Command.HINT, Command.QUIT, Command.HELP):
            return str(entry.command.value)
        if entry.command is Command.NUMBER:  # a lone digit is a card here, not a choice
            entry = Entry(Command.CARDS, entry.text)
        if entry.command in (Command.CONFIRM, Command.UNDO, Command.COUNTER):
            console.print(t("puzzles.help"))
            continue
        hand = pos.hands[pos.to_move]
        status = selection_status(hand, pos.table, entry)
        console.print(Text(status.line, style="green" if status.ok else "yellow"))
        if not status.ok:
            continue
        if entry.command is Command.PASS:
            return "pass"
        legal = [m for m in pos.legal_moves() if m is not None]
        options = [m for m in legal if m.cards == status.cards.packed] if status.cards else []
        if len(options) == 1:
            return options[0]
        if not options:
            console.print(Text(t("puzzles.not_legal"), style="yellow"))
            continue
        for i, option in enumerate(options, 1):
            console.print(f"  {i}. {combo_name(option)}")
        choice = read(t("puzzles.choose_prompt", last=len(options)))
        if choice is None:
            return None
        if choice.strip().isdigit() and 1 <= int(choice) <= len(options):
            return options[int(choice) - 1]


def solve_interactively(console: Console, puzzle: Puzzle, read: Reader, rating: float | None = None,
                        daily: date | None = None) -> Attempt:
    """The solving loop; returns the attempt (finished or abandoned)."""
    attempt = Attempt(puzzle, _solver())
    console.print(header(puzzle, rating, daily))
    console.print(Text(t("puzzles.intro"), style="dim"))
    for played in attempt.start():
        console.print(played_text(puzzle, played))
    while not attempt.finished:
        console.print(position_panel(attempt))
        choice = _read_move(console, attempt, read)
        if choice is None or choice == "quit":
            break
        if choice == "help":
            console.print(t("puzzles.help"))
            continue
        if choice == "hint":
            level, move = attempt.hint()
            if level == 1:
                kind = t("puzzles.pass_word") if move is None else combo_name(move)
                console.print(Text(t("puzzles.hint_kind", kind=kind), style="cyan"))
            else:
                console.print(Text(t("puzzles.hint_move", move=_move_words(move)), style="cyan"))
            continue
        if choice == "solution":
            console.print(Text(t("puzzles.solution_title"), style="bold"))
            for played in attempt.show_solution():
                console.print(played_text(puzzle, played))
            break
        check = attempt.play(None if choice == "pass" else choice)
        if check.correct:
            console.print(Text("✓ " + t("puzzles.correct"), style="bold green"))
            for played in check.replies:
                console.print(played_text(puzzle, played))
        else:
            console.print(Text("✗ " + t("puzzles.wrong"), style="bold red"))
            for played in check.refutation:
                console.print(Text("   ") + played_text(puzzle, played))
            console.print(t("puzzles.try_again"))
    if attempt.finished and not attempt.used_solution:
        console.print(Text(t("puzzles.solved"), style="bold green"))
    console.print(reveal(puzzle))
    return attempt


def _finish(console: Console, progress: PuzzleProgress, attempt: Attempt, day: date, daily: bool) -> None:
    if attempt.outcome is Outcome.UNFINISHED and not attempt.history and not attempt.hints:
        return
    record = progress.record(attempt, day, daily)
    if record.outcome in (Outcome.SOLVED, Outcome.FAILED):
        console.print(t("puzzles.rating_change", before=round(record.rating_before),
                        after=round(record.rating_after), change=f"{record.change:+.0f}"))
    elif record.outcome is Outcome.UNFINISHED:
        console.print(Text(t("puzzles.unfinished"), style="dim"))
    else:
        console.print(Text(t("puzzles.unrated"), style="dim"))
    if daily:
        current, _ = progress.streak(day)
        console.print(t("puzzles.streak", n=current))


def _open(lang: str | None) -> tuple[Store, PuzzleProgress]:
    store = Store.open()
    if lang is not None:
        store.set_setting("lang", lang)
    use_language(store.get_setting("lang", None), given=lang)
    return store, PuzzleProgress(store)


#: Fields ``--json`` leaves out before the puzzle is solved: they give the idea away.
SPOILERS = ("title", "themes")


def _public(puzzle: Puzzle, extra: dict[str, Any] | None = None) -> str:
    """The puzzle as JSON for solving: position, goal and rating — no solution, title or themes."""
    data = {k: v for k, v in puzzle.to_data(with_solution=False).items() if k not in SPOILERS}
    if extra:
        data.update(extra)
    return json.dumps(data, ensure_ascii=False, indent=2)


def _run(puzzle: Puzzle, lang: str | None, daily: date | None = None) -> None:
    console = _console()
    store, progress = _open(lang)
    with store:
        rating = progress.puzzle_rating(puzzle).rating
        attempt = solve_interactively(console, puzzle, stdin_reader(console), rating, daily)
        _finish(console, progress, attempt, daily or date.today(), daily is not None)


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
        puzzle = load_library().get(ident)
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
    puzzle = library.get(daily_id(library.ids, day))
    if as_json:
        click.echo(_public(puzzle, {"date": day.isoformat()}))
        return
    _run(puzzle, lang, daily=day)


def pick_random(library: Library, theme: str | None, rating: float, rng: random.Random,
                exclude: set[str] | None = None) -> Puzzle:
    """A random puzzle of ``theme`` near ``rating`` (the 30 closest, unseen ones first)."""
    pool = library.with_theme(Theme.parse(theme).value) if theme else list(library)
    if not pool:
        raise ValueError(f"no puzzle with theme {theme!r}")
    fresh = [p for p in pool if p.id not in (exclude or set())] or pool
    fresh.sort(key=lambda p: (abs(p.rating - rating), p.id))
    return rng.choice(fresh[:30])


@puzzle_group.command("random")
@click.option("--theme", default=None)
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
@click.option("--theme", default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def replay_command(theme: str | None, lang: str | None) -> None:
    # Help text: help.puzzle.replay.
    library = load_library()
    with Store.open() as store:
        use_language(store.get_setting("lang", None), given=lang)
        waiting = [i for i in PuzzleProgress(store).to_replay(Theme.parse(theme).value if theme else None)
                   if i in library]
    if not waiting:
        click.echo(t("puzzles.nothing_to_replay"))
        return
    _run(library.get(waiting[0]), lang)


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
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--max-nodes", type=BoundedInt(1000, 10**10), default=200_000, show_default=True)
@click.option("--theme", default=None)
@handle_user_errors
def generate_command(count: int, seed: int, workers: int, out: Path | None, max_nodes: int,
                     theme: str | None) -> None:
    # Help text: help.puzzles.generate.  The progress bar goes to stderr, on a terminal only.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from tutor.puzzles.generate import generate

    # Never into the installed package (that would change the daily puzzle): the current folder by default.
    out = out or Path.cwd() / f"generated-{seed}.yaml"
    if not out.parent.is_dir() or not os.access(out.parent, os.W_OK):
        raise ValueError(t("puzzles.generate_cannot_write", path=shown(out)))
    existing = set(load_library().ids) if puzzles_dir().is_dir() else set()
    if out.exists():
        existing |= {p.id for p in load_file(out)}
    err = Console(stderr=True, highlight=False)
    with Progress(t("puzzles.generating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("generate", total=count)
        puzzles = generate(count, seed, partial(Solver, max_nodes=max_nodes), workers=workers,
                           skip_ids=existing, progress=lambda n: bar.update(task, completed=n),
                           theme=Theme.parse(theme).value if theme else None)
    command = f"ddz puzzles generate -n {count} --seed {seed}" + (f" --theme {theme}" if theme else "")
    try:
        dump_file(puzzles, out, description=f"Generated by `{command}`.")
    except OSError as error:
        raise ValueError(t("puzzles.generate_cannot_write", path=shown(out)) + f" ({error.strerror})") from None
    click.echo(t("puzzles.generated", n=len(puzzles), path=str(out)))


@puzzles_group.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
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
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    problems: dict[str, list[str]] = {}
    if not schema_only:
        for verdict in verify_all(puzzles, partial(Solver, max_seconds=30.0), full=full):
            if not verdict.ok:
                problems[verdict.puzzle_id] = verdict.problems
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({"puzzles": len(puzzles), "problems": problems, "seconds": round(seconds, 2)},
                              indent=2))
    else:
        for ident, items in problems.items():
            for item in items:
                click.echo(f"{ident}: {item}")
        click.echo(t("puzzles.validated", n=len(puzzles), bad=len(problems), seconds=f"{seconds:.1f}"))
    if problems:
        sys.exit(1)


COMMANDS = [puzzle_group, puzzles_group]
