"""The play-outs' opponents as a mixture of models, weighted by how well each explains this game (issue 33, round 9).

Round 7's "auto" (:func:`tutor.bots.opponent_model.chosen_model`) picks *one* model for the play-outs'
opponents, and leaves the prior (the quick policy) only once another explains at least two more of their past
decisions.  Round 8 measured on the landlord's side that the right model is worth something only when it plays
the play-outs from the first decisions — and "auto" switches late (median 38 cards in play).  Fixing a model from
the start is a model of one opponent, which a level may not assume (round 6's "lowest" lost against RHCP-v2).

The middle way is a mixture: every model of a prior keeps a share of the played-out deals, and the shares follow
the evidence.  Each model's weight is its prior times ``exp(beta · hits)``, ``hits`` the opponents' past
decisions it makes as they were made (mean over sampled hands, :func:`tutor.bots.opponent_model.model_fit`): a
player whose actions each model predicts with a fixed error rate has this posterior, ``beta`` the log of the
odds one explained decision is worth.  Before any telling decision the deals split by the prior; against a
player the quick policy explains better the mixture goes to it within a few decisions, and against one the
other model explains, to that.

The weights become a cycle of ``slots`` variant names (:func:`apportion`) joined by ``+``, the form
:func:`tutor.bots.rollout.play_deals` already plays: deal *d* is played by the cycle's ``d mod slots``-th model,
every candidate on the same deal by the same model, so the comparison stays paired.  The work is
:func:`~tutor.bots.opponent_model.model_fit`'s (counted model calls); the hands it samples are seeded by the
view, so the same view gives the same mixture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from tutor.bots.opponent_model import MAX_CALLS, SAMPLES, model_fit
from tutor.engine.view import PlayerView

#: A mixture's default prior: the quick policy (today's play-outs) and the rule-following "agent" variant.
PRIOR: dict[str, float] = {"quick": 0.5, "agent": 0.5}
#: Log-odds one explained decision is worth (e ≈ 2.7 to 1 a decision).
BETA = 1.0
#: Variant slots the weights are rounded to (a multiple of it divides the deals evenly).
SLOTS = 16


def posterior(hits: Mapping[str, float], prior: Mapping[str, float], beta: float) -> dict[str, float]:
    """Each model's weight: ``prior · exp(beta · hits)``, normalised (the models of ``prior``, in its order).

    Raises:
        ValueError: When the prior gives no model a positive weight.
    """
    models = [m for m, p in prior.items() if p > 0]
    if not models:
        raise ValueError("the prior gives no model a positive weight")
    top = max(hits.get(m, 0.0) for m in models)
    raw = {m: prior[m] * math.exp(beta * (hits.get(m, 0.0) - top)) for m in models}
    total = sum(raw.values())
    return {m: w / total for m, w in raw.items()}


def apportion(weights: Mapping[str, float], slots: int) -> list[str]:
    """``slots`` model names in the shares of ``weights`` (largest remainders; ties to the earlier model), in
    an order that keeps every prefix near those shares (each slot goes to the model furthest behind its share).

    Raises:
        ValueError: For fewer than one slot or no positive weight.
    """
    if slots < 1:
        raise ValueError("slots must be at least 1")
    models = [m for m, w in weights.items() if w > 0]
    if not models:
        raise ValueError("no model has a positive weight")
    total = sum(weights[m] for m in models)
    exact = {m: weights[m] / total * slots for m in models}
    counts = {m: math.floor(exact[m]) for m in models}
    left = slots - sum(counts.values())
    for m in sorted(models, key=lambda m: (-(exact[m] - counts[m]), models.index(m)))[:left]:
        counts[m] += 1
    order: list[str] = []
    placed = {m: 0 for m in models}
    for j in range(slots):
        m = max((m for m in models if placed[m] < counts[m]),
                key=lambda m: (counts[m] * (j + 1) / slots - placed[m], -models.index(m)))
        order.append(m)
        placed[m] += 1
    return order


def mixture(
    view: PlayerView, prior: Mapping[str, float] = PRIOR, beta: float = BETA, slots: int = SLOTS,
    samples: int = SAMPLES, max_calls: int = MAX_CALLS,
) -> str:
    """The play-outs' opponents for ``view`` as :func:`tutor.bots.rollout.play_deals` takes them: one variant,
    or ``slots`` variants joined by ``+`` in the posterior's shares (see the module).

    With no past decision of the opponents the prior decides.  Deterministic and bounded like
    :func:`~tutor.bots.opponent_model.model_fit` (``max_calls`` model calls).
    """
    models = [m for m, p in prior.items() if p > 0]
    if view.landlord is None or not view.history or len(models) < 2:
        weights = posterior({}, prior, beta)
    else:
        weights = posterior(model_fit(view, models, samples, max_calls).hits, prior, beta)
    order = apportion(weights, slots)
    if len(set(order)) == 1:
        return order[0]
    return "+".join(order)
