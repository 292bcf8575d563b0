"""Puzzles from your own games in the browser's JSON: listed, started, counted (issue 21)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.puzzles.test_personal import _finish
from tests.web.browser import needs_browser, ready
from tutor.store import Store


def test_a_missed_win_is_listed_started_and_solved_through_the_api(client: Any, home: Path) -> None:
    assert client.get("/api/puzzle/mine").json() == {"puzzles": []}
    assert client.post("/api/puzzle/start", json={"kind": "mine"}).status_code == 404
    with Store.open(home / "ddz.sqlite3") as store:
        _finish(store, "5")  # a single led into the one-card landlord: a missed proven win
    listed = client.get("/api/puzzle/mine").json()["puzzles"]
    assert len(listed) == 1 and listed[0]["id"].startswith("my-") and listed[0]["last"] is None
    assert listed[0]["themes"] == []  # the themes name the idea: only once solved
    data = client.post("/api/puzzle/start", json={"kind": "mine"}).json()
    assert data["puzzle"]["id"] == listed[0]["id"] and data["mine"] == 1
    wrong = client.post("/api/puzzle/move", json={"rev": data["rev"], "cards": "5"}).json()
    assert any(e["type"] == "wrong" for e in wrong["events"])
    right = client.post("/api/puzzle/move", json={"rev": wrong["rev"], "cards": "55"}).json()
    assert any(e["type"] == "correct" for e in right["events"])
    assert client.get("/api/puzzle/mine").json()["puzzles"][0]["last"] in ("failed", "unfinished", None)
    started = client.post("/api/puzzle/start", json={"kind": "mine", "id": listed[0]["id"]})
    assert started.status_code == 200 and started.json()["puzzle"]["id"] == listed[0]["id"]


def test_each_kind_of_moment_is_labelled_in_the_list_and_the_library(client: Any, home: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, sixth pass: the partner's missed win and a win missed with two of five winning plays say so."""
    from tests.puzzles.test_personal import _finish_game
    from tutor.puzzles import personal

    monkeypatch.setattr(personal, "OPPONENT_TURNS", False)  # the opponents' moments: their own test

    with Store.open(home / "ddz.sqlite3") as store:
        _finish_game(store, "F:3689Q L:59Q F:6J", "9")  # our only move found, then the partner's losing pass
        _finish_game(store, "F:44889 L:9QA F:46", "4")  # our 4 loses: 44 and 88 win
    listed = {p["kind"]: p for p in client.get("/api/puzzle/mine").json()["puzzles"]}
    assert sorted(listed) == ["only_move", "partner", "several"]
    assert listed["partner"]["moment"].endswith("your partner's turn 1: your side could have won here")
    assert listed["several"]["moment"].endswith("2 of 5 plays win")
    assert (listed["several"]["winning_plays"], listed["several"]["plays"]) == (2, 5)
    goal = listed["several"]["goal"]  # said with the goal while solving, too — once, not twice
    assert "2 of 5 first plays win" in goal and "a win you missed" in goal and "2 of 5 plays win" not in goal
    rows = [r for r in client.get("/api/puzzle/library").json()["puzzles"] if r["mine"]]
    assert sum("your partner's turn" in r["status_text"] for r in rows) == 1


def test_a_bigger_win_let_go_is_labelled_and_solved_through_the_api(client: Any, home: Path) -> None:
    """Issue 30, eighth pass: the trio with the K won, the bomb first would have doubled the stake."""
    from tests.puzzles.test_personal import _finish_game

    with Store.open(home / "ddz.sqlite3") as store:
        _finish_game(store, "F:3333K L:A F:2", "333K")
    (listed,) = client.get("/api/puzzle/mine").json()["puzzles"]
    assert (listed["kind"], listed["bombs"], listed["winning_plays"], listed["plays"]) == ("stake", 1, 1, 6)
    assert listed["moment"].endswith("a bigger win you let go — one more bomb or rocket (×2) was proven")
    assert "with one more bomb or rocket played (the stake ×2)" in listed["goal"]
    rows = [r for r in client.get("/api/puzzle/library").json()["puzzles"] if r["mine"]]
    assert len(rows) == 1 and "a bigger win you let go" in rows[0]["status_text"]
    data = client.post("/api/puzzle/start", json={"kind": "mine"}).json()
    wrong = client.post("/api/puzzle/move", json={"rev": data["rev"], "cards": "333K"}).json()
    (said,) = [e for e in wrong["events"] if e["type"] == "wrong"]  # the win kept, the stake not: refused
    assert said["text"].startswith("That still wins, but the stake")
    right = client.post("/api/puzzle/move", json={"rev": wrong["rev"], "cards": "3333"}).json()
    assert any(e["type"] == "correct" for e in right["events"])


@needs_browser
def test_the_library_lists_a_personal_puzzle_first_on_a_phone(page: Any, server: str, context: Any) -> None:
    """390×844: the learner's own puzzle (a stored game's missed win) heads the library, marked; it opens."""
    from playwright.sync_api import expect

    with Store.open(context.store_path) as store:
        _finish(store, "5")
    page.goto(f"{server}/puzzle")
    ready(page)
    page.locator("#puzzle-library").click()
    ready(page)
    first = page.locator("#puzzle .library-row").first
    expect(first.locator(".mine")).to_have_text("from your games")
    box = first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5
    first.get_by_role("button", name="Open").click()
    ready(page)
    expect(page.locator("#puzzle h2")).to_have_text(re.compile(r"^Puzzle my-[0-9a-f]{6}$"))
    expect(page.locator("#puzzle-hand").get_by_role("button")).to_have_count(3)  # the real position: 5 5 A
