"""Learn from your mistakes: replay the moments where a move lost win chance, and find a better one.

After a game (from the final card, or ``ddz mistakes GAME_ID`` for any stored
game) the learner is put back at each decision the coach flagged — largest
loss first — and asked for a move.  Any move whose win chance is within
:data:`TOLERANCE` of the best (or within the estimate's own noise) is accepted:
there is often more than one good move, and the exercise is to find *a* good
one, not to guess the coach's favourite (lichess's "Learn from your mistakes"
is the model).  Everything is judged from the learner's view, as in the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.coach.advice import NOISE_SIGMAS, Verdict, judge
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget
from tutor.coach.bidding import BID_INACCURACY, BidBudget, BidVerdict, DEFAULT_BID_BUDGET, judge_bid
from tutor.coach.moments import (
    BID_MOMENT,
    BidDecision,
    Decision,
    OpenDecision,
    auction_decisions,
    bid_decision,
    decisions,
    open_decision,
)
from tutor.engine.combos import Combo
from tutor.engine.record import GameRecord

#: A move this close to the best one's win chance is accepted.
TOLERANCE = 0.05
#: At most this many moments per game (largest losses first).
MOST = 5
#: A bid this close to the best one's expected score (base stakes) is accepted: half the inaccuracy line.
BID_TOLERANCE = BID_INACCURACY / 2


@dataclass(frozen=True, slots=True)
class Exercise:
    """One moment to replay: the decision, and the verdict on what the learner played."""

    decision: Decision
    verdict: Verdict

    @property
    def number(self) -> int:
        return self.decision.number


def find(record: GameRecord, budget: Budget = DEFAULT_BUDGET, seat: int = 0) -> list[Exercise]:
    """The game's flagged decisions, largest loss first (at most :data:`MOST`)."""
    found = []
    for decision in decisions(record, seat):
        if decision.forced:
            continue
        verdict, _ = judge(decision.view, decision.move, budget)
        if verdict.flagged:  # an "unclear" loss is said, never replayed as a mistake
            found.append(Exercise(decision, verdict))
    found.sort(key=lambda e: (-e.verdict.loss, e.number))
    return found[:MOST]


def at(record: GameRecord, number: int, seat: int = 0) -> Decision:
    """Decision ``number`` of the record (for exercises restored from the store)."""
    for decision in decisions(record, seat):
        if decision.number == number:
            return decision
    raise ValueError(f"the game has no move {number}")


@dataclass(frozen=True, slots=True)
class Answer:
    """The judgement of the learner's new try."""

    accepted: bool
    verdict: Verdict


def check(decision: Decision, move: Combo | None, budget: Budget = DEFAULT_BUDGET) -> Answer:
    """Is ``move`` good enough here?  Within :data:`TOLERANCE` (or the noise) of the best."""
    verdict, _ = judge(decision.view, move, budget)
    accepted = verdict.loss <= max(TOLERANCE, NOISE_SIGMAS * verdict.noise)
    return Answer(accepted, verdict)




# ------------------------------------------------------------------------ the bid
@dataclass(frozen=True, slots=True)
class BidExercise:
    """The learner's bid as a moment to replay, with the verdict on it (by expected score)."""

    decision: BidDecision
    verdict: BidVerdict

    @property
    def number(self) -> int:
        return self.decision.number


def find_bid(record: GameRecord, budget: BidBudget = DEFAULT_BID_BUDGET, seat: int = 0) -> BidExercise | None:
    """The learner's (first) bid in the auction that was played, when its loss in expected score is flagged."""
    return next((e for e in find_bids(record, budget, seat) if e.number == BID_MOMENT), None)


def find_bids(record: GameRecord, budget: BidBudget = DEFAULT_BID_BUDGET, seat: int = 0) -> list[BidExercise]:
    """Every word of the learner in the auction that was played (a bid; a call, rob or rob back, RULES
    §12.1) whose loss in expected score is flagged, in order."""
    found = []
    for decision in auction_decisions(record, seat):
        if len(_legal_bids(decision)) < 2:
            continue
        verdict, _ = judge_bid(decision.view, decision.bid, budget)
        if verdict.flagged:
            found.append(BidExercise(decision, verdict))
    return found


def bid_at(record: GameRecord, seat: int = 0, number: int = BID_MOMENT) -> BidDecision:
    """The auction decision ``number`` of the record (0, or -1 for a rob back), for a moment from the store."""
    found = bid_decision(record, seat, number)
    if found is None:
        raise ValueError("the game has no bid of yours to replay")
    return found


def _legal_bids(decision: BidDecision) -> list[int]:
    from tutor.coach.bidding import legal_bids

    return legal_bids(decision.view)


@dataclass(frozen=True, slots=True)
class BidAnswer:
    """The judgement of the learner's new bid."""

    accepted: bool
    verdict: BidVerdict


def check_bid(decision: BidDecision, bid: int, budget: BidBudget = DEFAULT_BID_BUDGET) -> BidAnswer:
    """Is ``bid`` good enough here?  Within :data:`BID_TOLERANCE` (or the noise) of the best expected score."""
    verdict, _ = judge_bid(decision.view, bid, budget)
    accepted = verdict.loss <= max(BID_TOLERANCE, NOISE_SIGMAS * verdict.noise)
    return BidAnswer(accepted, verdict)


# ------------------------------------------------------------------ the open hand
@dataclass(frozen=True, slots=True)
class OpenExercise:
    """The landlord's open-hand choice as a moment to replay (RULES §12.2), with its verdict by expected score."""

    decision: OpenDecision
    verdict: BidVerdict

    @property
    def number(self) -> int:
        return self.decision.number


def find_open(record: GameRecord, budget: BidBudget = DEFAULT_BID_BUDGET, seat: int = 0) -> OpenExercise | None:
    """The learner's choice to show the hand or not, when its loss in expected score is flagged."""
    from tutor.coach.variant_judge import judge_open

    decision = open_decision(record, seat)
    if decision is None:
        return None
    verdict, _ = judge_open(decision.view, decision.shown, budget)
    return OpenExercise(decision, verdict) if verdict.flagged else None


def open_at(record: GameRecord, seat: int = 0) -> OpenDecision:
    """The open-hand decision of the record (for a moment restored from the store)."""
    found = open_decision(record, seat)
    if found is None:
        raise ValueError("the game has no open-hand decision of yours to replay")
    return found


def check_open(decision: OpenDecision, shown: bool, budget: BidBudget = DEFAULT_BID_BUDGET) -> BidAnswer:
    """Is showing (or not) good enough here?  Within :data:`BID_TOLERANCE` (or the noise) of the best."""
    from tutor.coach.variant_judge import judge_open

    verdict, _ = judge_open(decision.view, shown, budget)
    return BidAnswer(verdict.loss <= max(BID_TOLERANCE, NOISE_SIGMAS * verdict.noise), verdict)
