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
from tutor.engine.record import GameRecord, RecordError
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


@dataclass(frozen=True, slots=True)
class BidDecision:
    """The learner's bid in the game's last auction (the one that made the landlord): what they saw and bid."""

    view: PlayerView
    bid: int
    action_index: int
    #: Bid moments are number 0 (plays and passes count from 1).
    number: int = 0


def bid_decision(record: GameRecord, seat: int = 0) -> BidDecision | None:
    """``seat``'s bid in the auction that was played out (None when it did not bid there).

    Earlier auctions were redealt (everyone passed: scored 0), and a bid of 3
    before ``seat`` ends the auction without it.

    Raises:
        RecordError: When the record cannot be replayed.
    """
    start = GameRecord(record.deal_number, [], record.rules, record.landlord, record.bid, record.start)
    game = replay(start)
    found: BidDecision | None = None
    for index, action in enumerate(record.actions):
        if not isinstance(action, tuple):  # the play (or the open hand, RULES §12.2) began
            break
        try:
            deal_before = game.deal_number
            if action[0] == seat:
                found = BidDecision(game.view(seat), action[1], index)
            game.make_bid(action[1])
            if game.deal_number != deal_before:
                found = None  # redealt: that auction was not played
        except ValueError as exc:
            raise RecordError(f"record field 'actions[{index}]': {exc}") from exc
    return found


def decision_at(record: GameRecord, number: int, seat: int = 0) -> Decision:
    """Decision ``number`` (1-based); ValueError naming the range when there is none."""
    found = decisions(record, seat)
    if not 1 <= number <= len(found):
        raise ValueError(f"--at {number}: the game has moves 1 to {len(found)}")
    return found[number - 1]
