"""Whole coached four-player games through GameSession (RULES §12.4): each level, and rob the landlord.

One game each on the tiny coach budget (tests/conftest.py) (the flow, the store and the final card are what is checked;
the coach's figures for two decks are capped by ``within_rules``, tested here as well).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sessions.test_game import _follow_hints
from tutor.coach.evaluation import DEFAULT_BUDGET, MANY_DECKS_CAP, within_rules
from tutor.engine.rules import FOUR, FOUR_ROB, STANDARD
from tutor.sessions.events import FinalCard, HintShown, Played, seat_key
from tutor.sessions.game import GameSession
from tutor.store import Store
from tutor.store.games import GameStore


@pytest.mark.parametrize(("level", "rules"), [("easy", FOUR), ("medium", FOUR), ("hard", FOUR), ("easy", FOUR_ROB)])
def test_rules_12_4_a_whole_coached_four_player_game(level: str, rules: object, tmp_path: Path, tiny_coach: None) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.new(7, level, True, games, rules=rules)  # type: ignore[arg-type]
        events = _follow_hints(session)
        assert session.view().players == 4
        assert any(isinstance(e, HintShown) for e in events)
        seats = {e.seat for e in events if isinstance(e, Played)}
        assert seats == {0, 1, 2, 3} or session.final is not None
        (final,) = [e for e in events if isinstance(e, FinalCard)]
        assert len(final.deltas) == 4 and sum(final.deltas) == 0
        farmers = [d for s, d in enumerate(final.deltas) if s != final.landlord]
        assert final.deltas[final.landlord] == -3 * farmers[0] and len(set(farmers)) == 1  # share 3
        (row,) = games.history()
        assert row.rules["players"] == 4 and row.rules["decks"] == 2 and row.rules["hand_size"] == 25
        assert (row.rules.get("auction") == "rob") == (rules is FOUR_ROB)


def test_the_coach_budget_is_capped_for_two_decks_only() -> None:
    assert within_rules(DEFAULT_BUDGET, STANDARD) is DEFAULT_BUDGET
    capped = within_rules(DEFAULT_BUDGET, FOUR)
    assert capped.max_samples == MANY_DECKS_CAP.max_samples and capped.policy == "medium"


def test_four_seats_are_named_right_across_left() -> None:
    assert [seat_key(s, 4) for s in range(4)] == ["play.seat_0", "play.seat_1", "four.seat_2", "four.seat_3"]
    assert [seat_key(s, 3) for s in range(3)] == ["play.seat_0", "play.seat_1", "play.seat_2"]
