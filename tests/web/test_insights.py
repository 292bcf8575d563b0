"""The insights page's API (issue 29): the data of ``ddz insights --json``, worded in both languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tutor.store import Store
from tutor.store.mistakes import MistakeStore, SmallCost, StoredMistake


def store_habit_games(home: Path) -> list[int]:
    """Two finished games: a 2 played into a possible bomb, flagged once and twice a small cost."""
    from tests.web.test_mistakes import store_blunder_game

    ids = []
    for deal in (1, 2):
        game_id = store_blunder_game(home)  # a real game record: its replay opens
        with Store.open(home / "ddz.sqlite3") as store:
            flagged = [StoredMistake(game_id, 4, "2", "5", 0.3, 0.45, 0.15, "inaccuracy",
                                     {"code": "plays_into_bomb", "values": {}})] if deal == 1 else []  # fmt: skip
            MistakeStore(store).save_analysis(game_id, flagged, [SmallCost(game_id, 2, "2", 0.06, 0.02, "plays_into_bomb")])
            ids.append(game_id)
    return ids


def test_a_fresh_store_and_bad_input(client: Any) -> None:
    data = client.get("/api/insights").json()
    assert data["patterns"] == [] and data["games"] == 0
    assert data["summary"] == "Nothing yet: no finished game is stored (play one with ddz play)."
    bad = client.get("/api/insights?games=lots")
    assert bad.status_code == 400 and bad.json()["error"] == "Not a number of games (1–10000): 'lots'."


def test_the_habits_with_their_words_and_moments(client: Any, home: Path) -> None:
    first, second = store_habit_games(home)
    data = client.get("/api/insights").json()
    (habit,) = data["patterns"]
    assert (habit["code"], habit["count"], habit["small_costs"], habit["points_lost"]) == ("plays_into_bomb", 3, 2, 27)
    assert habit["name"] == "played into a possible bomb"
    assert habit["text"].startswith("3 times at 6–15 points each, 27 points of win chance lost in all")
    assert [(m["game"], m["move"], m["flagged"], m["text"]) for m in habit["moments"]] == [
        (first, 4, True, f"game {first} move 4"), (first, 2, False, f"game {first} move 2"),
        (second, 2, False, f"game {second} move 2")]
    ru = client.get("/api/insights?lang=ru").json()
    assert ru["title"] == "Ваши привычки по всем партиям" and ru["patterns"][0]["name"] == "сыграл под возможную бомбу"
    assert ru["patterns"][0]["text"].startswith("3 раза, по 6–15 п. п.")
    assert client.get("/api/insights?games=1").json()["patterns"][0]["count"] == 1  # the newest game only
