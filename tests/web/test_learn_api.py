"""The lesson and puzzle routes draw tables and lines from the sessions (no logic in the web layer).

A lesson step's position comes as a table (seats, roles, counts, the play to
beat, your hand); a puzzle's wrong move and its solution come as lines of
tables to step through; a failed puzzle waits in the replay queue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import snapshot


def _losing_move(client: Any) -> str:
    attempt = client.app.app.state.context.puzzle.slot.session.attempt
    move = next(m for m in attempt.legal_moves()
                if m is not None and attempt.solver.is_winning_move(attempt.position, m) is False)
    return str(move.text)


def _cards_left(table: dict[str, Any]) -> int:
    return sum(len(seat["cards"]) for seat in table["seats"])


def test_a_failed_puzzle_steps_through_its_lines_and_waits_in_the_replay_queue(client: Any, home: Path) -> None:
    data = client.post("/api/puzzle/start", json={"kind": "daily"}).json()
    puzzle = data["puzzle"]
    ident = puzzle["id"]
    assert puzzle["title"] == f"Puzzle {ident}" and puzzle["themes_line"] is None  # no idea given away
    assert data["to_replay"] == 0
    felt = puzzle["felt"]
    assert felt["seats"][0]["name"] == "You" and felt["seats"][0]["fanned"] and felt["seats"][0]["to_move"]
    assert felt["hand"] == felt["seats"][0]["cards"]

    losing = _losing_move(client)
    look = client.post("/api/puzzle/select", json={"rev": data["rev"], "cards": losing}).json()
    assert look["rev"] == data["rev"] and [(e["type"], e["ok"]) for e in look["events"]] == [("status", True)]
    assert look["puzzle"]["felt"] == felt  # nothing played, nothing judged
    wrong = client.post("/api/puzzle/move", json={"rev": data["rev"], "cards": losing}).json()
    refuted = next(e for e in wrong["events"] if e["type"] == "wrong")
    line = refuted["line"]
    # it starts where the wrong move was tried, which is still the position to solve (the move was not made)
    assert [seat["cards"] for seat in line["start"]["seats"]] == [seat["cards"] for seat in felt["seats"]]
    assert [seat["cards"] for seat in wrong["puzzle"]["felt"]["seats"]] == [seat["cards"] for seat in felt["seats"]]
    assert line["steps"][0]["who"] == "You" and len(line["steps"]) == len(refuted["moves"])
    counts = [_cards_left(line["start"])] + [_cards_left(step["table"]) for step in line["steps"]]
    for step, before, after in zip(line["steps"], counts, counts[1:]):
        assert before - after == (len(step["move"]["cards"]) if step["move"] else 0)
    assert line["steps"][-1]["table"]["over"]

    shown = client.post("/api/puzzle/solution", json={"rev": wrong["rev"]}).json()
    solution = next(e for e in shown["events"] if e["type"] == "solution")
    assert solution["line"]["steps"] and solution["line"]["steps"][-1]["table"]["over"]
    over = next(e for e in shown["events"] if e["type"] == "over")
    assert not over["solved"] and over["rating_change"].startswith("Your puzzle rating: 1500 → ")
    assert shown["puzzle"]["title"] != f"Puzzle {ident}"  # over: the title may name the idea now
    assert shown["to_replay"] == 1

    again = client.post("/api/puzzle/start", json={"kind": "replay"}).json()
    assert again["puzzle"]["id"] == ident and not again["puzzle"]["daily"]


def test_an_empty_replay_queue_is_a_404_in_the_learners_language_and_changes_nothing(client: Any,
                                                                                    home: Path) -> None:
    before = snapshot(home)
    answer = client.post("/api/puzzle/start", json={"kind": "replay"})
    assert answer.status_code == 404 and answer.json()["error"] == "No failed puzzles to replay."
    russian = client.post("/api/puzzle/start?lang=ru", json={"kind": "replay"})
    assert russian.json()["error"] == "Нет нерешённых задач для повтора."
    bad = client.post("/api/puzzle/start", json={"kind": "replay", "theme": "no-such-theme"})
    assert bad.status_code == 400 and "no-such-theme" in bad.json()["error"]
    assert snapshot(home) == before


def test_a_lesson_step_comes_as_a_table_and_its_verdict_as_the_sessions_lines(client: Any) -> None:
    data = client.post("/api/lesson/start", json={"id": "singles-pairs"}).json()
    session = client.app.app.state.context.lesson.slot.session
    for _step in range(12):
        task = next((e for e in data["events"] if e["type"] == "task"), None)
        if task is not None and "88" in str(task.get("felt", {}).get("lines")):
            break
        if session.has_task:
            data = client.post("/api/lesson/answer", json={"rev": data["rev"], "answer": session.solution()}).json()
        else:
            data = client.post("/api/lesson/next", json={"rev": data["rev"]}).json()
    assert task is not None and task["active"]
    assert task["prompt"] == "Your play: tap the cards, then Play (or Pass)"  # not the terminal's "(cards, or pass)"
    seats = {seat["seat"]: seat for seat in task["felt"]["seats"]}
    assert [seats[s]["name"] for s in (0, 1, 2)] == ["You", "Right", "Left"]
    assert seats[1]["role"] == "landlord" and seats[1]["count_text"] == "10 cards"
    assert seats[1]["last"]["cards"] == ["8", "8"] and seats[1]["last"]["to_beat"]
    assert seats[0]["to_move"] and seats[0]["fanned"] and task["felt"]["hand"] == list("4667TTQQA")
    # Raised cards get the play status line at once; a look is not an attempt and moves no revision.
    look = client.post("/api/lesson/select", json={"rev": data["rev"], "cards": "TT"}).json()
    assert look["rev"] == data["rev"] and session.run.wrong == 0
    assert [(e["type"], e["ok"]) for e in look["events"]] == [("status", True)]
    assert look["events"][0]["text"].startswith("Pair")
    odd = client.post("/api/lesson/select", json={"rev": data["rev"], "cards": "4A"}).json()["events"][0]
    assert not odd["ok"] and odd["text"]
    wrong = client.post("/api/lesson/answer", json={"rev": data["rev"], "answer": "QQ"}).json()
    answered = next(e for e in wrong["events"] if e["type"] == "answered")
    assert not answered["ok"] and answered["lines"][0] == "Not this one — try again."
    # the browser's wording: the tens as the page writes them, not the terminal's letters (issue 21)
    assert answered["lines"][1] == "QQ beats it, but 10 10 is enough and keeps the queens."
    russian = client.post("/api/lesson/answer?lang=ru", json={"rev": wrong["rev"], "answer": "QQ"}).json()
    lines = next(e for e in russian["events"] if e["type"] == "answered")["lines"]
    assert lines[:2] == ["Не то — попробуйте ещё раз.", "QQ бьёт, но хватит 10 10, а дамы останутся."]


def test_missed_lesson_tasks_come_back_in_the_browser_review(client: Any, home: Path) -> None:
    """Issue 21: a wrong answer puts the task in the spaced review; when due, /api/lesson/start {id: review}."""
    from datetime import datetime, timedelta, timezone

    from tutor.lessons.review import ReviewBook

    data = client.post("/api/lesson/start", json={"id": "review"})
    assert data.status_code == 409 and "Nothing to review" in data.json()["error"]
    data = client.post("/api/lesson/start", json={"id": "cards"}).json()
    session = client.app.app.state.context.lesson.slot.session
    while session.run.index < 3:
        if session.has_task:
            data = client.post("/api/lesson/answer", json={"rev": data["rev"], "answer": session.solution()}).json()
        else:
            data = client.post("/api/lesson/next", json={"rev": data["rev"]}).json()
    data = client.post("/api/lesson/answer", json={"rev": data["rev"], "answer": "2"}).json()
    assert data["review_due"] == 0  # missed now, due tomorrow
    with client.app.app.state.context.store() as store:
        book = ReviewBook(store)
        assert [(i.lesson, i.step) for i in book.items()] == [("cards", 3)]
        book.reset("cards")  # as if the miss had been two days ago (a second miss would move it on: issue 30)
        book.missed("cards", 3, datetime.now(timezone.utc) - timedelta(days=2))
    data = client.post("/api/lesson/start", json={"id": "review"}).json()
    assert data["lesson"]["id"] == "review" and data["review_due"] == 1
    step = next(e for e in data["events"] if e["type"] == "step")
    assert step["text"].startswith("The cards and their order — ")


def test_a_team_puzzle_says_when_the_hand_at_the_bottom_becomes_the_partners(client: Any) -> None:
    """Playing for the partner is announced (``hand_switch``), and so is the hand coming back."""
    from tutor.puzzles.library import load_library
    from tutor.solver.position import Role

    team = [p for p in load_library() if p.players == 3 and p.position.roles[p.position.to_move] is Role.FARMER]
    assert team
    for puzzle in team[:15]:
        answer = client.post("/api/puzzle/start", json={"kind": "pick", "id": puzzle.id}).json()
        learner = answer["puzzle"]["hand_owner"]
        answer = client.post("/api/puzzle/move", json={"rev": answer["rev"], "cards": puzzle.first_move}).json()
        shown = answer["puzzle"]
        if not shown["finished"] and shown["hand_owner"] != learner:
            assert shown["hand_switch"].startswith("Now you play for your partner")
            assert shown["felt"]["hand_label"] != "Your hand"
            return
    raise AssertionError("no team puzzle among the first 15 hands the move to the partner")


def _to_task(client: Any, data: dict[str, Any], kind: str, query: str = "") -> tuple[dict[str, Any], dict[str, Any]]:
    """Answer the lesson's steps with its own answers until a task of ``kind`` is shown."""
    session = client.app.app.state.context.lesson.slot.session
    for _step in range(20):
        task = next((e for e in data["events"] if e["type"] == "task"), None)
        if task is not None and task["task"] == kind:
            return data, task
        if session.has_task:
            data = client.post(f"/api/lesson/answer{query}", json={"rev": data["rev"],
                                                                    "answer": session.solution()}).json()
        else:
            data = client.post(f"/api/lesson/next{query}", json={"rev": data["rev"]}).json()
    raise AssertionError(f"no {kind} task")


def test_the_variant_decisions_are_answered_by_their_own_buttons(client: Any) -> None:
    """Lessons 40 and 41 (issue 30): rob or pass after a call, show or keep the hand — buttons in the game's words."""
    data, task = _to_task(client, client.post("/api/lesson/start", json={"id": "rob-the-landlord"}).json(), "bid")
    assert task["prompt"] == "Your call"
    assert [(o["answer"], o["label"]) for o in task["options"]] == [("pass", "Pass"), ("rob", "Rob")]  # no call now
    right = client.post("/api/lesson/answer", json={"rev": data["rev"], "answer": "rob"}).json()
    assert [e["ok"] for e in right["events"] if e["type"] == "answered"] == [True]
    data, task = _to_task(client, client.post("/api/lesson/start?lang=ru", json={"id": "open-hand"}).json(), "show",
                          "?lang=ru")
    assert task["prompt"] == "Открыть руку за ×2?"
    assert [(o["answer"], o["label"]) for o in task["options"]] == [("keep", "Не открывать"), ("show", "Открыть руку")]
    wrong = client.post("/api/lesson/answer?lang=ru", json={"rev": data["rev"], "answer": "keep"}).json()
    (answered,) = [e for e in wrong["events"] if e["type"] == "answered"]
    assert not answered["ok"] and "вдвое выгоднее" in str(answered["lines"])  # the author's reason, in Russian
