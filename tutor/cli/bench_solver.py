"""``ddz bench solver``: the endgame benchmark (logic in :mod:`tutor.bench.solver_bench`)."""

from __future__ import annotations

import json

import click

from tutor.bench import solver_bench
from tutor.cli.errors import UserError, handle_user_errors
from tutor.i18n import t


@click.command("solver")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--only", "only", metavar="ID", multiple=True, help="Only this position (repeatable).")
@click.option("--quick", is_flag=True, help=f"Give each position {solver_bench.QUICK_LIMIT:g} s at most.")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help=f"Seconds allowed per position (default {solver_bench.FULL_LIMIT:g}).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes that may share a big position's root moves (default: the cores, at most 4).")  # fmt: skip
@click.option("--repeat", type=click.IntRange(min=1), default=1,
              help="Solve each position this many times (fresh processes) and report the medians.")  # fmt: skip
@click.option("--write", is_flag=True,
              help="Write the measured results back into benchmarks/endgames.yaml (all positions only).")  # fmt: skip
@handle_user_errors
def solver(
    as_json: bool,
    only: tuple[str, ...],
    quick: bool,
    max_seconds: float | None,
    workers: int | None,
    repeat: int,
    write: bool,
) -> None:
    """Solve every position of benchmarks/endgames.yaml, each in a fresh process.

    Prints result, wall and CPU seconds, nodes, nodes/s and peak memory per
    position (CPU seconds and memory include the worker processes; with
    --repeat, the medians of that many runs), the
    issue-3 time target (judged on wall time, ✓/✗), and whether
    the answer matches the known one (ok / MISMATCH / new / timeout).
    """
    entries = solver_bench.load_positions()
    if only:
        unknown = sorted(set(only) - {str(e["id"]) for e in entries})
        if unknown:
            raise UserError(t("bench.solver_unknown_id", ids=", ".join(unknown)))
        entries = [e for e in entries if str(e["id"]) in only]
    limit = max_seconds or (solver_bench.QUICK_LIMIT if quick else solver_bench.FULL_LIMIT)
    rows = []
    if not as_json:
        click.echo(t("bench.solver_header"))
    for entry in entries:
        row = solver_bench.measure(entry, limit, workers, repeat)
        rows.append(row)
        if not as_json:
            target = solver_bench.target_seconds(row)
            # Judged on wall time: big positions use several cores at once.
            met = "-" if target is None else ("✓" if row.seconds < target and row.result else "✗")
            result = {"mover_wins": "wins", "mover_loses": "loses"}.get(row.result or "", "unknown")
            click.echo(t("bench.solver_row", id=row.id, result=result, seconds=row.seconds, cpu=row.cpu_seconds,
                         nodes=row.nodes, rate=row.nodes_per_second, mb=row.peak_mb,
                         target="-" if target is None else f"<{target:g}s", met=met, status=row.status))  # fmt: skip
    bad = [r.id for r in rows if r.status == "MISMATCH"]
    if write and not only:
        solver_bench.update_file(rows)
    if as_json:
        click.echo(json.dumps({"benchmark": "solver", "limit_seconds": limit, "positions": [r.to_json() for r in rows],
                               "mismatches": bad}, ensure_ascii=False))  # fmt: skip
    elif bad:
        click.echo(t("bench.solver_mismatch", ids=", ".join(bad)))
    if bad:
        raise SystemExit(1)
