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
from typing import TYPE_CHECKING

from tutor.engine.combos import Combo, Kind
from tutor.engine.trick import Turn, trick_winners
from tutor.i18n import t

if TYPE_CHECKING:
    from tutor.coach.advice import Verdict
    from tutor.coach.mistakes import Finding

#: How many of the largest losses the review lists.
LARGEST_LOSSES = 3


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
    verdicts: Sequence[tuple[int, int, Verdict]] = (),
    open_facts: Sequence[tuple[int, int, Finding]] = (),
) -> list[str]:
    """The review, a few lines in the current language.

    The learner's largest losses in win chance come first (the move, the
    better move, both win chances, the explanation); then what only the open
    hands show, labelled as such; then bombs, the deciding moment and the help
    used.  A game restored without verdicts falls back on the remarks made.
    """
    lines: list[str] = []
    for moment in [m for m in moments if m.move == 0][:limit]:
        lines.append(t("coach.review_bid_moment", text=moment.text))
    losses = largest_losses(verdicts)
    if verdicts:
        for number, v in losses:
            lines.append(loss_line(number, v))
        if not losses:
            lines.append(t("coach.review_all_good"))
    else:
        for moment in [m for m in moments if m.move != 0][:limit]:
            lines.append(t("coach.review_moment", n=moment.move, text=moment.text))
    if not lines:
        lines.append(t("coach.review_nothing"))
    for _, number, finding in open_facts[:LARGEST_LOSSES]:
        lines.append(t("coach.review_open_hands", n=number, text=finding.text))
    bombs = bombs_played(history)
    if bombs:
        lines.append(t("coach.review_bombs", items=", ".join(b.text for b in bombs)))
    decisive = deciding_moment(history, landlord, winner)
    if decisive is not None and decisive.play is not None and len(trick_winners(history)) > 1:
        lines.append(t("coach.review_decided", seat=seat_name(decisive.seat), cards=decisive.play.text))
    lines.append(t("coach.review_help", hints=hints, undos=undos))
    return lines


def largest_losses(verdicts: Sequence[tuple[int, int, Verdict]], count: int = LARGEST_LOSSES) -> list[tuple[int, Verdict]]:
    """The flagged verdicts with the largest losses, largest first: (move number, verdict)."""
    flagged = [(n, v) for _, n, v in verdicts if v.flagged]
    flagged.sort(key=lambda nv: (-nv[1].loss, nv[0]))
    return flagged[:count]


def loss_line(number: int, v: Verdict) -> str:
    from tutor.coach.advice import move_text

    line = t(
        "coach.review_loss",
        n=number,
        verdict=t(f"coach.level_{v.level}"),
        move=move_text(v.move),
        chance=round(100 * v.win_chance),
        best=move_text(v.best_move),
        best_chance=round(100 * v.best_chance),
    )
    if v.explanation is not None:
        line = f"{line} {v.explanation.text}"
    return line
