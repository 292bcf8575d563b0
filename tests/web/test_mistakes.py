"""Learn from your mistakes over the web API: a thin adapter over the mistakes session (tries judged and stored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.coach.positions import puzzle_game
from tests.web.conftest import snapshot
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore


def store_blunder_game(home: Path) -> int:
    """A stored game: we (a farmer) lead a single 5 into the one-card landlord, who goes out."""
    game = puzzle_game("F:55A L:9 F:3")
    game.play(next(m for m in game.legal_moves() if m.text == "5"))
    game.play(next(m for m in game.legal_moves() if m.text == "9"))
    score = game.score()
    with Store.open(home / "ddz.sqlite3") as store:
        return GameStore(store).finish(FinishedGame(
            deal=3, level="hard", role="farmer", won=False, bid=1, multiplier=score.multiplier, cost=score.cost,
            delta=score.deltas[0], scored=False, hints=0, undos=0, record=game.record().to_dict()))  # fmt: skip


@pytest.fixture()
def started(client: Any, home: Path) -> tuple[int, dict[str, Any]]:
    game_id = store_blunder_game(home)
    answer = client.post("/api/mistakes/start", json={"game_id": game_id})
    assert answer.status_code == 200, answer.text
    return game_id, answer.json()


def test_a_moment_is_the_table_and_a_good_move_is_accepted_and_stored(
        client: Any, home: Path, started: tuple[int, dict[str, Any]]) -> None:
    game_id, data = started
    moment = data["moment"]
    assert moment["table"]["hand"] == ["5", "5", "A"] and not moment["can_pass"]
    assert "you played 5" in moment["text"]
    status = client.post("/api/mistakes/select", json={"rev": data["rev"], "cards": "55"}).json()
    assert status["events"][0]["type"] == "status" and status["events"][0]["ok"] and status["rev"] == data["rev"]
    wrong = client.post("/api/mistakes/move", json={"rev": data["rev"], "cards": "5"}).json()
    assert [e["type"] for e in wrong["events"]] == ["judged"] and not wrong["events"][0]["accepted"]
    assert wrong["moment"] is not None
    right = client.post("/api/mistakes/move", json={"rev": wrong["rev"], "cards": "A"})
    assert right.status_code == 200, right.text
    events = right.json()["events"]
    assert [e["type"] for e in events] == ["judged", "over"] and events[0]["accepted"]
    assert "Good: A wins 100%" in events[0]["text"] and right.json()["finished"]
    with Store.open(home / "ddz.sqlite3") as store:
        (row,) = MistakeStore(store).for_game(game_id)
    assert row.solved and row.tries == 2


def test_russian_words_come_from_the_catalogues(client: Any, started: tuple[int, dict[str, Any]]) -> None:
    _, data = started
    answer = client.post("/api/mistakes/show?lang=ru", json={"rev": data["rev"]}).json()
    assert answer["events"][0]["text"].startswith("Ход лучше")
    strings = client.get("/api/strings?lang=ru").json()["strings"]
    assert strings["learn_mistakes"] == "Работа над ошибками"


@pytest.mark.parametrize("path, body, status", [
    ("/api/mistakes/start", {"game_id": "x"}, 400),
    ("/api/mistakes/start", {"game_id": 424242}, 404),
    ("/api/mistakes/move", {"rev": 1, "cards": "99"}, 422),   # cards we do not hold
    ("/api/mistakes/move", {"rev": 1, "cards": "zz"}, 422),   # not cards
    ("/api/mistakes/move", {"rev": 1, "cards": ""}, 400),
    ("/api/mistakes/move", {"rev": 1, "cards": 5}, 400),
    ("/api/mistakes/pass", {"rev": 1}, 422),                  # we lead: no pass
    ("/api/mistakes/move", {"rev": 0, "cards": "A"}, 409),    # a stale tab
])
def test_bad_requests_get_4xx_and_change_nothing(client: Any, home: Path, started: tuple[int, dict[str, Any]],
                                                 path: str, body: dict[str, Any], status: int) -> None:
    assert started[1]["rev"] == 1
    before = snapshot(home)
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]
    if status == 409:  # the page redraws from the moment sent back
        assert answer.json()["moment"]["index"] == 1 and answer.json()["rev"] == 1
    assert snapshot(home) == before
    assert client.get("/api/mistakes").json()["moment"]["index"] == 1


def test_nothing_in_progress_is_404(client: Any) -> None:
    assert client.post("/api/mistakes/skip", json={"rev": 0}).status_code == 404
    assert client.get("/api/mistakes").json()["moment"] is None


def test_the_bid_moment_has_a_button_per_choice_and_is_judged_by_expected_score(client: Any, home: Path) -> None:
    """Learn from your mistakes at the bid (moment 0) over the web API (issue 13; RULES §3)."""
    from tests.sessions.test_mistakes_bids import DEAL, _bid_3_game
    from tutor.coach import exercises
    from tutor.engine.rules import STANDARD
    from tutor.sessions.mistakes import save_game_verdicts

    game = _bid_3_game()
    found = exercises.find_bid(game.record())
    assert found is not None
    score = game.score()
    with Store.open(home / "ddz.sqlite3") as store:
        game_id = GameStore(store).finish(FinishedGame(
            deal=DEAL, level="medium", role="landlord", won=game.winner == 0, bid=3, multiplier=score.multiplier,
            cost=score.cost, delta=score.deltas[0], scored=False, hints=0, undos=0, record=game.record().to_dict()))  # fmt: skip
        save_game_verdicts(store, game_id, [], found.verdict, rules=STANDARD)
    data = client.post("/api/mistakes/start", json={"game_id": game_id}).json()
    moment = data["moment"]
    assert moment["kind"] == "bid" and "the auction: you chose bid 3" in moment["text"]
    assert [b["bid"] for b in moment["bids"]] == ["pass", "1", "2", "3"] and len(moment["table"]["hand"]) == 17
    wrong = client.post("/api/mistakes/move", json={"rev": data["rev"], "cards": "3"}).json()
    assert [e["type"] for e in wrong["events"]] == ["judged"] and not wrong["events"][0]["accepted"]
    best = found.verdict.best_bid
    right = client.post("/api/mistakes/move?lang=ru", json={"rev": wrong["rev"], "cards": "pass" if best == 0 else str(best)})
    events = right.json()["events"]
    assert events[0]["accepted"] and "ожидаемый счёт" in events[0]["text"] and right.json()["finished"]
