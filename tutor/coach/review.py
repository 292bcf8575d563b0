"""The short review after a game: the moments worth remembering.

Three kinds of moment: the coach's remarks made during the game (mistakes and
missed forced wins, in order), the bombs and rockets that doubled the stake,
and the *deciding moment* — the trick from which the winning side never gave
the lead away again.  Then a reminder of the hints and undos used (counted,
never deducted: RULES §9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.coach.seats import seat_phrase
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules
from tutor.engine.trick import Turn, trick_winners
from tutor.i18n import Phrase

if TYPE_CHECKING:
    from tutor.coach.advice import Verdict
    from tutor.coach.mistakes import Finding

#: How many of the largest losses the review lists.
LARGEST_LOSSES = 3


@dataclass(frozen=True, slots=True)
class Moment:
    """A remark tied to the learner's move number ``move`` (1-based plays and passes; 0 = the bid).

    The remark is kept as data (a :class:`~tutor.i18n.Phrase`), so a game saved
    in one language is reviewed in another.
    """

    action_index: int
    move: int
    remark: Phrase

    @property
    def text(self) -> str:
        return self.remark.render()

    def to_data(self) -> list[object]:
        return [self.action_index, self.move, self.remark.to_data()]

    @classmethod
    def from_data(cls, item: object) -> Moment:
        """Read :meth:`to_data` back; an old save's plain text stays as it was written."""
        if not isinstance(item, (list, tuple)) or len(item) != 3:
            raise ValueError(f"not a stored moment: {str(item)[:40]!r}")
        index, move, remark = item
        phrase = Phrase(remark) if isinstance(remark, str) else Phrase.from_data(remark)
        return cls(int(index), int(move), phrase)


def deciding_moment(history: Sequence[Turn], landlord: int, winner: int, players: int) -> Turn | None:
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
    return [t_.play for t_ in history if t_.play is not None and t_.play.is_bomb]


def review_lines(
    moments: Sequence[Moment],
    history: Sequence[Turn],
    landlord: int,
    winner: int,
    hints: int,
    undos: int,
    limit: int = 6,
    verdicts: Sequence[tuple[int, int, Verdict]] = (),
    open_facts: Sequence[tuple[int, int, Finding]] = (),
    *,
    rules: Rules,
) -> list[str]:
    """:func:`review_phrases` in the current language."""
    phrases = review_phrases(moments, history, landlord, winner, hints, undos, limit, verdicts, open_facts,
                             rules=rules)
    return [line.render() for line in phrases]


def review_phrases(
    moments: Sequence[Moment],
    history: Sequence[Turn],
    landlord: int,
    winner: int,
    hints: int,
    undos: int,
    limit: int = 6,
    verdicts: Sequence[tuple[int, int, Verdict]] = (),
    open_facts: Sequence[tuple[int, int, Finding]] = (),
    *,
    rules: Rules,
) -> list[Phrase]:
    """The review as data, a few phrases rendered by the front end in the learner's language.

    The learner's largest losses in win chance come first (the move, the
    better move, both win chances, the explanation); then what only the open
    hands show, labelled as such; then bombs, the deciding moment and the help
    used.  A game restored without verdicts falls back on the remarks made.
    """
    lines: list[Phrase] = []
    for moment in [m for m in moments if m.move == 0][:limit]:
        lines.append(Phrase("coach.review_bid_moment", {"text": moment.remark}))
    losses = largest_losses(verdicts)
    if verdicts:
        for number, v in losses:
            lines.append(loss_phrase(number, v))
        if not losses:
            costs = [v for _, _, v in verdicts if not v.flagged and not v.within_noise]
            if costs:
                # Issue 29: no "well played" over losses the samples tell from luck, however small.
                points = round(100 * sum(v.loss for v in costs))
                lines.append(Phrase("coach.review_small_costs", {"n": len(costs), "points": points}))
            else:
                lines.append(Phrase("coach.review_all_good"))
    else:
        for moment in [m for m in moments if m.move != 0][:limit]:
            lines.append(Phrase("coach.review_moment", {"n": moment.move, "text": moment.remark}))
    habit = recurring(verdicts)
    if habit is not None:
        lines.append(habit)
    if not lines:
        lines.append(Phrase("coach.review_nothing"))
    for _, number, finding in open_facts[:LARGEST_LOSSES]:
        lines.append(Phrase("coach.review_open_hands", {"n": number, "text": finding.phrase}))
    bombs = bombs_played(history)
    if bombs:
        lines.append(Phrase("coach.review_bombs", {"items": ", ".join(b.text for b in bombs)}))
    decisive = deciding_moment(history, landlord, winner, rules.players)
    if decisive is not None and decisive.play is not None and len(trick_winners(history, rules.players)) > 1:
        seat = seat_phrase(decisive.seat, rules)  # the game's seats: «Across» with four (RULES §12.4)
        lines.append(Phrase("coach.review_decided", {"seat": seat, "cards": decisive.play.text}))
    lines.append(Phrase("coach.review_help", {"hints": hints, "undos": undos}))
    return lines


#: A reason is a habit once it explains this many of the game's measurable losses.
HABIT_AFTER = 2


def recurring(verdicts: Sequence[tuple[int, int, Verdict]]) -> Phrase | None:
    """The habit of this game (issue 29): the specific reason behind the most points lost, when it came back.

    Losses the samples tell from luck count, under the inaccuracy line too (a 2 led early three
    times at 5 points each is a habit); ``no_simple_reason`` is no habit.
    """
    from tutor.coach.reasons import NO_SIMPLE_REASON

    seen: dict[str, list[Verdict]] = {}
    for _, _, v in verdicts:
        if v.explanation is not None and v.explanation.code != NO_SIMPLE_REASON and not v.within_noise:
            seen.setdefault(v.explanation.code, []).append(v)
    habits = [(sum(v.loss for v in vs), code, vs) for code, vs in seen.items() if len(vs) >= HABIT_AFTER]
    if not habits:
        return None
    points, _, vs = max(habits, key=lambda h: (h[0], h[1]))
    last = vs[-1].explanation
    assert last is not None
    return Phrase("coach.review_habit", {"n": len(vs), "points": round(100 * points), "text": last.phrase})


def largest_losses(verdicts: Sequence[tuple[int, int, Verdict]], count: int = LARGEST_LOSSES) -> list[tuple[int, Verdict]]:
    """The flagged verdicts with the largest losses, largest first: (move number, verdict)."""
    flagged = [(n, v) for _, n, v in verdicts if v.flagged]
    flagged.sort(key=lambda nv: (-nv[1].loss, nv[0]))
    return flagged[:count]


def loss_line(number: int, v: Verdict) -> str:
    return loss_phrase(number, v).render()


def loss_phrase(number: int, v: Verdict) -> Phrase:
    """One of the largest losses, as data."""
    from tutor.coach.advice import chance_phrase, move_phrase, signed_loss

    line = Phrase(
        "coach.review_loss",
        {
            "n": number,
            "verdict": Phrase(f"coach.level_{v.level}"),
            "loss": signed_loss(v.loss, v.noise),
            "move": move_phrase(v.move),
            "chance": chance_phrase(v.win_chance, v.chance_err),
            "best": move_phrase(v.best_move),
            "best_chance": chance_phrase(v.best_chance, v.best_err),
        },
    )
    from tutor.coach.advice import explanation_phrase

    why = explanation_phrase(v)
    return line if why is None else Phrase("coach.joined", {"first": line, "second": why})
