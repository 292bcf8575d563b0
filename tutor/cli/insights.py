"""``ddz insights``: the reasons that cost you the most points over your stored games (issue 29).

The flow is :mod:`tutor.sessions.insights`; this renders it.
"""

from __future__ import annotations

import json

import click

from tutor.cli.errors import BoundedInt, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.say import say


@click.command("insights", cls=TranslatedCommand)
@click.option("--games", type=BoundedInt(1, 10_000), default=20, show_default=True)  # not IntRange: int() reads "１２"
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def insights_command(games: int, as_json: bool) -> None:
    # Help text: help.insights.
    from tutor.sessions.insights import insight_phrases, insights
    from tutor.store import Store

    with Store.open() as store:
        found = insights(store, games)
    if as_json:
        click.echo(json.dumps(found.to_json(), ensure_ascii=False))
        return
    for line in insight_phrases(found):
        say(line.render())


COMMANDS = [insights_command]
