"""Moves as lesson files write them, and a table that may hide some hands.

A lesson names a play the way a learner types it: ``"33344"``, ``"pass"``, or
``"333444555666/airplane"`` when one reading of several is meant.  This module
turns that text into engine moves for a given hand and table, says in words why
a play is not legal — also for a hand the lesson does not give (only the
combination and the table are checked then).  The lessons step a position as
the engine's game (:mod:`tutor.lessons.table`).
"""

from __future__ import annotations

from tutor.engine.cards import Cards, packed_contains
from tutor.engine.combos import Combo, beats, plainest, readings, strength, why_not_beats
from tutor.engine.moves import legal_moves
from tutor.engine.notation import MoveText, MoveTextError, move_notation, parse_move_text
from tutor.engine.notation import resolve as resolve_text


class LessonMoveError(MoveTextError):
    """A move text that does not name cards, or a move that is not legal here (the message says why)."""


#: A move as a lesson writes it: the engine's one notation (:mod:`tutor.engine.notation`).
MoveSpec = MoveText


def parse_move(text: str) -> MoveSpec:
    """Read ``"pass"``, ``"33344"`` or ``"333444555666/airplane"``."""
    try:
        return parse_move_text(text)
    except MoveTextError as error:
        raise LessonMoveError(str(error)) from None


def format_move(move: Combo | None) -> str:
    """An engine move in lesson notation (``pass`` for None)."""
    return move_notation(move)


def matching_moves(hand: Cards, table: Combo | None, spec: MoveSpec) -> list[Combo]:
    """The legal moves of ``hand`` that ``spec`` names (empty when it names none).

    A pass is never in this list; see :func:`illegal_reason` for it.
    """
    if spec.cards is None:
        return []
    return [m for m in resolve_text(spec, legal_moves(hand, table)).options if m is not None]


def illegal_reason(hand: Cards | None, table: Combo | None, spec: MoveSpec) -> str | None:
    """Why ``spec`` cannot be played here (None when it can).

    ``hand`` None means the hand is not known: only the combination and the
    table are checked.
    """
    if spec.cards is None:
        return "the leader cannot pass: lead any combination" if table is None else None
    if hand is not None and not packed_contains(hand.packed, spec.cards.packed):
        return f"{spec.cards} is not in the hand {hand}"
    options = [r for r in readings(spec.cards) if spec.kind is None or r.kind == spec.kind]
    if not options:
        what = f"a {spec.kind.label}" if spec.kind is not None else "a combination"
        return f"{spec.cards} is not {what}"
    if table is not None and not any(beats(r, table) for r in options):
        return why_not_beats(max(options, key=lambda r: r.main), table)
    return None


def resolve(hand: Cards | None, table: Combo | None, spec: MoveSpec) -> Combo | None:
    """The engine move ``spec`` stands for here (the highest legal reading).

    Raises:
        LessonMoveError: the move is not legal here (the message says why).
    """
    reason = illegal_reason(hand, table, spec)
    if reason is not None:
        raise LessonMoveError(reason)
    if spec.cards is None:
        return None
    options = [r for r in readings(spec.cards) if spec.kind is None or r.kind == spec.kind]
    if table is not None:
        options = [r for r in options if beats(r, table)]
        return max(options, key=strength)
    # Leading: the plainest reading unless the author named one (as the table shows it).
    return plainest(options)
