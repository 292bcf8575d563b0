"""Reasons as checked counterfactuals (issue 29): tutor/coach/reasons.py and the words built on it.

Most tests build an :class:`Evaluation` by hand — each candidate's per-sample
outcomes on the same samples — so the figures are exact and the tests cost no
sampling: what is checked is the choice of words, not the estimate.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tutor.coach.advice import Verdict, hints, judge, reason, verdict_phrase
from tutor.coach.describe import describe, to_view
from tutor.coach.evaluation import CandidateValue, Evaluation
from tutor.coach.mistakes import breaks_combination, passes_to_opponent, plays_over_partner, spends_control
from tutor.coach.reasons import NO_SIMPLE_REASON, Proposal, explain, paired
from tutor.coach.review import review_phrases
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView
from tutor.i18n import set_language

N = 64


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def move(view: PlayerView, text: str) -> Combo | None:
    if text == "pass":
        return None
    found = [m for m in legal_moves(view.hand, view.table, view.rules) if m.text == text]
    assert found, text
    return found[0]


def evaluation(view: PlayerView, wins: dict[str, int], together: Sequence[str] = ()) -> Evaluation:
    """Candidates winning the first ``wins[m]`` of N samples (so their wins nest: paired differences are exact)."""
    cands = [CandidateValue(move(view, m), tuple(1 if i < w else 0 for i in range(N))) for m, w in wins.items()]
    cands.sort(key=lambda c: -c.win_chance)
    return Evaluation(view, cands, N, "exact")


def gone(*parts: str) -> str:
    """Every card of the deck that is not in ``parts`` (what --gone must list so the counts add up)."""
    left = Cards.parse("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD").packed
    for part in parts:
        left -= Cards.parse(part).packed
    return str(Cards(left))


def overkill_view() -> PlayerView:
    # The position: landlord, right led a 9, hand 89TA2; the jokers and the other 2s are gone, so A
    # is boss and "A would have beaten it" is what the old remark said.
    held = "3456JQKKA"
    return to_view(describe("89TA2", "you", "right=4,left=5", "right:9,left:pass", gone=gone("89TA2", "9", held)))


def test_the_overkill_remark_names_the_move_that_is_better_not_the_one_that_loses_as_much() -> None:
    view = overkill_view()
    ev = evaluation(view, {"T": 40, "A": 20, "2": 20, "pass": 5})
    why = explain(view, move(view, "2"), ev)
    assert why is not None and why.finding.code == "overkill"
    assert why.proposal.move == move(view, "T") and why.finding.values["lower"] == "T"
    assert why.proposal.gain == pytest.approx(20 / N)
    assert "T would have beaten it" in why.finding.text


def test_a_pattern_whose_fault_free_move_is_no_better_is_not_the_reason() -> None:
    view = overkill_view()
    # Every move that avoids the overkill loses as much as the 2: no pattern holds, and nothing is better.
    ev = evaluation(view, {"2": 30, "A": 30, "T": 30, "pass": 5})
    assert explain(view, move(view, "2"), ev) is None
    # The pass loses: "passing left the trick" is proven by T, measured on the same samples.
    why = explain(view, None, ev)
    assert why is not None and why.finding.code == "passes_to_opponent" and why.proposal.move is not None


def test_the_gain_must_exceed_twice_its_paired_noise() -> None:
    view = overkill_view()
    good = paired(evaluation(view, {"T": 40, "2": 20}), *evaluation(view, {"T": 40, "2": 20}).candidates)
    assert good.proven
    # Two samples apart on 64: a gain of 0.03 with a noise of ~0.022 — luck, not a reason.
    ev = evaluation(view, {"T": 22, "2": 20})
    close = paired(ev, ev.candidates[0], ev.candidates[1])
    assert not close.proven and close.gain > 0
    assert explain(view, move(view, "2"), ev) is None


def test_no_simple_reason_names_the_best_move_and_its_gain() -> None:
    view = to_view(describe("349K", "right", "right=10,left=10"))
    ev = evaluation(view, {"3": 40, "9": 10, "4": 35, "K": 30})
    why = explain(view, move(view, "9"), ev)
    assert why is not None and why.finding.code == NO_SIMPLE_REASON and not why.specific
    assert why.proposal.move == move(view, "3")
    assert why.finding.text == "The best was 3: +47 ± 6 points; no simple rule explains it."


def test_a_loss_under_the_line_is_a_cost_never_good_and_hints_never_praise_it() -> None:
    view = to_view(describe("349K", "right", "right=10,left=10"))
    ev = evaluation(view, {"3": 40, "4": 35, "9": 10, "K": 36})
    verdict, _ = judge(view, move(view, "4"), evaluation=ev)
    assert verdict.level == "good" and verdict.costly and not verdict.within_noise
    text = verdict_phrase(verdict).render()
    assert text.startswith("Costs 8 ± 3 points of win chance") and "Good move" not in text
    for hint in hints(view, evaluation=ev):
        loss, noise = ev.loss(hint.move), ev.loss_noise(hint.move)
        if loss > 2 * noise:
            assert hint.reason.code in ("reason_worse", "reason_worse_because", "reason_costs", "reason_costs_best")
    assert reason(view, move(view, "K"), ev).code in ("reason_costs", "reason_costs_best")
    # Within the noise (one sample apart) a move may still be praised.
    near = evaluation(view, {"3": 40, "K": 39})
    assert reason(view, move(view, "K"), near).code == "reason_high"


def test_the_review_says_no_well_played_over_small_costs() -> None:
    view = to_view(describe("349K", "right", "right=10,left=10"))
    ev = evaluation(view, {"3": 40, "4": 35})
    cost, _ = judge(view, move(view, "4"), evaluation=ev)
    best, _ = judge(view, move(view, "3"), evaluation=ev)
    keys = [p.key for p in review_phrases([], [], 1, 1, 0, 0, verdicts=[(5, 1, best), (7, 2, cost)],
                                          rules=STANDARD)]
    assert "coach.review_small_costs" in keys and "coach.review_all_good" not in keys
    line = review_phrases([], [], 1, 1, 0, 0, verdicts=[(5, 1, best), (7, 2, cost)], rules=STANDARD)[0].render()
    assert line.startswith("No move lost a clear share") and "1 move cost a little: 8 points" in line
    keys = [p.key for p in review_phrases([], [], 1, 1, 0, 0, verdicts=[(5, 1, best)], rules=STANDARD)]
    assert "coach.review_all_good" in keys


def test_a_verdict_keeps_its_proposal_through_a_save() -> None:
    view = overkill_view()
    verdict, _ = judge(view, move(view, "2"), evaluation=evaluation(view, {"T": 40, "A": 20, "2": 20, "pass": 5}))
    assert verdict.proposal is not None and verdict.explanation is not None
    back = Verdict.from_data(verdict.to_data(), STANDARD)
    assert back == verdict
    old = verdict.to_data()
    del old["proposal"]  # a verdict saved before issue 29
    assert Verdict.from_data(old, STANDARD).proposal is None
    with pytest.raises(ValueError):
        Proposal.from_data({"instead": 3}, STANDARD)


def test_a_proposal_other_than_the_best_is_named_in_the_words() -> None:
    # 55553467 against J X D (the truth test's position, figures made up): the straight breaks the bomb.
    view = to_view(describe("55553467", "right", "right=3,left=5"))
    ev = evaluation(view, {"5555": 50, "3": 45, "34567": 5, "4": 40})
    verdict, _ = judge(view, move(view, "34567"), evaluation=ev)
    assert verdict.explanation is not None and verdict.explanation.code == "breaks_bomb_for_straight"
    assert verdict.proposal is not None and verdict.proposal.move == move(view, "5555")
    # The best keeps the bomb whole: the verdict names it once; a proposal that is not the best is named too.
    ev2 = evaluation(view, {"4": 50, "5555": 45, "34567": 5, "3": 44})
    v2, _ = judge(view, move(view, "34567"), evaluation=ev2)
    assert v2.proposal is not None and v2.proposal.move == move(view, "4")


def test_the_new_detectors() -> None:
    view = overkill_view()
    assert passes_to_opponent(view, None) is not None
    assert spends_control(view, move(view, "2")) is not None and spends_control(view, move(view, "T")) is None
    lead = to_view(describe("333456789", "you", "right=10,left=10"))
    assert breaks_combination(lead, move(lead, "3")) is not None  # a 3 off the pair: still two plays to finish
    assert breaks_combination(lead, move(lead, "3456789")) is None
    partner = to_view(describe("5K2", "right", "right=10,left=3", "left:4"))
    assert plays_over_partner(partner, move(partner, "K")) is not None
    assert plays_over_partner(partner, None) is None


def test_a_pattern_the_better_move_commits_too_is_not_the_reason() -> None:
    # The 888835 (a farmer, the landlord on two cards): every move that keeps the bomb whole loses as
    # much as the 8 played; only 88 — which breaks the bomb too — is better.  "You broke the bomb" is no reason.
    view = to_view(describe("888835", "right", "right=2,left=10"))
    ev = evaluation(view, {"88": 40, "3": 20, "5": 20, "8888": 20, "8": 20})
    why = explain(view, move(view, "8"), ev)
    assert why is not None and why.finding.code == NO_SIMPLE_REASON and why.proposal.move == move(view, "88")


def test_the_review_names_a_habit_when_a_reason_comes_back() -> None:
    view = overkill_view()
    ev = evaluation(view, {"T": 40, "A": 20, "2": 20, "pass": 5})
    overkill, _ = judge(view, move(view, "2"), evaluation=ev)
    passed, _ = judge(view, None, evaluation=ev)
    once = [p.key for p in review_phrases([], [], 1, 1, 0, 0, verdicts=[(3, 1, overkill), (6, 2, passed)],
                                          rules=STANDARD)]
    assert "coach.review_habit" not in once
    twice = review_phrases([], [], 1, 1, 0, 0, verdicts=[(3, 1, overkill), (6, 2, passed), (9, 3, overkill)],
                           rules=STANDARD)
    habit = next(p for p in twice if p.key == "coach.review_habit")
    assert habit.render().startswith("A habit to watch — the same reason came back 2 times this game (62 points")
    assert "T would have beaten it" in habit.render()
    assert "повторилась 2 раза за партию" in habit.render("ru")


def test_an_answer_more_cards_can_beat_names_the_safer_one() -> None:
    # Landlord; right (a farmer) led K.  A can be beaten by the two 2s and the small joker out, 2 by the joker only.
    view = to_view(describe("34456799TTJQA22D", "you", "right=13,left=17", "right:K,left:pass"))
    ev = evaluation(view, {"2": 36, "pass": 26, "D": 21, "A": 20})
    why = explain(view, move(view, "A"), ev)
    assert why is not None and why.finding.code == "riskier_answer"
    assert why.proposal.move == move(view, "2") and (why.finding.values["k"], why.finding.values["j"]) == (3, 1)
    assert why.finding.text.startswith("A can be beaten by 3 of the cards still out, 2 by only 1")


def test_keeps_low_singles_proposes_one_of_the_low_singles_only() -> None:
    # The words bench's deal 5: a farmer on lead with 3, 4 and 6 alone; 55 led where the single 6 was better.
    view = to_view(describe("34556888JQA222X", "left", "right=15,left=18"))
    ev = evaluation(view, {"6": 50, "3888": 38, "55": 36})
    why = explain(view, move(view, "55"), ev)
    assert why is not None and why.finding.code == "keeps_low_singles"
    assert why.proposal.move == move(view, "6") and why.finding.values["singles"] == "3, 4, 6"
    assert "3 low singles in hand (3, 4, 6)" in why.finding.text
    assert "3 младшие одиночные карты (3, 4, 6)" in why.finding.phrase.render("ru")
    # A single taken out of a pair is not one of them: the pattern is not the reason, nothing specific is.
    view = to_view(describe("34466789TJJ", "right", "right=17,left=17"))
    ev = evaluation(view, {"6": 50, "44": 36, "3": 30})
    why = explain(view, move(view, "44"), ev)
    assert why is not None and why.finding.code == NO_SIMPLE_REASON


def test_plays_into_bomb_when_every_card_of_a_bomb_is_unseen() -> None:
    # Landlord on lead with a 2 that only a bomb can beat (the jokers are gone); the four 9s are all out.
    unseen = "9999" + "3334445JJQQKK"  # 17 cards: the others' hands; no joker among them
    view = to_view(describe("5672", "you", "right=8,left=9", gone=gone("5672", unseen)))
    two = move(view, "2")
    from tutor.coach.mistakes import plays_into_bomb

    found = plays_into_bomb(view, two)
    assert found is not None and found.values["bomb"] == "9999"
    assert plays_into_bomb(view, move(view, "5")) is None  # a low single: no control card spent
    joker = to_view(describe("5672", "you", "right=8,left=9", gone=gone("5672", "9999" + "3334445JJQQK" + "X")))
    assert plays_into_bomb(joker, move(joker, "2")) is None  # the small joker beats the 2 too: no bomb needed
    ev = evaluation(view, {"5": 40, "2": 25, "6": 24, "7": 23})
    why = explain(view, two, ev)
    assert why is not None and why.finding.code == "plays_into_bomb" and why.proposal.move == move(view, "5")
    assert "only by a bomb" in why.finding.text and "только бомбой" in why.finding.phrase.render("ru")
    # No bomb can be out (a card of each rank seen): the pattern does not apply.
    view = to_view(describe("5672", "you", "right=8,left=9", gone=gone("5672", "333444888999TTTJJ")))
    assert plays_into_bomb(view, move(view, "2")) is None


def test_a_proposal_must_be_worth_five_points_one_noise_below_its_estimate() -> None:
    # The held-out check's exact answers: "+5 ± 2 points" proposals on small costs were 2-4 points better.
    def proposal(gain: float, noise: float) -> Proposal:
        return Proposal(None, 0.5 + gain, 0.5, gain, noise, 320)

    assert proposal(0.06, 0.005).proven and proposal(0.20, 0.04).proven
    assert not proposal(0.04, 0.005).proven  # beyond its noise, but under 5 points
    assert not proposal(0.052, 0.023).proven  # 5 points only at its estimate
    assert not proposal(0.10, 0.06).proven  # within twice its noise
