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
    bids = coach_bench.run_bids()
    if as_json:
        click.echo(json.dumps({
            "benchmark": "coach", "positions": figures.positions, "median_seconds": round(figures.median, 4),
            "worst_seconds": round(figures.worst, 4),
            "cpu_median_seconds": round(figures.cpu_median, 4), "cpu_worst_seconds": round(figures.cpu_worst, 4), "samples": figures.samples, "exact": figures.exact,
            "load": list(figures.load),
            "bids": {
                "positions": bids.positions, "median_seconds": round(bids.median, 4),
                "worst_seconds": round(bids.worst, 4), "cpu_median_seconds": round(bids.cpu_median, 4),
                "cpu_worst_seconds": round(bids.cpu_worst, 4), "samples": bids.samples,
                "median_games": bids.games, "median_decisions": bids.decisions, "misfits": bids.misfits,
                "load": list(bids.load),
            },
        }))  # fmt: skip
        return
    click.echo(t("bench.coach_figures", positions=figures.positions, median=figures.median, worst=figures.worst,
                 samples=figures.samples, exact=figures.exact))  # fmt: skip
    click.echo(t("bench.coach_cpu", median=figures.cpu_median, worst=figures.cpu_worst))
    click.echo(t("bench.coach_load", load=" ".join(f"{x:.2f}" for x in figures.load)))
    wall_ok = figures.median < 0.3 and figures.worst < 1.5
    cpu_ok = figures.cpu_median < 0.3 and figures.cpu_worst < 1.5
    click.echo(t("bench.coach_target", wall="✓" if wall_ok else "✗", cpu="✓" if cpu_ok else "✗"))
    click.echo(t("bench.coach_bid_figures", positions=bids.positions, median=bids.median, worst=bids.worst,
                 samples=bids.samples, games=bids.games, decisions=bids.decisions, misfits=bids.misfits))  # fmt: skip
    click.echo(t("bench.coach_cpu", median=bids.cpu_median, worst=bids.cpu_worst))
    click.echo(t("bench.coach_load", load=" ".join(f"{x:.2f}" for x in bids.load)))
    wall_ok = bids.median < 0.3 and bids.worst < 1.5
    cpu_ok = bids.cpu_median < 0.3 and bids.cpu_worst < 1.5
    click.echo(t("bench.coach_target", wall="✓" if wall_ok else "✗", cpu="✓" if cpu_ok else "✗"))
COMMANDS = [coach]
