"""Saved mistakes keep their noise (issue 20): the standard error of the loss and of both win
chances is stored with each moment, read back exactly, and shown where the moment is replayed;
moments stored before (mistakes area version 1) migrate in place and say no precision they lack."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tutor.engine.rules import STANDARD
from tutor.sessions import mistakes as ms
from tutor.store import Store
from tutor.store.mistakes import AREA, MIGRATIONS, MistakeStore, StoredMistake

PLAY = StoredMistake(3, 5, "2", "Q", 0.41, 0.56, 0.15, "inaccuracy", {}, noise=0.0375, chance_err=0.031,
                     best_err=0.029)  # fmt: skip
BID = StoredMistake(3, ms.BID_MOMENT, "3", "pass", -1.3, 0.0, 1.3, "mistake", noise=0.3)


def test_a_version_1_store_migrates_in_place_and_its_old_moments_have_no_noise(tmp_path: Path) -> None:
    path = tmp_path / "ddz.sqlite3"
    with Store.open(path) as store:
        store.register_schema(AREA, MIGRATIONS[:1])  # the mistakes area as shipped before issue 20
        with store.transaction() as db:
            db.execute("INSERT INTO mistakes VALUES (3, 5, '2', 'Q', 0.41, 0.56, 0.15, 'inaccuracy', '', 0, 1)")
            db.execute("INSERT INTO mistakes_analysed VALUES (3)")
    with Store.open(path) as store:
        mistakes = MistakeStore(store)
        (old,) = mistakes.for_game(3)
        assert (old.loss, old.tries, old.noise, old.chance_err, old.best_err) == (0.15, 1, None, None, None)
        assert mistakes.analysed(3)
        line = ms.moment_phrase(1, 1, old, 10, STANDARD).render("en")
        assert "wins 41%" in line and "±" not in line  # no precision it was not stored with
        mistakes.save_analysis(3, [PLAY, BID])
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version FROM schema_version WHERE area = ?", (AREA,)).fetchone() == (len(MIGRATIONS),)
    with Store.open(path) as store:
        assert MistakeStore(store).for_game(3) == [BID, PLAY]  # exactly as saved, largest loss first


def test_the_replayed_moment_shows_the_loss_with_its_noise_in_both_languages() -> None:
    en = ms.moment_phrase(2, 4, PLAY, 10, STANDARD).render("en")
    assert "you played 2 (wins 41% (±3%); −15 ± 4 points" in en, en
    ru = ms.moment_phrase(2, 4, PLAY, 10, STANDARD).render("ru")
    assert "шанс выиграть 41% (±3%)" in ru and "−15 ± 4 п. п." in ru, ru
    bid = ms.moment_phrase(1, 4, BID, 10, STANDARD).render("en")
    assert "expected score −13; 13 ± 3 points below the best" in bid, bid
    assert "13 ± 3 очк." in ms.moment_phrase(1, 4, BID, 10, STANDARD).render("ru")
    shown = ms.better_phrase(ms.BetterShown("Q", 0.56, 0.029)).render("en")
    assert shown == "A better move: Q (wins 56% (±3%)).", shown
    assert ms.better_phrase(ms.BetterShown("Q", 0.56)).render("en") == "A better move: Q (wins 56%)."
