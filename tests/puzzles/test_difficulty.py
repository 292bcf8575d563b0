"""The first rating estimate grows with search effort, tempting mistakes and length."""

from __future__ import annotations

from tutor.puzzles.difficulty import (
    MAX_RATING,
    MIN_RATING,
    Difficulty,
    breaks_bomb_or_rocket,
    is_interesting,
    naive_share,
    plausible_losing_moves,
    tempting_moves,
)
from tutor.puzzles.model import find_move
from tutor.solver.position import Position


def test_rating_grows_with_each_feature_and_stays_in_range() -> None:
    base = Difficulty(nodes=100, plausible_losing=2, win_in=2, players=3, tempting=1, naive=0.5)
    assert Difficulty(10_000, 2, 2, 3, 1, 0.5).rating > base.rating
    assert Difficulty(100, 2, 2, 3, 4, 0.5).rating > base.rating
    assert Difficulty(100, 2, 4, 3, 1, 0.5).rating > base.rating
    assert Difficulty(100, 2, 2, 3, 1, 0.0).rating > base.rating
    assert MIN_RATING <= Difficulty(0, 0, 1, 3, 0, 1.0).rating <= Difficulty(10**9, 50, 20, 3, 50, 0.0).rating
    assert Difficulty(10**9, 50, 20, 3, 50, 0.0).rating <= MAX_RATING


def test_a_one_look_puzzle_is_rated_low_and_is_never_the_daily_one() -> None:
    # Most naive players find it, no mistake hides its refutation, a short proof: a beginner's puzzle.
    easy = Difficulty(nodes=60, plausible_losing=3, win_in=2, players=3, tempting=0, naive=2 / 3)
    assert easy.one_look and not is_interesting(easy)
    assert easy.rating <= 1000
    # Nobody playing by feel finds it and three mistakes lose only after a fight.
    hard = Difficulty(nodes=3000, plausible_losing=5, win_in=3, players=3, tempting=3, naive=0.0)
    assert not hard.one_look and is_interesting(hard) and hard.rating >= 1600


def test_the_naive_panel_finds_the_obvious_and_misses_the_subtle() -> None:
    # The landlord leads: 77 then Q is what anyone plays (shed the weak pair, keep the boss).
    pos = Position.parse("L:77Q F:6TQA F:3")
    assert naive_share(pos, find_move(pos, "77")) >= 0.5
    # Passing is never a naive move.
    thrown = Position.parse("F:9K F:4 L:Q2X", beat="8", beat_by=1)
    assert naive_share(thrown, None) == 0.0


def test_a_mistake_refuted_at_once_is_not_tempting() -> None:
    pos = Position.parse("F:55A L:9 F:3")
    five = find_move(pos, "5")
    assert tempting_moves(pos, [five]) == []  # the landlord plays 9 and is out: seen at a glance
    # Leading the Q gives the farmer the lead, but he still needs several plays to go out.
    duel = Position.parse("L:77Q F:6TQA F:3")
    queen = find_move(duel, "Q")
    assert tempting_moves(duel, [queen]) == [queen]


def test_breaking_a_bomb_or_the_rocket_is_not_a_plausible_mistake() -> None:
    pos = Position.parse("L:3333XD5 F:4")
    assert breaks_bomb_or_rocket(pos, find_move(pos, "3"))
    assert breaks_bomb_or_rocket(pos, find_move(pos, "X"))
    assert not breaks_bomb_or_rocket(pos, find_move(pos, "3333"))
    assert not breaks_bomb_or_rocket(pos, find_move(pos, "5"))
    winning = [find_move(pos, "3333")]
    plausible = plausible_losing_moves(pos, winning)
    assert find_move(pos, "5") in plausible and find_move(pos, "X") not in plausible
