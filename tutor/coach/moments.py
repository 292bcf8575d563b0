"""The learner's decisions in a recorded game, each with the view they had.

``ddz analyze GAME_ID --at N``, the review and "learn from your mistakes"
look at a finished game decision by decision.  Decision ``N`` is the
learner's N-th turn of the play phase (plays and passes, 1-based: the same
numbering as the coach's remarks during the game).
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.combos import Combo
from tutor.engine.game import replay
from tutor.engine.record import GameRecord, RecordError, ShowHand
from tutor.engine.view import PlayerView, Turn


@dataclass(frozen=True, slots=True)
class Decision:
    """The learner's ``number``-th turn: what they saw and what they did."""

    number: int
    view: PlayerView
    move: Combo | None
    #: Index of the action in the record (for undo-aware tools).
    action_index: int

    @property
    def forced(self) -> bool:
        """Only one legal move (nothing to judge)."""
        from tutor.engine.moves import legal_moves

        moves = legal_moves(self.view.hand, self.view.table, self.view.rules)
        return len(moves) + (self.view.table is not None) <= 1


def decisions(record: GameRecord, seat: int = 0) -> list[Decision]:
    """Every play-phase turn of ``seat`` in ``record``, with the view before it.

    Raises:
        RecordError: When the record cannot be replayed.
    """
    start = GameRecord(record.deal_number, [], record.rules, record.landlord, record.bid, record.start)
    game = replay(start)
    found: list[Decision] = []
    for index, action in enumerate(record.actions):
        try:
            if isinstance(action, Turn) and action.seat == seat:
                found.append(Decision(len(found) + 1, game.view(seat), action.play, index))
            game.apply_recorded(action)
        except ValueError as exc:
            raise RecordError(f"record field 'actions[{index}]': {exc}") from exc
    return found


#: The stored moment numbers of the decisions before the play (plays and passes count from 1):
#: the learner's first word in the auction that was played, a second one (a rob back, RULES §12.1),
#: and showing the hand or not (RULES §12.2).
BID_MOMENT, ROB_BACK_MOMENT, OPEN_MOMENT = 0, -1, -2


@dataclass(frozen=True, slots=True)
class BidDecision:
    """The learner's bid (or call, rob, pass) in the game's last auction (the one that made the landlord)."""

    view: PlayerView
    bid: int
    action_index: int
    #: Bid moments are number 0, a second word in the same auction (a rob back) -1.
    number: int = BID_MOMENT


def auction_decisions(record: GameRecord, seat: int = 0) -> list[BidDecision]:
    """``seat``'s words in the auction that was played out, in order (numbered 0, then -1).

    Earlier auctions were redealt (everyone passed: scored 0), and a bid of 3
    before ``seat`` ends the auction without it.  In a rob auction the caller
    may speak twice (the rob back, RULES §12.1).

    Raises:
        RecordError: When the record cannot be replayed.
    """
    start = GameRecord(record.deal_number, [], record.rules, record.landlord, record.bid, record.start)
    game = replay(start)
    found: list[BidDecision] = []
    for index, action in enumerate(record.actions):
        if not isinstance(action, tuple):  # the play (or the open hand, RULES §12.2) began
            break
        try:
            deal_before = game.deal_number
            if action[0] == seat:
                found.append(BidDecision(game.view(seat), action[1], index, BID_MOMENT - len(found)))
            game.make_bid(action[1])
            if game.deal_number != deal_before:
                found = []  # redealt: that auction was not played
        except ValueError as exc:
            raise RecordError(f"record field 'actions[{index}]': {exc}") from exc
    return found


def bid_decision(record: GameRecord, seat: int = 0, number: int = BID_MOMENT) -> BidDecision | None:
    """``seat``'s word number ``number`` (0: the first) in the auction that was played, or None."""
    return next((d for d in auction_decisions(record, seat) if d.number == number), None)


@dataclass(frozen=True, slots=True)
class OpenDecision:
    """The landlord's choice before the first play under the open hand (RULES §12.2): shown or kept closed."""

    view: PlayerView
    shown: bool
    action_index: int
    number: int = OPEN_MOMENT


def open_decision(record: GameRecord, seat: int = 0) -> OpenDecision | None:
    """``seat``'s open-hand decision (None unless it was the landlord under an open-hand rule).

    Raises:
        RecordError: When the record cannot be replayed.
    """
    if not record.rules.can_open:
        return None
    game = replay(GameRecord(record.deal_number, [], record.rules, record.landlord, record.bid, record.start))
    for index, action in enumerate(record.actions):
        try:
            if not isinstance(action, tuple):
                if game.landlord != seat or not game.can_open():
                    return None
                return OpenDecision(game.view(seat), isinstance(action, ShowHand), index)
            game.apply_recorded(action)
        except ValueError as exc:
            raise RecordError(f"record field 'actions[{index}]': {exc}") from exc
    return None


def decision_at(record: GameRecord, number: int, seat: int = 0) -> Decision:
    """Decision ``number`` (1-based); ValueError naming the range when there is none."""
    found = decisions(record, seat)
    if not 1 <= number <= len(found):
        raise ValueError(f"--at {number}: the game has moves 1 to {len(found)}")
    return found[number - 1]
