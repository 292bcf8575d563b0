"""The auction of RULES §3 and §12.1, written once: who speaks next, who is landlord, redeal.

Like :class:`tutor.engine.trick.Trick`, an :class:`Auction` is a tiny pure
state (the first bidder and the moves so far) with one transition,
:meth:`Auction.after`.  The game, the bots, the coach, the lessons and the
store all ask it instead of comparing bids themselves (a guard test holds
them to that): so the rob-the-landlord auction is a value of
:attr:`Rules.auction` here, not a branch in every package.

A move is ``(seat, code)``:

* ``bid`` auction (RULES §3): the code is the bid, 0 = pass;
* ``rob`` auction (RULES §12.1): :data:`PASS` (0), :data:`CALL` (1) or
  :data:`ROB` (2) — a rob back by the caller is a :data:`ROB` too.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import TYPE_CHECKING

from tutor.engine.rules import Rules

if TYPE_CHECKING:
    from tutor.engine.view import PlayerView

#: The pass of either auction.
PASS = 0
#: Rob auction: claim the landlord (RULES §12.1).
CALL = 1
#: Rob auction: take the claim, ×2 (RULES §12.1).
ROB = 2

Move = tuple[int, int]


class IllegalBidError(ValueError):
    """A bid, call or rob that cannot be made now; the message says why."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where an auction stands after its moves.

    ``to_move`` is the seat to speak next (None once settled); ``landlord`` and
    ``bid`` are set when settled; ``redeal`` when everybody passed; ``robs``
    counts the robs so far (each ×``rules.rob_factor``); ``leader`` is the seat
    that would be landlord if the auction stopped now (None before any bid or call).
    """

    to_move: int | None
    landlord: int | None = None
    bid: int | None = None
    redeal: bool = False
    robs: int = 0
    leader: int | None = None
    #: The stake that leads so far: the highest bid (classic), 1 once called (rob), else 0.
    stake: int = 0

    @property
    def settled(self) -> bool:
        return self.to_move is None


@dataclass(frozen=True, slots=True)
class Auction:
    """The auction so far: who spoke first in this deal and every move since."""

    first: int
    moves: tuple[Move, ...] = ()

    @classmethod
    def of(cls, moves: tuple[Move, ...] | list[Move], to_move: int = 0) -> Auction:
        """The auction of ``moves`` when only they are known: the first mover spoke first
        (with no moves, ``to_move`` speaks first)."""
        moves = tuple(moves)
        return cls(moves[0][0] if moves else to_move, moves)

    def outcome(self, rules: Rules) -> Outcome:
        """Replay the moves under ``rules`` (they are assumed legal: :meth:`after` checks)."""
        if rules.robs:
            return _rob_outcome(self.first, self.moves, rules)
        return _bid_outcome(self.first, self.moves, rules)

    def legal(self, rules: Rules) -> list[int]:
        """The codes the seat to move may choose, pass first; [] once settled."""
        state = self.outcome(rules)
        if state.settled:
            return []
        if rules.robs:
            return [PASS, ROB] if any(code == CALL for _, code in self.moves) else [PASS, CALL]
        return [PASS] + [b for b in rules.bids if b > state.stake]

    def after(self, seat: int, code: int, rules: Rules) -> tuple[Auction, Outcome]:
        """The auction after ``seat`` says ``code``, and where it then stands.

        Raises:
            IllegalBidError: Out of turn, after the end, or a code the rules do
                not allow now (the message says which rule).
        """
        state = self.outcome(rules)
        if state.settled:
            raise IllegalBidError(f"cannot bid {code!r}: the auction is over")
        if isinstance(code, bool) or not isinstance(code, int):
            raise IllegalBidError(f"a bid is an integer, got {code!r}")
        if seat != state.to_move:
            raise IllegalBidError(f"it is seat {state.to_move}'s turn to bid, not seat {seat}'s")
        if rules.robs:
            legal = self.legal(rules)
            if code not in legal:
                raise IllegalBidError(_rob_refusal(code, legal))
        else:
            if code != PASS and code not in rules.bids:
                choices = ", ".join(str(b) for b in rules.bids)
                raise IllegalBidError(f"bid {code!r} is not one of {choices} (0 = pass)")
            if code != PASS and code <= state.stake:
                raise IllegalBidError(f"bid {code} must be higher than the current bid {state.stake}")
        nxt = Auction(self.first, self.moves + ((seat, code),))
        return nxt, nxt.outcome(rules)


def _rob_refusal(code: int, legal: list[int]) -> str:
    if code == ROB:
        return "cannot rob: nobody has called the landlord yet (RULES §12.1)"
    if code == CALL:
        return "cannot call: the landlord is already called, you may rob or pass (RULES §12.1)"
    return f"{code!r} is not pass (0), call (1) or rob (2)"


def _bid_outcome(first: int, moves: tuple[Move, ...], rules: Rules) -> Outcome:
    """RULES §3: once round; a top bid ends at once; the highest bidder wins; all pass → redeal."""
    players = rules.players
    high, leader = 0, None
    for seat, amount in moves:
        if amount > high:
            high, leader = amount, seat
        if amount == rules.top_bid:
            return Outcome(None, seat, amount, leader=seat, stake=amount)
    if len(moves) < players:
        return Outcome((first + len(moves)) % players, leader=leader, stake=high)
    if leader is None:
        return Outcome(None, redeal=True)
    return Outcome(None, leader, high, leader=leader, stake=high)


def _rob_outcome(first: int, moves: tuple[Move, ...], rules: Rules) -> Outcome:
    """RULES §12.1: call in turn; each other non-passer robs once; the caller may rob back once."""
    players = rules.players
    passed: list[int] = []
    caller: int | None = None
    queue: list[int] = []
    leader: int | None = None
    robs = 0
    rob_back_given = False
    for seat, code in moves:
        if caller is None:
            if code == CALL:
                caller = leader = seat
                queue = [(seat + k) % players for k in range(1, players)]
                queue = [s for s in queue if s not in passed]
            else:
                passed.append(seat)
            continue
        queue.pop(0)
        if code == ROB:
            robs += 1
            leader = seat
        if not queue and robs and rules.rob_back and not rob_back_given and leader != caller:
            rob_back_given = True
            queue = [caller]
    if caller is None:
        if len(passed) == players:
            return Outcome(None, redeal=True)
        return Outcome((first + len(passed)) % players)
    if queue:
        return Outcome(queue[0], robs=robs, leader=leader, stake=1)
    return Outcome(None, leader, 1, robs=robs, leader=leader, stake=1)


def ends_at_once(code: int, rules: Rules) -> bool:
    """Does this bid end a classic auction the moment it is made (the top bid, RULES §3)?  A rob
    auction's call never does (RULES §12.1): the others may still rob it."""
    return not rules.robs and code == rules.top_bid


def view_auction(view: PlayerView) -> Auction:
    """The auction as ``view`` saw it, with ``view.to_move`` to speak next.

    The 1-2-3 auction goes round in seat order, so its first bidder follows
    from the seat to move; in a rob auction (where the caller may speak again)
    the first mover spoke first.
    """
    if view.rules.robs:
        return Auction.of(view.bids, view.to_move)
    return Auction((view.to_move - len(view.bids)) % view.rules.players, view.bids)


def stake_factor(outcome: Outcome, rules: Rules) -> int:
    """What the auction multiplies the base by: the bid, or rob_factor**robs (RULES §3, §12.1)."""
    robbed: int = rules.rob_factor**outcome.robs
    return outcome.stake * robbed


__all__ = ["PASS", "CALL", "ROB", "Auction", "IllegalBidError", "Outcome", "stake_factor", "view_auction"]
