"""Facts a player reads off the table under the rules: no judgement, only what the rules make true.

* :func:`is_boss` — whether any hand that may still be out could beat a combination;
* :func:`whole_hand_play` — the play that empties a hand at once, if there is one;
* :func:`can_show_hand` — whether the seat may show its hand now (RULES §12.2).

The bots decide with them and the coach words them (neither owns them: the
coach imports no bot module, issue 31).
"""

from __future__ import annotations

from functools import lru_cache

from tutor.engine.cards import BIG_JOKER, R2, SMALL_JOKER
from tutor.engine.cards import packed_size as _size
from tutor.engine.combos import Combo, Kind, beats, readings
from tutor.engine.moves import follow_moves_packed
from tutor.engine.multideck import may_beat
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView


def is_boss(combo: Combo, hidden: int, max_size: int, bombs: bool = True, *, rules: Rules) -> bool:
    """True when no hand of at most ``max_size`` cards out of ``hidden`` can beat ``combo``.

    Args:
        combo: The play in question.
        hidden: The cards the opponents may hold (packed): the unseen cards for a
            card counter, the deck less the own hand for a bot that does not count.
        max_size: The largest opponent hand: a 5-card straight cannot be answered
            by an opponent holding 3 cards.
        bombs: Whether a bomb or the rocket counts as an answer.

    The same answer as ``not beaters(...)``, found sooner: a bomb or the rocket
    among the hidden cards settles it without listing every other answer (the
    bots and the coach's play-outs ask this many thousand times a decision).
    """
    kind = combo.kind
    if kind == Kind.ROCKET:
        return True
    if rules.decks != 1:  # two decks (RULES §12.4): bombs of 4-8 cards, the four-joker rocket
        return not may_beat(hidden, combo, max_size, bombs, rules)
    if bombs:
        if max_size >= _ROCKET_SIZE and hidden & _JOKER_NIBBLES == _ROCKET_CARDS:
            return False
        if max_size >= _BOMB_SIZE:
            above = combo.main if kind == Kind.BOMB else -1
            for r in range(above + 1, R2 + 1):
                if (hidden >> (4 * r)) & 0xF == 4:
                    return False
    if kind == Kind.BOMB:
        return True  # only a higher bomb or the rocket beats a bomb: none counts
    for move in follow_moves_packed(hidden, combo, rules):
        if not Kind(move.kind).is_bomb and _size(move.cards) <= max_size:
            return False
    return True


_ROCKET_SIZE, _BOMB_SIZE = 2, 4
_JOKER_NIBBLES = (0xF << (4 * SMALL_JOKER)) | (0xF << (4 * BIG_JOKER))
_ROCKET_CARDS = (1 << (4 * SMALL_JOKER)) | (1 << (4 * BIG_JOKER))


@lru_cache(maxsize=1 << 16)
def _one_combo_readings(hand: int, rules: Rules) -> tuple[Combo, ...]:
    """Readings of a whole hand, cached: asked at every decision, about few distinct hands."""
    return tuple(readings(hand, rules))


def whole_hand_play(hand: int, table: Combo | None, rules: Rules) -> Combo | None:
    """The play that empties the hand at once, if the hand is one legal combination."""
    options = _one_combo_readings(hand, rules)
    if not options:
        return None
    if table is not None:
        options = tuple(c for c in options if beats(c, table, rules))
        if not options:
            return None
    # Prefer a non-bomb reading (no need to double the stake) — then the highest.
    return max(options, key=lambda c: (not c.is_bomb, c.main))


def can_show_hand(view: PlayerView) -> bool:
    """True when ``view.seat`` may show the hand now (RULES §12.2): the landlord, before the first play."""
    return (
        view.rules.can_open
        and view.shown is None
        and view.landlord == view.seat
        and view.to_move == view.seat
        and not view.history
    )
