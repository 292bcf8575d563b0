"""The "learn from your mistakes" session, headless: tries in, events out, tries stored (no click, no rich)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coach.positions import puzzle_game
from tutor.sessions import mistakes as ms
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "ddz.sqlite")


def _blunder_game(store: Store) -> int:
    """We (a farmer) lead a single 5 into the one-card landlord, who goes out (55 or A win)."""
    game = puzzle_game("F:55A L:9 F:3")
    game.play(next(m for m in game.legal_moves() if m.text == "5"))
    game.play(next(m for m in game.legal_moves() if m.text == "9"))
    score = game.score()
    return GameStore(store).finish(FinishedGame(
        deal=7, level="hard", role="farmer", won=False, bid=1, multiplier=score.multiplier, cost=score.cost,
        delta=score.deltas[0], scored=False, hints=0, undos=0, record=game.record().to_dict()))  # fmt: skip


def test_a_wrong_try_then_a_good_one_is_judged_recorded_and_ends(store: Store) -> None:
    game_id = _blunder_game(store)
    session = ms.MistakesSession.open(store, game_id)
    assert session is not None
    (shown,) = session.start()
    assert isinstance(shown, ms.MomentShown) and (shown.index, shown.of, shown.deal) == (1, 1, 7)
    assert shown.moment.move == "5" and str(shown.view.hand) == "55A"

    (status,) = session.select("55")
    assert status.ok
    (wrong,) = session.move("5")
    assert isinstance(wrong, ms.TryJudged) and not wrong.accepted and not session.finished
    right, over = session.move("A")
    assert isinstance(right, ms.TryJudged) and right.accepted and right.win_chance == 1.0
    assert over == ms.MistakesOver(completed=True) and session.finished
    (moment,) = MistakeStore(store).for_game(game_id)
    assert moment.solved and moment.tries == 2


def test_bad_text_is_not_a_move_and_records_nothing(store: Store) -> None:
    game_id = _blunder_game(store)
    session = ms.MistakesSession.open(store, game_id)
    assert session is not None
    session.start()
    for text in ("zz", "pass", "99"):  # not cards; we lead so no pass; cards we do not hold
        (event,) = session.move(text)
        assert isinstance(event, ms.NotAMove), text
    assert event.reason.render("en") and event.reason.render("ru") != event.reason.render("en")
    (moment,) = MistakeStore(store).for_game(game_id)
    assert moment.tries == 0 and not session.finished


def test_show_then_stop_and_no_game(store: Store) -> None:
    game_id = _blunder_game(store)
    session = ms.MistakesSession.open(store, game_id)
    assert session is not None
    session.start()
    better, over = session.show()
    assert isinstance(better, ms.BetterShown) and better.best in ("55", "A") and better.best_chance == 1.0
    assert over == ms.MistakesOver(completed=True)
    with pytest.raises(ValueError):
        session.move("A")
    again = ms.MistakesSession.open(store, game_id)
    assert again is not None
    again.start()
    assert again.stop() == [ms.MistakesOver(completed=False)] and again.stop() == []
    assert ms.MistakesSession.open(store, 424242) is None
