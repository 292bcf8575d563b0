"""What one player knows (RULES §8) — the only thing a bot or the coach is given.

A :class:`PlayerView` is a frozen snapshot built *by copying* public facts out
of a game: the player's own hand, the bids, the landlord's seat, the kitty once
revealed, every play and pass so far, and each player's card count.  It holds
no reference to the game or to the other hands, so code that receives a view
has no path to hidden cards — by construction, not by convention.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.trick import Turn, tables_faced, trick_state

__all__ = ["PlayerView", "Turn", "bidding_view", "tables_faced", "trick_state", "view_from_public"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know at this moment, and nothing more."""

    seat: int
    hand: Cards
    #: Bids in the order they were made: (seat, bid), bid 0 = pass.
    bids: tuple[tuple[int, int], ...]
    #: None while bidding.
    landlord: int | None
    #: None until the landlord takes it (RULES §3: then everyone sees it).
    kitty: Cards | None
    #: Every play and pass of the play phase, in order.
    history: tuple[Turn, ...]
    #: Cards held by seats 0, 1, 2.
    card_counts: tuple[int, ...]
    #: Whose turn it is.
    to_move: int
    #: The combination the player must beat, or None when they lead.
    table: Combo | None
    #: The seat that played ``table`` (None when leading).
    table_seat: int | None
    #: The game's winning bid (None while bidding).
    bid: int | None
    rules: Rules = field(default=STANDARD)
    #: The landlord's cards when shown (open hand, RULES §12.2), kept current as they are played.
    shown: Cards | None = None

    @property
    def players(self) -> int:
        return len(self.card_counts)

    @property
    def opened(self) -> bool:
        """True when the landlord's hand is public (RULES §12.2)."""
        return self.shown is not None

    @property
    def is_landlord(self) -> bool:
        return self.landlord == self.seat

    def is_partner(self, other: int) -> bool:
        """True when ``other`` is on this player's side (farmers are a team)."""
        if self.landlord is None or other == self.seat:
            return other == self.seat
        return (other == self.landlord) == (self.seat == self.landlord)

    def played_cards(self) -> Cards:
        """All cards played so far by anyone."""
        total = 0
        for turn in self.history:
            if turn.play is not None:
                total += turn.play.cards
        return Cards(total)

    def played_by(self, seat: int) -> Cards:
        total = 0
        for turn in self.history:
            if turn.play is not None and turn.seat == seat:
                total += turn.play.cards
        return Cards(total)

    def unseen(self) -> Cards:
        """Cards this player has not seen: the deck less their hand and all plays.

        The kitty is *not* subtracted: it is in the landlord's hand or was played.
        A shown landlord's hand (RULES §12.2) stays in: it is still out, in the
        landlord's hand (:attr:`shown` says where).
        """
        return Cards(self.rules.deck_packed - self.hand.packed - self.played_cards().packed)

    def not_seen(self) -> Cards:
        """What the card counter counts (RULES §9): :meth:`unseen` less a shown landlord's hand (RULES §12.2).

        Once the landlord shows the hand, its cards are seen by everyone; the
        counter then counts only the cards whose place a farmer cannot know.
        """
        unseen = self.unseen()
        if self.shown is None or self.landlord == self.seat:
            return unseen
        return Cards(unseen.packed - self.shown.packed)


def view_from_public(
    seat: int,
    hand: Cards | str,
    landlord: int | None,
    history: Iterable[Turn],
    card_counts: Sequence[int],
    *,
    bids: Iterable[tuple[int, int]] = (),
    kitty: Cards | str | None = None,
    to_move: int | None = None,
    bid: int | None = None,
    rules: Rules = STANDARD,
    shown: Cards | None = None,
    trick: tuple[Combo | None, int | None] | None = None,
) -> PlayerView:
    """The one view factory: a :class:`PlayerView` from public facts, for code that has no game.

    The bot API and puzzle tools know a position only as text, the auction
    tools know a dealt hand and the bids, the samplers a seat's hand at an
    earlier turn; this derives the table and whose turn it is from ``history``
    with the two-pass rule, so such callers cannot construct an inconsistent
    view by hand.  ``trick`` — the table and its seat facing the mover — may be
    given by a caller that has just replayed the history itself
    (:func:`tables_faced`), to skip a second replay.

    Raises:
        ValueError: When ``card_counts`` does not match the number of players or
            the seat's own hand.
    """
    own = Cards.parse(hand) if isinstance(hand, str) else hand
    the_kitty = Cards.parse(kitty) if isinstance(kitty, str) else kitty
    turns = tuple(history)
    counts = tuple(int(n) for n in card_counts)
    if len(counts) != rules.players:
        raise ValueError(f"card_counts needs {rules.players} entries, got {card_counts!r}")
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat must be 0..{rules.players - 1}, got {seat!r}")
    if counts[seat] != len(own):
        raise ValueError(f"card_counts[{seat}] = {counts[seat]} but the hand {str(own)!r} has {len(own)} cards")
    if trick is None:
        table, table_seat, derived_to_move = trick_state(turns, rules.players)
    else:
        (table, table_seat), derived_to_move = trick, to_move
    if to_move is None:
        to_move = derived_to_move if derived_to_move is not None else (landlord if landlord is not None else seat)
    return PlayerView(
        seat=seat,
        hand=own,
        bids=tuple((int(s), int(b)) for s, b in bids),
        landlord=landlord,
        kitty=the_kitty,
        history=turns,
        card_counts=counts,
        to_move=to_move,
        table=table,
        table_seat=table_seat,
        bid=bid,
        rules=rules,
        shown=shown,
    )


def bidding_view(seat: int, hand: Cards, bids: Iterable[tuple[int, int]], rules: Rules) -> PlayerView:
    """``seat``'s view when it is their turn to speak in the auction: the dealt hand and the moves before."""
    counts = tuple(rules.hand_size for _ in range(rules.players))
    return view_from_public(seat, hand, None, (), counts, bids=bids, to_move=seat, rules=rules)
