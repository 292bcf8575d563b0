"""``ddz bench solver``: the endgame benchmark (logic in :mod:`tutor.bench.solver_bench`)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import click

from tutor.bench import solver_bench
from tutor.cli.errors import BoundedInt, Seconds, UserError, handle_user_errors, workers_type
from tutor.cli.help_text import TranslatedCommand
from tutor.i18n import t
from tutor.paths import checkout_root


@click.command(
    "solver",
    cls=TranslatedCommand,
    help_values={"quick": solver_bench.QUICK_LIMIT, "full": solver_bench.FULL_LIMIT},
)
@click.option("--json", "as_json", is_flag=True)
@click.option("--only", "only", metavar="ID", multiple=True)
@click.option("--quick", is_flag=True)
@click.option("--max-seconds", type=Seconds(86_400.0, zero=False), default=None)
@click.option("--workers", type=workers_type(), default=None)
@click.option("--repeat", type=BoundedInt(1, 100), default=1)
@click.option("--write", is_flag=True)
@click.option("--baseline", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None)
@handle_user_errors
def solver(
    as_json: bool,
    only: tuple[str, ...],
    quick: bool,
    max_seconds: float | None,
    workers: int | None,
    repeat: int,
    write: bool,
    baseline: Path | None,
) -> None:
    # Help text: help.bench.solver.  Exit status 1 on any MISMATCH with the known results.
    if write and checkout_root() is None:  # asked before measuring: an installed package is never rewritten
        raise UserError(t("bench.solver_write_needs_checkout", path=str(solver_bench.endgames_file())))
    entries = solver_bench.load_positions()
    if only:
        unknown = sorted(set(only) - {str(e["id"]) for e in entries})
        if unknown:
            raise UserError(t("bench.solver_unknown_id", ids=", ".join(unknown)))
        entries = [e for e in entries if str(e["id"]) in only]
    limit = max_seconds or (solver_bench.QUICK_LIMIT if quick else solver_bench.FULL_LIMIT)
    if baseline is not None:
        if write:
            raise UserError(t("bench.solver_baseline_no_write"))
        with tempfile.TemporaryDirectory(prefix="ddz-baseline-") as folder:
            try:
                library = solver_bench.build_baseline(baseline, Path(folder))
            except solver_bench.BaselineError as exc:
                raise UserError(t("bench.solver_baseline_build", problem=str(exc)[:200])) from exc
            _side_by_side(entries, library, limit, workers, repeat, as_json)
        return
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


def _side_by_side(
    entries: list[dict[str, object]], library: Path, limit: float, workers: int | None, repeat: int, as_json: bool
) -> None:
    """Each position solved by the baseline core and by this build, in turns; one row each with both figures.

    Exit status 1 when the two disagree on a result or a winning move, or either contradicts the known answer.
    """
    pairs = []
    if not as_json:
        click.echo(t("bench.solver_versus_header"))
    for entry in entries:
        base, ours = solver_bench.measure_against(entry, library, limit, workers, repeat)
        pairs.append((base, ours))
        same = (base.result, base.winning_moves) == (ours.result, ours.winning_moves)
        if not as_json:
            click.echo(t("bench.solver_versus_row", id=ours.id, base_cpu=base.cpu_seconds, cpu=ours.cpu_seconds,
                         speedup=base.cpu_seconds / ours.cpu_seconds if ours.cpu_seconds > 0 else 0.0,
                         base_nodes=base.nodes, nodes=ours.nodes, base_rate=base.nodes_per_cpu_second,
                         rate=ours.nodes_per_cpu_second, base_wall=base.seconds, wall=ours.seconds,
                         same=t("bench.solver_versus_same" if same else "bench.solver_versus_different"), status=ours.status))  # fmt: skip
    bad = [o.id for b, o in pairs if (b.result, b.winning_moves) != (o.result, o.winning_moves) or "MISMATCH" in (b.status, o.status)]
    if as_json:
        click.echo(json.dumps({"benchmark": "solver", "limit_seconds": limit, "baseline": str(library),
                               "positions": [{"baseline": b.to_json(), "this_build": o.to_json()} for b, o in pairs],
                               "mismatches": bad}, ensure_ascii=False))  # fmt: skip
    elif bad:
        click.echo(t("bench.solver_mismatch", ids=", ".join(bad)))
    if bad:
        raise SystemExit(1)


COMMANDS = [solver]
