"""ddz bench movegen and solver (tutor/cli/bench*.py, tutor/bench/): output shape, not speed.

Speed is measured by running the benchmark, never asserted in unit tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.bench.movegen import find_douzero, from_douzero, random_hands, to_douzero
from tutor.cli.main import main
from tutor.engine.cards import FULL_DECK, Cards, packed_size
from tutor.engine.moves import lead_moves_packed

DOUZERO = Path("/tmp/dzenv/lib/python3.11/site-packages")


def test_random_hands_are_seeded_20_card_hands() -> None:
    hands = random_hands(50, seed=7)
    assert hands == random_hands(50, seed=7)
    assert hands != random_hands(50, seed=8)
    assert all(packed_size(h) == 20 and Cards(h) in FULL_DECK for h in hands)


def test_douzero_card_numbers_round_trip() -> None:
    hand = Cards.parse("3TTKA22XD").packed
    assert to_douzero(hand) == [3, 10, 10, 13, 14, 17, 17, 20, 30]
    assert from_douzero(to_douzero(hand)) == hand


def test_bench_movegen_json_reports_medians() -> None:
    result = CliRunner().invoke(main, ["bench", "movegen", "--hands", "30", "--runs", "3", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 30 and data["runs"] == 3
    assert data["moves_total"] == sum(len(lead_moves_packed(h)) for h in random_hands(30, 5))
    assert data["hands_per_second"] > 0 and data["moves_per_second"] > data["hands_per_second"]


def test_bench_movegen_without_douzero_is_one_line_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["bench", "movegen", "--compare-douzero", "--douzero-path", str(tmp_path)])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "douzero" in result.stderr.lower()


@pytest.mark.skipif(find_douzero(str(DOUZERO)) is None, reason="DouZero not installed in /tmp/dzenv")
def test_bench_movegen_compares_with_douzero() -> None:
    args = ["bench", "movegen", "--hands", "40", "--runs", "1", "--json", "--compare-douzero",
            "--douzero-path", str(DOUZERO)]  # fmt: skip
    data = json.loads(CliRunner().invoke(main, args).stdout)
    assert data["ratio"] > 0
    assert data["douzero"]["missing"] == 0  # DouZero never lacks a legal card set; it has extra ones


def test_bench_solver_json_reports_medians_of_fresh_runs() -> None:
    """`ddz bench solver --repeat 2`: each position twice in fresh processes,
    the answer checked against the file, times reported as the median."""
    args = ["bench", "solver", "--only", "two-01", "--only", "three-03", "--repeat", "2", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {row["id"]: row for row in data["positions"]}
    assert set(rows) == {"two-01", "three-03"} and data["mismatches"] == []
    for row in rows.values():
        assert row["status"] == "ok" and len(row["runs_seconds"]) == 2
        assert min(row["runs_seconds"]) <= row["seconds"] <= max(row["runs_seconds"])
        assert row["nodes"] > 0 and row["peak_mb"] > 0
    assert rows["three-03"]["winning_moves"] == ["33344", "3339"]


def _core_library() -> Path:
    from tutor.solver import native

    if not native.available():
        pytest.skip("the compiled solver core is not built")
    return Path(native._native.__file__)


def test_bench_solver_baseline_runs_both_builds_side_by_side() -> None:
    """`ddz bench solver --baseline LIB`: each position by the baseline core and by this build, both figures."""
    args = ["bench", "solver", "--only", "two-02", "--baseline", str(_core_library()), "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (row,) = data["positions"]
    assert data["mismatches"] == [] and row["baseline"]["id"] == row["this_build"]["id"] == "two-02"
    assert row["baseline"]["nodes"] == row["this_build"]["nodes"] > 0  # the same library: the same search
    assert row["baseline"]["winning_moves"] == row["this_build"]["winning_moves"] == ["3", "4", "7"]


def test_bench_solver_baseline_source_is_compiled_and_a_different_answer_fails(tmp_path: Path) -> None:
    """A baseline given as source is compiled; a core that answers differently is named, exit 1."""
    source = Path(_core_library()).parent / "_native.c"
    wrong = tmp_path / "_native.c"
    text = source.read_text(encoding="utf-8")
    # The wrong core: every play beats every table (the answers change; the command must say so, exit 1).
    right = "for (int32_t i = 0; i < n; i++) flags[i] = code ? beats_table(&me->moves[i], code) : 1;"
    assert text.count(right) == 1
    text = text.replace(right, "for (int32_t i = 0; i < n; i++) flags[i] = 1;")
    wrong.write_text(text)
    result = CliRunner().invoke(main, ["bench", "solver", "--only", "two-01", "--baseline", str(wrong)])
    assert result.exit_code == 1, result.output
    assert "two-01" in result.output.splitlines()[-1]


def test_bench_solver_baseline_that_is_no_core_is_one_line_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "core.so"
    junk.write_text("not a library")
    result = CliRunner().invoke(main, ["bench", "solver", "--only", "two-01", "--baseline", str(junk)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "baseline" in result.output


def test_bench_solver_unknown_id_is_one_line_exit_2() -> None:
    result = CliRunner().invoke(main, ["bench", "solver", "--only", "two-99"])
    assert result.exit_code == 2
    assert "two-99" in result.output and "Traceback" not in result.output


def test_bench_coach_bid_decisions_are_counted_and_reported_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ddz bench coach`: bid decisions get their own figures (the measuring code runs on a tiny budget)."""
    from tutor.bench import coach_bench
    from tutor.coach.bidding import BidBudget

    bids = coach_bench.run_bids(BidBudget(samples=2, tries=2), deals=(1, 2, 3))
    assert bids.positions == len(coach_bench.bid_positions((1, 2, 3))) > 0
    assert bids.samples == 2 and bids.games >= 1 and bids.decisions > 0
    assert 0 < bids.cpu_median <= bids.cpu_worst
    plays = coach_bench.CoachFigures(3, 0.1, 0.2, 0.1, 0.2, 16, 0, (1.0, 1.0, 1.0))
    monkeypatch.setattr(coach_bench, "run", lambda: plays)
    monkeypatch.setattr(coach_bench, "run_bids", lambda: bids)
    text = CliRunner().invoke(main, ["bench", "coach"])
    assert text.exit_code == 0, text.output
    assert f"Bid decisions: {bids.positions} " in text.output and text.output.count("Target (issues 13, 20)") == 2
    data = json.loads(CliRunner().invoke(main, ["bench", "coach", "--json"]).stdout)
    assert data["bids"]["positions"] == bids.positions and data["bids"]["samples"] == 2
    assert data["positions"] == 3
