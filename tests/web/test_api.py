"""The web API over the sessions: safety (origin, 4xx that change nothing), two tabs, a whole game."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import BASE, FOREIGN_HEADERS, snapshot

DEAL = 42


@pytest.fixture(autouse=True)
def _small_coach(small_coach: None) -> None:
    """The API around the coach is tested here, not its judgement: a small budget (tests/conftest.py)."""


def new_game(client: Any, deal: int = DEAL, level: str = "easy") -> dict[str, Any]:
    answer = client.post("/api/game/new", json={"deal": deal, "level": level})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def to_play(client: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Bid the suggested bid (or pass) until the play starts."""
    while data["game"]["waiting"] == "bid":
        answer = client.post("/api/game/bid", json={"rev": data["rev"], "bid": data["game"]["bids"]["suggested"]})
        assert answer.status_code == 200, answer.text
        data = answer.json()
    return data


@pytest.fixture(scope="module")
def _one_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path, dict[str, Any]]]:
    """One app on a store of its own for the tests of refused requests: ``(client, home, the game in play)``."""
    from starlette.testclient import TestClient

    from tutor.web.app import create_app
    from tutor.web.context import Context

    home = tmp_path_factory.mktemp("api-refusals")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = create_app(Context(store_path=home / "ddz.sqlite3"))
        with TestClient(app, base_url=BASE, headers={"origin": BASE}) as test_client:
            yield test_client, home, {}


@pytest.fixture()
def playing(_one_app: tuple[Any, Path, dict[str, Any]]) -> tuple[Any, Path, dict[str, Any]]:
    """A game in play on the shared app: started by the first test that asks (under its small coach), then
    shared — a refused request changes nothing (each test checks that), so the next one finds the same table
    (a game per test cost most of this file's CPU: 52 games)."""
    client, _, game = _one_app
    if not game:
        game.update(to_play(client, new_game(client)))
    return _one_app


@pytest.mark.parametrize("headers", FOREIGN_HEADERS)
def test_requests_from_another_origin_are_refused_and_change_nothing(
        playing: tuple[Any, Path, dict[str, Any]], headers: dict[str, str]) -> None:
    client, home, data = playing
    before = snapshot(home)
    answer = client.post("/api/game/hint", json={"rev": data["rev"]}, headers=headers)
    assert answer.status_code == 403 and "refused" in answer.json()["error"].lower()
    assert client.get("/api/game", headers=headers).status_code == 403
    assert snapshot(home) == before


BAD_BODIES = [b"{", b"[1, 2]", b'"text"', b"\xff\xfe", b'{"rev": "x", "cards": 5}', b'{"rev": 1, "cards": "' + b"3" * 500 + b'"}']


@pytest.mark.parametrize("path", ["/api/game/play", "/api/game/bid", "/api/game/select", "/api/game/undo",
                                  "/api/game/new", "/api/puzzle/start", "/api/lesson/start", "/api/settings"])
@pytest.mark.parametrize("body", BAD_BODIES)
def test_malformed_requests_get_4xx_and_change_nothing(playing: tuple[Any, Path, dict[str, Any]], path: str,
                                                      body: bytes) -> None:
    client, home, _ = playing
    before = snapshot(home)
    answer = client.post(path, content=body, headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, (path, body, answer.text)
    assert answer.json()["error"]
    assert snapshot(home) == before


def test_no_game_yet_is_404(client: Any, home: Path) -> None:
    answer = client.post("/api/game/play", json={"rev": 0, "cards": "3"})
    assert answer.status_code == 404 and "no game" in answer.json()["error"].lower()
    assert client.post("/api/puzzle/hint", json={"rev": 0}).status_code == 404
    assert client.post("/api/lesson/answer", json={"rev": 0, "answer": "3"}).status_code == 404


def test_illegal_moves_are_422_with_the_status_line_and_change_nothing(client: Any, home: Path) -> None:
    data = to_play(client, new_game(client))
    game = data["game"]
    missing = next(rank for rank in "3456789TJQKA2XD" if rank not in game["hand"])
    before = snapshot(home)
    for cards in (missing, "zz", game["hand"][0] * 5):
        answer = client.post("/api/game/play", json={"rev": data["rev"], "cards": cards})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]
    assert client.post("/api/game/bid", json={"rev": data["rev"], "bid": 2}).status_code == 409
    assert snapshot(home) == before
    assert client.get("/api/game").json()["game"]["hand"] == game["hand"]


def test_two_tabs_stay_consistent_and_a_stale_move_is_refused(client: Any, home: Path) -> None:
    data = to_play(client, new_game(client))
    first_tab = data
    second_tab = client.get("/api/game").json()
    assert second_tab["rev"] == first_tab["rev"]
    hint = client.post("/api/game/hint", json={"rev": first_tab["rev"]}).json()
    move = next(e for e in hint["events"] if e["type"] == "hint")["move"]
    played = client.post("/api/game/play", json={"rev": first_tab["rev"],
                                                 "cards": "".join(move["cards"]) if move else "pass"})
    assert played.status_code == 200, played.text
    before = snapshot(home)
    stale = client.post("/api/game/play", json={"rev": second_tab["rev"], "cards": second_tab["game"]["hand"][0]})
    assert stale.status_code == 409
    body = stale.json()
    assert "out of date" in body["error"]
    assert body["rev"] == played.json()["rev"] and body["game"]["hand"] == played.json()["game"]["hand"]
    assert snapshot(home) == before


def test_a_whole_game_with_hints_undo_and_the_same_deal_again(client: Any, home: Path, tiny_coach: None) -> None:
    """The flow of a whole game through the API: the coach on a tiny budget (its hints only have to exist)."""
    from tutor.store import Store
    from tutor.store.games import GameStore

    data = to_play(client, new_game(client))
    hand_before = data["game"]["hand"]
    undone = False
    while data["game"]["waiting"] == "play":
        hint = client.post("/api/game/hint", json={"rev": data["rev"]}).json()
        move = next(e for e in hint["events"] if e["type"] == "hint")["move"]
        if move is None:
            answer = client.post("/api/game/pass", json={"rev": data["rev"]})
        else:
            answer = client.post("/api/game/play", json={"rev": data["rev"], "cards": "".join(move["cards"])})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        if not undone and data["game"]["waiting"] == "play":
            undo = client.post("/api/game/undo", json={"rev": data["rev"]})
            assert undo.status_code == 200
            data = undo.json()
            assert data["game"]["hand"] == hand_before
            undone = True
    final = data["game"]["final"]
    assert final is not None and final["deal"] == str(DEAL) and "undos 1" in final["deal_line"]
    assert data["game"]["review"] is not None
    with Store.open(home / "ddz.sqlite3") as store:
        games = GameStore(store)
        assert [g.deal for g in games.history()] == [DEAL] and games.load_current() is None
    listed = client.get("/api/history").json()["games"]
    assert len(listed) == 1 and str(listed[0]["cells"][2]) == str(DEAL)
    steps = client.get(f"/api/history/{listed[0]['id']}").json()["steps"]
    assert str(DEAL) in steps[0]["header"] and steps[0]["action"] is None
    assert all(len(seat["cards"]) == 17 for seat in steps[0]["table"]["seats"])
    assert steps[0]["table"]["hand"] == steps[0]["table"]["seats"][0]["cards"]
    assert steps[-1]["action"] and any(not seat["cards"] for seat in steps[-1]["table"]["seats"])
    acted = [seat for seat in steps[-1]["table"]["seats"] if seat["last"]]
    assert len(acted) == 1 and acted[0]["last"]["kind"] in ("play", "pass")  # the step's move, in its seat
    assert client.get("/api/history/999").status_code == 404
    assert client.get("/api/history/abc").status_code == 400
    again = client.post("/api/game/new", json={"same": True, "rev": data["rev"]})
    assert again.status_code == 200
    assert again.json()["game"]["deal"] == str(DEAL) and again.json()["game"]["scored"] is False


def test_the_terminal_and_the_browser_share_the_game_in_progress(client: Any, home: Path) -> None:
    """One game, one window at a time: the terminal is told it is open here, then resumes it when let go."""
    from tutor.sessions.game import GameSession
    from tutor.store import GameBusyError, Store
    from tutor.store.games import GameStore

    data = to_play(client, new_game(client, deal=7))
    with Store.open(home / "ddz.sqlite3") as store:
        games = GameStore(store)
        [open_game] = games.unfinished()
        assert open_game.busy and open_game.deal == "7"
        with pytest.raises(GameBusyError):
            games.claim(open_game.id)
    holder = client.app.app.state.context.game
    holder.executor.submit(holder.slot.session.close).result()  # the server lets go (as when it stops)
    holder.slot.session = None
    with Store.open(home / "ddz.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.restore(games.claim(games.unfinished()[0].id) or {}, games)
        session.start()
        assert session.deal == 7 and "".join(data["game"]["hand"]) == str(session.view().hand)
        session.play(session.legal_moves()[0])  # the terminal plays on, then quits
        games.release()
    after = client.get("/api/game").json()  # the browser takes the game up again
    assert after["game"]["deal"] == "7"
    assert len(after["game"]["hand"]) < len(data["game"]["hand"]) or after["game"]["waiting"] == "over"


def test_a_new_deal_never_drops_a_game_in_progress_silently(client: Any, home: Path) -> None:
    data = to_play(client, new_game(client, deal=11))
    before = snapshot(home)
    refused = client.post("/api/game/new", json={"deal": 12})
    assert refused.status_code == 409 and refused.json()["in_progress"]
    assert snapshot(home) == before
    answer = client.post("/api/game/new", json={"deal": 12, "abandon": True, "rev": data["rev"]})
    assert answer.status_code == 200 and answer.json()["game"]["deal"] == "12"
    from tutor.store import Store
    from tutor.store.games import GameStore

    with Store.open(home / "ddz.sqlite3") as store:
        [abandoned] = GameStore(store).history()
        assert abandoned.deal == 11 and abandoned.abandoned and not abandoned.won


def test_the_table_speaks_the_language_setting_and_shows_the_counter(client: Any) -> None:
    assert client.post("/api/settings", json={"lang": "ru", "counter": True}).status_code == 200
    data = to_play(client, new_game(client))
    assert data["game"]["counter"] is not None and data["game"]["seats"][0]["name"] == "Вы"


def test_a_puzzle_is_solved_through_the_api(client: Any, home: Path) -> None:
    data = client.post("/api/puzzle/start", json={"kind": "daily"}).json()
    puzzle = data["puzzle"]
    assert puzzle["daily"] and puzzle["goal"]
    for _ in range(20):
        if data["puzzle"]["finished"]:
            break
        for _level in range(2):
            data = client.post("/api/puzzle/hint", json={"rev": data["rev"]}).json()
        hint = next(e for e in data["events"] if e["type"] == "hint")
        body: dict[str, Any] = {"rev": data["rev"]}
        if hint["move"] is None:
            answer = client.post("/api/puzzle/pass", json=body)
        else:
            answer = client.post("/api/puzzle/move", json={**body, "cards": "".join(hint["move"]["cards"])})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        if any(e["type"] == "options" for e in data["events"]):
            data = client.post("/api/puzzle/move", json={"rev": data["rev"], "n": 1}).json()
    assert data["puzzle"]["finished"]
    assert client.post("/api/puzzle/hint", json={"rev": data["rev"]}).status_code == 409
    with_store = snapshot(home)
    assert with_store.get("puzzle_attempts") or any("attempt" in name for name in with_store)


def test_a_lesson_step_is_passed_through_the_api(client: Any, home: Path) -> None:
    course = client.get("/api/lessons").json()["course"]
    assert course and course[0]["stars"] is None
    assert "cards" in [row["id"] for row in course]
    data = client.post("/api/lesson/start", json={"id": "cards"}).json()
    assert data["events"][0]["type"] == "started"
    while not any(e["type"] == "task" for e in data["events"]):
        data = client.post("/api/lesson/next", json={"rev": data["rev"]}).json()
    task = next(e for e in data["events"] if e["type"] == "task")
    solution = client.app.app.state.context.lesson.slot.session.solution()  # the step's proven answer
    assert task["active"] and task["felt"]["seats"][0]["to_move"]
    other = next(rank for rank in task["felt"]["hand"] if rank != solution)
    wrong = client.post("/api/lesson/answer", json={"rev": data["rev"], "answer": other}).json()
    assert any(e["type"] == "answered" and not e["ok"] for e in wrong["events"])
    right = client.post("/api/lesson/answer", json={"rev": wrong["rev"], "answer": solution}).json()
    assert any(e["type"] == "answered" and e["ok"] for e in right["events"]), json.dumps(right)[:400]


def test_a_bot_thinking_does_not_hold_up_other_requests(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The right-hand bot waits (inside a play request) until a settings request has been answered."""
    import threading

    import tutor.bots

    answered = threading.Event()
    armed = threading.Event()
    order: list[str] = []
    make_bot = tutor.bots.make_bot

    class Waiting:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def bid(self, view: Any) -> int:
            return int(self.bot.bid(view))

        def play(self, view: Any) -> Any:
            if armed.is_set():
                answered.wait(timeout=120)
                order.append("bot moved")
            return self.bot.play(view)

    monkeypatch.setattr(tutor.bots, "make_bot", lambda level, seed: Waiting(make_bot(level, seed)))
    data = to_play(client, new_game(client))
    hint = client.post("/api/game/hint", json={"rev": data["rev"]}).json()
    move = next(e for e in hint["events"] if e["type"] == "hint")["move"]
    result: dict[str, Any] = {}
    body = {"rev": data["rev"], "cards": "".join(move["cards"]) if move else ""}
    playing = threading.Thread(target=lambda: result.update(
        answer=client.post("/api/game/play" if move else "/api/game/pass", json=body)))
    armed.set()
    playing.start()
    assert client.get("/api/settings").status_code == 200
    assert client.get("/api/lessons").status_code == 200
    order.append("others answered")
    answered.set()
    playing.join()
    assert result["answer"].status_code == 200
    assert order[:2] == ["others answered", "bot moved"]
