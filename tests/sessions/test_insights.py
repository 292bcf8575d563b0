"""``ddz insights`` (issue 29): the reasons that cost the learner most over their stored games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.coach.advice import Verdict
from tutor.coach.mistakes import Finding
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD
from tutor.sessions.insights import insight_phrases, insights
from tutor.sessions.mistakes import save_game_verdicts
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
    assert lines[1] == (f"spent high cards early: 3 times at 11–15 points each, 38 points lost in all (more often "
                        f"lately) — game {third} move 2, game {first} move 3, game {third} move 5")
    assert lines[2].startswith("beat higher than needed: 1 time at 30 points each, 30 points")
    assert lines[-1].startswith("1 game was not analysed")
    ru = [p.render("ru") for p in insight_phrases(found)]
    assert ru[1].startswith("рано потратил старшие карты: 3 раза, по 11–15 п. п., всего потеряно 38 п. п. "
                            "(в последнее время чаще)")
    data = json.loads(CliRunner().invoke(main, ["insights", "--games", "2", "--json"]).stdout)
    assert data["games"] == 2 and [p["code"] for p in data["patterns"]] == ["spends_high_cards_early"]
    assert data["patterns"][0]["moments"][0] == {"game": third, "move": 2, "loss": 0.15, "flagged": True}


def test_games_analysed_with_nothing_flagged_are_nothing_yet(home: Path) -> None:
    with Store.open() as store:
        _game(store, 1, [])
        assert [p.key for p in insight_phrases(insights(store))] == ["insights.nothing_yet"]


def _verdict(move: str, loss: float, noise: float, level: str, code: str | None) -> Verdict:
    played = Combo.parse(move)
    why = None if code is None else Finding(code, {"cards": move})
    return Verdict(played, 0.5 - loss, Combo.parse("3"), 0.5, loss, noise, level, why)


def test_small_costs_are_stored_with_the_game_and_become_a_habit(home: Path) -> None:
    """A 2 led early five times at 4–10 points each (never flagged) is a habit across games."""
    early = "spends_high_cards_early"
    with Store.open() as store:
        ids = []
        for deal, losses in ((1, [0.04]), (2, [0.06]), (3, [0.05, 0.10]), (4, [0.08])):
            game_id = _game(store, deal, None)
            verdicts = [(i, i + 1, _verdict("2", loss, 0.015, "good", early)) for i, loss in enumerate(losses)]
            verdicts.append((9, 9, _verdict("4", 0.02, 0.02, "good", "overkill")))  # within its noise: no cost
            verdicts.append((10, 10, _verdict("5", 0.05, 0.01, "good", None)))  # no reason: nothing to count
            save_game_verdicts(store, game_id, verdicts, rules=STANDARD)  # the session layer's end of a coached game
            ids.append(game_id)
        assert [c.number for c in MistakeStore(store).costs_for_game(ids[2])] == [1, 2]
        assert MistakeStore(store).for_game(ids[0]) == []  # nothing flagged: no moment to replay
        found = insights(store)
    (habit,) = found.habits
    assert (habit.code, habit.count, habit.small, habit.points, habit.each) == (early, 5, 5, 33, (4, 10))
    assert (habit.older, habit.newer, habit.trend) == (2, 3, "more")
    lines = [p.render("en") for p in insight_phrases(found)]
    assert lines[1].startswith("spent high cards early: 5 times at 4–10 points each, 33 points lost in all")
    assert lines[2].strip().startswith("(5 of them under the inaccuracy line")
    assert "из них 5 — ниже порога неточности" in insight_phrases(found)[2].render("ru")
    data = json.loads(CliRunner().invoke(main, ["insights", "--json"]).stdout)
    (pattern,) = data["patterns"]
    assert pattern["small_costs"] == 5 and pattern["points_each"] == [4, 10]
    assert pattern["moments"][0] == {"game": ids[2], "move": 2, "loss": 0.1, "flagged": False}
