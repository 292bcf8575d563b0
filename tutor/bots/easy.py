"""The easy level (RULES §10): a beginner — makes mistakes and plays poorly as a team.

It plays like someone who has just learnt the combinations:

* bids on raw high cards (jokers and twos), ignoring how ragged the hand is;
* often leads its lowest card as a single, breaking pairs and straights;
* answers an opponent with the cheapest card that beats it, whatever that does
  to the rest of the hand, and sometimes beats its own partner;
* but it is never absurd: every play is legal, it goes out when it can, and it
  never opens with or answers by a bomb or the rocket "for nothing" — only when
  the opponent who played is about to go out, and never on the first trick.
"""

from __future__ import annotations

from tutor.bots.base import (
    Seats,
    auction_choice,
    check_turn,
    is_bomb,
    is_first_trick,
    turn_rng,
)
from tutor.bots.planner import plan_packed
from tutor.engine.cards import BIG_JOKER, R2, SMALL_JOKER
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import follow_moves_packed
from tutor.engine.view import PlayerView
from tutor.engine.facts import can_show_hand, whole_hand_play

#: Chance of leading the lowest card alone, breaking whatever it belonged to.
BREAK_LEAD = 0.45
#: Chance of beating the partner's play anyway.
BEAT_PARTNER = 0.4
#: Chance of passing on an opponent although it could answer.
TIMID_PASS = 0.15
#: Rob auction (RULES §12.1): a beginner robs on what medium would only call with, and robs
#: back on a bid of 2's worth — every rob doubles the stake, which a beginner does not weigh.
EASY_THRESHOLDS = (1, 1, 2)
#: Jokers and twos with which the beginner shows the hand (with a coin): fewer than it would bid on plus one.
SHOW_HIGH = 3


class EasyBot:
    """A beginner: greedy, short-sighted, careless with its partner — but legal and never absurd."""

    level = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"EasyBot(seed={self.seed!r})"

    def bid(self, view: PlayerView) -> int:
        """Bid on raw high cards: three or more jokers and twos make a bid."""
        counts = view.hand.counts
        high = counts[R2] + counts[SMALL_JOKER] + counts[BIG_JOKER]
        want = 0 if high < 3 else min(3, high - 2)
        rng = turn_rng(self.seed, view)
        if want and rng.random() < 0.25:
            want = max(0, want - 1)
        return auction_choice(view, want, EASY_THRESHOLDS)

    def show_hand(self, view: PlayerView) -> bool:
        """Show the hand on raw high cards too: three or more jokers and twos, with a coin (RULES §12.2)."""
        if not can_show_hand(view):
            return False
        counts = view.hand.counts
        high = counts[R2] + counts[SMALL_JOKER] + counts[BIG_JOKER]
        return high >= SHOW_HIGH and turn_rng(self.seed, view).random() < 0.5

    def play(self, view: PlayerView) -> Combo | None:
        check_turn(view)
        hand = view.hand.packed
        table = view.table
        finish = whole_hand_play(hand, table, view.rules)
        if finish is not None:
            return finish
        rng = turn_rng(self.seed, view)
        seats = Seats.of(view)
        if table is None:
            groups = list(plan_packed(hand, view.rules.decks).groups)
            plain = [g for g in groups if not is_bomb(g)]
            if not plain:
                return min(groups, key=lambda g: g[3])
            roll = rng.random()
            if roll < BREAK_LEAD:
                low = min(r for r in range(15) if (hand >> (4 * r)) & 0xF)
                if (hand >> (4 * low)) & 0xF < 4 and not (low >= SMALL_JOKER and _has_rocket(hand)):
                    return Combo(1 << (4 * low), Kind.SINGLE, 1, low)
            if roll < BREAK_LEAD + 0.3:
                return rng.choice(plain)
            return min(plain, key=lambda g: (g[3], -g[0]))
        moves = follow_moves_packed(hand, table, view.rules)
        if not moves:
            return None
        assert view.table_seat is not None
        plain = [m for m in moves if not is_bomb(m)]
        if view.table_seat == seats.partner:
            if plain and rng.random() < BEAT_PARTNER:
                return min(plain, key=lambda m: m.main)
            return None
        if plain:
            if rng.random() < TIMID_PASS and seats.counts[view.table_seat] > 4:
                return None
            return min(plain, key=lambda m: m.main)
        if not is_first_trick(view) and seats.counts[view.table_seat] <= 2:
            return min(moves, key=lambda m: (m.kind == Kind.ROCKET, m.main))
        return None


def _has_rocket(hand: int) -> bool:
    return bool((hand >> (4 * SMALL_JOKER)) & 0xF and (hand >> (4 * BIG_JOKER)) & 0xF)
