"""The short review after a game: the moments worth remembering.

Three kinds of moment: the coach's remarks made during the game (mistakes and
missed forced wins, in order), the bombs and rockets that doubled the stake,
and the *deciding moment* — the trick from which the winning side never gave
the lead away again.  Then a reminder of the hints and undos used (counted,
never deducted: RULES §9).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tutor.engine.combos import Combo, Kind
from tutor.engine.trick import Turn, trick_winners
from tutor.i18n import t


@dataclass(frozen=True, slots=True)
class Moment:
    """A remark tied to the learner's move number ``move`` (1-based plays and passes; 0 = the bid)."""

    action_index: int
    move: int
    text: str


def deciding_moment(history: Sequence[Turn], landlord: int, winner: int, players: int = 3) -> Turn | None:
    """The winning play of the first trick after which the winning side won every trick."""
    tricks = trick_winners(history, players)
    winning_side = {landlord} if winner == landlord else {s for s in range(players) if s != landlord}
    decisive: Turn | None = None
    for _, turn in reversed(tricks):
        if turn.seat not in winning_side:
            break
        decisive = turn
    return decisive


def bombs_played(history: Sequence[Turn]) -> list[Combo]:
    return [t_.play for t_ in history if t_.play is not None and t_.play.kind in (Kind.BOMB, Kind.ROCKET)]


def review_lines(
    moments: Sequence[Moment],
    history: Sequence[Turn],
    landlord: int,
    winner: int,
    hints: int,
    undos: int,
    seat_name: Callable[[int], str],
    limit: int = 6,
) -> list[str]:
    """The review, a few lines in the current language."""
    lines: list[str] = []
    for moment in list(moments)[:limit]:
        if moment.move == 0:
            lines.append(t("coach.review_bid_moment", text=moment.text))
        else:
            lines.append(t("coach.review_moment", n=moment.move, text=moment.text))
    if not moments:
        lines.append(t("coach.review_nothing"))
    bombs = bombs_played(history)
    if bombs:
        lines.append(t("coach.review_bombs", items=", ".join(b.text for b in bombs)))
    decisive = deciding_moment(history, landlord, winner)
    if decisive is not None and decisive.play is not None and len(trick_winners(history)) > 1:
        lines.append(t("coach.review_decided", seat=seat_name(decisive.seat), cards=decisive.play.text))
    lines.append(t("coach.review_help", hints=hints, undos=undos))
    return lines
