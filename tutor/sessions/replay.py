"""Going over a finished game: every step with the hands face up, and the coach's remarks.

The store keeps a game's record with the coach's remarks as data
(:class:`~tutor.i18n.Phrase`), so the same game reads back in any language:
``ddz replay ID --lang ru`` shows a game played in English with every remark
in Russian.  This module turns a stored record into steps; the terminal only
draws them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.coach.review import Moment
from tutor.engine.cards import Cards
from tutor.engine.game import replay
from tutor.engine.record import GameRecord, ShowHand
from tutor.engine.trick import Turn
from tutor.engine.auction import CALL, ROB
from tutor.engine.rules import Rules
from tutor.i18n import Phrase
from tutor.sessions.events import BidMade, HandShown


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The game after ``index`` actions (0 = as dealt), the action that led here and its remarks."""

    index: int
    total: int
    deal: int | None
    hands: tuple[Cards, ...]
    landlord: int | None
    kitty: Cards | None
    action: Turn | tuple[int, int] | ShowHand | None
    #: What the coach said about this action (data; render in the reader's language).
    remarks: tuple[Phrase, ...] = ()
    #: The auction move or the shown hand in words (rules-aware: a bid, a call, a rob; RULES §12), else None.
    said: Phrase | None = None
    rules: Rules = field(kw_only=True)


def replay_steps(stored: Mapping[str, Any]) -> list[ReplayStep]:
    """Every state of a stored game, from the deal to the end (ValueError for a bad record)."""
    record = GameRecord.from_dict(dict(stored))
    said: dict[int, list[Phrase]] = {}
    for item in stored.get("remarks", []) or []:
        moment = Moment.from_data(item)
        said.setdefault(moment.action_index, []).append(moment.remark)
    steps: list[ReplayStep] = []
    total = len(record.actions)
    for n in range(total + 1):
        partial = GameRecord(record.deal_number, record.actions[:n], record.rules, record.landlord, record.bid,
                             record.start)
        game = replay(partial)
        action = record.actions[n - 1] if n else None
        remarks = tuple(said.get(n - 1, ())) if n else ()
        words = _said(action, record.actions[: n - 1], record.rules, game.hands) if n else None
        steps.append(
            ReplayStep(n, total, game.deal_number, game.hands, game.landlord, game.kitty, action, remarks, words, rules=record.rules)
        )
    return steps


def _said(action: object, before: list[Any], rules: Rules, hands: tuple[Cards, ...]) -> Phrase | None:
    """An auction move or a shown hand as the table said it (plays are drawn, not said)."""
    if isinstance(action, ShowHand):
        return HandShown(action.seat, hands[action.seat], False, rules).phrase()
    if not isinstance(action, tuple):
        return None
    seat, code = action
    caller = next((s for s, c in (a for a in before if isinstance(a, tuple)) if c == CALL), None)
    return BidMade(seat, code, rules, rob_back=rules.robs and code == ROB and seat == caller).phrase()
