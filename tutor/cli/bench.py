"""``ddz bench``: benchmarks that print medians of several runs.

Speed targets are checked here, never by timed unit tests.  The group is meant
to grow: a new benchmark is a click command in its own module (its logic in
:mod:`tutor.bench`), named in :data:`BENCHMARKS` below with one line (it is
imported only when run); its ``--help`` texts go under ``bench.<name>`` in
``tutor/i18n/<lang>/help.yaml``.
"""

from __future__ import annotations

import json

import click

from tutor.cli.errors import MAX_DEAL, BoundedInt, GivenPath, UserError, handle_user_errors
from tutor.cli.help_text import LazyGroup
from tutor.i18n import t

#: Most hands ``bench movegen`` deals (a million takes minutes; more only exhausts memory).
MAX_HANDS = 1_000_000
#: Benchmarks defined in other modules, imported when run (name -> module with a COMMANDS list).
BENCHMARKS = {
    "solver": "tutor.cli.bench_solver",
    "startup": "tutor.cli.bench_startup",
    "coach": "tutor.cli.bench_coach",  # issue 13
}


@click.group(cls=LazyGroup, lazy_commands=BENCHMARKS)
def bench() -> None:
    # Help text: help.bench.  Only gathers the benchmarks (see BENCHMARKS).
    pass


@bench.command("movegen")
@click.option("--hands", "hand_count", type=BoundedInt(1, MAX_HANDS), default=2000, show_default=True)
@click.option("--runs", type=BoundedInt(1, 100), default=5, show_default=True)
@click.option("--seed", type=BoundedInt(0, MAX_DEAL), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.option("--compare-douzero", is_flag=True)
@click.option("--douzero-path", metavar="DIR", type=GivenPath(file_okay=False))
@handle_user_errors
def movegen(
    hand_count: int, runs: int, seed: int, as_json: bool, compare_douzero: bool, douzero_path: str | None
) -> None:
    # Help text: help.bench.movegen.  DouZero is timed only when asked, and found or refused first.
    from tutor.bench import movegen as movegen_bench

    generator = None
    if compare_douzero or douzero_path:
        folder = movegen_bench.find_douzero(douzero_path)
        if folder is None:
            raise UserError(t("bench.douzero_not_found", path=douzero_path or "the import path"))
        generator = movegen_bench.load_douzero(folder)
    hands = movegen_bench.random_hands(hand_count, seed)
    ours = movegen_bench.time_ours(hands, runs)
    result: dict[str, object] = {
        "benchmark": "movegen",
        "hands": ours.hands,
        "runs": runs,
        "seed": seed,
        "moves_total": ours.moves_total,
        "hands_per_second": round(ours.hands_per_second, 1),
        "moves_per_second": round(ours.moves_per_second, 1),
    }
    lines = [t("bench.movegen_ours", hands=ours.hands, runs=runs, seed=seed, hps=ours.hands_per_second,
               mps=ours.moves_per_second, moves=ours.moves_total)]  # fmt: skip
    if generator is not None:
        theirs = movegen_bench.time_douzero(generator, hands, runs)
        diff = movegen_bench.douzero_differences(generator, hands)
        ratio = ours.hands_per_second / theirs.hands_per_second
        result["douzero"] = {
            "hands_per_second": round(theirs.hands_per_second, 1),
            "moves_per_second": round(theirs.moves_per_second, 1),
            "moves_total": theirs.moves_total,
            "duplicates": diff.duplicates,
            "forbidden": diff.forbidden,
            "missing": diff.missing,
            "examples": diff.examples,
        }
        result["ratio"] = round(ratio, 2)
        lines.append(t("bench.movegen_douzero", hps=theirs.hands_per_second, mps=theirs.moves_per_second,
                       moves=theirs.moves_total))  # fmt: skip
        lines.append(t("bench.movegen_ratio", ratio=ratio))
        lines.append(t("bench.movegen_differences", duplicates=diff.duplicates, forbidden=diff.forbidden,
                       missing=diff.missing, examples=", ".join(diff.examples["forbidden"]) or "-"))  # fmt: skip
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        for line in lines:
            click.echo(line)


bench.add_command(movegen)

COMMANDS = [bench]
