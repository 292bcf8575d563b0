"""What every bot shares: the protocol, seeded randomness, and a reading of the table.

A bot is anything with ``bid(view) -> int``, ``show_hand(view) -> bool`` and
``play(view) -> Combo | None``.  ``bid`` answers an auction code of
:mod:`tutor.engine.auction` under ``view.rules`` — a bid (RULES §3), or a
call, rob or pass (RULES §12.1); :func:`auction_choice` turns a level's sense
of its hand into the legal code of either auction, so no bot compares bids.
It is handed a :class:`~tutor.engine.view.PlayerView` — a frozen copy of what
its seat may know (RULES §8) — and nothing else: this package never imports
the game module, so no bot can reach a hidden hand even by accident (a test
scans the imports).
"""

from __future__ import annotations

import random
from functools import lru_cache
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tutor.engine.auction import CALL, PASS, ROB, view_auction
from tutor.engine.combos import Combo, beats, readings
from tutor.engine.rules import Rules
from tutor.engine.trick import is_first_trick as first_trick_going
from tutor.engine.view import PlayerView


@runtime_checkable
class Bot(Protocol):
    """A computer player: decides bids and plays from a :class:`PlayerView` only."""

    level: str

    def bid(self, view: PlayerView) -> int:
        """The auction code for ``view.seat`` (0 = pass); must be legal (:func:`legal_bids`)."""
        ...

    def show_hand(self, view: PlayerView) -> bool:
        """As the landlord before the first play, under an open-hand rule: show the hand (RULES §12.2)?"""
        ...

    def play(self, view: PlayerView) -> Combo | None:
        """The play for ``view.seat`` (None = pass, only when following)."""
        ...


class BotError(ValueError):
    """A bot was asked something it cannot answer (wrong phase, not its turn)."""


def turn_rng(seed: int, view: PlayerView) -> random.Random:
    """A generator seeded from the game seed, the seat and the turn index.

    Seeding per decision (not once per bot) makes every decision reproducible on
    its own: the same deal and the same actions give the same game, and undoing
    a move and asking again gives the same answer.  A string seed is hashed with
    SHA-512 by :mod:`random`, so it is stable across runs and Python versions.
    """
    turn = len(view.bids) + len(view.history)
    return random.Random(f"ddz:{seed}:{view.seat}:{turn}")


def legal_bids(view: PlayerView) -> list[int]:
    """Auction codes the seat may choose now, pass first (RULES §3 or §12.1)."""
    return view_auction(view).legal(view.rules)


#: Rob auction: the strength (a 1-2-3 bid's worth) that calls, robs, robs back (medium's thresholds).
CALL_AT, ROB_AT, ROB_BACK_AT = 1, 2, 3
THRESHOLDS = (CALL_AT, ROB_AT, ROB_BACK_AT)


def auction_choice(view: PlayerView, want: int, thresholds: tuple[int, int, int] = THRESHOLDS) -> int:
    """The legal code for a hand worth bidding ``want`` (0-3) in the classic auction.

    Classic: ``want`` if it still outbids everyone, else pass.  Rob (RULES
    §12.1): every rob doubles the stake, so a hand calls at a bid of 1's worth,
    robs only at 2's and robs back (it already is the caller, doubling again) at 3's — medium's
    ``thresholds`` (call, rob, rob back); a level in character passes its own.
    """
    call_at, rob_at, rob_back_at = thresholds
    legal = legal_bids(view)
    if not view.rules.robs:
        return want if want in legal[1:] else PASS
    if CALL in legal:
        return CALL if want >= call_at else PASS
    if ROB in legal:
        caller = next(seat for seat, code in view.bids if code == CALL)
        return ROB if want >= (rob_back_at if caller == view.seat else rob_at) else PASS
    return PASS


def can_show_hand(view: PlayerView) -> bool:
    """True when ``view.seat`` may show the hand now (RULES §12.2): the landlord, before the first play."""
    return (
        view.rules.can_open
        and view.shown is None
        and view.landlord == view.seat
        and view.to_move == view.seat
        and not view.history
    )


def check_turn(view: PlayerView) -> None:
    if view.landlord is None:
        raise BotError(f"seat {view.seat} cannot play during the auction")
    if view.to_move != view.seat:
        raise BotError(f"it is seat {view.to_move}'s turn, not seat {view.seat}'s")
    if not view.hand:
        raise BotError(f"seat {view.seat} has no cards left: the game is over")


@lru_cache(maxsize=1 << 16)
def _one_combo_readings(hand: int, rules: Rules) -> tuple[Combo, ...]:
    """Readings of a whole hand, cached: asked at every decision, about few distinct hands."""
    return tuple(readings(hand, rules))


def whole_hand_play(hand: int, table: Combo | None, rules: Rules) -> Combo | None:
    """The play that empties the hand at once, if the hand is one legal combination."""
    options = _one_combo_readings(hand, rules)
    if not options:
        return None
    if table is not None:
        options = tuple(c for c in options if beats(c, table, rules))
        if not options:
            return None
    # Prefer a non-bomb reading (no need to double the stake) — then the highest.
    return max(options, key=lambda c: (not c.is_bomb, c.main))


@dataclass(frozen=True, slots=True)
class Seats:
    """The table from one seat's point of view: who is who, and how close to the end."""

    me: int
    landlord: int
    next: int
    prev: int
    partner: int | None
    opponents: tuple[int, ...]
    counts: tuple[int, ...]

    @classmethod
    def of(cls, view: PlayerView) -> Seats:
        assert view.landlord is not None
        n = view.players
        me = view.seat
        partner = None
        opponents: tuple[int, ...]
        if me == view.landlord:
            opponents = tuple(s for s in range(n) if s != me)
        else:
            partner = next(s for s in range(n) if s not in (me, view.landlord))
            opponents = (view.landlord,)
        return cls(me, view.landlord, (me + 1) % n, (me - 1) % n, partner, opponents, view.card_counts)

    @property
    def is_landlord(self) -> bool:
        return self.me == self.landlord

    def fewest_opponent_cards(self) -> int:
        return min(self.counts[s] for s in self.opponents)

    def is_opponent(self, seat: int) -> bool:
        return seat in self.opponents


def is_bomb(combo: Combo) -> bool:
    return combo.is_bomb


def is_first_trick(view: PlayerView) -> bool:
    """True while the opening trick is still going (nobody has won a trick yet)."""
    return first_trick_going(view.history, view.players)
