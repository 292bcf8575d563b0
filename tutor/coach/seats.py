"""Seat names, one place: what the coach, the table, the replays and the final card call a seat.

A seat's name depends on where it sits, which the rules say (:attr:`tutor.engine.rules.Rules.seat_layout`):
with three players seat 2 is «Left», with four it is «Across» and seat 3 is «Left» (RULES §12.4).  So
every name is asked with the rules of the game it belongs to, never from the seat number alone.
"""

from __future__ import annotations

from tutor.engine.rules import Rules
from tutor.i18n import Phrase, t

#: The catalogue key of each place at the table (the keys predate the four-player game, so stored
#: remarks of older games keep rendering).
_KEYS = {"you": "play.seat_0", "right": "play.seat_1", "left": "play.seat_2", "across": "four.seat_2"}


def seat_key(seat: int, rules: Rules) -> str:
    """The catalogue key of ``seat``'s name under ``rules``."""
    return _KEYS[rules.seat_layout[seat]]


def seat_phrase(seat: int, rules: Rules) -> Phrase:
    """``seat``'s name as data («You», «Right», «Across», «Left»), rendered later in the reader's language."""
    return Phrase(seat_key(seat, rules))


def seat_name(seat: int, rules: Rules) -> str:
    """``seat``'s name in the current language."""
    return t(seat_key(seat, rules))
