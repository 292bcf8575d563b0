"""``ddz puzzles validate``'s part for the daily pool: its rules checked, its figures printed."""

from __future__ import annotations

from collections.abc import Sequence

import click

from tutor.i18n import number, t
from tutor.puzzles.daily_pool import PoolReport, pool_report
from tutor.puzzles.model import Puzzle


def daily_report(puzzles: Sequence[Puzzle], problems: dict[str, list[str]], schema_only: bool) -> PoolReport | None:
    """The pool's report (None with ``--schema-only``); its problems join ``problems`` (exit 1)."""
    if schema_only:
        return None
    report = pool_report(puzzles)
    for ident, items in report.problems.items():
        problems.setdefault(ident, []).extend(items)
    if report.pool_problems():
        problems.setdefault("daily-pool", []).extend(report.pool_problems())
    return report


def print_daily_report(report: PoolReport) -> None:
    spread = report.ratings
    click.echo(t("streak.validate_pool", n=report.size, legal=number(report.legal_median),
                 live=number(report.live_share, percent=True), tries=number(report.tries_median),
                 depth=number(report.depth_median)))
    if spread:
        click.echo(t("streak.validate_spread", **{k: round(v) for k, v in spread.items()}))
    click.echo(t("streak.validate_heads_up", library=number(report.heads_up_share, percent=True), pool=number(report.heads_up_pool, percent=True)))
