"""What a judge of a decision borrows from the bots, as one public surface (:class:`tutor.judgement.Players`).

The coach measures a move by sampling hidden hands that fit the learner's view
and playing every candidate out on each sample (:mod:`tutor.coach.evaluation`).
The parts of that which are *players* — the policy that plays a sampled deal
out, the sampler that draws deals the others' past plays explain, the moves a
strong player would consider, the thrift that breaks ties — are the bots', and
live here.  The coach imports no bot module at all: the composition roots
provide this module to it (``tutor.judgement.provide("tutor.bots.players")``).
"""

from __future__ import annotations

import random

from tutor.bots import make_bot
from tutor.bots.base import Bot
from tutor.bots.counting import pass_limits
from tutor.bots.evaluation import HandEvaluation, evaluate_hand
from tutor.bots.hard import HardBot
from tutor.bots.medium import MediumBot
from tutor.bots.planner import moves_to_finish as _moves_to_finish
from tutor.bots.planner import plan_packed
from tutor.bots.rollout import QuickBot
from tutor.bots.sampling import likely_samples
from tutor.bots.search import thrift
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.facts import whole_hand_play
from tutor.engine.view import PlayerView

Move = Combo | None

__all__ = [
    "Bot", "Move", "bidder", "candidates", "hand_value", "moves_to_finish", "plan_score", "policy", "sample_deals",
    "thrift", "whole_hand_play",
]


def policy(name: str) -> MediumBot:
    """The Python play-out policy named ``name``: "hard" (the hard level's judgement without
    look-ahead) or "medium".  "quick" (the compiled play-out) names the hard policy here: it is
    what plays where the compiled one cannot (not built, other rules)."""
    if name in ("hard", "quick"):
        return HardBot(0, search=False, rollouts=False)
    if name == "medium":
        return MediumBot(0)
    raise ValueError(f"unknown rollout policy {name!r} (hard or medium)")


def sample_deals(
    view: PlayerView, rng: random.Random, count: int, quick: bool, steps: int, recent: int | None
) -> list[dict[int, int]]:
    """``count`` hidden deals that fit ``view``, nudged by up to ``steps`` swaps towards deals in
    which the others' last ``recent`` plays are what the play-out's players would have made (the
    compiled quick policy when ``quick``, else medium; :func:`tutor.bots.sampling.likely_samples`)."""
    model: Bot = QuickBot() if quick else MediumBot(0)
    return likely_samples(view, rng, count, model, steps, pass_limits(view), recent)


def candidates(view: PlayerView, width: int) -> list[Move]:
    """The moves worth playing out: the hard level's choice and its plausible alternatives."""
    bot = HardBot(0, search=False, rollouts=False)
    bot.rollout_width = width
    found = bot.candidates(view, bot.heuristic_play(view))
    return found[: max(width, 1) + (1 if view.table is not None else 0)]


def bidder(level: str, seed: int) -> Bot:
    """The bid policy of ``level`` (its randomness following ``seed``): :func:`tutor.bots.make_bot`."""
    return make_bot(level, seed)


def hand_value(hand: Cards) -> HandEvaluation:
    """The bidding status line's numbers (:func:`tutor.bots.evaluation.evaluate_hand`)."""
    return evaluate_hand(hand)


def plan_score(hand: int, decks: int) -> float:
    """The value of the best plan of a packed hand (:func:`tutor.bots.planner.plan_packed`)."""
    return plan_packed(hand, decks).score


def moves_to_finish(hand: int, decks: int) -> int:
    """Plays the packed hand needs if it always had the lead (:func:`tutor.bots.planner.moves_to_finish`)."""
    return _moves_to_finish(hand, decks)
