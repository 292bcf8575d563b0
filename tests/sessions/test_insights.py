"""``ddz insights`` (issue 29): the reasons that cost the learner most over their stored games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.sessions.insights import insight_phrases, insights
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore, StoredMistake


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    return tmp_path


def _game(store: Store, deal: int, moments: list[tuple[int, str, float]] | None) -> int:
    """A finished game and its stored moments ((move number, reason code, loss)); None: not analysed."""
    game_id = GameStore(store).finish(FinishedGame(deal=deal, level="easy", role="farmer", won=False, bid=1,
                                                   multiplier=1, cost=10, delta=-10, scored=True, hints=0,
                                                   undos=0, record={"deal_number": deal}))  # fmt: skip
    if moments is not None:
        MistakeStore(store).save_analysis(game_id, [
            StoredMistake(game_id, n, "2", "3", 0.4, 0.4 + loss, loss, "inaccuracy", {"code": code, "values": {}})
            for n, code, loss in moments
        ])  # fmt: skip
    return game_id


def test_a_fresh_store_says_nothing_yet_in_one_line(home: Path) -> None:
    out = CliRunner().invoke(main, ["insights"])
    assert out.exit_code == 0 and out.stdout.strip().splitlines() == [
        "Nothing yet: no finished game is stored (play one with ddz play)."]
    data = json.loads(CliRunner().invoke(main, ["insights", "--json"]).stdout)
    assert data == {"games": 0, "unanalysed_games": 0, "patterns": []}


def test_the_costliest_reasons_with_counts_points_trend_and_moments(home: Path) -> None:
    with Store.open() as store:
        first = _game(store, 1, [(3, "spends_high_cards_early", 0.12), (7, "overkill", 0.30)])
        _game(store, 2, [])  # analysed, nothing flagged
        third = _game(store, 3, [(2, "spends_high_cards_early", 0.15), (5, "spends_high_cards_early", 0.11)])
        _game(store, 4, None)  # not analysed
        found = insights(store, games=10)
    assert (found.games, found.unanalysed) == (4, 1)
    early, over = found.habits
    assert (early.code, early.count, early.points, early.trend) == ("spends_high_cards_early", 3, 38, "more")
    assert (over.code, over.count, over.points, over.trend) == ("overkill", 1, 30, "less")
    assert [(m.game_id, m.number) for m in early.worst()] == [(third, 2), (first, 3), (third, 5)]
    lines = [p.render("en") for p in insight_phrases(found)]
    assert lines[0] == "Your costliest habits over your last 4 games:"
    assert lines[1] == (f"spent high cards early: 3 times, 38 points lost in all (more often lately) — "
                        f"game {third} move 2, game {first} move 3, game {third} move 5")
    assert lines[2].startswith("beat higher than needed: 1 time, 30 points")
    assert lines[-1].startswith("1 game was not analysed")
    ru = [p.render("ru") for p in insight_phrases(found)]
    assert ru[1].startswith("рано потратил старшие карты: 3 раза, всего потеряно 38 п. п. (в последнее время чаще)")
    data = json.loads(CliRunner().invoke(main, ["insights", "--games", "2", "--json"]).stdout)
    assert data["games"] == 2 and [p["code"] for p in data["patterns"]] == ["spends_high_cards_early"]
    assert data["patterns"][0]["moments"][0] == {"game": third, "move": 2, "loss": 0.15}


def test_games_analysed_with_nothing_flagged_are_nothing_yet(home: Path) -> None:
    with Store.open() as store:
        _game(store, 1, [])
        assert [p.key for p in insight_phrases(insights(store))] == ["insights.nothing_yet"]
