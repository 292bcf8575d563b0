"""``ddz learn`` and ``ddz lessons validate`` driven through click's CliRunner."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.i18n import set_language

from tutor.cli.main import main

DATA = Path(__file__).parent.parent / "lessons" / "data"


@pytest.fixture()
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    yield {"DDZ_HOME": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "80"}
    set_language("en")  # the language is process-wide; --lang ru must not leak into other tests


def test_learn_lists_the_course(env: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["learn"], env=env)
    assert result.exit_code == 0, result.output
    assert "The cards and their order" in result.output
    from tutor.paths import lessons_dir

    assert f"0 of {len(list(lessons_dir().glob('*.yaml')))} lessons done" in result.output
    assert "Next: ddz learn how-a-game-goes" in result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_a_lesson_run_with_mistakes_saves_stars_and_reset_forgets(env: dict[str, str]) -> None:
    runner = CliRunner()
    # The cards lesson: intro, notation, then "lowest single" (2 is wrong, then 5), then "beat the K" (hint, then A).
    answers = "\n".join(["", "", "2", "5", "hint", "A"]) + "\n"
    result = runner.invoke(main, ["learn", "cards"], input=answers, env=env)
    assert result.exit_code == 0, result.output
    assert "The 2 is not low: it is above the ace." in result.output
    assert "Single · can be played" in result.output
    assert "Lesson complete: ★★☆" in result.output
    listing = runner.invoke(main, ["learn", "--json"], env=env)
    rows = {row["id"]: row for row in json.loads(listing.output)}
    assert rows["cards"]["stars"] == 2
    # Forgetting asks first (issue 23): "n", no answer, or an empty LESSON forget nothing.
    for args, answer in ((["learn", "--reset"], "n\n"), (["learn", "--reset"], ""), (["learn", "", "--reset"], "y\n")):
        assert runner.invoke(main, args, input=answer, env=env).exit_code != 0 or answer == "n\n"
        rows = {row["id"]: row for row in json.loads(runner.invoke(main, ["learn", "--json"], env=env).output)}
        assert rows["cards"]["stars"] == 2, args
    asked = runner.invoke(main, ["learn", "--reset"], input="y\n", env=env)
    assert asked.exit_code == 0 and "Forget your progress" in asked.output
    rows = {row["id"]: row for row in json.loads(runner.invoke(main, ["learn", "--json"], env=env).output)}
    assert rows["cards"]["stars"] == 0
    assert runner.invoke(main, ["learn", "cards", "--reset", "--yes"], env=env).exit_code == 0  # scripts


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_narrow_terminal_lists_the_course_with_whole_titles_and_codes(env: dict[str, str], lang: str) -> None:
    """At 40 columns the course table cut titles and codes inside words («старши|нство», «how-a|-game»)."""
    from tutor.lessons.course import load_course

    result = CliRunner().invoke(main, ["learn", "--lang", lang], env={**env, "COLUMNS": "40"})
    assert result.exit_code == 0, result.output
    assert all(len(line) <= 40 for line in result.output.splitlines()), result.output
    said = " ".join(result.output.split())
    for lesson in load_course():
        assert f"{lesson.title.get(lang)} · {lesson.id} · " in said, lesson.id
    # round 15: a row's wrapped lines hang under its title (they went on at the line's start, under «1.»), and
    # neither «· level» begins a line nor «level» ends one («уровень» / «3»)
    heads, rows = 0, result.output.splitlines()[1:]
    for line in rows:
        if re.match(r" ?\d+\. \S", line):
            heads += 1
        elif line.startswith("    ") and line[4:5].strip() and heads:
            assert not line.lstrip().startswith("·") and not line.rstrip().endswith(("level", "уровень")), line
        else:
            break
    assert heads == len(load_course()), result.output


def test_lessons_validate_refuses_an_empty_path_and_an_empty_folder(tmp_path: Path) -> None:
    for args in (["lessons", "validate", ""], ["lessons", "validate", str(tmp_path)], ["puzzles", "validate", ""]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error: ")


def test_learn_in_russian_and_quit_midway(env: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["learn", "3", "--lang", "ru"], input="\nq\n", env=env)
    assert result.exit_code == 0, result.output
    assert "Одиночные карты и пары" in result.output
    assert "прогресс сохраняется только" in result.output


def test_unplayable_input_shows_the_status_line_and_is_not_counted(env: dict[str, str]) -> None:
    answers = "\n".join(["", "", "33", "5", "A"]) + "\n"
    result = CliRunner().invoke(main, ["learn", "cards"], input=answers, env=env)
    assert "Lesson complete: ★★★" in result.output


def test_unknown_lesson_is_one_line_exit_2(env: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["learn", "no-such-lesson"], env=env)
    assert result.exit_code == 2
    assert "no lesson 'no-such-lesson'" in result.output


def test_unknown_lesson_is_named_in_russian(env: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["learn", "no-such-lesson", "--lang", "ru"], env=env)
    assert result.exit_code == 2
    assert "урока 'no-such-lesson' нет" in result.output and "no lesson" not in result.output


def test_validate_the_course_passes(env: dict[str, str]) -> None:
    # --no-view: tests/lessons/test_validate.py runs the (slower) view-based weighing once.
    result = CliRunner().invoke(main, ["lessons", "validate", "--no-view"], env=env)
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output


def test_validate_broken_files_lists_every_problem_and_exits_1(env: dict[str, str]) -> None:
    result = CliRunner().invoke(main, ["lessons", "validate", str(DATA), "--json"], env=env)
    assert result.exit_code == 1
    report = json.loads(result.output)
    codes = {p["code"] for p in report["problems"]}
    assert {"schema", "bad_cards", "duplicate_card", "hand_size", "illegal_answer", "refuted", "unreachable"} <= codes
    text = CliRunner().invoke(main, ["lessons", "validate", str(DATA / "broken_illegal.yaml")], env=env).output
    assert "broken_illegal.yaml:13: steps[0].task.accept.moves[0]: accepted answer '55' is illegal" in text


def test_one_letter_card_answers_are_cards_not_commands() -> None:
    """A lone Q is the queen and R the red joker (RULES §1), never quit/restart."""
    from tutor.cli.learn import QUIT_WORDS, RESTART_WORDS

    for word in ("q", "r", "Q", "R"):
        assert word.lower() not in QUIT_WORDS | RESTART_WORDS


def test_rule_12_4_a_four_player_lesson_position_shows_four_seats() -> None:
    """The terminal's lesson table reads its seats from the lesson's rules: with four players (RULES §12.4)
    the landlord across, and right, across and left counted above you."""
    from rich.console import Console

    from tutor.cli.learn import show_setup
    from tutor.engine.cards import Cards
    from tutor.engine.rules import FOUR
    from tutor.lessons.model import Setup

    setup = Setup(landlord=2, bid=2, hands={0: Cards.parse("4689QA2D")}, show=frozenset({0}),
                  counts={1: 20, 2: 15, 3: 18}, kitty=None, bids=(), history=(), history_complete=False,
                  table=None, table_by=None, to_move=0, rules=FOUR)
    console = Console(record=True, width=80, color_system=None)
    show_setup(console, setup)
    lines = console.export_text().splitlines()
    assert lines[0] == "Landlord: across · bid 2"
    assert [line.split(" (")[0].strip() for line in lines[1:5]] == ["left", "across", "right", "you"]
    assert "cards: 15" in lines[2] and "cards: 18" in lines[1] and "cards: 20" in lines[3]


def test_a_narrow_terminal_wraps_a_lesson_hand_between_cards() -> None:
    """At 40 columns a 17-card hand wraps between ranks, never inside a card ("[K][" then "A]")."""
    from rich.console import Console

    from tutor.cli.learn import show_setup
    from tutor.engine.cards import Cards
    from tutor.engine.rules import STANDARD
    from tutor.lessons.model import Setup

    setup = Setup(landlord=2, bid=2, hands={0: Cards.parse("34567789TJJQKAAA2")}, show=frozenset({0}),
                  counts={1: 17, 2: 20}, kitty=None, bids=(), history=(), history_complete=False,
                  table=None, table_by=None, to_move=0, rules=STANDARD)
    console = Console(record=True, width=40, color_system=None)
    show_setup(console, setup)
    hand_lines = [line.strip() for line in console.export_text().splitlines() if "][" in line or line.strip().startswith("[")]
    assert len(hand_lines) >= 2  # it does wrap at 40 columns
    for line in hand_lines:
        cards = line[line.index("["):]
        assert cards.startswith("[") and cards.endswith("]"), line
