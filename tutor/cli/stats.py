"""``ddz stats``, ``ddz history`` and ``ddz replay GAME_ID``: what the store remembers.

``replay`` steps through a finished game with every hand face up — the way a
teacher goes over a game with a student: Enter for the next action, ``b`` to
step back, ``q`` to stop.  ``--all`` prints every step without waiting.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from tutor.cli.errors import BoundedInt, handle_user_errors
from tutor.cli.help_text import TranslatedCommand, use_language
from tutor.cli.render import Narrowable, combo_text, open_table, signed
from tutor.coach.seats import seat_name
from tutor.engine.rules import Rules
from tutor.engine.view import Turn
from tutor.files import shorten
from tutor.i18n import t
from tutor.sessions.replay import replay_steps
from tutor.store import Store
from tutor.store.games import GameStore


def _open() -> tuple[Store, GameStore]:
    store = Store.open()
    games = GameStore(store)
    use_language(store.get_setting("lang", None))
    return store, games


@click.command("stats", cls=TranslatedCommand)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def stats_command(as_json: bool) -> None:
    # Help text: help.stats.
    store, games = _open()
    with store:
        stats = games.stats()
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False))
        return
    console = Console(highlight=False)
    console.print(Text(t("play.stats_title"), style="bold"))
    console.print(t("play.stats_score", score=signed(stats["score"])))
    if not stats["games"]:
        console.print(t("play.stats_none"))
        return
    console.print(t("play.stats_games", games=stats["games"], wins=stats["wins"]))
    if stats["abandoned"]:
        console.print(t("play.stats_abandoned", n=stats["abandoned"]))
    for role, row in sorted(stats["by_role"].items()):
        console.print(t("play.stats_by_role", role=t(f"play.role_{role}"), **row))
    for level, row in stats["by_level"].items():
        console.print(t("play.stats_by_level", level=t(f"play.level_{level}"), **row))


@click.command("history", cls=TranslatedCommand)
@click.option("--limit", "-n", type=BoundedInt(1, 10_000), default=20, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def history_command(limit: int, as_json: bool) -> None:
    # Help text: help.history.
    store, games = _open()
    with store:
        rows = games.history(limit)
    if as_json:
        out = [
            {
                "id": g.id, "finished_at": g.finished_at, "deal": g.deal, "level": g.level, "role": g.role,
                "won": g.won, "bid": g.bid, "multiplier": g.multiplier, "cost": g.cost, "delta": g.delta,
                "scored": g.scored, "hints": g.hints, "undos": g.undos, "abandoned": g.abandoned,
                "rules": g.rules, "multipliers": list(g.factors),
            }
            for g in rows
        ]
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    console = Console(highlight=False)
    if not rows:
        console.print(t("play.stats_none"))
        return
    grid = Table(title=t("play.history_title"), title_justify="left")
    for key in ("col_id", "col_when", "col_deal", "col_level", "col_role", "col_result", "col_score"):
        grid.add_column(t(f"play.{key}"), no_wrap=key != "col_when")
    # Below 60 columns seven columns left each three or four letters («Разд…», «поме…») and the id none:
    # one game a paragraph instead, wrapped between words.
    lines = [Text(t("play.history_title"), style="italic")]
    for g in rows:
        result = t("play.result_abandoned") if g.abandoned else t("play.result_won") if g.won else t("play.result_lost")
        score = signed(g.delta) if g.scored else t("play.replay_mark")
        cells = dict(id=str(g.id), when=g.finished_at.replace("T", " ")[:16], deal=str(g.deal),
                     level=t(f"play.level_{g.level}"), role=t(f"play.role_{g.role}"), result=result, score=score)
        grid.add_row(*cells.values())
        lines.append(Text(t("play.history_row", **cells)))
    console.print(Narrowable(grid, Group(*lines)))


def _describe_action(action: Turn, rules: Rules) -> Text:
    """A play or a pass of the replay (auction moves and the shown hand come worded: ``step.said``)."""
    if action.play is None:
        return Text(t("play.passes", seat=seat_name(action.seat, rules)), style="dim")
    line = Text(f"{seat_name(action.seat, rules)}: ", style="bold")
    line.append_text(combo_text(action.play))
    return line


@click.command("replay", cls=TranslatedCommand)
@click.argument("game_id", type=BoundedInt(1, 2**63 - 1), metavar="GAME_ID")
@click.option("--all", "show_all", is_flag=True)
@handle_user_errors
def replay_command(game_id: int, show_all: bool) -> None:
    # Help text: help.replay.
    store, games = _open()
    with store:
        found = games.get(game_id)
    if found is None:
        raise ValueError(t("play.replay_unknown", id=shorten(str(game_id), 40)))
    try:
        steps = replay_steps(found.record)
    except ValueError as error:
        raise ValueError(t("play.replay_bad_record", id=game_id, error=error)) from None
    console = Console(highlight=False)
    total = len(steps) - 1
    index = 0
    while True:
        step = steps[index]
        header = t("play.replay_start", deal=step.deal) if index == 0 else t("play.replay_step", n=index, total=total)
        if step.said is not None:
            console.print(Text(step.said.render()))
        elif isinstance(step.action, Turn):
            console.print(_describe_action(step.action, step.rules))
        for remark in step.remarks:  # stored as data: words in the language of this replay
            said = Text(f"{t('play.coach_prefix')}: ", style="bold green")
            console.print(said.append(remark.render(), style="green"), highlight=False)
        console.print(open_table(step.hands, step.landlord, step.kitty, header, step.rules))
        if index == total:
            console.print(t("play.replay_end"))
            if show_all:
                return
        if show_all:
            index += 1
            continue
        console.print(Text(f"{t('play.replay_prompt')}: ", style="bold cyan"), end="")
        line = sys.stdin.readline()
        if not line:
            return
        key = line.strip().lower()
        if key in ("q", "quit"):
            return
        if key in ("b", "back"):
            index = max(0, index - 1)
        elif index < total:
            index += 1
        else:
            return


COMMANDS = [stats_command, history_command, replay_command]
