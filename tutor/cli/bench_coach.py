"""``ddz bench coach``: decision time of the coach's evaluation (logic in :mod:`tutor.bench.coach_bench`)."""

from __future__ import annotations

import json
from typing import Any

import click

from tutor.cli.errors import handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.i18n import number, t


@click.command("coach", cls=TranslatedCommand)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quality", is_flag=True)
@click.option("--decisions", type=click.IntRange(1, 100_000), default=None)
@click.option("--classic", is_flag=True)
@click.option("--words", is_flag=True)
@click.option("--heldout", is_flag=True)
@click.option("--games", type=click.IntRange(1, 10_000), default=60, show_default=True)
@handle_user_errors
def coach(as_json: bool, quality: bool, decisions: int | None, classic: bool, words: bool, heldout: bool,
          games: int) -> None:
    # Help text: help.bench.coach.
    from tutor.bench import coach_bench

    if quality:
        _quality(as_json, decisions or 200)
        return
    if words:
        _words(as_json, decisions or 120)
        return
    if heldout:
        _heldout(as_json, decisions or 40)
        return
    if classic:
        _classic(as_json, games)
        return

    figures = coach_bench.run()
    bids = coach_bench.run_bids()
    if as_json:
        click.echo(json.dumps({
            "benchmark": "coach", "positions": figures.positions, "median_seconds": round(figures.median, 4),
            "worst_seconds": round(figures.worst, 4),
            "cpu_median_seconds": round(figures.cpu_median, 4), "cpu_worst_seconds": round(figures.cpu_worst, 4), "samples": figures.samples, "exact": figures.exact,
            "median_samples": figures.median_samples, "imprecise": figures.imprecise,
            "worst_noise": round(figures.worst_noise, 4),
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
    click.echo(t("bench.coach_samples", median=figures.median_samples, imprecise=figures.imprecise,
                 worst=figures.worst_noise))  # fmt: skip
    click.echo(t("bench.coach_cpu", median=figures.cpu_median, worst=figures.cpu_worst))
    click.echo(t("bench.coach_load", load=" ".join(number(x, 2) for x in figures.load)))
    wall_ok = figures.median < 0.3 and figures.worst < 1.5
    cpu_ok = figures.cpu_median < 0.3 and figures.cpu_worst < 1.5
    click.echo(t("bench.coach_target", wall="✓" if wall_ok else "✗", cpu="✓" if cpu_ok else "✗"))
    click.echo(t("bench.coach_bid_figures", positions=bids.positions, median=bids.median, worst=bids.worst,
                 samples=bids.samples, games=bids.games, decisions=bids.decisions, misfits=bids.misfits))  # fmt: skip
    click.echo(t("bench.coach_cpu", median=bids.cpu_median, worst=bids.cpu_worst))
    click.echo(t("bench.coach_load", load=" ".join(number(x, 2) for x in bids.load)))
    wall_ok = bids.median < 0.3 and bids.worst < 1.5
    cpu_ok = bids.cpu_median < 0.3 and bids.cpu_worst < 1.5
    click.echo(t("bench.coach_target", wall="✓" if wall_ok else "✗", cpu="✓" if cpu_ok else "✗"))
def _quality(as_json: bool, decisions: int) -> None:
    """``--quality``: the shipped verdicts against a 16 times larger budget (tutor.bench.coach_quality)."""
    import sys

    from tutor.bench import coach_quality

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            click.echo(f"\r{t('bench.coach_quality_progress', done=done, total=total)}", nl=False, err=True)

    figures = coach_quality.run(decisions, progress=progress)
    if sys.stderr.isatty():
        click.echo("", err=True)
    if as_json:
        click.echo(json.dumps(figures.to_json()))
        return
    def pct(x: float | None) -> str:
        return "—" if x is None else number(100 * x, 1) + "%"

    click.echo(t("bench.coach_quality_head", decisions=figures.decisions, factor=coach_quality.REFERENCE_FACTOR,
                 samples=figures.median_samples, reference=figures.reference_samples))  # fmt: skip
    flagged = figures.flagged_reference
    click.echo(t("bench.coach_quality_flags", inaccuracy=flagged["inaccuracy"], mistake=flagged["mistake"],
                 blunder=flagged["blunder"], shipped=figures.flagged_shipped))  # fmt: skip
    click.echo(t("bench.coach_quality_agreement", agreement=pct(figures.agreement), level=pct(figures.level_agreement),
                 false=pct(figures.false_alarms), inaccuracy=figures.misses["inaccuracy"],
                 mistake=figures.misses["mistake"], blunder=figures.misses["blunder"]))  # fmt: skip
    noise = "—" if figures.median_noise is None else number(figures.median_noise, 3)
    worst = "—" if figures.worst_noise is None else number(figures.worst_noise, 3)
    click.echo(t("bench.coach_quality_noise", median=noise, worst=worst, share=pct(figures.precise_share)))
    click.echo(t("bench.coach_cpu", median=figures.median_cpu_s, worst=figures.worst_cpu_s))
    click.echo(t("bench.coach_load", load=" ".join(number(x, 2) for x in figures.load)))
    ok = (figures.agreement is None or figures.agreement >= 0.9) and figures.false_alarms <= 0.03
    click.echo(t("bench.coach_quality_target", ok="✓" if ok else "✗"))


def _words(as_json: bool, decisions: int) -> None:
    """``--words``: are the coach's reasons checked counterfactuals (tutor.bench.coach_words, issue 29)?"""
    import sys

    from tutor.bench import coach_words

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            click.echo(f"\r{t('bench.coach_quality_progress', done=done, total=total)}", nl=False, err=True)

    figures = coach_words.run(decisions, progress=progress).to_json()
    if sys.stderr.isatty():
        click.echo("", err=True)
    if as_json:
        click.echo(json.dumps(figures))
        return
    click.echo(t("words.bench_head", decisions=figures["decisions"], factor=figures["reference_factor"]))
    click.echo(t("words.bench_proposals", proposals=figures["proposals"], false=figures["false_proposals"],
                 small=figures["proposals_under_5_points"]))  # fmt: skip
    click.echo(t("words.bench_flagged", flagged=figures["flagged"], reasons=figures["flagged_with_reason"],
                 share="—" if figures["reason_share"] is None else number(figures['reason_share'], 2),  # type: ignore[arg-type]
                 praised=figures["praised_losses"]))  # fmt: skip
    click.echo(t("bench.coach_cpu", median=figures["median_cpu_s"], worst=figures["worst_cpu_s"]))
    click.echo(t("bench.coach_load", load=" ".join(number(x, 2) for x in figures["load"])))  # type: ignore[attr-defined]
    share = figures["reason_share"]
    ok = (figures["false_proposals"] <= 0.02 and (share is None or share >= 0.9)  # type: ignore[operator]
          and figures["praised_losses"] == 0)  # fmt: skip
    click.echo(t("words.bench_target", ok="✓" if ok else "✗"))


def _heldout(as_json: bool, positions: int) -> None:
    """``--heldout``: the coach's words against exact answers (tutor.bench.coach_heldout, issue 29)."""
    import sys

    from tutor.bench import coach_heldout

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            click.echo(f"\r{t('bench.coach_quality_progress', done=done, total=total)}", nl=False, err=True)

    result = coach_heldout.run(positions, analyze_json, progress=progress)
    figures = result.to_json()
    if sys.stderr.isatty():
        click.echo("", err=True)
    if as_json:
        click.echo(json.dumps(figures))
        return
    share = figures["clear_reason_share"]
    click.echo(t("words.heldout_head", positions=figures["positions"], dropped=figures["dropped_positions"],
                 moves=figures["moves"]))  # fmt: skip
    click.echo(t("words.heldout_proposals", proposals=figures["proposals"], weak=figures["weak_proposals"],
                 text_only=figures["text_only"]))  # fmt: skip
    click.echo(t("words.heldout_reasons", clear=figures["clear_losses"], reasons=figures["clear_with_reason"],
                 share="—" if share is None else number(share, 2)))  # fmt: skip
    click.echo(t("words.heldout_verdicts", within=figures["verdicts_within_one_class"], moves=figures["moves"]))
    click.echo(t("words.heldout_cpu", cpu=figures["cpu_s"]))
    click.echo(t("bench.coach_load", load=" ".join(number(x, 2) for x in figures["load"])))
    click.echo(t("words.heldout_target", ok="✓" if result.ok else "✗"))


def analyze_json(position: Any, move: str) -> dict[str, Any]:
    """``ddz analyze … --move MOVE --json`` on a held-out position, run in-process: the JSON a user reads."""
    from click.testing import CliRunner

    from tutor.cli.main import main

    out = CliRunner().invoke(main, [*position.args(), "--move", move, "--json"])
    if out.exit_code != 0:
        raise RuntimeError(f"ddz analyze failed on {position} {move}: {out.output[:200]}")
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def _classic(as_json: bool, games: int) -> None:
    """``--classic``: how often the coach flags the classic errors (tutor.bench.classic_errors)."""
    import sys

    from tutor.bench import classic_errors

    def progress(done: int) -> None:
        if sys.stderr.isatty():
            click.echo(f"\r{t('bench.coach_quality_progress', done=done, total='?')}", nl=False, err=True)

    figures, load = classic_errors.run(games, progress=progress)
    exercises = classic_errors.beginner_exercises()
    if sys.stderr.isatty():
        click.echo("", err=True)
    if as_json:
        click.echo(json.dumps({"benchmark": "coach-classic-errors", "games": games, "load": list(load),
                               "classes": {name: f.to_json() for name, f in figures.items()},
                               "beginner_games_exercises": exercises}))  # fmt: skip
        return
    click.echo(t("bench.coach_classic_head", games=games))
    for name, f in figures.items():
        data = f.to_json()
        click.echo(t("bench.coach_classic_row", name=t(f"bench.classic_{name}"), found=f.found, flagged=f.flagged,
                     unclear=f.unclear, best=f.best_commits,
                     loss="—" if data["median_loss"] is None else number(data['median_loss'], 2)))  # type: ignore[arg-type]  # fmt: skip
    click.echo(t("bench.coach_classic_exercises", games=len(exercises), with_some=sum(1 for n in exercises if n),
                 found=" ".join(map(str, exercises))))  # fmt: skip
    click.echo(t("bench.coach_load", load=" ".join(number(x, 2) for x in load)))


COMMANDS = [coach]
