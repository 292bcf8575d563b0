"""The daily puzzle: same for everyone on a date; the plain schedule never repeats within a year."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from tutor.puzzles.daily import YEAR_DAYS, daily_id, daily_index, parse_date, permutation


def test_permutation_is_a_permutation_and_fixed() -> None:
    order = permutation(400)
    assert sorted(order) == list(range(400))
    assert order == permutation(400)
    assert order != list(range(400))


@pytest.mark.parametrize("size", [YEAR_DAYS, 400, 523])
def test_no_puzzle_repeats_within_a_year(size: int) -> None:
    # Every window of 366 consecutive days, for every phase of the cycle: all distinct.
    start = date(2024, 1, 1)
    picks = [daily_index(start + timedelta(days=k), size) for k in range(size + YEAR_DAYS)]
    for offset in range(size):
        window = picks[offset : offset + YEAR_DAYS]
        assert len(set(window)) == YEAR_DAYS


def test_same_date_same_puzzle_whatever_the_id_order() -> None:
    ids = [f"p{i:04d}" for i in range(400)]
    day = date(2025, 3, 14)
    assert daily_id(ids, day) == daily_id(list(reversed(ids)), day)
    assert daily_id(ids, day) != daily_id(ids, day + timedelta(days=1))


def test_bad_date_names_the_input() -> None:
    with pytest.raises(ValueError, match="'2025-13-01'"):
        parse_date("2025-13-01")


def test_the_daily_puzzle_comes_from_the_real_games_pool_and_repeats_only_after_its_bands() -> None:
    # Issue 30: the daily is drawn from the pool of real games' positions (tests/puzzles/test_daily_pool.py
    # checks what they are); a weekday's puzzle comes back after as many weeks as its band holds
    # (53 per band: the shipped pool of 371 covers a year; test_daily_pool.py checks the year).
    from tutor.puzzles.daily import daily_pool, daily_puzzle_id, weekday_bands
    from tutor.puzzles.daily_pool import in_pool
    from tutor.puzzles.library import load_library

    library = load_library()
    pool = set(daily_pool(library))
    assert pool == {p.id for p in library if in_pool(p)}
    shortest = min(len(band) for band in weekday_bands(library))
    start = date(2026, 1, 5)  # a Monday
    days = [daily_puzzle_id(library, start + timedelta(days=k)) for k in range(7 * shortest)]
    assert len(set(days)) == len(days) and set(days) <= pool


def test_a_library_without_real_games_falls_back_to_its_interesting_puzzles() -> None:
    from tutor.puzzles.daily import daily_pool
    from tutor.puzzles.daily_pool import in_pool
    from tutor.puzzles.library import load_library

    older = [p for p in load_library() if not in_pool(p)]
    pool = set(daily_pool(older))
    one_look = {p.id for p in older if p.difficulty is not None and p.difficulty.one_look}
    assert len(pool) >= YEAR_DAYS and one_look and not pool & one_look
