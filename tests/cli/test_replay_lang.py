"""A game played in English replays in Russian, every coach remark included (remarks are stored as data)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.coach import Coach
from tutor.coach.evaluation import Budget
from tutor.engine.game import Game
from tutor.i18n import set_language
from tutor.sessions.game import GameSession, Waiting
from tutor.store import Store
from tutor.store.games import GameStore


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    yield tmp_path / "ddz"
    set_language("en")


def test_replay_lang_ru_shows_every_english_game_remark_in_russian(home: Path) -> None:
    set_language("en")
    with Store.open() as store:
        store.set_setting("lang", "en")
        # A smaller coach budget than the default (8 samples, medium rollouts, exact from 14 cards): what is tested is how the
        # remarks are stored and rendered, not the verdicts; it still flags this careless game's blunder.
        game = Game(3)
        coach = Coach(True, budget=Budget(samples=8, policy="medium", exact_cards=14), rules=game.rules)
        session = GameSession(game, "easy", coach, GameStore(store))
        session.start()
        while not session.is_over:
            if session.waiting_for is Waiting.BID:
                session.bid(session.suggested_bid)
            else:
                session.play(session.legal_moves()[-1])  # careless play: the coach speaks
        game_id = session.final.game_id if session.final is not None else None
        remarks = [m.remark for m in session.coach.moments]
    assert game_id is not None and remarks
    russian = CliRunner().invoke(main, ["replay", str(game_id), "--all", "--lang", "ru"]).output
    english = CliRunner().invoke(main, ["replay", str(game_id), "--all"]).output
    flat_ru, flat_en = " ".join(russian.split()), " ".join(english.split())  # long remarks wrap at 80 columns
    for remark in remarks:
        ru, en = " ".join(remark.render("ru").split()), " ".join(remark.render("en").split())
        assert ru in flat_ru and en not in flat_ru
        assert en in flat_en
    assert "Тренер: " in russian and "Coach: " not in russian
