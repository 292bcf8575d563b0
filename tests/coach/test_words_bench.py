"""``ddz bench coach --words``: its figures are counted right (the bench itself runs for minutes)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tutor.bench import coach_words
from tutor.bench.coach_words import Row, WordsFigures, decisions, praised_losses
from tutor.cli.main import main
from tutor.coach.advice import judge
from tutor.coach.describe import describe, to_view
from tutor.coach.evaluation import CandidateValue, Evaluation
from tutor.coach.mistakes import Finding
from tutor.engine.moves import legal_moves

KEYS = ("proposals", "false_proposals", "flagged", "flagged_with_reason", "praised_losses")


def test_proposals_false_proposals_and_reasons_are_counted() -> None:
    rows = [
        Row(1, "2", "inaccuracy", True, 0.15, 0.03, "overkill", "T", 0.15, 0.12, 0.02),
        Row(1, "3", "mistake", True, 0.25, 0.03, "no_simple_reason", "5", 0.25, -0.01, 0.02),  # a false proposal
        Row(2, "pass", "good", False, 0.07, 0.02, "passes_to_opponent", "T", 0.07, 0.03, 0.02),  # under 5 points
        Row(2, "4", "best", False, 0.0, 0.0, None, praised=1),
    ]
    data = WordsFigures(rows).to_json()
    assert all(key in data for key in KEYS)
    assert (data["proposals"], data["false_proposal_count"], data["flagged"], data["flagged_with_reason"]) == (3, 1, 2, 1)
    assert data["false_proposals"] == round(1 / 3, 4) and data["proposals_under_5_points"] == round(2 / 3, 4)
    assert data["reason_share"] == 0.5 and data["praised_losses"] == 1
    assert data["codes"] == {"no_simple_reason": 1, "overkill": 1, "passes_to_opponent": 1}


def _ev() -> tuple[object, Evaluation]:
    view = to_view(describe("349K", "right", "right=10,left=10"))
    moves = {m.text: m for m in legal_moves(view.hand, None)}
    wins = {"3": 40, "4": 35, "9": 10, "K": 39}
    cands = [CandidateValue(moves[m], tuple(1 if i < w else 0 for i in range(64))) for m, w in wins.items()]
    cands.sort(key=lambda c: -c.win_chance)
    return view, Evaluation(view, cands, 64, "exact")


def test_no_loss_is_praised_and_a_praise_would_be_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    view, ev = _ev()
    verdict, _ = judge(view, ev.candidates[2].move, evaluation=ev)  # type: ignore[arg-type]
    assert praised_losses(view, ev, verdict) == 0  # type: ignore[arg-type]
    # A coach that praised every candidate: 4 and 9 lose beyond their noise (K is within it).
    monkeypatch.setattr(coach_words, "reason", lambda *_: Finding("reason_high", {"cards": "x"}))
    assert praised_losses(view, ev, verdict) == 2  # type: ignore[arg-type]


def test_the_decisions_are_deterministic_and_never_forced() -> None:
    found = list(decisions(5, games=2))
    assert len(found) == 5 and found == list(decisions(5, games=2))
    for _, view, _ in found:
        assert len(legal_moves(view.hand, view.table)) + (view.table is not None) > 1


def test_the_cli_prints_the_words_json_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [Row(1, "2", "inaccuracy", True, 0.15, 0.03, "overkill", "T", 0.15, 0.12, 0.02)]
    monkeypatch.setattr(coach_words, "run", lambda count, progress=None: WordsFigures(rows, (1.0, 1.0, 1.0)))
    out = CliRunner().invoke(main, ["bench", "coach", "--words", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["benchmark"] == "coach-words" and all(key in data for key in KEYS)
    text = CliRunner().invoke(main, ["bench", "coach", "--words"])
    assert text.exit_code == 0 and "Remarks proposing a move: 1" in text.stdout and "✓" in text.stdout
