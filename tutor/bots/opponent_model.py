"""The opponents' model for the play-outs, chosen from what this game has shown.

The hard bot's early decisions are judged by play-outs (:func:`tutor.bots.rollout.best_by_playouts`) in
which the simulated opponents play the compiled quick policy or one of its variants
(:data:`tutor.solver.playout.VARIANTS`).  Round 6 measured that the variant matters — "lowest" (beat with
the lowest answer whenever possible) won against RLCard's rule agent, which plays that way, and lost against
RHCP-v2, which does not — so no fixed variant suits every opponent, and a level may not assume whom it
plays.  It may, however, *learn* it from the view: the opponents' past decisions in this game are public.

:func:`chosen_model` scores each candidate variant by how many of the opponents' past decisions it would
have made, and keeps the prior (the quick policy, today's play) unless another explains clearly more.
The opponents' hands are hidden, so the decisions are scored on sampled hands: an opponent's hand before
its turn *i* is its sampled hand now plus everything it played after *i* (the replay of
:func:`tutor.bots.sampling.mismatches`).  The hands are drawn uniformly from the unseen cards, *without*
what the passes revealed (:func:`tutor.bots.counting.pass_limits`): those limits assume a player who passes
cannot answer, which is exactly the habit of "lowest" and "agent", and would explain their passes for them.
Every model meets the same hands, so the comparison is paired; a pass where an answer was possible on most
hands counts against the models that always answer, a lead of the lowest card for "rule" and "agent".

Each question to a model is one call of the compiled policy (``_native.choose``: hand, counts, table — no
history), counted and bounded (:data:`MAX_CALLS`): budgets, never clocks.  The draws are seeded from the
view alone, so the same view gives the same model on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.bots.effort import Effort
from tutor.bots.sampling import sample_hidden
from tutor.engine.cards import packed_size
from tutor.engine.combos import Combo
from tutor.engine.trick import tables_faced
from tutor.engine.view import PlayerView

#: The model assumed until the view says otherwise: the quick policy, the play-outs' model before round 7.
PRIOR = "quick"
#: The candidate models (:data:`tutor.solver.playout.VARIANTS` keys), the prior first.
MODELS: tuple[str, ...] = ("quick", "lowest", "rule", "agent")
#: Sampled hands on which the past decisions are scored.
SAMPLES = 8
#: How many more past decisions (averaged over the sampled hands) a model must explain than the prior.
MARGIN = 2.0
#: Model calls one choice may make (samples × decisions × models); beyond it the oldest decisions are dropped.
MAX_CALLS = 3_000

Raw = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Decision:
    """One past decision of an opponent: what it faced, what it held besides its sampled hand, what it did."""

    seat: int
    #: Cards the seat played from this turn on (put back onto its sampled hand now: its hand before the turn).
    later: int
    counts: tuple[int, ...]
    table: Raw | None
    table_seat: int
    play: Raw | None


@dataclass(frozen=True, slots=True)
class Fit:
    """How well each model explains the opponents' past decisions: decisions made alike, mean over samples."""

    hits: dict[str, float]
    #: Past decisions scored (each on every sample).
    decisions: int
    #: Model calls made (the work; at most the budget).
    calls: int

    def best(self, prior: str = PRIOR, margin: float = MARGIN) -> str:
        """The model explaining most, if it beats ``prior`` by at least ``margin`` decisions; else ``prior``.
        Ties go to the earlier model of :attr:`hits`."""
        top = max(self.hits, key=lambda m: self.hits[m])
        if top != prior and self.hits[top] - self.hits.get(prior, 0.0) >= margin:
            return top
        return prior


def _raw(combo: Combo | None) -> Raw | None:
    return None if combo is None else (combo.cards, int(combo.kind), combo.length, combo.main)


def opponents(view: PlayerView) -> list[int]:
    """The seats whose play the viewer's play-outs simulate by the chosen model: the other side."""
    assert view.landlord is not None
    mine = view.seat == view.landlord
    return [s for s in range(view.players) if (s == view.landlord) != mine]


def past_decisions(view: PlayerView, seats: Sequence[int]) -> list[Decision]:
    """The past decisions of ``seats``, oldest first, with what each seat played from each of them on."""
    history = view.history
    counts = list(view.card_counts)
    later = [0] * view.players
    out: list[Decision] = []
    faced = list(tables_faced(history, view.players))
    for i in range(len(history) - 1, -1, -1):
        turn, table, table_seat = faced[i]
        if turn.play is not None:
            later[turn.seat] += turn.play.cards
            counts[turn.seat] += packed_size(turn.play.cards)
        if turn.seat in seats:
            out.append(Decision(
                turn.seat, later[turn.seat], tuple(counts), _raw(table), -1 if table_seat is None else table_seat,
                _raw(turn.play),
            ))
    out.reverse()
    return out


def model_fit(
    view: PlayerView, models: Sequence[str] = MODELS, samples: int = SAMPLES, max_calls: int = MAX_CALLS,
    effort: Effort | None = None,
) -> Fit:
    """Score ``models`` on the opponents' past decisions over ``samples`` sampled hands (see the module).

    At most ``max_calls`` model calls: when the history is longer, only its most recent decisions are
    scored (what an opponent did lately says as much about its habits, and is cheaper to replay).  Each
    call is counted in ``effort`` when given.
    """
    assert view.landlord is not None
    hits = {m: 0 for m in models}
    seats = opponents(view)
    found = past_decisions(view, seats)
    per = samples * len(models)
    if per == 0:
        return Fit({m: 0.0 for m in models}, 0, 0)
    keep = min(len(found), max_calls // per)
    found = found[len(found) - keep:] if keep else []
    if not found:
        return Fit({m: 0.0 for m in models}, 0, 0)
    rng = random.Random(f"ddz-model:{view.seat}:{len(view.bids) + len(view.history)}")
    for _ in range(samples):
        for m, n in explained(view.landlord, sample_hidden(view, rng, []), found, models).items():
            hits[m] += n
    calls = samples * len(found) * len(models)
    if effort is not None:
        effort.spend(calls)
    return Fit({m: hits[m] / samples for m in models}, len(found), calls)


def explained(landlord: int, hidden: dict[int, int], found: Sequence[Decision], models: Sequence[str]) -> dict[str, int]:
    """How many of the decisions ``found`` each model makes as they were made, the opponents holding ``hidden``
    now (one model call a decision and model).  Not "plan" (round 12) nor "fit" (round 13): they also read the
    cards still out at each decision, which a :class:`Decision` does not keep (a ValueError)."""
    from tutor.solver.native import _native
    from tutor.solver.playout import READS_REST, variant_code

    assert _native is not None
    refused = sorted(READS_REST.intersection(models))
    if refused:
        raise ValueError(f"the {refused[0]} policy is not a model of the opponents' past decisions here")
    codes = [(m, variant_code(m)) for m in models]
    hits = {m: 0 for m in models}
    for d in found:
        hand = hidden.get(d.seat, 0) + d.later
        for m, code in codes:
            if _native.choose(hand, d.counts, landlord, d.seat, d.table, d.table_seat, code) == d.play:
                hits[m] += 1
    return hits


def chosen_model(
    view: PlayerView, models: Sequence[str] = MODELS, samples: int = SAMPLES, margin: float = MARGIN,
    max_calls: int = MAX_CALLS, prior: str = PRIOR,
) -> str:
    """The :data:`tutor.solver.playout.VARIANTS` key the viewer's play-outs should let its opponents play:
    the model explaining clearly more of their past decisions than ``prior`` (:meth:`Fit.best`), else ``prior``.

    Deterministic (the sampled hands are seeded by the view) and bounded (``max_calls`` model calls).
    """
    if view.landlord is None or not view.history:
        return prior
    names = list(models) if prior in models else [prior, *models]
    return model_fit(view, names, samples, max_calls).best(prior, margin)


#: Round 9: the chance a model's decision differs from the one made when that model did play — on *sampled*
#: hands, which misplace some cards (:func:`posterior`).  Round 7 measured it: RLCard's rule agent's decisions
#: as farmers are its compiled model's ("agent") on 0.846 of the sampled hands, medium's are the quick
#: policy's on 0.703; 0.2 sits between the two.
ERROR = 0.2


def posterior(
    view: PlayerView, models: Sequence[str] = MODELS, prior: Sequence[float] | None = None, error: float = ERROR,
    samples: int = SAMPLES, max_calls: int = MAX_CALLS, effort: Effort | None = None,
) -> dict[str, float]:
    """How likely each of ``models`` is to be the opponents' way of playing, after their past decisions.

    Bayes' rule with ``prior`` (weights in the order of ``models``; None = uniform) and a likelihood in which a
    model makes each decision as it was made with chance ``1 − error`` (else ``error``), on each sampled hand
    of :func:`model_fit`'s draws (the same seeded draws and the same bound of ``max_calls`` model calls),
    averaged over the hands: P(decisions | model) = mean over hands of (1 − e)^hits · e^(n − hits).  Unlike
    :meth:`Fit.best`, which keeps the prior until another model leads by a margin, the posterior moves with
    every decision that tells the models apart, so a mixture of the models' play-outs can follow it from the
    first decisions (:func:`allocation`).  With no past decision it is the prior.  A model of prior weight 0 keeps
    weight 0 and is not asked (its calls are not made).  Deterministic, bounded.
    """
    if not models:
        raise ValueError("no models to weigh")
    weights = [1.0] * len(models) if prior is None else [float(w) for w in prior]
    if len(weights) != len(models) or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError("the prior needs one weight >= 0 per model, not all 0")
    if not 0.0 < error < 1.0:
        raise ValueError("the error rate must be between 0 and 1")
    logs = [math.log(w) if w > 0 else -math.inf for w in weights]
    # Round 10: a model the prior rules out keeps weight 0 whatever the evidence, so it is not asked (a prior of
    # two families among four models costs half the calls, the same weights).
    asked = [m for m, w in zip(models, weights) if w > 0]
    found: list[Decision] = []
    if view.landlord is not None and view.history:
        found = past_decisions(view, opponents(view))
    per = samples * len(asked)
    keep = min(len(found), max_calls // per) if per else 0
    found = found[len(found) - keep:] if keep else []
    if found:
        rng = random.Random(f"ddz-model:{view.seat}:{len(view.bids) + len(view.history)}")
        per_hand = [explained(view.landlord or 0, sample_hidden(view, rng, []), found, asked) for _ in range(samples)]
        if effort is not None:
            effort.spend(samples * len(found) * len(asked))
        hit, miss = math.log(1.0 - error), math.log(error)
        n = len(found)
        for i, m in enumerate(models):
            if m not in asked:
                continue
            terms = [h[m] * hit + (n - h[m]) * miss for h in per_hand]
            top = max(terms)
            logs[i] += top + math.log(sum(math.exp(t - top) for t in terms) / len(terms))
    top = max(logs)
    raw = [math.exp(x - top) for x in logs]
    total = sum(raw)
    return {m: r / total for m, r in zip(models, raw)}


def allocation(weights: dict[str, float], count: int) -> list[tuple[str, int]]:
    """``count`` play-out deals split among the models by ``weights`` (largest remainders; ties to the earlier
    model), the models with no deal left out: a mixture of the models' play-outs in proportion to how likely
    each is.  The counts add up to ``count``."""
    total = sum(weights.values())
    if count <= 0 or total <= 0:
        return []
    exact = [(m, count * w / total) for m, w in weights.items()]
    counts = {m: int(x) for m, x in exact}
    left = count - sum(counts.values())
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i][1] - int(exact[i][1])), i))
    for i in order[:left]:
        counts[exact[i][0]] += 1
    return [(m, counts[m]) for m, _ in exact if counts[m] > 0]
