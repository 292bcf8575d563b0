"""Moves as text, once: reading what a learner, a lesson or a puzzle file writes, and printing it back.

Every layer names moves the same way — ``pass``, ``33344``,
``333444555666/airplane`` or, where the same cards have several legal readings,
``333444555666:airplane_singles:3`` — and resolves them the same way: *against
the list of legal moves of the position* (pass included wherever passing is
allowed).  What the text can mean is then a plain list of those moves: one
move, none (with the reason left to the caller's wording), or several, and the
"which reading?" choice is that list, as data, for the front end to offer.

:func:`move_notation` is the printer: the shortest text that names the move
among the legal ones, so ``resolve(move_notation(m, legal), legal).move == m``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutor.engine.cards import DECK_COUNTS, Cards, InvalidCardsError
from tutor.engine.combos import Combo, Kind

#: What "pass" may be written as (the commands of the table use the same words).
PASS_WORDS = frozenset({"pass", "p", "пас", "п"})
PASS_TEXT = "pass"

Move = Combo | None


class MoveTextError(ValueError):
    """Text that does not name a move at all (the message quotes it)."""


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as written: cards (None = pass) and, optionally, the reading's kind and length."""

    cards: Cards | None
    kind: Kind | None = None
    length: int | None = None

    @property
    def is_pass(self) -> bool:
        return self.cards is None

    def names(self, move: Move) -> bool:
        """Does this text name ``move``?"""
        if move is None or self.cards is None:
            return move is None and self.cards is None
        return (
            move.cards == self.cards.packed
            and (self.kind is None or move.kind == self.kind)
            and (self.length is None or move.length == self.length)
        )

    def __str__(self) -> str:
        if self.cards is None:
            return PASS_TEXT
        parts = [str(self.cards)]
        if self.kind is not None:
            parts.append(self.kind.label)
            if self.length is not None:
                parts.append(str(self.length))
        return (":" if self.length is not None else "/").join(parts)


def parse_move_text(text: str, deck: tuple[int, ...] = DECK_COUNTS) -> MoveText:
    """Read ``pass``, ``33344``, ``cards/kind`` (lessons) or ``cards:kind[:length]`` (puzzles).

    Raises:
        MoveTextError: no cards, unknown cards or an unknown kind.
    """
    raw = str(text).strip()
    if raw.lower() in PASS_WORDS:
        return MoveText(None)
    sep = ":" if ":" in raw else "/"
    cards_text, *rest = raw.split(sep)
    try:
        cards = Cards.parse(cards_text, deck)
        kind = Kind.from_label(rest[0]) if rest and rest[0].strip() else None
        length = int(rest[1]) if len(rest) > 1 and rest[1].strip() else None
    except (InvalidCardsError, ValueError) as error:
        raise MoveTextError(str(error)) from None
    if not cards:
        raise MoveTextError(f"no cards in move {raw[:40]!r}")
    return MoveText(cards, kind, length)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The legal moves a text names: one (``move``), none, or several to choose from."""

    text: MoveText
    options: tuple[Move, ...]

    @property
    def found(self) -> bool:
        return len(self.options) == 1

    @property
    def ambiguous(self) -> bool:
        return len(self.options) > 1

    @property
    def move(self) -> Move:
        """The one move named (LookupError when none or several)."""
        if len(self.options) != 1:
            raise LookupError(f"{self.text} names {len(self.options)} legal moves here")
        return self.options[0]


def resolve(text: str | MoveText, legal: Sequence[Move]) -> Resolution:
    """The moves of ``legal`` that ``text`` names (the one resolver of every layer)."""
    spec = parse_move_text(text) if isinstance(text, str) else text
    return Resolution(spec, tuple(m for m in legal if spec.names(m)))


def move_notation(move: Move, legal: Sequence[Move] | None = None) -> str:
    """``pass``, the cards, or ``cards:kind:length`` when the same cards have another legal reading here."""
    if move is None:
        return PASS_TEXT
    if legal is not None and sum(1 for m in legal if m is not None and m.cards == move.cards) > 1:
        return f"{move.text}:{Kind(move.kind).label}:{move.length}"
    return move.text
