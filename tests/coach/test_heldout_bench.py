"""``ddz bench coach --heldout`` (issue 29): exact answers over every hidden split, and its figures counted right."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner

from tutor.bench import coach_heldout
from tutor.bench.coach_heldout import (
    BEST,
    Checked,
    HeldOut,
    HeldOutFigures,
    exact_chances,
    exact_class,
    splits,
)
from tutor.cli.main import main

#: A held-out endgame (deal 29xx): the landlord on the left holds 2 cards, the partner on the right 5.
SMALL = HeldOut("3888KK", "left", "right=5,left=2", "", "3334444555566667789999TTTTJJJJQQQQKKAA2XD")


def test_every_split_is_counted_with_its_weight_and_proven() -> None:
    view = SMALL.view()
    found = list(splits(view))
    unseen = len(view.unseen())
    assert sum(w for _, w in found) == math.comb(unseen, 5)  # every deal of the unseen cards, once
    chances = exact_chances(view)
    assert chances is not None
    # Leading the trio with a kicker or the full house goes out in two plays the landlord cannot stop.
    assert chances["3888"] == chances["888KK"] == chances[BEST] == 1.0
    assert chances["KK"] == pytest.approx(6 / 7) and chances["3"] == pytest.approx(6 / 7)


def test_the_classes_are_the_coach_thresholds() -> None:
    assert [exact_class(x) for x in (0.0, 0.05, 0.1, 0.2, 0.3)] == ["best", "good", "inaccuracy", "mistake", "blunder"]


def test_weak_proposals_text_only_reasons_and_classes_are_counted() -> None:
    rows = [
        Checked(0, "3", 0.14, "inaccuracy", "good", "keeps_long_combination", "888KK", 0.14, False),
        Checked(0, "K", 0.25, "mistake", "mistake", "no_simple_reason", "888KK", 0.04, False),  # weak: under 5 points
        Checked(1, "9", 0.30, "blunder", "best", None, None, None, False),  # two classes apart, no reason
        Checked(1, "T", 0.22, "mistake", "mistake", "overkill", None, None, True),  # a proposal in the words only
    ]
    data = HeldOutFigures(rows, positions=2).to_json()
    assert (data["proposals"], data["weak_proposals"], data["text_only"]) == (2, 1, 1)
    assert (data["clear_losses"], data["clear_with_reason"], data["clear_reason_share"]) == (3, 1, round(1 / 3, 4))
    assert data["verdicts_within_one_class"] == 3
    assert not HeldOutFigures(rows).ok
    assert HeldOutFigures(rows[:1]).ok


def test_a_position_is_checked_through_the_analyze_json() -> None:
    chances = {"3888": 1.0, "KK": 0.8, BEST: 1.0}
    answers = {"3888": {"move": {"verdict": "best"}, "remarks": []},
               "KK": {"move": {"verdict": "inaccuracy"},
                      "remarks": [{"code": "leads_pair_when_opponent_has_two", "text": "…", "instead": "3888"}]}}
    def analyze(position: HeldOut, move: str) -> dict[str, Any]:
        return answers[move]

    rows = coach_heldout.check(0, SMALL, chances, analyze)
    assert [(r.move, r.exact_class, r.verdict, r.instead, r.instead_gain) for r in rows] == [
        ("3888", "best", "best", None, None), ("KK", "mistake", "inaccuracy", "3888", pytest.approx(0.2))]
    answers["KK"]["remarks"][0].pop("instead")  # type: ignore[index]
    assert coach_heldout.check(0, SMALL, chances, analyze)[1].text_only


def test_the_cli_prints_the_heldout_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [Checked(0, "3", 0.14, "inaccuracy", "good", "keeps_long_combination", "888KK", 0.14, False)]
    monkeypatch.setattr(coach_heldout, "run", lambda count, analyze, progress=None: HeldOutFigures(rows, 1))
    data = json.loads(CliRunner().invoke(main, ["bench", "coach", "--heldout", "--json"]).stdout)
    assert data["benchmark"] == "coach-heldout" and data["weak_proposals"] == 0 and data["moves"] == 1
    out = CliRunner().invoke(main, ["bench", "coach", "--heldout"])
    assert out.exit_code == 0 and "Verdicts within one class of the exact loss: 1 of 1" in out.stdout


def test_the_analyze_json_is_the_command_s_own() -> None:
    from tutor.cli.bench_coach import analyze_json

    data = analyze_json(SMALL, "3888")
    assert data["move"]["verdict"] == "best" and data["remarks"] == []
