"""Every wrong answer gets a reason, derived from what proves the task (issue 21)."""

from __future__ import annotations

from pathlib import Path

from tutor.i18n import speaking
from tutor.lessons.course import load_course
from tutor.lessons.runner import LessonRun, Verdict
from tutor.lessons.validate import validate_paths


def _run(lesson_id: str, step: int) -> LessonRun:
    lesson = next(lesson for lesson in load_course() if lesson.id == lesson_id)
    run = LessonRun(lesson)
    run.index = step
    run._enter()
    return run


def test_a_drill_answer_of_another_kind_is_named() -> None:
    with speaking("en"):
        outcome = _run("singles-pairs", 3).answer("3")
    assert outcome.verdict is Verdict.WRONG and outcome.reason == "that is a single; the task asks for: pair"


def test_a_plan_question_says_which_cards_it_is_about() -> None:
    with speaking("en"):
        outcome = _run("landlord-plan", 1).answer("5")
    assert outcome.reason is not None and "takes your 3" in outcome.reason


def test_a_wrong_name_gets_what_the_cards_read_as() -> None:
    with speaking("ru"):
        outcome = _run("trios", 2).answer("pair")
    assert outcome.reason == "5QQQ читается как: тройка + 1"


def test_hidden_hands_are_never_shown_in_a_reason() -> None:
    """Lesson 15's landlord holds a Q the learner cannot see: the solver's line would give it away."""
    with speaking("en"):
        outcome = _run("landlord-one-card", 1).answer("7")
    assert outcome.verdict is Verdict.WRONG and "Q" not in (outcome.reason or "")


def test_every_bid_called_wrong_needs_words(tmp_path: Path) -> None:
    path = tmp_path / "mute.yaml"
    path.write_text(
        "id: mute\ntitle: t\nlevel: 3\nsteps:\n  - text: t\n    position: {hands: {you: 345679TJQQKKA22XD}}\n"
        "    task: {type: bid, accept: {bids: [3]}, feedback: [{answer: pass, text: too shy}]}\n", encoding="utf-8")
    report = validate_paths([path])
    found = {(p.code, p.message) for p in report.problems}
    assert ("unexplained", "bid 1 is called wrong without a word: give it feedback") in found
    assert ("unexplained", "bid 2 is called wrong without a word: give it feedback") in found
    assert any(code == "no_hints" for code, _ in found)
