"""Whole coached games of the wildcard game (RULES §12.3) through GameSession, at the three levels and with
rob the landlord: the bots and the hints play from the engine's legal moves, the store keeps the wild rank."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.engine.deal import deal
from tutor.engine.rules import ROB_WILD, WILD, Rules
from tutor.sessions.events import FinalCard, HintShown, Played
from tests.sessions.test_game import _follow_hints
from tutor.sessions.game import GameSession
from tutor.store import Store
from tutor.store.games import GameStore


@pytest.mark.parametrize(("level", "rules", "number"), [("easy", WILD, 11), ("medium", WILD, 11), ("hard", WILD, 4),
                                                        ("easy", ROB_WILD, 42), ("medium", ROB_WILD, 42),
                                                        ("hard", ROB_WILD, 42)])
def test_rule_12_3_a_whole_coached_wildcard_game(tmp_path: Path, tiny_coach: None, light_hard_bot: None, level: str,
                                                  rules: Rules, number: int) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.new(number, level=level, games=games, rules=rules)
        events = _follow_hints(session)
        final = next(e for e in events if isinstance(e, FinalCard))
        assert final.rules.wild_rank == deal(session.deal, rules).wild_rank >= 0
        assert final.rules.auction == rules.auction and sum(final.deltas) == 0
        assert any(isinstance(e, HintShown) for e in events) and any(isinstance(e, Played) for e in events)
        row = games.history()[0]
        assert row.rules["wild"] == "random_rank" and row.rules["wild_rank"] == final.rules.wild_rank
