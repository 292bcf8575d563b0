"""The open hand (RULES §12.2) judged by expected score, from the landlord's view at the first lead.

Showing the hand doubles the stake (``rules.open_factor``) but hands the
farmers the landlord's cards: they then know every hand (their own, the shown
one, and so their partner's).  Whether that is worth it is the same kind of
question as a bid — two choices with different stakes — so it is answered the
same way (:mod:`tutor.coach.bidding`): the learner's **expected score** in base
stakes over sampled deals, with its noise.

1. **Samples.**  The learner (the landlord) holds 20 cards and saw the kitty;
   the two farmers' 17 cards each are drawn from the 34 unseen cards and
   rejected, draw by draw, when the table's bid policy would not have made the
   auction's moves with them (as for a bid).  Seeded from the view's public facts.
2. **The game.**  For each sample, both choices are played to the end by the
   rollout policy, every seat deciding from its own view; when shown, every
   simulated seat's view carries the landlord's cards (``PlayerView.shown``), as
   in a real game — the hard policy counts them exactly
   (:meth:`tutor.bots.hard.HardBot.hidden`).  The engine's scoring prices the
   game (bombs, spring, the robs of the auction, and ×2 when shown).

Both choices use the same samples, so the loss of one against the other has the
noise of the paired differences; "Unclear" is said inside twice that noise,
exactly as for bids.  Budgets are the bid budget's counts (samples, draws).
"""

from __future__ import annotations

import random

from tutor.coach.bidding import (
    DEFAULT_BID_BUDGET,
    BidBudget,
    BidEvaluation,
    BidValue,
    BidVerdict,
    _BidEvaluator,
    bid_level,
    bids_settled,
    points,
)
from tutor.coach.evaluation import view_seed
from tutor.engine.auction import Auction
from tutor.engine.cards import Cards
from tutor.engine.facts import can_show_hand
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase

#: The two choices of the open-hand decision (codes in :class:`BidValue.bid`).
CLOSED, SHOW = 0, 1


def can_show(view: PlayerView) -> bool:
    """``view`` is the landlord's, at the first lead, under an open-hand rule, not yet shown (RULES §12.2)."""
    return can_show_hand(view) and view.kitty is not None


class _OpenEvaluator(_BidEvaluator):
    """The bid evaluator's samples and games, for the two choices of the open hand."""

    def _sample(self, rng: random.Random, index: int) -> tuple[dict[int, int], int]:
        """The farmers' dealt hands (17 each) from the unseen cards, explaining the auction's moves."""
        assert self.view.kitty is not None
        pool = Cards(self.view.rules.deck_packed - self.view.hand.packed).ranks()
        others = [s for s in range(self.n) if s != self.view.seat]
        size = len(pool) // len(others)
        best: tuple[int, dict[int, int]] | None = None
        for _ in range(max(1, self.budget.tries)):
            rng.shuffle(pool)
            hands = {s: Cards.from_ranks(pool[i * size : (i + 1) * size], self.view.rules.deck).packed for i, s in enumerate(others)}
            wrong = self._unexplained(hands, index)
            if best is None or wrong < best[0]:
                best = (wrong, hands)
            if not wrong:
                break
        assert best is not None
        if best[0]:
            self.misfits += 1
        return best[1], self.view.kitty.packed

    def value(self, candidate: int) -> BidValue:
        """``candidate`` over every sample drawn so far (a later step of the sampling plays only its own)."""
        me = self.view.seat
        # The auction's stake: the bid (RULES §3) and the robs (§12.1); a custom position has only its bid.
        robs = Auction.of(self.view.bids).outcome(self.rules).robs
        stake = (self.view.bid or 1) * self.rules.rob_factor**robs
        scores, landlord_flags, won_flags = self._values.setdefault(candidate, ([], [], []))
        for hidden, kitty in self.deals[len(scores) :]:
            hands = [self.view.hand.packed if s == me else hidden[s] for s in range(self.n)]
            won, _, delta = self.play_out(hands, me, kitty, candidate == SHOW)
            scores.append(delta * stake / self.rules.base)
            landlord_flags.append(1)
            won_flags.append(int(won))
        return BidValue(candidate, tuple(scores), tuple(landlord_flags), tuple(won_flags))


def evaluate_open(view: PlayerView, budget: BidBudget = DEFAULT_BID_BUDGET) -> BidEvaluation:
    """Keep the hand closed (0) or show it (1): each choice's expected score in base stakes, best first.

    Ties go to keeping it closed (the cheaper exposure).

    Raises:
        ValueError: When ``view`` is not the landlord's open-hand decision.
    """
    if not can_show(view):
        raise ValueError("the coach evaluates the open hand of the landlord before the first play")
    ev = _OpenEvaluator(view, budget, salt="open")
    while True:  # the bid's sequential sampling: another step while a verdict is not settled, up to the cap
        values = [ev.value(choice) for choice in (CLOSED, SHOW)]
        values.sort(key=lambda v: (-round(v.expected, 9), v.bid))
        found = BidEvaluation(view, values, len(ev.deals), ev.misfits, 2 * len(ev.deals), ev.decisions, budget)
        if bids_settled(found) or not ev.draw():
            return found


def judge_open(
    view: PlayerView, shown: bool, budget: BidBudget = DEFAULT_BID_BUDGET, evaluation: BidEvaluation | None = None
) -> tuple[BidVerdict, BidEvaluation]:
    """The verdict on showing (``shown``) or keeping the hand closed from ``view``, and its evaluation."""
    ev = evaluation if evaluation is not None else evaluate_open(view, budget)
    choice = SHOW if shown else CLOSED
    got = ev.value(choice)
    loss, noise = ev.loss(choice), ev.loss_noise(choice)
    verdict = BidVerdict(choice, got.expected, ev.best.bid, ev.best.expected, loss, noise, bid_level(loss, noise))
    return verdict, ev


# ------------------------------------------------------------------------- phrases
def open_phrase(choice: int) -> Phrase:
    """"show the hand" / "keep the hand closed" as data."""
    return Phrase("variants.open_choice_show" if choice == SHOW else "variants.open_choice_closed")


def open_hint_phrase(n: int, value: BidValue, ev: BidEvaluation) -> Phrase:
    """Open-hand hint ``n``: the choice, its expected score (± error) and how often the landlord wins that way."""
    base = ev.view.rules.base
    line = Phrase(
        "variants.open_hint",
        {"n": n, "choice": open_phrase(value.bid), "score": points(value.expected, ev),
         "err": round(value.stderr * base), "win": round(100 * value.landlord_wins)},
    )  # fmt: skip
    close = _close(ev) if value is ev.best else None
    return line if close is None else Phrase("coach.joined", {"first": line, "second": close})


def _close(ev: BidEvaluation) -> Phrase | None:
    """The two choices not told apart by the samples (lead within twice its noise): said with the figures."""
    from tutor.coach.advice import NOISE_SIGMAS

    other = ev.candidates[1]
    lead, noise = ev.loss(other.bid), ev.loss_noise(other.bid)
    if lead > NOISE_SIGMAS * noise:
        return None
    base = ev.view.rules.base
    return Phrase("coach.bid_close", {"other": open_phrase(other.bid), "lead": round(lead * base),
                                      "noise": round(noise * base)})  # fmt: skip


def open_verdict_phrase(v: BidVerdict, ev: BidEvaluation) -> Phrase:
    """The verdict on the open-hand choice: its expected score and, when flagged or unclear, the other's."""
    values: dict[str, object] = {"choice": open_phrase(v.bid), "score": points(v.expected, ev)}
    if v.level == "best":
        line = Phrase("variants.open_verdict_best", values)
        close = _close(ev)  # the best by the estimate, not told from the other: said with the figures
        return line if close is None else Phrase("coach.joined", {"first": line, "second": close})
    if v.level == "good" and v.sure:
        return Phrase("variants.open_verdict_good", values)
    base = ev.view.rules.base
    values.update({"best": open_phrase(v.best_bid), "best_score": points(v.best_expected, ev),
                   "loss": round(v.loss * base), "noise": round(v.noise * base)})  # fmt: skip
    if v.unclear or v.level == "good":  # "good" only when no value within twice the noise is an inaccuracy
        return Phrase("variants.open_verdict_unclear", values)
    return Phrase(f"variants.open_verdict_{v.level}", values)


__all__ = ["CLOSED", "SHOW", "can_show", "evaluate_open", "judge_open", "open_hint_phrase", "open_phrase",
           "open_verdict_phrase"]  # fmt: skip
