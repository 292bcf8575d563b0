"""The medium level (RULES §10): sensible splits, team play, no singles into a one-card landlord.

How it decides:

* **Bidding** by the hand evaluation (:func:`tutor.bots.evaluation.evaluate_hand`).
* **Leading**: plan the hand (:mod:`tutor.bots.planner`) and lead the weakest
  planned group, so chains and trios leave whole and high cards stay for
  winning the lead back.  When an opponent has one card left it leads pairs
  and longer combinations, never a single while it has anything else (and
  then its highest single).
* **Following an opponent**: rate every answer by the plan of what would
  remain and play the best one unless every answer wrecks the hand; bombs and
  the rocket only when the opponent who played is about to go out.
* **Following the partner**: pass — unless the play lets it go out or leaves it
  one play from going out.  That is RULES §11's "do not beat your partner".

The finer team play — feeding a partner on one or two cards, the last
farmer's extra effort, the highest answer against an opponent about to go
out — is switched on by :attr:`MediumBot.finesse` and belongs to the hard level.
"""

from __future__ import annotations

from tutor.bots.base import (
    Seats,
    check_turn,
    is_bomb,
    auction_choice,
)
from tutor.bots.evaluation import evaluate_hand
from tutor.bots.planner import group_value, plan_packed
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import follow_moves_packed
from tutor.engine.view import PlayerView
from tutor.engine.facts import can_show_hand, is_boss, whole_hand_play

#: Hand points (:func:`evaluate_hand`, 20 cards with the kitty) at which the landlord shows the hand:
#: well past the 10 of a bid of 3, so that the ×2 is paid by a hand that wins with open cards.
SHOW_HAND_POINTS = 14.0

SINGLE, PAIR = Kind.SINGLE, Kind.PAIR


def lead_key(group: Combo) -> tuple[float, int]:
    """Weakest first; among equals, the group that sheds more cards."""
    return (group_value(group) - 0.3 * (_size(group) - 1), -group[3])


def _size(combo: Combo) -> int:
    packed = combo.cards
    total = 0
    while packed:
        total += packed & 0xF
        packed >>= 4
    return total


class MediumBot:
    """Plays sensibly by its hand plan and as a team; does not count cards."""

    level = "medium"
    #: Play an answer when it changes the plan score by at least this much.
    follow_threshold = 0.0
    #: The same for the farmer who is the last one able to stop the landlord.
    last_chance_threshold = -6.0
    #: Team-play finesse beyond "do not beat the partner" (the hard level turns it on):
    #: feed a partner on one or two cards, spend more as the last farmer able to stop the
    #: landlord, answer an opponent about to go out with the highest card, keep pairs away
    #: from an opponent on two cards.
    finesse = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    # ------------------------------------------------------------------ bidding
    def bid(self, view: PlayerView) -> int:
        """Bid what the hand evaluation suggests, if that still outbids everyone."""
        want = evaluate_hand(view.hand).suggested_bid
        return auction_choice(view, want)

    def show_hand(self, view: PlayerView) -> bool:
        """Show the hand (×2, RULES §12.2) only when it is far past a bid of 3 with the kitty in.

        Showing doubles the stake but lets the farmers play against open cards:
        worth it only for a hand that wins however they play.
        """
        return can_show_hand(view) and evaluate_hand(view.hand).points >= SHOW_HAND_POINTS

    # --------------------------------------------------------------------- play
    def play(self, view: PlayerView) -> Combo | None:
        check_turn(view)
        seats = Seats.of(view)
        hand = view.hand.packed
        table = view.table
        finish = whole_hand_play(hand, table, view.rules)
        if finish is not None:
            return finish
        if table is None:
            return self.lead(view, seats, hand)
        return self.follow(view, seats, hand, table)

    def hidden(self, view: PlayerView) -> int:
        """Cards the opponents might hold. Medium does not count: everything not in its hand."""
        return view.rules.deck_packed - view.hand.packed

    def boss(self, view: PlayerView, seats: Seats, combo: Combo) -> bool:
        """Nobody on the other side can beat ``combo`` (bombs included)."""
        biggest = max(seats.counts[o] for o in seats.opponents)
        return is_boss(combo, self.hidden(view), biggest, rules=view.rules)

    # ------------------------------------------------------------------ leading
    def lead(self, view: PlayerView, seats: Seats, hand: int) -> Combo:
        plan = plan_packed(hand, view.rules.decks)
        groups = list(plan.groups)
        fed = self.feed_partner(seats, hand) if self.finesse else None
        if fed is not None:
            return fed
        plain = [g for g in groups if not is_bomb(g)] or groups
        danger = seats.fewest_opponent_cards()
        if danger == 1:
            longer = [g for g in plain if g[1] != SINGLE]
            if longer:
                return min(longer, key=lead_key)
            return self.single_against_one_card(view, seats, hand, groups)
        if danger == 2 and self.finesse:
            no_pairs = [g for g in plain if g[1] != PAIR]
            if no_pairs:
                plain = no_pairs
        return min(plain, key=lead_key)

    def single_against_one_card(self, view: PlayerView, seats: Seats, hand: int, groups: list[Combo]) -> Combo:
        """Only singles (or bombs) left and an opponent on one card: play the bombs, then the highest single."""
        bombs = [g for g in groups if is_bomb(g)]
        if bombs:
            return min(bombs, key=lambda g: g[3])
        singles = [g for g in groups if g[1] == SINGLE]
        return max(singles, key=lambda g: g[3])

    def feed_partner(self, seats: Seats, hand: int) -> Combo | None:
        """A farmer whose partner has one or two cards leads low for them (RULES §11)."""
        if seats.partner is None or seats.fewest_opponent_cards() <= 1:
            return None
        left = seats.counts[seats.partner]
        if left == 1:
            low = min(r for r in range(15) if (hand >> (4 * r)) & 0xF)
            return _single(low)
        if left == 2:
            pairs = [r for r in range(13) if 2 <= (hand >> (4 * r)) & 0xF < 4]
            if pairs:
                return _pair(min(pairs))
        return None

    # ---------------------------------------------------------------- following
    def follow(self, view: PlayerView, seats: Seats, hand: int, table: Combo) -> Combo | None:
        moves = follow_moves_packed(hand, table, view.rules)
        if not moves:
            return None
        assert view.table_seat is not None
        if view.table_seat == seats.partner:
            return self.follow_partner(view, seats, hand, table, moves)
        return self.follow_opponent(view, seats, hand, table, moves)

    def follow_partner(
        self, view: PlayerView, seats: Seats, hand: int, table: Combo, moves: list[Combo]
    ) -> Combo | None:
        """Let the partner's play stand unless beating it leaves one play to go out."""
        for move in moves:
            if is_bomb(move):
                continue
            rest = plan_packed(hand - move.cards, view.rules.decks)
            if rest.plays <= 1:
                return move
        return None

    def follow_opponent(
        self, view: PlayerView, seats: Seats, hand: int, table: Combo, moves: list[Combo]
    ) -> Combo | None:
        assert view.table_seat is not None
        leader_cards = seats.counts[view.table_seat]
        urgent = leader_cards <= 2 or seats.fewest_opponent_cards() <= 2
        base = plan_packed(hand, view.rules.decks).score
        rated = []
        for move in moves:
            if is_bomb(move):
                continue
            delta = plan_packed(hand - move.cards, view.rules.decks).score - base
            rated.append((delta, -move.main, move))
        if rated:
            if urgent and self.finesse and table.kind in (SINGLE, PAIR):
                # Stop the opponent: the highest answer, not the thriftiest.
                return max(rated, key=lambda x: (x[2].main, x[0]))[2]
            delta, _, best = max(rated, key=lambda x: (x[0], x[1]))
            if urgent or delta >= self.threshold(view, seats):
                return best
        bombs = [m for m in moves if is_bomb(m)]
        if bombs and self.wants_bomb(view, seats, hand, bombs):
            return min(bombs, key=lambda m: (m.kind == Kind.ROCKET, m.main))
        return None

    def threshold(self, view: PlayerView, seats: Seats) -> float:
        """How much worse the hand may get for the sake of answering."""
        if self.finesse and seats.partner is not None and view.table_seat == seats.landlord:
            # The partner already passed: this is the last chance to stop the landlord.
            if view.history and view.history[-1].seat == seats.partner and view.history[-1].play is None:
                return self.last_chance_threshold
        return self.follow_threshold

    def wants_bomb(self, view: PlayerView, seats: Seats, hand: int, bombs: list[Combo]) -> bool:
        """Bomb only to stop an opponent who is about to go out."""
        assert view.table_seat is not None
        return seats.counts[view.table_seat] <= 3


def _single(rank: int) -> Combo:
    return Combo(1 << (4 * rank), Kind.SINGLE, 1, rank)


def _pair(rank: int) -> Combo:
    return Combo(2 << (4 * rank), Kind.PAIR, 1, rank)
