"""Your habits across games (issue 29): the reasons that cost this learner the most points.

The coach stores every flagged moment of a finished game with its reason (a
stable code, :mod:`tutor.coach.reasons`) and its loss (the mistakes area,
:mod:`tutor.store.mistakes`), and its small costs too: the losses under the
inaccuracy line that the samples still tell from luck, with their reason — a
2 led early five times at 4–10 points each is a habit though no single one
was flagged.  This reads the learner's last ``games`` finished
games and groups those moments by reason: how often, how many points of win
chance they cost in all (the plays: a bid's loss is in stakes, not comparable), whether they
came more or less often in the newer half of the games (the trend), and where
(game id and move: ``ddz mistakes GAME_ID`` replays them).

Only moments stored with a game count: games not analysed yet (an old save,
the coach off) are counted apart.  A front end renders :meth:`Insights.to_json`
or the phrases of :func:`insight_phrases`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tutor.i18n import Phrase
from tutor.store import Store

#: How many of a pattern's moments are listed (largest loss first).
SHOWN_MOMENTS = 3


@dataclass(frozen=True, slots=True)
class Moment:
    game_id: int
    #: The learner's move number (0 and below: the auction and the choices before the play).
    number: int
    loss: float
    #: A flagged moment (a replayable mistake), or a small cost under the inaccuracy line.
    flagged: bool = True


@dataclass(slots=True)
class Habit:
    """One reason over the games: its moments, oldest game first."""

    code: str
    moments: list[Moment] = field(default_factory=list)
    #: Moments in the older and in the newer half of the games read.
    older: int = 0
    newer: int = 0

    @property
    def count(self) -> int:
        return len(self.moments)

    @property
    def small(self) -> int:
        """How many of the moments were small costs (not flagged)."""
        return sum(1 for m in self.moments if not m.flagged)

    @property
    def each(self) -> tuple[int, int]:
        """The smallest and the largest loss of one moment, in points."""
        points = [round(100 * m.loss) for m in self.moments]
        return min(points), max(points)

    @property
    def points(self) -> int:
        """The losses in points (hundredths of win chance) in all."""
        return round(100 * sum(m.loss for m in self.moments))

    @property
    def trend(self) -> str:
        """"more" (more often in the newer half of the games), "less", or "same"."""
        return "more" if self.newer > self.older else "less" if self.newer < self.older else "same"

    def worst(self) -> list[Moment]:
        return sorted(self.moments, key=lambda m: (-m.loss, m.game_id, m.number))[:SHOWN_MOMENTS]


@dataclass(slots=True)
class Insights:
    games: int
    unanalysed: int
    habits: list[Habit]

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "unanalysed_games": self.unanalysed,
            "patterns": [
                {"code": h.code, "count": h.count, "points_lost": h.points, "trend": h.trend,
                 "older_half": h.older, "newer_half": h.newer, "small_costs": h.small,
                 "points_each": list(h.each),
                 "moments": [{"game": m.game_id, "move": m.number, "loss": round(m.loss, 4), "flagged": m.flagged}
                             for m in h.worst()]}
                for h in self.habits
            ],  # fmt: skip
        }


def insights(store: Store, games: int = 20) -> Insights:
    """The learner's habits over their last ``games`` finished games, costliest first."""
    from tutor.store.games import GameStore
    from tutor.store.mistakes import MistakeStore

    finished = list(reversed(GameStore(store).history(games)))  # oldest first
    mistakes = MistakeStore(store)
    found: dict[str, Habit] = {}
    unanalysed = 0
    half = len(finished) / 2
    for index, game in enumerate(finished):
        assert game.id is not None
        if not mistakes.analysed(game.id):
            unanalysed += 1
            continue
        moments = [(str(m.explanation.get("code") or "no_simple_reason"), Moment(game.id, m.number, m.loss))
                   for m in mistakes.for_game(game.id) if m.number > 0]  # the plays (choices: stakes, not chances)
        moments += [(c.code, Moment(game.id, c.number, c.loss, False)) for c in mistakes.costs_for_game(game.id)]
        for code, moment in moments:
            habit = found.setdefault(code, Habit(code))
            habit.moments.append(moment)
            if index < half:
                habit.older += 1
            else:
                habit.newer += 1
    habits = sorted(found.values(), key=lambda h: (-h.points, -h.count, h.code))
    return Insights(len(finished), unanalysed, habits)


def insight_phrases(found: Insights) -> list[Phrase]:
    """The insights as lines to render: one line "nothing yet" when there is nothing to say."""
    if not found.games:
        return [Phrase("insights.no_games")]
    if not found.habits:
        return [Phrase("insights.nothing_yet", {"games": found.games})]
    lines = [Phrase("insights.head", {"games": found.games})]
    for habit in found.habits:
        where = ", ".join(Phrase("insights.where", {"game": m.game_id, "move": m.number}).render()
                          for m in habit.worst())  # fmt: skip
        low, high = habit.each
        each = Phrase("insights.each_one" if low == high else "insights.each", {"low": low, "high": high})
        lines.append(Phrase("insights.pattern_each", {
            "name": Phrase(f"club.mistake_{habit.code}"), "n": habit.count, "points": habit.points, "each": each,
            "trend": Phrase(f"insights.trend_{habit.trend}"), "where": where,
        }))  # fmt: skip
        if habit.small:
            lines.append(Phrase("insights.small", {"n": habit.small}))
    if found.unanalysed:
        lines.append(Phrase("insights.unanalysed", {"n": found.unanalysed}))
    return lines
