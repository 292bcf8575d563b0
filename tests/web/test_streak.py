"""The puzzle streak in the web table: through the API, and in Chromium on a 390×844 phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.browser import card_name, needs_browser, ready, tap
from tests.web.conftest import snapshot


def _wrong_single(position: Any, right: Any) -> Any:
    return next((m for m in position.legal_moves() if m is not None and len(m.text) == 1 and m != right), None)


def _wrong_play(position: Any, right: Any) -> Any:
    """A losing play with one reading, else a losing pass (the puzzle's answer is its only winning first move)."""
    legal = [m for m in position.legal_moves() if m is not None]
    return next((m for m in legal if m != right and sum(o.cards == m.cards for o in legal) == 1), None)


def test_a_streak_through_the_api_ends_at_the_first_wrong_move(client: Any, home: Path) -> None:
    from tutor.puzzles.library import load_library
    from tutor.puzzles.model import find_move

    data = client.post("/api/puzzle/start", json={"kind": "streak"}).json()
    run = data["streak_run"]["run"]
    assert run == {"text": "Streak · puzzle 1 · solved: 0", "solved": 0, "over": False}
    assert data["streak_run"]["best"] == "Best streak: 0"
    assert data["events"][0]["type"] == "streak_step"
    assert data["events"][0]["text"].startswith("Puzzle 1 · rating ")
    assert not data["puzzle"]["daily"] and not data["puzzle"]["finished"]
    # no hints in a streak: nothing is given (and nothing ends)
    hinted = client.post("/api/puzzle/hint", json={"rev": data["rev"]}).json()
    assert not [e for e in hinted["events"] if e["type"] == "hint"] and not hinted["puzzle"]["finished"]
    puzzle = load_library().get(data["puzzle"]["id"])
    wrong = _wrong_play(puzzle.position, find_move(puzzle.position, puzzle.first_move))
    if wrong is None:  # only the answer can be played: passing is the mistake
        answer = client.post("/api/puzzle/pass", json={"rev": hinted["rev"]})
    else:
        answer = client.post("/api/puzzle/move", json={"rev": hinted["rev"], "cards": wrong.text})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    kinds = [e["type"] for e in data["events"]]
    assert "wrong" in kinds and kinds[-1] == "streak_over"
    assert data["events"][-1]["text"] == "Streak over: 0 puzzles solved in a row. Best streak: 0."
    assert data["puzzle"]["finished"] and data["streak_run"]["run"]["over"]
    assert client.post("/api/puzzle/pass", json={"rev": data["rev"]}).status_code == 409
    assert snapshot(home)["puzzle_streak"][0][1:4] == (0, 1, 0)  # (learner, best, runs, last, …)
    assert "puzzle_attempts" not in snapshot(home)  # a streak is unrated


@needs_browser
def test_a_streak_on_a_phone_solves_one_puzzle_then_ends_at_a_wrong_move(page: Any, server: str,
                                                                         context: Any) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server}/puzzle")
    ready(page)
    page.get_by_role("button", name="Streak", exact=True).click()
    ready(page)
    board = page.locator("#puzzle")
    expect(board.locator(".streak-run")).to_have_text("Streak · puzzle 1 · solved: 0")
    expect(board.get_by_role("button", name="Hint")).to_be_disabled()
    run = context.puzzle.slot.session
    for _turn in range(12):  # play the first puzzle's answer, card by card, as a finger would
        if run.solved:
            break
        move = run.attempt.expected_move()
        if move is None:
            board.get_by_role("button", name="Pass").click()
        else:
            hand = page.locator("#puzzle-hand")
            used: dict[str, int] = {}
            for rank in move.text:
                name = card_name(rank)
                tap(hand.get_by_role("button", name=name, exact=True).nth(used.get(name, 0)))
                used[name] = used.get(name, 0) + 1
                ready(page)
            board.get_by_role("button", name="Play", exact=True).click()
        ready(page)
        options = board.locator(".options button")
        if options.count():
            pending = run.current._pending
            options.nth(pending.index(move)).click()
            ready(page)
    expect(board.locator(".streak-run")).to_have_text("Streak · puzzle 2 · solved: 1")
    # the run's line, the table and the buttons are on the phone's screen
    for selector in ("#puzzle .streak-run", "#puzzle-hand", "#puzzle .controls"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= 390.5, selector
    right = run.attempt.expected_move()
    wrong = _wrong_single(run.attempt.position, right)
    if wrong is None:
        board.get_by_role("button", name="Solution").click()  # ends the run too
    else:
        tap(page.locator("#puzzle-hand").get_by_role("button", name=card_name(wrong.text), exact=True).first)
        ready(page)
        board.get_by_role("button", name="Play", exact=True).click()
    ready(page)
    expect(board).to_contain_text("Streak over: 1 puzzle solved in a row.")
    expect(board).to_contain_text("A new best streak: 1!")
    play = board.get_by_role("button", name="Play", exact=True)  # the run is over: nothing more to play
    assert play.count() == 0 or play.is_disabled()  # (the solution's table takes the position's place)
    expect(page.locator("#puzzle-best-streak")).to_have_text("Best streak: 1")
