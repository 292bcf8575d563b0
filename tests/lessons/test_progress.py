"""Lesson progress in the learner's store: best stars kept, reset."""

from __future__ import annotations

from tutor.lessons.progress import ProgressBook
from tutor.store import Store


def test_best_stars_are_kept_and_completions_counted() -> None:
    store = Store.open(":memory:")
    book = ProgressBook(store)
    book.record("cards", 2, wrong=1, hints=0)
    book.record("cards", 1, wrong=3, hints=2)
    saved = book.record("cards", 3, wrong=0, hints=0)
    assert (saved.stars, saved.completions, saved.best_wrong) == (3, 3, 0)
    book.record("cards", 2, wrong=1, hints=0)
    assert book.get("cards").stars == 3  # type: ignore[union-attr]


def test_reset_one_or_all() -> None:
    book = ProgressBook(Store.open(":memory:"))
    book.record("cards", 3, 0, 0)
    book.record("trios", 1, 4, 1)
    assert book.reset("cards") == 1
    assert set(book.all()) == {"trios"}
    assert book.reset() == 1
    assert book.all() == {}
