"""Hand evaluation before bidding (RULES §9, §11): high cards, bombs, moves → a bid.

The bidding status line shows «Старших карт: 3 · бомб: 0 · ходов до конца: ~7
→ ставка 1», and lesson advice says: count the high cards (jokers and twos) and
the bombs, count the moves the hand needs; few high cards and many moves — do
not bid.  :func:`evaluate_hand` computes exactly those numbers, so the coach,
the lessons and the medium/hard bots all bid by the same reasoning.

The points follow the widespread rule of thumb of Dou Di Zhu players (big
joker 4, small joker 3, each two 2, each bomb 6, the rocket counting as its
jokers plus 2); the estimated moves then shift the bid: a hand that plays out
in few moves is worth more, a ragged one less.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.cards import BIG_JOKER, R2, SMALL_JOKER, Cards
from tutor.bots.planner import plan

BIG_JOKER_POINTS = 4
SMALL_JOKER_POINTS = 3
TWO_POINTS = 2
BOMB_POINTS = 6
ROCKET_EXTRA = 2
#: Moves (for 17 cards, before the kitty) at which no adjustment is made.
PAR_MOVES = 7
#: Points per move below (above) par.
MOVE_POINTS = 1.5
#: Points needed for a bid of 1, 2, 3.
BID_THRESHOLDS = (4.0, 7.0, 10.0)


@dataclass(frozen=True, slots=True)
class HandEvaluation:
    """The numbers of the bidding status line, and the bid they suggest."""

    #: Jokers and twos.
    high_cards: int
    #: Four-of-a-kinds, plus the rocket.
    bombs: int
    #: Plays the hand needs if it always had the lead (see :mod:`tutor.bots.planner`).
    moves: int
    #: The strength behind the suggestion.
    points: float
    #: 0 = pass, else 1..3.
    suggested_bid: int


def evaluate_hand(hand: Cards | int) -> HandEvaluation:
    """Evaluate a hand for bidding (usually 17 cards, before the kitty).

    Args:
        hand: The cards (``Cards`` or packed).

    Returns:
        A :class:`HandEvaluation`; ``suggested_bid`` is what medium and hard bots bid.
    """
    cards = hand if isinstance(hand, Cards) else Cards(hand)
    counts = cards.counts
    twos = counts[R2]
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    bombs = sum(1 for r in range(R2 + 1) if counts[r] == 4)
    rocket = 1 if small and big else 0
    moves = plan(cards).plays
    points: float = (
        big * BIG_JOKER_POINTS
        + small * SMALL_JOKER_POINTS
        + twos * TWO_POINTS
        + bombs * BOMB_POINTS
        + rocket * ROCKET_EXTRA
    )
    # Scale the par for hands that are not 17 cards (an evaluation after the kitty).
    par = PAR_MOVES * len(cards) / 17 if len(cards) else 0
    points += (par - moves) * MOVE_POINTS
    bid = sum(1 for threshold in BID_THRESHOLDS if points >= threshold)
    return HandEvaluation(twos + small + big, bombs + rocket, moves, points, bid)
