"""``ddz arena``: play bot levels against each other and report how strong they are.

Only translation happens here (options in, a table or JSON out, a progress
bar on a terminal); the games and the statistics are in
:mod:`tutor.bench.arena`.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tutor.bench.arena import ArenaResult, run_arena
from tutor.bots import LEVELS
from tutor.cli.errors import MAX_DEAL, BoundedInt, handle_user_errors, workers_type
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.nobreak import keep_numbers_whole
from tutor.engine.rules import AUCTIONS, variant
from tutor.i18n import number, t
from tutor.sessions.events import rules_phrase

LEVEL = click.Choice(LEVELS, case_sensitive=False)
#: Most deals one arena run plays.
MAX_DEALS = 1_000_000

keep_numbers_whole()  # rich breaks no «12 345» at its no-break space


def _console() -> Console:
    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def _ci(low: float, high: float, digits: int) -> str:
    """An interval in the language's numbers: ``[0.412, 0.598]``, «[0,412; 0,598]» (a comma is Russian's decimal mark)."""
    return t("arena.interval", low=number(low, digits), high=number(high, digits))


def render(result: ArenaResult, console: Console) -> None:
    """The arena's figures as a small table (fits 80 columns, no colour needed)."""
    title_key = "arena.title_bidding" if result.bidding else "arena.title"
    table = Table(title=t(title_key, a=result.a, b=result.b, deals=result.deals, games=result.games))
    table.add_column(t("arena.column_figure"))
    table.add_column(t("arena.column_value"), justify="right")
    table.add_column(t("arena.column_ci"), justify="right")
    table.add_row(t("arena.wp"), number(result.wp, 3), _ci(*result.wp_ci, 3))
    if result.wp_as_landlord is not None and result.wp_as_farmers is not None:
        table.add_row(t("arena.wp_landlord", a=result.a), number(result.wp_as_landlord, 3), "")
        table.add_row(t("arena.wp_farmers", a=result.a), number(result.wp_as_farmers, 3), "")
    adp_key = "arena.score" if result.bidding else "arena.adp"
    table.add_row(t(adp_key), number(result.adp, 3, signed=True), _ci(*result.adp_ci, 3))
    if result.bidding and result.a_landlord_share is not None:
        table.add_row(t("arena.landlord_share"), number(result.a_landlord_share, 3), "")
    table.add_row(t("arena.speed"), number(result.games_per_second, 1), "")
    for level, (median, worst) in result.decision_ms.items():
        table.add_row(t("arena.decision", level=level), number(median, 2), t("arena.decision_max", ms=number(worst, 0)))
    console.print(table)
    if not result.rules.is_classic or result.rules.players != 3:
        console.print(rules_phrase(result.rules).render())
    low, high = result.wp_ci
    if low > 0.5:
        verdict = t("arena.verdict_stronger", a=result.a, b=result.b)
    elif high < 0.5:
        verdict = t("arena.verdict_weaker", a=result.a, b=result.b)
    else:
        verdict = t("arena.verdict_unclear", a=result.a, b=result.b)
    console.print(verdict)


@click.command(cls=TranslatedCommand)
@click.option("--landlord", "a", type=LEVEL, required=True)
@click.option("--farmers", "b", type=LEVEL, required=True)
@click.option("-n", "deals", type=BoundedInt(1, MAX_DEALS), default=200, show_default=True)
@click.option("--seed", type=BoundedInt(0, MAX_DEAL - MAX_DEALS), default=0, show_default=True)
@click.option("--workers", type=workers_type(), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.option("--bidding", is_flag=True)
@click.option("--auction", type=click.Choice(AUCTIONS), default="bid", show_default=True)
@click.option("--open-hand", "open_hand", is_flag=True)
@click.option("--wildcard", is_flag=True)
@click.option("--players", type=click.Choice(["3", "4"]), default="3", show_default=True)
@handle_user_errors
def arena(
    a: str, b: str, deals: int, seed: int, workers: int, as_json: bool, bidding: bool, auction: str, open_hand: bool,
    wildcard: bool, players: str = "3",
) -> None:
    # Help text: help.arena.  Runs tutor.bench.arena; a progress bar only on a terminal.
    console = _console()
    rules = variant(auction, open_hand, wildcard, int(players))
    show_bar = not as_json and sys.stdout.isatty()
    if show_bar:
        with Progress(
            TextColumn(t("arena.progress", a=a, b=b)),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as bar:
            task = bar.add_task("arena", total=deals)
            result = run_arena(
                a, b, deals, seed=seed, workers=workers, bidding=bidding, progress=lambda k: bar.advance(task, k),
                rules=rules,
            )
    else:
        result = run_arena(a, b, deals, seed=seed, workers=workers, bidding=bidding, rules=rules)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        render(result, console)


COMMANDS = [arena]
