"""The runner: judging, feedback with mistakes, hints, solver replies, stars — and the whole course played through."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.lessons.course import find_lesson, load_course, load_lesson
from tutor.lessons.oracle import Oracle
from tutor.lessons.runner import LessonRun, Verdict, parse_kind_answer, stars_for

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def course() -> list:
    return load_course()


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return Oracle()


def _goto_task(run: LessonRun, n: int = 1) -> None:
    """Advance to the n-th step that has a task."""
    seen = 0
    while True:
        if run.step.task is not None:
            seen += 1
            if seen == n:
                return
        assert run.advance()


def test_the_whole_course_can_be_finished_with_its_own_answers(course: list, oracle: Oracle) -> None:
    for lesson in course:
        run = LessonRun(lesson, oracle)
        while not run.finished:
            if run.step.task is not None:
                for _ in range(30):
                    outcome = run.answer(run.solution())
                    assert outcome.verdict is Verdict.CORRECT, (lesson.id, run.index, outcome)
                    if outcome.step_done:
                        break
                else:
                    pytest.fail(f"{lesson.id} step {run.index} never ends")
            run.advance()
        assert run.stars == 3 and run.wrong == 0


def test_illegal_move_is_explained_and_not_counted(course: list, oracle: Oracle) -> None:
    run = LessonRun(find_lesson(course, "singles-pairs"), oracle)
    _goto_task(run, 3)  # "Lead a pair" from 3557TTK2
    outcome = run.answer("33")
    assert outcome.verdict is Verdict.INVALID and "not in the hand" in (outcome.reason or "")
    assert run.wrong == 0
    assert run.answer("55").verdict is Verdict.CORRECT  # any move of kind pair


def test_feedback_carries_the_beginner_mistake(course: list, oracle: Oracle) -> None:
    run = LessonRun(find_lesson(course, "mistake-bomb-for-straight"), oracle)
    _goto_task(run)
    outcome = run.answer("45678")
    assert outcome.verdict is Verdict.WRONG
    assert outcome.mistake is not None and outcome.mistake.value == "break_bomb_for_straight"
    assert "9TJQK" in outcome.text.en
    assert run.answer("8888").verdict is Verdict.CORRECT  # the validator proves it is the only win
    assert run.wrong == 1


def test_unlisted_wrong_answer_gets_the_solvers_refutation(course: list, oracle: Oracle) -> None:
    run = LessonRun(find_lesson(course, "endgame-boss-first"), oracle)
    _goto_task(run, 2)
    outcome = run.answer("K")
    assert outcome.verdict is Verdict.WRONG and outcome.text is None
    assert outcome.reason and outcome.reason.startswith("after this the other side wins")


def test_line_task_plays_the_opponents_with_the_solver(course: list, oracle: Oracle) -> None:
    run = LessonRun(find_lesson(course, "endgame-bomb-finish"), oracle)
    _goto_task(run)
    first = run.answer("8888")
    assert first.verdict is Verdict.CORRECT and not first.step_done
    assert [seat for seat, _ in first.replies] == [1, 2]
    last = run.answer("5")
    assert last.step_done and last.won


def test_hints_come_in_order_then_the_answer(course: list, oracle: Oracle) -> None:
    run = LessonRun(find_lesson(course, "cards"), oracle)
    _goto_task(run)
    first = run.hint()
    assert first.text is not None and "order" in first.text.en  # the principle first …
    second = run.hint()
    assert second.text is not None and "2 is high" in second.text.en  # … a narrower clue …
    last = run.hint()
    assert last.text is not None and last.text.en.startswith("Answer: 5")  # … the answer last
    assert run.hint().answer == "5"
    assert run.hints_used == 4


def test_bid_name_and_score_tasks(course: list, oracle: Oracle) -> None:
    bidding = LessonRun(find_lesson(course, "bidding"), oracle)
    _goto_task(bidding)
    assert bidding.answer("1").verdict is Verdict.WRONG
    assert bidding.answer("3").verdict is Verdict.CORRECT
    naming = LessonRun(find_lesson(course, "chains"), oracle)
    _goto_task(naming)
    assert naming.answer("straight").verdict is Verdict.WRONG
    assert naming.answer("none").verdict is Verdict.CORRECT
    scoring = LessonRun(find_lesson(course, "scoring"), oracle)
    _goto_task(scoring, 2)
    outcome = scoring.answer("120")
    assert outcome.verdict is Verdict.WRONG and "twice" in outcome.text.en
    assert scoring.answer("240").verdict is Verdict.CORRECT


def test_rule_3_a_bid_must_be_higher(course: list, oracle: Oracle) -> None:
    run = LessonRun(find_lesson(course, "bidding"), oracle)
    while not (run.step.task is not None and run.setup is not None and any(b for _, b in run.setup.bids)):
        assert run.advance()  # the step where an earlier player has bid 1
    assert run.answer("1").verdict is Verdict.INVALID
    assert run.wrong == 0


@pytest.mark.parametrize(("wrong", "hints", "stars"), [(0, 0, 3), (1, 0, 2), (1, 1, 2), (2, 1, 1), (0, 5, 1)])
def test_stars(wrong: int, hints: int, stars: int) -> None:
    assert stars_for(wrong, hints) == stars


def test_find_lesson_by_id_number_and_prefix(course: list) -> None:
    assert find_lesson(course, "1").id == course[0].id
    assert find_lesson(course, "endgame-count").id == "endgame-counting"
    with pytest.raises(ValueError, match="several"):
        find_lesson(course, "endgame")
    with pytest.raises(ValueError, match="no lesson"):
        find_lesson(course, "nope")


def test_a_broken_lesson_is_refused_with_a_pointer_to_validate() -> None:
    with pytest.raises(ValueError, match="ddz lessons validate"):
        load_lesson(DATA / "broken_duplicate.yaml")


def test_kind_names_shown_in_the_prompt_are_understood_in_every_language() -> None:
    """The name prompt lists «1 одиночная · 2 пара · …»: typing a listed name must work."""
    assert parse_kind_answer("пара") == "pair"
    assert parse_kind_answer("Тройка + 1") == "trio_single"
    assert parse_kind_answer("самолет + одиночные") == "airplane_singles"
    assert parse_kind_answer("четыре + 2 пары") == "four_two_pairs"
    assert parse_kind_answer("trio-single") == "trio_single"
    assert parse_kind_answer("нет") == "none"
    with pytest.raises(ValueError):
        parse_kind_answer("тройка + 3")


def test_runner_reasons_follow_the_language(course: list, oracle: Oracle) -> None:
    """--lang ru must not print the solver's refutation or a bid error in English."""
    from tutor.i18n import language, set_language

    before = language()
    set_language("ru")
    try:
        run = LessonRun(find_lesson(course, "endgame-boss-first"), oracle)
        _goto_task(run, 2)
        outcome = run.answer("K")
        assert outcome.reason and outcome.reason.startswith("после этого побеждает другая сторона")
        assert "правый" in outcome.reason and "right" not in outcome.reason
        bidding = LessonRun(find_lesson(course, "bidding"), oracle)
        _goto_task(bidding)
        assert "ставка" in (bidding.answer("7").reason or "")
    finally:
        set_language(before)


def test_the_browser_gets_its_own_wording_of_terminal_texts() -> None:
    """Issue 21: texts about typing and terminal keys have a browser wording; tens are spelled 10."""
    from tutor.lessons.course import load_course
    from tutor.lessons.model import WEB, Text
    from tutor.sessions.lesson import LessonSession, StepShown

    course = load_course()
    first = course[0]
    web = LessonSession(course, first, None, front=WEB)
    terminal = LessonSession(course, first, None)
    last = len(first.steps) - 1
    web.run.index = terminal.run.index = last
    shown_web = next(e for e in web._enter_step() if isinstance(e, StepShown))
    shown_term = next(e for e in terminal._enter_step() if isinstance(e, StepShown))
    assert "ddz play" in shown_term.wording.get("en") and "(c)" in shown_term.wording.get("en")
    assert "ddz" not in shown_web.wording.get("en") and "(c)" not in shown_web.wording.get("ru")
    assert Text("Beat the T with X, keep 3456789TJQK", "Побейте TT").for_front(WEB) == \
        Text("Beat the 10 with small joker, keep 3 4 5 6 7 8 9 10 J Q K", "Побейте 10 10")


def test_rob_and_open_hand_decisions_are_read_in_the_games_words(course: list, oracle: Oracle) -> None:
    """Lessons 40 and 41 (issue 30): pass/call/rob under the rob auction, show/keep for the open hand."""
    rob = LessonRun(find_lesson(course, "rob-the-landlord"), oracle)
    while not (rob.step.task is not None and rob.step.task.type.value == "bid"):
        assert rob.advance()
    assert rob.solution() == "rob"
    assert rob.answer("3").verdict is Verdict.INVALID  # no 1-2-3 bid in this auction
    assert rob.answer("call").verdict is Verdict.INVALID  # Left called already: rob or pass
    wrong = rob.answer("пас")
    assert wrong.verdict is Verdict.WRONG and wrong.text is not None and "pass" in wrong.text.en.lower()
    assert rob.answer("перехват").verdict is Verdict.CORRECT
    shown = LessonRun(find_lesson(course, "open-hand"), oracle)
    while not (shown.step.task is not None and shown.step.task.type.value == "show"):
        assert shown.advance()
    assert shown.solution() == "show" and shown.answer("maybe").verdict is Verdict.INVALID
    assert shown.answer("keep").verdict is Verdict.WRONG
    assert shown.answer("открыть").verdict is Verdict.CORRECT
