"""Sampling the hidden hands: deals of the unseen cards consistent with a view.

A card-counting player cannot see the other hands, but it knows a lot about
them: exactly which cards are still out (the deck less its own hand and every
play), how many each player holds, that the landlord still holds the kitty
cards it has not played, and — softly — what a player's passes revealed
(:func:`tutor.bots.counting.pass_limits`).  A *determinization* is one
assignment of the unseen cards to the other seats that respects all of that;
the hard bot solves a handful of them exactly and plays the move that wins in
most (:mod:`tutor.bots.search`).

Hard constraints (card counts, the kitty) are always met.  Pass limits are
met whenever the other hand has room for the cards a limit keeps away from a
player; the cards in question are dealt first, each to a seat allowed to hold
it, and the rest at random in proportion to the room left (which is a uniform
random split when there are no limits).  They stay soft: when the cards cannot
all go elsewhere, the sample breaks the limit (a player may pass for reasons
of their own).

Beyond these rules, how the others played says more: a sensible player who
led a lone 3 did not hold another 3.  :func:`likely_samples` nudges each
sample, one card swap at a time, towards a deal in which a model player (the
medium level) would have made the others' past plays (:func:`mismatches`);
with the true hands, a medium opponent's plays are all explained.

The same nudging runs compiled (:func:`nudged_samples`, ``tutor/solver/_nudge.c``) with a variant of
the compiled play-out policy as the model: the replay and the swaps on packed hands, some hundred times
cheaper than asking a Python bot about a rebuilt view, so every past play can be checked at a decision's
budget.  The Python path stays for a model that is a Python bot (the bench's diagnostics).

What a player answered or passed says something too, and how much was
measured (:mod:`tutor.bots.revealed`: the odds of a pass given how many ranks
could have answered).  With a :class:`Weighting`, :func:`sampler` draws
``pool`` deals for each one it keeps and keeps one of them with the chance of
its weight, the likelihood of the others' answers and passes on it
(importance resampling: the deal as dealt, times how well it explains the
play).  The draws are counted, never timed, and the same generator gives the
same deals; without a weighting it is :func:`sample_hidden` itself.

A position set up part-way (a lesson's endgame, ``Game.from_hands``) may have
fewer cards in the other hands than the view has not seen; the surplus is
then out of play, a different part of it in each sample.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.bots.counting import PassLimit, landlord_known, pass_limits, unseen_packed
from tutor.bots.revealed import MEDIUM, TABLES, Rates, follows, log_likelihood
from tutor.engine.combos import Kind
from tutor.engine.cards import packed_size as _size
from tutor.engine.cards import NUM_RANKS, ONE, Cards
from tutor.engine.view import PlayerView, tables_faced, view_from_public

if TYPE_CHECKING:
    from tutor.bots.base import Bot
    from tutor.bots.effort import Effort


def _ranks(packed: int) -> list[int]:
    out = []
    for r in range(NUM_RANKS):
        out.extend([r] * ((packed >> (4 * r)) & 0xF))
    return out


def _pack(ranks: list[int]) -> int:
    total = 0
    for r in ranks:
        total += ONE[r]
    return total


def sample_hidden(view: PlayerView, rng: random.Random, limits: list[PassLimit] | None = None) -> dict[int, int]:
    """One assignment of the unseen cards to the other seats (packed hands by seat).

    Raises:
        ValueError: When the view is inconsistent (the unseen cards do not
            match the other players' card counts).
    """
    me = view.seat
    others = [s for s in range(view.players) if s != me]
    unseen = unseen_packed(view)
    known = landlord_known(view)
    pool = _ranks(unseen - known)
    need = {s: view.card_counts[s] for s in others}
    if view.landlord is not None and view.landlord != me:
        need[view.landlord] -= len(_ranks(known))
    # More unseen cards than the others hold happens in positions set up part-way
    # (a lesson's endgame): the surplus is simply out of play in every sample.
    if sum(need.values()) > len(pool) or any(n < 0 for n in need.values()):
        raise ValueError(
            f"view of seat {me} is inconsistent: {len(pool)} unseen cards for counts "
            f"{[view.card_counts[s] for s in others]!r}"
        )
    if limits is None:
        limits = pass_limits(view)
    caps = _caps(others, limits)
    rng.shuffle(pool)
    # Cards some seat should not get go first, to a seat that may take them.
    pool.sort(key=lambda r: sum(1 for s in others if caps[s][r] < 4), reverse=True)
    held = {s: [0] * NUM_RANKS for s in others}
    hands = {s: 0 for s in others}
    room = dict(need)
    surplus = len(pool) - sum(need.values())
    for r in pool:
        fits = [s for s in others if room[s] > 0 and held[s][r] < caps[s][r]]
        if not fits and surplus > 0:
            surplus -= 1  # out of play in this sample rather than breaking a limit
            continue
        choices = fits or [s for s in others if room[s] > 0]
        if not choices:
            break  # every hand is full: the rest of the pool is out of play
        total = sum(room[s] for s in choices)
        pick = rng.randrange(total)
        for s in choices:
            pick -= room[s]
            if pick < 0:
                break
        held[s][r] += 1
        hands[s] += ONE[r]
        room[s] -= 1
    if view.landlord is not None and view.landlord != me:
        hands[view.landlord] += known
    return hands


@dataclass(frozen=True, slots=True)
class Weighting:
    """Deals weighted by the others' answers and passes: whose measured odds, and draws per deal kept."""

    #: The opponents' table in :data:`tutor.bots.revealed.TABLES` (a partner is weighted as our medium level).
    rates: str
    #: Deals drawn for each one kept (1: no weighting).
    pool: int = 4

    def __post_init__(self) -> None:
        if self.rates not in TABLES:
            raise ValueError(f"unknown table of pass odds {self.rates[:40]!r} (one of: {', '.join(TABLES)})")


Draw = Callable[[random.Random], dict[int, int]]


def sampler(view: PlayerView, limits: list[PassLimit] | None = None, weighting: Weighting | None = None) -> Draw:
    """A drawer of hidden deals for ``view``: :func:`sample_hidden`, weighted by ``weighting`` when given.

    The events and tables are read once here, so each draw costs ``pool`` samples and their likelihoods.
    """
    if limits is None:
        limits = pass_limits(view)
    fixed = limits

    def plain(rng: random.Random) -> dict[int, int]:
        return sample_hidden(view, rng, fixed)

    if weighting is None or weighting.pool <= 1 or view.landlord is None:
        return plain
    events = follows(view.history, view.players, view.landlord, view.card_counts, skip=view.seat)
    if not events:
        return plain
    opponents = TABLES[weighting.rates]
    farmer = view.seat != view.landlord
    tables: dict[int, Rates] = {
        s: MEDIUM if farmer and s != view.landlord else opponents for s in range(view.players) if s != view.seat
    }
    pool = weighting.pool

    def weighted(rng: random.Random) -> dict[int, int]:
        draws = [sample_hidden(view, rng, fixed) for _ in range(pool)]
        logs = [log_likelihood(events, d, tables) for d in draws]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        pick = rng.random() * sum(weights)
        for deal, w in zip(draws, weights):
            pick -= w
            if pick < 0:
                return deal
        return draws[-1]

    return weighted


def _caps(others: list[int], limits: list[PassLimit]) -> dict[int, list[int]]:
    """Per seat and rank, how many cards the seat may get without breaking a pass limit."""
    caps = {s: [4] * NUM_RANKS for s in others}
    for lim in limits:
        if lim.seat not in caps:
            continue
        most = 0 if lim.kind == Kind.SINGLE else 1
        for r in range(lim.main + 1, NUM_RANKS):
            caps[lim.seat][r] = min(caps[lim.seat][r], most)
    return caps


def mismatches(
    view: PlayerView,
    hidden: dict[int, int],
    model: Bot,
    limit: int | None = None,
    cap: int | None = None,
    blame: list[tuple[int, int]] | None = None,
    effort: Effort | None = None,
) -> int:
    """How many past decisions of the other players ``model`` would have made differently on this sample.

    Replays the history with the sampled hands: before each turn of another
    seat, that seat held its sampled hand plus everything it played later, so
    its view then can be rebuilt and ``model`` asked what it would have done.
    A sample in which the others' actual plays look sensible is more likely
    than one in which they look absurd (who leads a lone 3 while holding a
    straight from 3?).  Only the last ``limit`` decisions are checked when
    ``limit`` is given (the recent ones say most about what is still held).
    Counting stops once it exceeds ``cap`` (the caller only needs to know it is worse).
    ``blame``, when given, receives (seat, cards) for each mismatch: the cards
    the model would have played instead (0 for a pass).  Each question to
    ``model`` is counted in ``effort`` when given (see :mod:`tutor.bots.effort`).
    """
    history = view.history
    n = view.players
    hands = [view.hand.packed if s == view.seat else hidden.get(s, 0) for s in range(n)]
    # Walk backwards, putting played cards back, to get each seat's hand before every turn.
    before: list[int] = [0] * len(history)
    counts_before: list[tuple[int, ...]] = [()] * len(history)
    counts = list(view.card_counts)
    for i in range(len(history) - 1, -1, -1):
        turn = history[i]
        if turn.play is not None:
            hands[turn.seat] += turn.play.cards
            counts[turn.seat] += _size(turn.play.cards)
        before[i] = hands[turn.seat]
        counts_before[i] = tuple(counts)
    first = 0 if limit is None else max(0, len(history) - limit)
    wrong = 0
    for i, (turn, table, table_seat) in enumerate(tables_faced(history, n)):
        if i >= first and turn.seat != view.seat and before[i]:
            past = view_from_public(
                turn.seat, Cards(before[i]), view.landlord, history[:i], counts_before[i], bids=view.bids,
                kitty=view.kitty, to_move=turn.seat, bid=view.bid, rules=view.rules, trick=(table, table_seat),
            )
            choice = model.play(past)
            if effort is not None:
                effort.spend()
            if choice != turn.play:
                wrong += 1
                if blame is not None:
                    blame.append((turn.seat, 0 if choice is None else choice.cards))
                if cap is not None and wrong > cap:
                    return wrong
    return wrong


def likely_samples(
    view: PlayerView,
    rng: random.Random,
    count: int,
    model: Bot,
    steps: int,
    limits: list[PassLimit] | None = None,
    limit: int | None = None,
    effort: Effort | None = None,
    weighting: Weighting | None = None,
) -> list[dict[int, int]]:
    """``count`` samples nudged towards deals that explain how the others played.

    A cheap form of the inference strong card programs do.  Each sample starts
    as :func:`sample_hidden` draws it; then, up to ``steps`` times, one card is
    swapped between the two other hands and the swap is kept when ``model``
    (a sensible player) would have made at least as many of the others' past
    plays with the new hands (:func:`mismatches`).  A sample that already
    explains every play is kept as it is.

    Deterministic given ``rng`` — no clock is read.  The work is bounded by
    ``count * (steps + 1)`` replays of the last ``limit`` turns; ``effort``,
    when given, counts the model's decisions and, once it is exhausted, the
    remaining samples are drawn but not nudged (the safety stop of a decision
    with a very long history; see :mod:`tutor.bots.effort`).  With ``weighting``
    the samples are drawn weighted (:func:`sampler`) before they are nudged.
    """
    if limits is None:
        limits = pass_limits(view)
    draw = sampler(view, limits, weighting)
    others = [s for s in range(view.players) if s != view.seat]
    known = landlord_known(view)
    out = []
    for _ in range(count):
        hidden = draw(rng)
        if steps <= 0 or len(others) != 2:
            out.append(hidden)
            continue
        blame: list[tuple[int, int]] = []
        if effort is not None and effort.exhausted:
            out.append(hidden)
            continue
        wrong = mismatches(view, hidden, model, limit, blame=blame, effort=effort)
        for _ in range(steps):
            if not wrong or (effort is not None and effort.exhausted):
                break
            # Move a card the model would have played but the player did not play (so it
            # likely is not there) to the other hand, for a random card of that hand.
            # The landlord keeps the kitty cards it must still hold.
            seat, wanted = rng.choice(blame)
            give = seat if seat in others else rng.choice(others)
            take = others[0] if give == others[1] else others[1]
            free_give = hidden[give] - (known if give == view.landlord else 0)
            suspects = [r for r in _ranks(wanted) if (free_give >> (4 * r)) & 0xF]
            free_take = _ranks(hidden[take] - (known if take == view.landlord else 0))
            pool_give = suspects or _ranks(free_give)
            if not pool_give or not free_take:
                break
            ra, rb = rng.choice(pool_give), rng.choice(free_take)
            if ra == rb:
                continue
            trial = dict(hidden)
            trial[give] += ONE[rb] - ONE[ra]
            trial[take] += ONE[ra] - ONE[rb]
            trial_blame: list[tuple[int, int]] = []
            w = mismatches(view, trial, model, limit, cap=wrong, blame=trial_blame, effort=effort)
            if w <= wrong:
                hidden, wrong, blame = trial, w, trial_blame
        out.append(hidden)
    return out


def nudged_samples(
    view: PlayerView,
    rng: random.Random,
    count: int,
    variant: str,
    steps: int,
    limits: list[PassLimit] | None = None,
    limit: int | None = None,
    weighting: Weighting | None = None,
) -> list[dict[int, int]]:
    """:func:`likely_samples` compiled: ``count`` deals drawn as :func:`sampler` draws them, then nudged by up to
    ``steps`` card swaps towards deals in which ``variant`` of the compiled play-out policy
    (:data:`tutor.solver.playout.VARIANTS`) would have made the others' last ``limit`` plays (None: all).

    The same swap rule (a card the model wanted played moves to the other hidden hand, the landlord's known
    kitty cards stay) on the same replay; the swaps draw from one seed taken from ``rng``, so the deals are a
    function of the view and ``rng``, never of the clock.  The work is at most ``count · (steps + 1)``
    replays of those plays, each a compiled model decision per checked turn.  Needs the compiled play-out
    for ``view.rules`` and three seats (:func:`tutor.solver.playout.plays`); a ValueError names an unknown
    variant.
    """
    from tutor.solver import playout as quick

    quick.variant_code(variant)  # an unknown model is an error before any work
    if limits is None:
        limits = pass_limits(view)
    draw = sampler(view, limits, weighting)
    deals = [draw(rng) for _ in range(count)]
    if steps <= 0 or view.players != 3:
        return deals
    return quick.nudge(view, deals, landlord_known(view), variant, steps, limit, rng.getrandbits(64))


@dataclass(frozen=True, slots=True)
class Filter:
    """The played-out deals filtered by how well a model explains the others' past plays (round 8).

    ``pool`` deals are drawn for each one kept; each draw is scored by the compiled replay of the others'
    decisions under ``model`` (a :data:`tutor.solver.playout.VARIANTS` key: the decisions it would have made
    otherwise, :func:`tutor.solver.playout.mismatch_counts`).  With ``beta`` None the deals explaining most
    are kept (ties: the earlier draw); with a ``beta`` they are resampled with weights ``exp(−beta·wrong)``,
    the likelihood of a model that errs with odds ``e^−beta`` a decision (importance resampling).
    """

    model: str
    pool: int = 4
    beta: float | None = None
    #: The others' last plays scored (None: all of them; the nudging explained most with all, round 6).
    recent: int | None = None

    def __post_init__(self) -> None:
        if self.pool < 1:
            raise ValueError("a filter draws at least one deal for each one kept")


def filtered_samples(
    view: PlayerView,
    rng: random.Random,
    count: int,
    filtering: Filter,
    limits: list[PassLimit] | None = None,
    weighting: Weighting | None = None,
) -> list[dict[int, int]]:
    """``count`` deals kept of ``count · pool`` drawn as :func:`sampler` draws them, by how many of the others'
    last ``filtering.recent`` plays (None: all) the filter's model explains on each (:class:`Filter`): a particle filter
    over the deals instead of nudging them swap by swap.

    Unlike the nudging, a kept deal is one the sampler drew as it is, so the deals keep the sampler's
    distribution, reweighted by the model's likelihood.  The work is ``count · pool`` draws and as many
    compiled replays of those plays (one model decision a checked turn): counted, never timed; the same view
    and ``rng`` give the same deals.  Needs the compiled play-out for ``view.rules`` and three seats.
    """
    from tutor.solver import playout as quick

    quick.variant_code(filtering.model)  # an unknown model is an error before any work
    if limits is None:
        limits = pass_limits(view)
    draw = sampler(view, limits, weighting)
    if filtering.pool <= 1 or view.players != 3 or not view.history:
        return [draw(rng) for _ in range(count)]
    draws = [draw(rng) for _ in range(count * filtering.pool)]
    wrong = quick.mismatch_counts(view, draws, filtering.model, filtering.recent)
    if filtering.beta is None:
        order = sorted(range(len(draws)), key=lambda i: (wrong[i], i))[:count]
        return [draws[i] for i in sorted(order)]
    least = min(wrong)
    weights = [math.exp(-filtering.beta * (w - least)) for w in wrong]
    total = sum(weights)
    # Systematic resampling: one random offset, ``count`` evenly spaced picks along the weights.
    step = total / count
    pick = rng.random() * step
    kept: list[dict[int, int]] = []
    acc = 0.0
    for deal, w in zip(draws, weights):
        acc += w
        while pick < acc and len(kept) < count:
            kept.append(deal)
            pick += step
    while len(kept) < count:  # rounding at the end of the weights
        kept.append(draws[-1])
    return kept
