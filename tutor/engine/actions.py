"""The actions of a game, as frozen values (OpenSpiel-style: one ``Game.apply`` for all).

Every decision a player makes — a bid, a call, a rob, the auction's pass, the
open hand, a play or a pass in the play — is one of these small hashable
values, so that search code, bots, the coach and the front ends can step
:class:`tutor.engine.game.Game` without knowing which auction the rules use.
:func:`auction_action` and :func:`auction_code` translate to and from the
``(seat, code)`` moves of :mod:`tutor.engine.auction`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.auction import CALL, PASS, ROB
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of the 1-2-3 auction (RULES §3)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Call:
    """Claim the landlord (rob auction, RULES §12.1)."""


@dataclass(frozen=True, slots=True)
class Rob:
    """Take the claim, ×2 (rob auction, RULES §12.1); the caller's rob back too."""


@dataclass(frozen=True, slots=True)
class Pass:
    """The auction's pass: no bid, no call, or no rob."""


@dataclass(frozen=True, slots=True)
class Open:
    """Show the landlord's hand to everyone, ×2 (RULES §12.2)."""


@dataclass(frozen=True, slots=True)
class Play:
    """A play of the play phase; ``combo`` None is a pass (RULES §4)."""

    combo: Combo | None


Action = Bid | Call | Rob | Pass | Open | Play
AuctionAction = Bid | Call | Rob | Pass


def auction_action(code: int, rules: Rules) -> AuctionAction:
    """The action of an auction code under ``rules``."""
    if code == PASS:
        return Pass()
    if rules.robs:
        return Call() if code == CALL else Rob()
    return Bid(code)


def auction_code(action: AuctionAction) -> int:
    """The ``(seat, code)`` code of an auction action."""
    if isinstance(action, Bid):
        return action.amount
    if isinstance(action, Call):
        return CALL
    if isinstance(action, Rob):
        return ROB
    return PASS


__all__ = ["Action", "AuctionAction", "Bid", "Call", "Open", "Pass", "Play", "Rob", "auction_action", "auction_code"]
