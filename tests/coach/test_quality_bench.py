"""``ddz bench coach --quality``: the figures it reports are counted right (the bench itself runs for minutes)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.bench import coach_quality
from tutor.bench.coach_quality import Judged, beginner_decisions, reference_budget, summarize
from tutor.coach.advice import Verdict
from tutor.coach.evaluation import DEFAULT_BUDGET


def _verdict(loss: float, noise: float, level: str) -> Verdict:
    return Verdict(None, 0.5 - loss, None, 0.5, loss, noise, level)


def _row(shipped: Verdict, reference: Verdict, cpu: float = 0.1) -> Judged:
    return Judged(1, 1, "pass", shipped, reference, cpu, 16, 256)


def test_agreement_false_alarms_and_misses_are_counted_per_class() -> None:
    rows = [
        _row(_verdict(0.15, 0.03, "inaccuracy"), _verdict(0.14, 0.01, "inaccuracy")),  # agreed
        _row(_verdict(0.08, 0.03, "good"), _verdict(0.12, 0.01, "inaccuracy")),  # missed inaccuracy
        _row(_verdict(0.35, 0.03, "blunder"), _verdict(0.05, 0.01, "good")),  # false alarm
        _row(_verdict(0.22, 0.15, "mistake"), _verdict(0.0, 0.0, "best")),  # unclear: not flagged, no alarm
        _row(_verdict(0.0, 0.0, "best"), _verdict(0.0, 0.0, "best"), cpu=0.7),
    ]
    f = summarize(rows)
    assert (f.decisions, f.agreement, f.false_alarms) == (5, 0.5, 0.2)
    assert f.misses == {"inaccuracy": 1, "mistake": 0, "blunder": 0}
    assert f.flagged_reference == {"inaccuracy": 2, "mistake": 0, "blunder": 0}
    assert f.level_agreement == 2 / 5
    assert f.median_noise == 0.03 and f.worst_noise == 0.15 and f.precise_share == 3 / 4
    assert f.worst_cpu_s == 0.7
    data = f.to_json()
    for key in ("decisions", "agreement", "false_alarms", "misses", "median_noise", "median_cpu_s", "worst_cpu_s"):
        assert key in data


def test_the_reference_is_sixteen_times_the_shipped_cap_with_stricter_targets() -> None:
    ref = reference_budget(DEFAULT_BUDGET)
    assert ref.max_samples == 16 * DEFAULT_BUDGET.max_samples
    assert ref.target_noise < DEFAULT_BUDGET.target_noise and ref.chance_noise < DEFAULT_BUDGET.chance_noise


def test_the_decisions_are_the_beginners_own_and_not_forced() -> None:
    found = list(beginner_decisions(6))
    assert len(found) == 6
    for _, _, view, move in found:
        assert view.seat == 0 and view.to_move == 0
        from tutor.engine.moves import legal_moves

        assert len(legal_moves(view.hand, view.table)) + (view.table is not None) > 1
    assert found == list(beginner_decisions(6))  # deterministic


def test_the_cli_prints_the_json_keys(monkeypatch: object) -> None:
    from tutor.cli.main import main

    rows = [_row(_verdict(0.15, 0.03, "inaccuracy"), _verdict(0.14, 0.01, "inaccuracy"))]
    monkeypatch.setattr(coach_quality, "run", lambda decisions, progress=None: summarize(rows))  # type: ignore[attr-defined]
    out = CliRunner().invoke(main, ["bench", "coach", "--quality", "--decisions", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["decisions"] == 1 and data["agreement"] == 1.0 and data["false_alarms"] == 0.0
    bad = CliRunner().invoke(main, ["bench", "coach", "--quality", "--decisions", "0"])
    assert bad.exit_code == 2
