"""Card counting: what the others may still hold, and what nobody can beat.

Everything here works on the public facts of a :class:`PlayerView` (RULES §8):
the cards played so far, the revealed kitty, the card counts, and the passes.

* :func:`unseen_packed` — the cards this seat has not seen (deck − hand − played).
* :func:`landlord_known` — kitty cards the landlord must still hold (everyone
  saw them go into the landlord's hand).
* whether any opponent could still beat a combination is a rule fact: :func:`tutor.engine.facts.is_boss`.
* :func:`pass_limits` — what passes reveal: a player who passed on a single or
  a pair when passing was dangerous (the player who played it was about to go
  out, or the passer was the last one who could stop the landlord) most likely
  holds nothing higher of that kind — unless it later played such cards, which
  shows it passed by choice.  The hard bot uses these as *soft* constraints
  when it samples hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.cards import packed_size as _size
from tutor.engine.cards import NUM_RANKS, packed_count
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import follow_moves_packed
from tutor.engine.rules import Rules
from tutor.engine.trick import Trick, lead_returns
from tutor.engine.view import PlayerView


def played_packed(view: PlayerView) -> int:
    total = 0
    for turn in view.history:
        if turn.play is not None:
            total += turn.play.cards
    return total


def unseen_packed(view: PlayerView) -> int:
    """Cards this seat has not seen: the deck less its own hand and every play."""
    return view.rules.deck_packed - view.hand.packed - played_packed(view)


def landlord_known(view: PlayerView) -> int:
    """Kitty cards the landlord still holds for sure (packed; 0 for the landlord itself);
    the whole hand once shown (RULES §12.2).

    The landlord had ``kitty[r]`` more cards of rank ``r`` than anyone could
    see; after playing ``p[r]`` of that rank it still holds at least
    ``kitty[r] − p[r]``.
    """
    if view.landlord is None or view.seat == view.landlord:
        return 0
    if view.shown is not None:  # the open hand (RULES §12.2): all of it is known
        return view.shown.packed
    if view.kitty is None:
        return 0
    played = 0
    for turn in view.history:
        if turn.play is not None and turn.seat == view.landlord:
            played += turn.play.cards
    known = 0
    for r in range(NUM_RANKS):
        left = packed_count(view.kitty.packed, r) - packed_count(played, r)
        if left > 0:
            known += left << (4 * r)
    return known


def beaters(combo: Combo, cards: int, max_size: int, bombs: bool = True, *, rules: Rules) -> list[Combo]:
    """Plays that ``cards`` (pooled hidden cards) could make on ``combo`` by a hand of ≤ ``max_size``."""
    found = []
    for move in follow_moves_packed(cards, combo, rules):
        kind = move.kind
        if Kind(kind).is_bomb:
            if not bombs:
                continue
        size = _size(move.cards)
        if size <= max_size:
            found.append(move)
    return found


@dataclass(frozen=True, slots=True)
class PassLimit:
    """Seat ``seat`` most likely holds no ``kind`` (single or pair) above ``main``."""

    seat: int
    kind: Kind
    main: int


def pass_limits(view: PlayerView) -> list[PassLimit]:
    """What the passes of the other players reveal (see the module docstring)."""
    limits: list[PassLimit] = []
    if view.landlord is None:
        return limits
    counts = _counts_before_each_turn(view)
    trick = Trick()
    for index, turn in enumerate(view.history):
        table, table_seat = trick.table, trick.table_seat
        trick, _ = trick.after(turn.seat, turn.play, view.players)
        if turn.play is not None:
            continue
        passes = trick.passes or view.players - 1  # the pass that gave the lead back was the last chance
        if (
            table is not None
            and table_seat is not None
            and turn.seat != view.seat
            and table.kind in (Kind.SINGLE, Kind.PAIR)
            and _is_opponent(view.landlord, turn.seat, table_seat)
        ):
            leader_cards = counts[index][table_seat]
            last_chance = turn.seat != view.landlord and lead_returns(passes, view.players)
            if (leader_cards <= 2 or last_chance) and not _contradicted(view, index, turn.seat, table):
                limits.append(PassLimit(turn.seat, Kind(table.kind), table.main))
    return limits


def _contradicted(view: PlayerView, index: int, seat: int, table: Combo) -> bool:
    """Did ``seat`` later play cards that could have beaten ``table`` (so it passed by choice)?"""
    need = 1 if table.kind == Kind.SINGLE else 2
    for turn in view.history[index + 1 :]:
        if turn.seat != seat or turn.play is None:
            continue
        for r in range(table.main + 1, NUM_RANKS):
            if packed_count(turn.play.cards, r) >= need:
                return True
    return False


def _is_opponent(landlord: int, a: int, b: int) -> bool:
    return (a == landlord) != (b == landlord)


def _counts_before_each_turn(view: PlayerView) -> list[tuple[int, ...]]:
    """Card counts after each turn of the history, rebuilt backwards from now."""
    counts = list(view.card_counts)
    out: list[tuple[int, ...]] = [()] * len(view.history)
    for index in range(len(view.history) - 1, -1, -1):
        out[index] = tuple(counts)
        turn = view.history[index]
        if turn.play is not None:
            counts[turn.seat] += _size(turn.play.cards)
    return out
