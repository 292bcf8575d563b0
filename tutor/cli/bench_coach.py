"""``ddz bench coach``: decision time of the coach's evaluation (logic in :mod:`tutor.bench.coach_bench`)."""

from __future__ import annotations

import json

import click

from tutor.cli.errors import handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.i18n import t


@click.command("coach", cls=TranslatedCommand)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def coach(as_json: bool) -> None:
    # Help text: help.bench.coach.
    from tutor.bench import coach_bench

    figures = coach_bench.run()
    if as_json:
        click.echo(json.dumps({
            "benchmark": "coach", "positions": figures.positions, "median_seconds": round(figures.median, 4),
            "worst_seconds": round(figures.worst, 4),
            "cpu_median_seconds": round(figures.cpu_median, 4), "cpu_worst_seconds": round(figures.cpu_worst, 4), "samples": figures.samples, "exact": figures.exact,
            "load": list(figures.load),
        }))  # fmt: skip
        return
    click.echo(t("bench.coach_figures", positions=figures.positions, median=figures.median, worst=figures.worst,
                 samples=figures.samples, exact=figures.exact))  # fmt: skip
    click.echo(t("bench.coach_cpu", median=figures.cpu_median, worst=figures.cpu_worst))
    click.echo(t("bench.coach_load", load=" ".join(f"{x:.2f}" for x in figures.load)))
    wall_ok = figures.median < 0.3 and figures.worst < 1.5
    cpu_ok = figures.cpu_median < 0.3 and figures.cpu_worst < 1.5
    click.echo(t("bench.coach_target", wall="✓" if wall_ok else "✗", cpu="✓" if cpu_ok else "✗"))
COMMANDS = [coach]
