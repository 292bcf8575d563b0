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
from tutor.files import ascii_int
from tutor.i18n import t
from tutor.sessions.mistakes import analyse

if TYPE_CHECKING:
    from collections.abc import Callable

    from tutor.engine.record import GameRecord
    from tutor.sessions.mistakes import MistakesEvent
    from tutor.store import Store


def run_exercises(console: Console, read: Callable[[str], str | None], store: Store, game_id: int,
                  record: GameRecord, deal: int, level: str) -> None:  # fmt: skip
    """Read the learner's tries and render the session's events (the flow is :class:`MistakesSession`)."""
    from tutor.sessions.mistakes import MistakesSession

    console.print(t("mistakes.analysing"), style="dim")
    session = MistakesSession(store, game_id, record, deal, level)
    _render(console, session.start())
    while not session.finished:
        line = read(t("mistakes.prompt"))
        answer = "" if line is None else line.strip().lower()
        if line is None or answer in ("q", "quit", "в", "выход"):
            _render(console, session.stop())
        elif answer in ("skip", "s", "дальше"):
            _render(console, session.skip())
        elif answer in ("show", "решение"):
            _render(console, session.show())
        else:
            _render(console, session.move(line))


def _render(console: Console, events: list[MistakesEvent]) -> None:
    from tutor.cli.render import TableInfo, table
    from tutor.coach.advice import move_text
    from tutor.coach.bidding import points
    from tutor.sessions import mistakes as ms

    for event in events:
        if isinstance(event, ms.NothingToReplay):
            console.print(t("mistakes.none"))
        elif isinstance(event, ms.MomentShown):
            console.print(table(event.view, TableInfo(event.deal, event.level, 0, scored=False)))
            line = ms.moment_phrase(event.index, event.of, event.moment, event.view.rules.base, event.view.rules,
                                    event.choices).render()  # fmt: skip
            console.print(Text(line, style="bold"))
        elif isinstance(event, ms.BidTryJudged):
            key, style = ("mistakes.bid_right", "bold green") if event.accepted else ("mistakes.bid_wrong", "yellow")
            label = event.label
            console.print(t(key, bid=label.render(), score=points(event.expected, event.base)), style=style)
        elif isinstance(event, ms.BidBetterShown):
            best = event.label
            console.print(t("mistakes.bid_shown", best=best.render(), score=points(event.expected, event.base)))
        elif isinstance(event, ms.NotAMove):
            console.print(event.reason.render(), style="red")
        elif isinstance(event, ms.TryJudged):
            chance = round(100 * event.win_chance)
            if event.accepted:
                console.print(t("mistakes.right", move=move_text(event.move), chance=chance), style="bold green")
            else:
                console.print(t("mistakes.wrong", move=move_text(event.move), chance=chance), style="yellow")
        elif isinstance(event, ms.BetterShown):
            console.print(ms.better_phrase(event).render())
        elif isinstance(event, ms.MistakesOver) and event.completed:
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

    number = ascii_int(game_id, 18)
    if number is None:
        raise UserError(t("analyze.bad_game_id", id=game_id[:40]))
    store = Store.open()
    with store:
        found = GameStore(store).get(number)
        if found is None:
            raise UserError(t("analyze.no_game", id=game_id))
        record = GameRecord.from_dict(found.record)
        if as_json:
            rows = analyse(store, number, record)
            click.echo(json.dumps([_row_json(m) for m in rows], ensure_ascii=False))
            return
        console = Console(highlight=False)
        run_exercises(console, stdin_reader(console), store, number, record, found.deal, found.level)


def _row_json(m: Any) -> dict[str, Any]:
    """One stored moment for --json; a choice before the play (move_number ≤ 0: the bid, a call or rob,
    a rob back at -1, the open hand at -2) has expected scores in base stakes, not chances."""
    from tutor.coach.moments import OPEN_MOMENT
    from tutor.sessions.mistakes import is_choice

    noise = _rounded(m.noise)
    if is_choice(m.number):
        return {"move_number": m.number, "kind": "open" if m.number == OPEN_MOMENT else "bid", "move": m.move,
                "better": m.best, "expected_score": round(m.win_chance, 4), "better_score": round(m.best_chance, 4),
                "loss": round(m.loss, 4), "noise": noise, "verdict": m.level, "solved": m.solved,
                "tries": m.tries}  # fmt: skip
    return {"move_number": m.number, "kind": "play", "move": m.move, "better": m.best,
            "win_chance": round(m.win_chance, 4), "win_chance_noise": _rounded(m.chance_err),
            "better_chance": round(m.best_chance, 4), "better_chance_noise": _rounded(m.best_err),
            "loss": round(m.loss, 4), "noise": noise, "verdict": m.level, "solved": m.solved,
            "tries": m.tries}  # fmt: skip


def _rounded(figure: float | None) -> float | None:
    return None if figure is None else round(figure, 4)


COMMANDS = [mistakes_command]
