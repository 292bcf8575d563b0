"""Lesson progress in the learner's store: best stars kept, reset."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tutor.lessons.progress import ProgressBook
from tutor.store import Store


@pytest.fixture()
def store(club: Any) -> Iterator[Store]:
    """A club learner's store, on SQLite and on PostgreSQL (tests/conftest.py: ``club``)."""
    with club.store_for(2) as opened:
        yield opened


def test_best_stars_are_kept_and_completions_counted(store: Store) -> None:
    book = ProgressBook(store)
    book.record("cards", 2, wrong=1, hints=0)
    book.record("cards", 1, wrong=3, hints=2)
    saved = book.record("cards", 3, wrong=0, hints=0)
    assert (saved.stars, saved.completions, saved.best_wrong) == (3, 3, 0)
    book.record("cards", 2, wrong=1, hints=0)
    assert book.get("cards").stars == 3  # type: ignore[union-attr]


def test_reset_one_or_all(store: Store) -> None:
    book = ProgressBook(store)
    book.record("cards", 3, 0, 0)
    book.record("trios", 1, 4, 1)
    assert book.reset("cards") == 1
    assert set(book.all()) == {"trios"}
    assert book.reset() == 1
    assert book.all() == {}
