"""``ddz bench startup``: how fast ``ddz`` starts (logic in :mod:`tutor.bench.startup`)."""

from __future__ import annotations

import json

import click

from tutor.bench import startup
from tutor.cli.errors import BoundedInt, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.i18n import number, t


@click.command("startup", cls=TranslatedCommand)
@click.option("-n", "--runs", type=BoundedInt(1, 100), default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def startup_command(runs: int, as_json: bool) -> None:
    # Help text: help.bench.startup.  Fresh processes only; the load average goes with the figures.
    before = startup.load_average()
    timings = startup.measure(runs)
    after = startup.load_average()
    if as_json:
        click.echo(json.dumps({"benchmark": "startup", "runs": runs, "load_before": before, "load_after": after,
                               "commands": [timing.to_json() for timing in timings]}, ensure_ascii=False))  # fmt: skip
        return
    load = "-" if before is None or after is None else f"{number(before[0], 2)} → {number(after[0], 2)}"
    click.echo(t("bench.startup_header", runs=runs, load=load))
    for timing in timings:
        click.echo(t("bench.startup_row", command="ddz " + " ".join(timing.args), median=timing.median,
                     cpu=timing.cpu_median,
                     low=min(timing.seconds), high=max(timing.seconds), target=timing.target,
                     met="✓" if timing.met else "✗"))  # fmt: skip
    for timing in timings:
        heaviest = ", ".join(f"{name} {ms:.0f}" for name, ms in timing.heaviest)
        click.echo(t("bench.startup_imports", command="ddz " + " ".join(timing.args), ms=timing.import_ms,
                     modules=timing.modules, heaviest=heaviest))  # fmt: skip


COMMANDS = [startup_command]
