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

A position set up part-way (a lesson's endgame, ``Game.from_hands``) may have
fewer cards in the other hands than the view has not seen; the surplus is
then out of play, a different part of it in each sample.
"""

from __future__ import annotations

import random

from tutor.bots.counting import PassLimit, landlord_known, pass_limits, unseen_packed
from tutor.engine.combos import Kind
from tutor.engine.cards import NUM_RANKS, ONE
from tutor.engine.view import PlayerView


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
