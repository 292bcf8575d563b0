"""Computer players (RULES §10): three levels that decide from a :class:`PlayerView` only.

>>> from tutor.bots import make_bot
>>> bot = make_bot("medium", seed=42)

Every level implements :class:`~tutor.bots.base.Bot`: ``bid(view) -> int``
(0 = pass) and ``play(view) -> Combo | None`` (None = pass).  See docs/api.md.
"""

from __future__ import annotations

from tutor.bots.base import Bot, BotError
from tutor.bots.easy import EasyBot
from tutor.bots.evaluation import HandEvaluation, evaluate_hand
from tutor.bots.hard import HardBot
from tutor.bots.medium import MediumBot
from tutor.bots.planner import Plan, moves_to_finish, plan

#: Level names, weakest first.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

_CLASSES: dict[str, type[EasyBot] | type[MediumBot] | type[HardBot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}


class UnknownLevelError(ValueError):
    """A level name that is not one of :data:`LEVELS`."""


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` ("easy", "medium" or "hard") whose randomness follows ``seed``.

    Pass the game's seed (the deal number): each decision draws from a generator
    seeded by (seed, seat, turn index), so a replayed deal replays identically.

    Raises:
        UnknownLevelError: For any other level name.
    """
    key = level.strip().lower() if isinstance(level, str) else level
    if key not in _CLASSES:
        raise UnknownLevelError(f"unknown bot level {level!r} (one of: {', '.join(LEVELS)})")
    return _CLASSES[key](seed)


__all__ = [
    "Bot",
    "BotError",
    "EasyBot",
    "HandEvaluation",
    "HardBot",
    "LEVELS",
    "MediumBot",
    "Plan",
    "UnknownLevelError",
    "evaluate_hand",
    "make_bot",
    "moves_to_finish",
    "plan",
]
