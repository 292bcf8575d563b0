"""Moves as lesson files write them, and a table that may hide some hands.

A lesson names a play the way a learner types it: ``"33344"``, ``"pass"``, or
``"333444555666/airplane"`` when one reading of several is meant.  This module
turns that text into engine moves for a given hand and table, says in words why
a play is not legal, and keeps the turn order of a trick (RULES §4) for
positions whose other hands the lesson does not spell out — the solver's
:class:`~tutor.solver.position.Position` needs every hand, a lesson often
shows only yours.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tutor.engine.cards import Cards, InvalidCardsError, packed_contains
from tutor.engine.combos import Combo, Kind, beats, plainest, readings, strength, why_not_beats
from tutor.engine.moves import legal_moves
from tutor.engine.notation import MoveText, MoveTextError, move_notation, parse_move_text
from tutor.engine.notation import resolve as resolve_text
from tutor.engine.trick import Trick as EngineTrick
from tutor.engine.trick import passes_since

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


@dataclass(frozen=True, slots=True)
class Trick:
    """Whose turn it is and what lies on the table, for three seats (0 you, 1 right, 2 left).

    ``hands`` holds the hands the lesson gives (None where it does not) and
    ``counts`` the number of cards of every seat (None when unknown).
    """

    hands: tuple[Cards | None, ...]
    counts: tuple[int | None, ...]
    to_move: int
    table: Combo | None = None
    table_by: int | None = None

    @property
    def is_over(self) -> bool:
        return any(c == 0 for c in self.counts)

    def after(self, move: Combo | None) -> Trick:
        """The trick after the player to move plays ``move`` (None = pass), RULES §4."""
        if move is None and self.table is None:
            raise LessonMoveError("the leader cannot pass")
        players = len(self.counts)
        passes = passes_since(self.table_by, self.to_move, players)
        trick, nxt = EngineTrick(self.table, self.table_by, passes).after(self.to_move, move, players)
        if move is None:
            return replace(self, to_move=nxt, table=trick.table, table_by=trick.table_seat)
        hands = list(self.hands)
        counts = list(self.counts)
        me = self.to_move
        hand = hands[me]
        if hand is not None:
            hands[me] = hand - move.as_cards()
            counts[me] = len(hands[me])  # type: ignore[arg-type]
        elif counts[me] is not None:
            counts[me] = max(0, counts[me] - move.size)  # type: ignore[operator]
        if counts[me] == 0:
            return Trick(tuple(hands), tuple(counts), me, None, None)
        return Trick(tuple(hands), tuple(counts), nxt, trick.table, trick.table_seat)
