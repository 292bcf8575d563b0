"""The first rating estimate grows with search effort, tempting mistakes and length."""

from __future__ import annotations

from tutor.puzzles.difficulty import MAX_RATING, MIN_RATING, Difficulty, breaks_bomb_or_rocket, plausible_losing_moves
from tutor.puzzles.model import find_move
from tutor.solver.position import Position


def test_rating_grows_with_each_feature_and_stays_in_range() -> None:
    base = Difficulty(nodes=100, plausible_losing=2, win_in=2, players=2)
    assert Difficulty(10_000, 2, 2, 2).rating > base.rating
    assert Difficulty(100, 6, 2, 2).rating > base.rating
    assert Difficulty(100, 2, 4, 2).rating > base.rating
    assert Difficulty(100, 2, 2, 3).rating > base.rating
    assert MIN_RATING <= Difficulty(0, 0, 1, 2).rating <= Difficulty(10**9, 50, 20, 3).rating <= MAX_RATING


def test_breaking_a_bomb_or_the_rocket_is_not_a_plausible_mistake() -> None:
    pos = Position.parse("L:3333XD5 F:4")
    assert breaks_bomb_or_rocket(pos, find_move(pos, "3"))
    assert breaks_bomb_or_rocket(pos, find_move(pos, "X"))
    assert not breaks_bomb_or_rocket(pos, find_move(pos, "3333"))
    assert not breaks_bomb_or_rocket(pos, find_move(pos, "5"))
    winning = [find_move(pos, "3333")]
    plausible = plausible_losing_moves(pos, winning)
    assert find_move(pos, "5") in plausible and find_move(pos, "X") not in plausible
