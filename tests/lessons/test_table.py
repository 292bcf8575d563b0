"""A lesson's position steps as the engine's game (tutor/lessons/table.py): hidden hands are stand-ins
that hold what the script makes them play, and never show."""

from __future__ import annotations

from pathlib import Path

from tutor.engine.combos import Combo
from tutor.lessons.course import load_lesson
from tutor.lessons.oracle import Oracle
from tutor.lessons.runner import LessonRun, Verdict
from tutor.lessons.table import play_script, setup_game, shown_counts, shown_hands, solver_position
from tutor.lessons.validate import validate_paths

SCRIPTED = """\
id: scripted-replies
title: "Scripted replies over hidden hands"
level: 1
steps:
  - text: "Beat the 7s; right and left answer as the script says."
    position:
      landlord: right
      hands: {{you: "5589KK"}}
      counts: {{right: {right}, left: 9}}
      table: {{by: left, cards: "77"}}
    task:
      type: play
      prompt: "Beat the 7s."
      hints: ["Look at your pairs.", "The Ks beat the 7s."]
      accept: {{moves: ["KK"]}}
      replies: [{replies}]
"""


def _lesson(tmp_path: Path, replies: str, right: int = 3) -> Path:
    path = tmp_path / "scripted.yaml"
    path.write_text(SCRIPTED.format(replies=replies, right=right), encoding="utf-8")
    return path


def _problems(path: Path) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in validate_paths([path], Oracle()).problems]


def test_a_scripted_line_over_hidden_hands_validates_and_plays(tmp_path: Path) -> None:
    found = _problems(_lesson(tmp_path, '"2", "pass"'))
    assert [p for p, _ in found] == ["steps[0].task.replies[0]"], found  # a single does not follow a pair
    path = _lesson(tmp_path, '"22", "pass"')
    assert _problems(path) == []
    run = LessonRun(load_lesson(path))
    outcome = run.answer("KK")
    assert outcome.verdict is Verdict.CORRECT
    assert outcome.replies == [(1, Combo.parse("22")), (2, None)]
    assert run.game is not None and run.game.to_move == 0 and run.game.table == Combo.parse("22")
    setup = run.setup
    assert setup is not None
    # Right's stand-in held the 22 and one card more; only the counts show, never the stand-in.
    assert shown_hands(setup, run.game)[1:] == (None, None)
    assert shown_counts(setup, run.game) == (4, 1, 9)


def test_a_script_that_overdraws_a_count_or_reaches_your_turn_is_refused(tmp_path: Path) -> None:
    found = _problems(_lesson(tmp_path, '"AAAA"', right=3))
    assert any("right holds only 3 cards" in m for _, m in found), found
    found = _problems(_lesson(tmp_path, '"22", "pass", "pass"'))
    assert any("reach your own turn" in m for _, m in found), found
    found = _problems(_lesson(tmp_path, '"22"', right=2))  # right goes out: the game is over
    assert found == []
    found = _problems(_lesson(tmp_path, '"22", "pass"', right=2))
    assert any("the game is over" in m for _, m in found), found


def test_the_script_steps_the_engine_game(tmp_path: Path) -> None:
    step = load_lesson(_lesson(tmp_path, '"22", "pass"')).steps[0]
    setup, task = step.setup, step.task
    assert setup is not None and task is not None and isinstance(task.replies, tuple)
    game = setup_game(setup)
    assert game.to_move == 0 and game.table == Combo.parse("77") and game.table_seat == 2
    assert game.card_counts == (6, 3, 9)
    script = play_script(setup, Combo.parse("KK"), task.replies)
    assert script.fault is None and [s for s, _ in script.replies] == [1, 2]
    assert [t.seat for t in script.game.history] == [2, 0, 1, 2]  # the table's play, then you, right, left
    try:
        solver_position(setup)
    except ValueError as error:
        assert "every hand" in str(error)
    else:
        raise AssertionError("the solver must refuse a position with stand-ins")
