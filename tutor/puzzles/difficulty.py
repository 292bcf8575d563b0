"""A first estimate of a puzzle's rating, before any learner has tried it.

Three things make an endgame puzzle hard for a person, and the generator
measures each: how much the solver had to search to prove the win (a proxy
for how much a person must read ahead), how many *plausible* first moves lose
(the more tempting wrong moves, the easier it is to go astray), and how long
the winning line is.  The estimate is then refined by Glicko-2 as learners
solve the puzzle (:mod:`tutor.puzzles.progress`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tutor.engine.cards import BIG_JOKER, SMALL_JOKER, packed_count, unpack
from tutor.engine.combos import Combo, Kind
from tutor.solver.position import Position

MIN_RATING = 600
MAX_RATING = 2400


@dataclass(frozen=True, slots=True)
class Difficulty:
    """The measured features and the rating they give."""

    nodes: int
    plausible_losing: int
    win_in: int
    players: int

    @property
    def rating(self) -> int:
        return estimate_rating(self)


def estimate_rating(d: Difficulty) -> int:
    """Features → rating on the Glicko scale, clamped to [600, 2400].

    The weights were set so that the generated library centres near 1500, the
    start rating of a learner, and spreads from about 900 (a two-play win with
    two tempting mistakes) to about 2400 (a long team endgame where most first
    moves look fine).
    """
    effort = math.log2(1 + max(d.nodes, 0))
    value = (
        800
        + 38 * effort
        + 55 * min(d.plausible_losing, 12)
        + 110 * max(d.win_in - 2, 0)
        + (120 if d.players == 3 else 0)
    )
    return int(round(max(MIN_RATING, min(MAX_RATING, value)) / 10) * 10)


def breaks_bomb_or_rocket(pos: Position, move: Combo | None) -> bool:
    """A move that splits a four of a kind or the two jokers without playing them whole.

    Such moves are rarely what a person considers first, so they do not count
    as *plausible* wrong moves.
    """
    if move is None:
        return False
    hand = pos.hands[pos.to_move].packed
    played = unpack(move.cards)
    if move.kind in (Kind.BOMB, Kind.ROCKET, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
        return False
    for rank, n in enumerate(played):
        if n and packed_count(hand, rank) == 4 and n < 4:
            return True
    has_rocket = packed_count(hand, SMALL_JOKER) and packed_count(hand, BIG_JOKER)
    return bool(has_rocket and (played[SMALL_JOKER] or played[BIG_JOKER]))


def plausible_losing_moves(pos: Position, winning: list[Combo | None]) -> list[Combo | None]:
    """The losing moves a person might well try: every legal move except the winning
    ones and those that break a bomb or the rocket."""
    return [m for m in pos.legal_moves() if m not in winning and not breaks_bomb_or_rocket(pos, m)]
