"""``ddz puzzle streak``: puzzles of rising rating until the first wrong move (the terminal front end).

The run itself is :class:`tutor.sessions.streak.StreakSession`; this module reads
lines into it exactly as ``ddz puzzle`` does and renders its events (the puzzle
events with the puzzle they belong to, and the run's own steps and end).  It adds
the command to ``ddz puzzle``'s group, so ``ddz puzzle`` is loaded from here
(:data:`tutor.cli.main.COMMAND_MODULES`): the puzzle module never imports this one back.
"""

from __future__ import annotations

import random
from typing import cast

import click
from rich.console import Console
from rich.text import Text

from tutor.cli.errors import BoundedInt, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.puzzle import _act, _console, _open, _render_all, played_text, puzzle_group
from tutor.cli.input import Command, Reader, parse_entry, stdin_reader
from tutor.cli.say import say
from tutor.i18n import LANGUAGES, t
from tutor.puzzles.model import Puzzle
from tutor.sessions.puzzle import PuzzleSession, Wrong
from tutor.sessions.streak import StreakEvent, StreakOver, StreakSession, StreakStep


def render_streak_events(console: Console, run: StreakSession, puzzle: Puzzle, events: list[StreakEvent]) -> Puzzle:
    """Render ``events`` (those of ``puzzle`` until a step names the next one); the puzzle shown last."""
    for event in events:
        if isinstance(event, StreakStep):
            puzzle = run.run[event.number - 1]
            console.print(Text(t("streak.step", number=event.number, rating=round(event.rating),
                                 solved=event.solved), style="bold cyan"))
        elif isinstance(event, StreakOver):
            key = "streak.completed" if event.completed else "streak.over"
            console.print(Text(t(key, solved=event.solved), style="bold"))
            if event.best is not None:
                console.print(Text(t("streak.new_best" if event.new_best else "streak.best", best=event.best),
                                   style="bold green" if event.new_best else ""))
        elif isinstance(event, Wrong):  # no "try again" in a streak: the run ends here
            console.print(Text("✗ " + t("puzzles.wrong"), style="bold red"))
            for played in event.refutation:
                console.print(Text("   ") + played_text(puzzle, played))
        else:
            _render_all(console, _Shown(puzzle), [event])  # type: ignore[arg-type]
    return puzzle


class _Shown:
    """What :func:`tutor.cli.puzzle._render_all` reads of a session: the puzzle the events belong to."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle


def run_streak(console: Console, run: StreakSession, read: Reader) -> None:
    """The streak loop: lines into ``run``, its events rendered, until the run is over."""
    console.print(Text(t("streak.intro"), style="dim"))
    shown = render_streak_events(console, run, run.puzzle, run.start())
    while not run.finished:
        if run.choosing:
            prompt = t("puzzles.choose_prompt", last=run.choosing)
        else:
            prompt = t("puzzles.prompt_you") if run.learners_own_seat else t("puzzles.prompt_partner")
        line = read(prompt)
        if line is not None and not run.choosing and parse_entry(line).command is Command.HINT:
            console.print(t("streak.no_hints"))
            continue
        # The run offers the actions of a puzzle session (select, choose, pass_, solution, stop).
        acted = None if line is None else _act(cast(PuzzleSession, run), line)
        events: list[StreakEvent] = run.stop() if acted is None else cast(list[StreakEvent], acted)
        if not events and line is not None and not run.choosing:
            console.print(t("puzzles.help"))
        shown = render_streak_events(console, run, shown, events)


@click.command("streak", cls=TranslatedCommand, help_key="puzzle.streak")
@click.option("--record", "record", is_flag=True)
@click.option("--seed", type=BoundedInt(0, 2**32 - 1), default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@handle_user_errors
def streak_command(record: bool, seed: int | None, lang: str | None) -> None:
    # Help text: help.puzzle.streak.  Unrated: the learner's puzzle rating does not move.
    from tutor.puzzles.library import load_library
    from tutor.puzzles.streak import StreakProgress

    console = _console()
    store, progress = _open(lang)
    with store:
        if record:
            kept = StreakProgress(store).record()
            say(t("streak.record", best=kept.best, runs=kept.runs, last=kept.last))
            return
        run = StreakSession(list(load_library()), progress=progress, seed=random.SystemRandom().randrange(2**32) if seed is None else seed)
        run_streak(console, run, stdin_reader(console))


puzzle_group.add_command(streak_command)
#: ``ddz puzzle`` with its streak (tutor/cli/main.py loads the group from here).
COMMANDS = [puzzle_group]
