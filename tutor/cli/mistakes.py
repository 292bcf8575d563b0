"""``ddz mistakes GAME_ID``: learn from your mistakes in a stored game (also offered on the final card).

Each moment the coach flagged is shown again from your seat, largest loss
first; you type a move (cards or pass), and any move within a small tolerance
of the best is accepted (:mod:`tutor.coach.exercises`).  ``show`` reveals the
better move, ``skip`` goes on, ``quit`` stops.  What you solved is stored.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from tutor.cli.errors import UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.i18n import t
from tutor.sessions.mistakes import analyse, save_game_verdicts, stored  # noqa: F401 - the flow lives in the session layer

if TYPE_CHECKING:
    from collections.abc import Callable

    from tutor.coach.advice import Verdict
    from tutor.engine.record import GameRecord
    from tutor.store import Store
    from tutor.store.mistakes import StoredMistake


def run_exercises(console: Console, read: Callable[[str], str | None], store: Store, game_id: int,
                  record: GameRecord, deal: int, level: str) -> None:  # fmt: skip
    """The interactive loop: every stored mistake of the game, unsolved ones first."""
    from tutor.cli.analyze import _parse_move
    from tutor.cli.render import TableInfo, table
    from tutor.coach import exercises
    from tutor.coach.advice import move_text
    from tutor.store.mistakes import MistakeStore

    console.print(t("mistakes.analysing"), style="dim")
    moments = analyse(store, game_id, record)
    if not moments:
        console.print(t("mistakes.none"))
        return
    moments.sort(key=lambda m: (m.solved, -m.loss, m.number))
    store_ = MistakeStore(store)
    for n, moment in enumerate(moments, 1):
        decision = exercises.at(record, moment.number)
        console.print(table(decision.view, TableInfo(deal, level, 0, scored=False)))
        console.print(Text(t("mistakes.moment", i=n, of=len(moments), n=moment.number, move=moment.move,
                             chance=round(100 * moment.win_chance)), style="bold"))  # fmt: skip
        while True:
            line = read(t("mistakes.prompt"))
            if line is None or line.strip().lower() in ("q", "quit", "в", "выход"):
                return
            answer = line.strip().lower()
            if answer in ("skip", "s", "дальше"):
                break
            if answer in ("show", "решение"):
                console.print(t("mistakes.shown", best=moment.best, best_chance=round(100 * moment.best_chance)))
                break
            try:
                move = _parse_move(decision.view, line)
            except click.ClickException as error:
                console.print(error.format_message(), style="red")
                continue
            result = exercises.check(decision, move)
            store_.record_try(game_id, moment.number, result.accepted)
            chance = round(100 * result.verdict.win_chance)
            if result.accepted:
                console.print(t("mistakes.right", move=move_text(move), chance=chance), style="bold green")
                break
            console.print(t("mistakes.wrong", move=move_text(move), chance=chance), style="yellow")
    console.print(t("mistakes.done"))


@click.command("mistakes", cls=TranslatedCommand)
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def mistakes_command(game_id: str, as_json: bool) -> None:
    # Help text: help.mistakes.
    from tutor.cli.input import stdin_reader
    from tutor.engine.record import GameRecord
    from tutor.store import Store
    from tutor.store.games import GameStore

    if not game_id.isdigit() or len(game_id) > 18:
        raise UserError(t("analyze.bad_game_id", id=game_id[:40]))
    store = Store.open()
    with store:
        found = GameStore(store).get(int(game_id))
        if found is None:
            raise UserError(t("analyze.no_game", id=game_id))
        record = GameRecord.from_dict(found.record)
        if as_json:
            rows = analyse(store, int(game_id), record)
            click.echo(json.dumps([
                {"move_number": m.number, "move": m.move, "better": m.best, "win_chance": round(m.win_chance, 4),
                 "better_chance": round(m.best_chance, 4), "loss": round(m.loss, 4), "verdict": m.level,
                 "solved": m.solved, "tries": m.tries}
                for m in rows
            ], ensure_ascii=False))  # fmt: skip
            return
        console = Console(highlight=False)
        run_exercises(console, stdin_reader(console), store, int(game_id), record, found.deal, found.level)


COMMANDS = [mistakes_command]
