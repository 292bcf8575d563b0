"""Score questions of the variant lessons (RULES §12.1, §12.2) are answered by the engine's scoring."""

from __future__ import annotations

import pytest

from tutor.engine.rules import OPEN, ROB, STANDARD
from tutor.lessons.scoring import formula, score_answer


def test_rule_12_1_each_rob_doubles_and_there_is_no_bid() -> None:
    game = {"bid": 1, "robs": 3, "winner": "farmers", "bombs": ["9999"]}
    assert score_answer(game, "cost", ROB) == 10 * 2**3 * 2 == 160
    assert score_answer(game, "landlord", ROB) == -320 and score_answer(game, "farmer", ROB) == 160
    assert formula(game, ROB) == "10 × 16 = 160"
    with pytest.raises(ValueError, match="no 1-2-3 bid"):
        score_answer({"bid": 2, "robs": 1, "winner": "landlord"}, "cost", ROB)


def test_rule_12_2_the_open_hand_doubles_the_game() -> None:
    assert score_answer({"bid": 2, "open": True, "winner": "landlord"}, "cost", OPEN) == 40
    game = {"bid": 3, "open": True, "winner": "farmers", "bombs": ["7777"]}
    assert score_answer(game, "landlord", OPEN) == -240
    assert formula({"bid": 3, "winner": "landlord"}, STANDARD) == "10 × 3 × 1 = 30"  # the classic line unchanged


def test_rules_12_4_four_players_score_with_the_landlords_share_three_and_long_bombs() -> None:
    from tutor.engine.rules import FOUR

    game = {"bid": 2, "winner": "landlord", "bombs": ["555555"]}
    assert score_answer(game, "cost", FOUR) == 40 and score_answer(game, "landlord", FOUR) == 120
    assert score_answer({"bid": 1, "winner": "farmers", "bombs": ["XXDD", "88888888"]}, "farmer", FOUR) == 40
    with pytest.raises(ValueError, match="too many"):
        score_answer(game, "cost", STANDARD)  # six fives: not in one deck


def test_rules_12_4_the_four_player_lesson_is_scored_under_its_rules() -> None:
    from tutor.engine.rules import FOUR
    from tutor.lessons.course import find_lesson, load_course
    from tutor.lessons.oracle import Oracle
    from tutor.lessons.runner import LessonRun, Verdict

    lesson = find_lesson(load_course(), "four-players")
    assert lesson.rules is FOUR
    run = LessonRun(lesson, Oracle())
    while not (run.step.task is not None and run.step.task.ask == "landlord"):
        assert run.advance()
    assert run.solution() == "120"
    assert run.answer("80").verdict is Verdict.WRONG and run.answer("120").verdict is Verdict.CORRECT
