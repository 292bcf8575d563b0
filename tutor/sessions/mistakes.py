"""Learning from your mistakes, the flow below the front ends: which moments of a game are stored.

At the end of a game the coach judged from start to end, its flagged verdicts
are the game's analysis; for other games (resumed, or played before) the
analysis is made when first asked for (:mod:`tutor.coach.exercises`).  The
explanation is stored as data (its catalogue key and values), so it reads in
any language.  ``ddz mistakes`` and the final card's ``[m]`` use these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutor.coach.advice import Verdict
    from tutor.engine.record import GameRecord
    from tutor.store import Store
    from tutor.store.mistakes import StoredMistake


def analyse(store: Store, game_id: int, record: GameRecord) -> list[StoredMistake]:
    """The game's mistakes from the store, analysing the game first when it has not been."""
    from tutor.coach import exercises
    from tutor.store.mistakes import MistakeStore

    mistakes = MistakeStore(store)
    if not mistakes.analysed(game_id):
        mistakes.save_analysis(game_id, [stored(game_id, e.number, e.verdict) for e in exercises.find(record)])
    return mistakes.for_game(game_id)


def stored(game_id: int, number: int, verdict: Verdict) -> StoredMistake:
    """A flagged verdict as the store keeps it (the explanation as data)."""
    from tutor.store.mistakes import StoredMistake

    explanation = verdict.explanation
    return StoredMistake(
        game_id, number, _text(verdict.move), _text(verdict.best_move), verdict.win_chance, verdict.best_chance,
        verdict.loss, verdict.level, {} if explanation is None else {"code": explanation.code, "values": explanation.phrase.to_data()["values"]},
    )  # fmt: skip


def save_game_verdicts(store: Store, game_id: int, verdicts: list[tuple[int, int, Verdict]]) -> None:
    """At the end of a game the coach judged from start to end: its flagged verdicts are the analysis."""
    from tutor.coach import exercises
    from tutor.coach.review import largest_losses
    from tutor.store.mistakes import MistakeStore

    MistakeStore(store).save_analysis(
        game_id, [stored(game_id, n, v) for n, v in largest_losses(verdicts, exercises.MOST)]
    )


def _text(move: Any) -> str:
    return "pass" if move is None else str(move.text)
