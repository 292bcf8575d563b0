"""A position described from one seat, as a player would tell it, made into a view.

``ddz analyze`` and the coach's truth tests start from what a player can say
about a game played elsewhere: "I hold 2 3 3, the landlord is on my right with
one card, my partner on the left has one card and led a 5."  This module
checks such a description and builds the :class:`PlayerView` the coach
evaluates.  The describer sits at seat 0 (``you``); ``right`` plays after them
and ``left`` before them (turn order 0 → 1 → 2, RULES §2).

Cards that left the game before the current trick (``gone``) must be in the
view's history, because the coach counts cards from the history as a player
does.  They are written there as singles — the kitty cards among them by the
landlord (who must have played them), the rest by the describer (which seat
played them does not matter to the count; a kitty card counts as played only
when no copy of its rank is unaccounted for) — followed by the current trick, so
the trick rule (:mod:`tutor.engine.trick`) replayed over the history gives the
table the description names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutor.engine.auction import CALL, PASS, ROB, Auction, IllegalBidError
from tutor.engine.cards import FULL_DECK, Cards, packed_contains
from tutor.engine.combos import Combo, beats
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.trick import Trick
from tutor.engine.view import PlayerView, Turn, view_from_public
from tutor.engine.view import bidding_view as engine_bidding_view
from tutor.files import ascii_int
from tutor.i18n import t

SEATS = {"you": 0, "right": 1, "left": 2}
SEAT_NAMES = {v: k for k, v in SEATS.items()}
#: The most characters of the user's input an error message quotes.
QUOTE = 40


class DescriptionError(ValueError):
    """A description that cannot be a real position; the message names the bad part."""


def _q(text: str) -> str:
    return repr(text if len(text) <= QUOTE else text[: QUOTE - 1] + "…")


def parse_seat(text: str) -> int:
    seat = SEATS.get(text.strip().lower())
    if seat is None:
        raise DescriptionError(f"unknown seat {_q(text)} (you, right or left)")
    return seat


def parse_counts(text: str) -> dict[int, int]:
    """``right=1,left=3`` → {1: 1, 2: 3}."""
    out: dict[int, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, number = part.partition("=")
        count = ascii_int(number.strip(), 6)
        if not eq or count is None:
            raise DescriptionError(f"bad count {_q(part)} (write right=N,left=N)")
        seat = parse_seat(name)
        if seat == 0:
            raise DescriptionError("--counts: your own count is your hand's size")
        if seat in out:
            raise DescriptionError(f"--counts names {name.strip()} twice")
        n = count
        if not 1 <= n <= 20:
            raise DescriptionError(f"bad count {_q(part)} (1 to 20 cards)")
        out[seat] = n
    if set(out) != {1, 2}:
        raise DescriptionError(f"--counts needs right=N and left=N, got {_q(text)}")
    return out


def _reading(cards: Cards, text: str) -> Combo:
    from tutor.solver import table_reading

    try:
        return table_reading(cards)
    except ValueError:
        raise DescriptionError(f"{_q(text)} is not a combination") from None


def parse_trick(text: str) -> list[Turn]:
    """``left:5,you:pass`` → turns (cards are read as their plainest combination)."""
    turns: list[Turn] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, colon, cards = part.partition(":")
        if not colon:
            raise DescriptionError(f"bad trick play {_q(part)} (write seat:cards or seat:pass)")
        seat = parse_seat(name)
        cards = cards.strip()
        if cards.lower() == "pass":
            turns.append(Turn(seat, None))
        else:
            turns.append(Turn(seat, _reading(_cards(cards), cards)))
    return turns


def _cards(text: str) -> Cards:
    try:
        return Cards.parse(text)
    except ValueError:
        raise DescriptionError(f"bad cards {_q(text)} (cards are 3-9 T J Q K A 2 X D)") from None


@dataclass(frozen=True, slots=True)
class Description:
    """What a player says about their position (seat 0's point of view)."""

    hand: Cards
    landlord: int
    counts: dict[int, int]
    trick: tuple[Turn, ...] = ()
    gone: Cards | None = None
    kitty: Cards | None = None
    bid: int | None = None


def describe(
    hand: str,
    landlord: str,
    counts: str,
    trick: str = "",
    gone: str | None = None,
    kitty: str | None = None,
    bid: int | None = None,
) -> Description:
    """Read the text of each part (``ddz analyze``'s options)."""
    if bid is not None and bid not in (1, 2, 3):
        raise DescriptionError(f"bad bid {bid!r} (1, 2 or 3)")
    return Description(
        hand=_cards(hand),
        landlord=parse_seat(landlord),
        counts=parse_counts(counts),
        trick=tuple(parse_trick(trick)),
        gone=None if gone is None else _cards(gone),
        kitty=None if kitty is None else _cards(kitty),
        bid=bid,
    )


def _check_trick(trick: Sequence[Turn], rules: Rules) -> tuple[Combo | None, int | None]:
    """The trick must be a real one ending with seat 0 to move; returns (table, table_seat).

    The turn order is the rules' seat count, like every trick the game itself steps (``Trick.after``)."""
    seats = rules.players
    state = Trick()  # the trick rule is trick.py's (RULES §4): it says when the passes end the trick
    for i, turn in enumerate(trick):
        if i and turn.seat != (trick[i - 1].seat + 1) % seats:
            raise DescriptionError(f"--trick: {SEAT_NAMES[turn.seat]} cannot play after {SEAT_NAMES[trick[i - 1].seat]}")
        if turn.play is None and state.table is None:
            raise DescriptionError("--trick: the first play of a trick cannot be a pass")
        if turn.play is not None and state.table is not None and not beats(turn.play, state.table):
            raise DescriptionError(f"--trick: {turn.play.text} does not beat {state.table.text}")
        state, _ = state.after(turn.seat, turn.play, seats)
        if state.leading:
            raise DescriptionError("--trick: after two passes the trick is over")
    table, table_seat = state.table, state.table_seat
    if trick and (trick[-1].seat + 1) % seats != 0:
        raise DescriptionError("--trick must end with the player before you (left)")
    return table, table_seat


def to_view(d: Description) -> PlayerView:
    """The view of seat 0 for a description; DescriptionError when it cannot be real."""
    table, table_seat = _check_trick(d.trick, STANDARD)  # ddz analyze describes a classic table
    if not d.hand:
        raise DescriptionError("--hand is empty")
    if len(d.hand) > 20:
        raise DescriptionError(f"--hand holds {len(d.hand)} cards (at most 20)")
    seen = d.hand.packed
    trick_cards = 0
    for turn in d.trick:
        if turn.play is not None:
            if turn.seat == 0:
                raise DescriptionError("--trick: your own plays are in --gone, not the trick you answer")
            trick_cards += turn.play.cards
    gone = 0 if d.gone is None else d.gone.packed
    total = seen + trick_cards + gone
    if not packed_contains(FULL_DECK.packed, total) or any(
        ((total >> (4 * r)) & 0xF) > ((FULL_DECK.packed >> (4 * r)) & 0xF) for r in range(15)
    ):
        raise DescriptionError("a card is named twice (hand, --trick and --gone hold more than the deck)")
    kitty_gone = 0
    kitty_in_hand_ok = d.landlord == 0
    if d.kitty is not None:
        if len(d.kitty) != 3:
            raise DescriptionError(f"--kitty has {len(d.kitty)} cards (the kitty has 3)")
        if not kitty_in_hand_ok:
            for r in range(15):
                k = (d.kitty.packed >> (4 * r)) & 0xF
                h = (d.hand.packed >> (4 * r)) & 0xF
                if k + h > ((FULL_DECK.packed >> (4 * r)) & 0xF):
                    raise DescriptionError("--kitty: the kitty went to the landlord, not into your hand")
            # A kitty card counts as played (by the landlord) only when no copy of its
            # rank is unaccounted for; otherwise the landlord is taken to hold it still.
            free = FULL_DECK.packed - total
            for r in range(15):
                k = (d.kitty.packed >> (4 * r)) & 0xF
                g = (gone >> (4 * r)) & 0xF
                unseen_r = (free >> (4 * r)) & 0xF
                kitty_gone += min(g, max(0, k - unseen_r)) << (4 * r)
    unseen = FULL_DECK.packed - total
    unseen_n = Cards(unseen).__len__()
    need = d.counts[1] + d.counts[2]
    if need > unseen_n:
        raise DescriptionError(f"--counts: {need} cards held but only {unseen_n} are unaccounted for")
    if d.gone is not None and need != unseen_n:
        raise DescriptionError(f"--counts: {need} cards held but {unseen_n} are unaccounted for")
    if d.kitty is not None and d.landlord != 0:
        known = Cards(d.kitty.packed - kitty_gone)
        if len(known) > d.counts[d.landlord]:
            raise DescriptionError("--kitty: the landlord holds fewer cards than its unplayed kitty cards")
    # The landlord's played kitty cards, then yours, highest last; when you lead, the
    # others pass on that last card so the trick rule gives you the lead (passing on the
    # highest card played says the least about what they hold).
    history: list[Turn] = []
    for r in Cards(kitty_gone).ranks():
        history.append(Turn(d.landlord, _reading(Cards.from_ranks([r]), "")))
    for r in Cards(gone - kitty_gone).ranks():
        history.append(Turn(0, _reading(Cards.from_ranks([r]), "")))
    if history and not d.trick:
        history.extend((Turn(1, None), Turn(2, None)))
    history.extend(d.trick)
    counts = (len(d.hand), d.counts[1], d.counts[2])
    return view_from_public(0, d.hand, d.landlord, history, counts, bids=((d.landlord, d.bid or 1),), kitty=d.kitty,
                            to_move=0, bid=d.bid or 1, rules=STANDARD, trick=(table, table_seat))


# ----------------------------------------------------------------------- the auction
def parse_auction(text: str, rules: Rules) -> tuple[tuple[int, int], ...]:
    """``right:1,left:pass`` → ((1, 1), (2, 0)): the bids made before yours, in order (RULES §3).

    The auction goes round once, so the bids before yours are at most
    ``right`` then ``left`` (the player before you bids last); each bid must be
    higher than every earlier one, and a bid of 3 would have ended the auction.
    """
    if rules.robs:
        return _parse_rob_auction(text, rules)
    bids: list[tuple[int, int]] = []
    parts = [p for p in (p.strip() for p in text.split(",")) if p]
    # Seat 0 speaks after these: the first of them spoke first (RULES §3); engine/auction.py judges each bid.
    auction = Auction((rules.players - len(parts)) % rules.players)
    for part in parts:
        name, colon, what = part.partition(":")
        what = what.strip().lower()
        if not colon or not (what == "pass" or what in {str(b) for b in rules.bids}):
            raise DescriptionError(t("analyze.auction_bad_part", part=_q(part)))
        seat = parse_seat(name)
        if seat == 0:
            raise DescriptionError(t("analyze.auction_yours"))
        bid = 0 if what == "pass" else int(what)
        state = auction.outcome(rules)
        if state.settled:
            raise DescriptionError(t("analyze.auction_over", top=rules.top_bid))
        if bid not in auction.legal(rules):
            raise DescriptionError(t("analyze.auction_not_higher", bid=bid, high=state.stake))
        bids.append((seat, bid))
        auction = Auction(auction.first, auction.moves + ((seat, bid),))
    order = [seat for seat, _ in bids]
    if order and order != list(range(rules.players - len(order), rules.players)):
        raise DescriptionError(t("analyze.auction_order", auction=_q(text)))
    if auction.outcome(rules).settled:
        raise DescriptionError(t("analyze.auction_over", top=rules.top_bid))
    return tuple(bids)


#: The words of the rob auction (RULES §12.1) in --auction.
ROB_WORDS = {"pass": PASS, "call": CALL, "rob": ROB}


def _parse_rob_auction(text: str, rules: Rules) -> tuple[tuple[int, int], ...]:
    """``right:call,left:rob`` → the moves of a rob auction before your word (RULES §12.1).

    Yours may be among them (you called and were robbed: your next word is the rob back); the first
    listed seat spoke first, and :mod:`tutor.engine.auction` judges every word and says whose turn follows.
    """
    parts = [p for p in (p.strip() for p in text.split(",")) if p]
    moves: list[tuple[int, int]] = []
    for part in parts:
        name, colon, what = part.partition(":")
        code = ROB_WORDS.get(what.strip().lower())
        if not colon or code is None:
            raise DescriptionError(t("analyze.rob_auction_bad_part", part=_q(part)))
        moves.append((parse_seat(name), code))
    auction = Auction(moves[0][0] if moves else 0)
    for seat, code in moves:
        try:
            auction, _ = auction.after(seat, code, rules)
        except IllegalBidError as error:
            raise DescriptionError(f"--auction: {error}") from None
    if auction.outcome(rules).to_move != 0:
        raise DescriptionError(t("analyze.rob_auction_not_yours", auction=_q(text)))
    return tuple(moves)


def bidding_view(hand: Cards, bids: tuple[tuple[int, int], ...], rules: Rules) -> PlayerView:
    """Seat 0's view when it is their turn to bid: their dealt hand and the bids before theirs."""
    if len(hand) != rules.hand_size:
        raise DescriptionError(t("analyze.auction_hand", n=len(hand), size=rules.hand_size))
    return engine_bidding_view(0, hand, bids, rules)
