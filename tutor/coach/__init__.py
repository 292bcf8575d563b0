"""The coach at the table: status lines, hints, mistakes, forced wins and the review.

No click, no rich: the coach produces *lines* (in the current language, from
:mod:`tutor.i18n`) and the CLI, the lessons or the puzzles decide how to show
them.  :class:`Coach` keeps what the coach said during one game, so the review
can recall it and an undo can take it back.

* :mod:`tutor.coach.status` — bidding and play status lines (RULES §9);
* :mod:`tutor.coach.hints` — ranked suggestions for "hint, hint again";
* :mod:`tutor.coach.mistakes` — one detector per beginner mistake (RULES §11);
* :mod:`tutor.coach.endgame` — "you had a forced win" from the exact solver;
* :mod:`tutor.coach.review` — the short review after the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tutor.coach.endgame import EndgameCheck, check_position, missed_forced_win
from tutor.coach.mistakes import Finding, bid_finding, detect, seat_name
from tutor.coach.review import Moment, review_lines
from tutor.coach.status import BidStatus, PlayStatus, bid_status, play_status
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView, Turn


class Coach:
    """One game's coach.

    Args:
        enabled: when False the coach stays silent during play (status lines
            and hints still work: they are the table's, not the coach's).
        endgame: whether to run the solver check when few cards remain.
        max_nodes: the solver's node budget per check.
    """

    def __init__(self, enabled: bool = True, endgame: bool = True, max_nodes: int | None = None) -> None:
        self.enabled = enabled
        self.endgame = endgame
        self.max_nodes = max_nodes
        self.moments: list[Moment] = []

    def bid_status(self, hand: Cards) -> BidStatus:
        return bid_status(hand)

    def after_bid(self, status: BidStatus, made: int, action_index: int, move: int) -> str | None:
        if not self.enabled:
            return None
        finding = bid_finding(status.line, status.suggested, made)
        return self._remember(finding, action_index, move)

    def before_move(
        self,
        hands: Sequence[Cards],
        landlord: int,
        mover: int,
        table: Combo | None,
        table_seat: int | None,
    ) -> EndgameCheck | None:
        """Solve the position before the learner moves (None when too big, off or undecided)."""
        if not (self.enabled and self.endgame):
            return None
        kwargs = {} if self.max_nodes is None else {"max_nodes": self.max_nodes}
        return check_position(hands, landlord, mover, table, table_seat, **kwargs)

    def after_move(
        self,
        view: PlayerView,
        move: Combo | None,
        check: EndgameCheck | None,
        action_index: int,
        move_number: int,
    ) -> str | None:
        """One line about the learner's move, or None: a missed forced win first, then a mistake."""
        if not self.enabled:
            return None
        finding = missed_forced_win(check, move) or detect(view, move)
        return self._remember(finding, action_index, move_number)

    def _remember(self, finding: Finding | None, action_index: int, move: int) -> str | None:
        if finding is None:
            return None
        text = finding.text
        self.moments.append(Moment(action_index, move, text))
        return text

    def forget_from(self, action_index: int) -> None:
        """Undo took the game back to ``action_index`` actions: drop later remarks."""
        self.moments = [m for m in self.moments if m.action_index < action_index]

    def review(
        self,
        history: Sequence[Turn],
        landlord: int,
        winner: int,
        hints: int,
        undos: int,
        name: Callable[[int], str] = seat_name,
    ) -> list[str]:
        return review_lines(self.moments, history, landlord, winner, hints, undos, name)


__all__ = ["BidStatus", "Coach", "EndgameCheck", "Finding", "PlayStatus", "bid_status", "play_status"]
