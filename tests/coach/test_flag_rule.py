"""The flag's margin over the inaccuracy line, and losses paired on the samples both saw (issue 20).

Rule-level tests on made-up outcomes (no play-outs): cheap, and each fails when
its rule is broken — the quality bench (``ddz bench coach --quality``) measures
what the rule does to the verdicts.
"""

from __future__ import annotations

from tutor.coach.evaluation import (
    CandidateValue,
    Evaluation,
)
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.view import PlayerView


def _view() -> tuple[PlayerView, list[Combo | None]]:
    game = Game.with_landlord(5, 0)  # the landlord's opening lead: many moves
    moves: list[Combo | None] = list(game.legal_moves())
    return game.view(0), moves


def test_a_loss_is_paired_on_the_samples_both_candidates_saw() -> None:
    view, moves = _view()
    best = CandidateValue(moves[0], tuple([1] * 16 + [0] * 16))  # 0.50 over 32; 1.0 over the first 16
    early = CandidateValue(moves[1], tuple([1] * 12 + [0] * 4))  # stopped after 16 samples: 0.75
    ev = Evaluation(view, [best, early], 32, "rollout")
    # Unpaired, 0.50 - 0.75 would hide a loss of 0.25 on the samples both saw.
    assert ev.loss(moves[1]) == 0.25


def test_a_loss_just_over_the_line_is_said_as_borderline_not_flagged() -> None:
    """Issue 20: flagged only when the loss lies 0.3 noises or more above 0.10 (and is told from luck);
    just over the line it is said with its figures — never "good" — but not replayed as a mistake."""
    from tutor.coach.advice import Verdict, verdict_phrase
    from tutor.coach.evaluation import flags

    view, moves = _view()
    near = Verdict(moves[1], 0.495, moves[0], 0.6, 0.105, 0.02, "inaccuracy")
    assert not near.flagged and near.unclear and near.borderline
    assert verdict_phrase(near).render("en").startswith("Borderline: −10 ± 2 points")
    assert verdict_phrase(near).render("ru").startswith("На грани: −10 ± 2 п. п.")
    clear = Verdict(moves[1], 0.48, moves[0], 0.6, 0.12, 0.02, "inaccuracy")
    assert clear.flagged and not clear.unclear
    lucky = Verdict(moves[1], 0.45, moves[0], 0.6, 0.15, 0.08, "inaccuracy")  # within twice its noise of 0
    assert lucky.unclear and not lucky.borderline
    assert verdict_phrase(lucky).render("en").startswith("Unclear")
    assert flags(0.11, 0.02) and not flags(0.105, 0.02) and flags(0.35, 0.03) and not flags(0.3, 0.16)
