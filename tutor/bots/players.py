"""What a judge of a decision borrows from the bots, as one public surface.

The coach measures a move by sampling hidden hands that fit the learner's view
and playing every candidate out on each sample (:mod:`tutor.coach.evaluation`).
The parts of that which are *players* — the policy that plays a sampled deal
out, the sampler that draws deals the others' past plays explain, the moves a
strong player would consider, the thrift that breaks ties — are the bots', and
live here, so that the coach imports this module and nothing behind it.
"""

from __future__ import annotations

import random

from tutor.bots.base import Bot, whole_hand_play
from tutor.bots.counting import pass_limits
from tutor.bots.hard import HardBot
from tutor.bots.medium import MediumBot
from tutor.bots.rollout import QuickBot
from tutor.bots.sampling import likely_samples
from tutor.bots.search import thrift
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView

Move = Combo | None

__all__ = ["Bot", "Move", "candidates", "policy", "sample_deals", "thrift", "whole_hand_play"]


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
