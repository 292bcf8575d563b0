"""`ddz puzzle streak` through click's CliRunner: a run solved then ended by a wrong move, the best kept."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor.cli.main import main
from tutor.i18n import set_language
from tutor.puzzles.library import load_library
from tutor.puzzles.model import find_move
from tutor.puzzles.streak import ladder

from tests.cli.test_puzzle import learner_moves


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    yield tmp_path
    set_language("en")


def run(*args: str, text: str = "") -> Result:
    return CliRunner().invoke(main, list(args), input=text, catch_exceptions=False)


def _typed(move: str) -> str:
    return move.split(":")[0]


def _seed_with_plain_first_puzzles() -> int:
    """A seed whose first two puzzles are typed without a choice of readings."""
    library = list(load_library())
    for seed in range(200):
        first, second = ladder(library, random.Random(seed), 2)
        if all(":" not in m for m in first.solution.main_line()):
            wrong = [m for m in second.position.legal_moves() if m is not None and len(m.text) == 1
                     and m != find_move(second.position, second.first_move)]
            if wrong:
                return seed
    raise AssertionError("no seed with two plain puzzles")


def test_a_run_solves_one_then_a_wrong_move_ends_it_and_the_best_is_kept(home: Path) -> None:
    seed = _seed_with_plain_first_puzzles()
    first, second = ladder(list(load_library()), random.Random(seed), 2)
    right = find_move(second.position, second.first_move)
    wrong = next(m for m in second.position.legal_moves() if m is not None and len(m.text) == 1 and m != right)
    typed = [*map(_typed, learner_moves(first)), wrong.text]
    result = run("puzzle", "streak", "--seed", str(seed), text="\n".join(["hint", *typed]) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "No hints in a streak." in out
    assert "Puzzle 1 · rating" in out and "Puzzle 2 · rating" in out and "Solved!" in out
    assert "Streak over: 1 puzzle solved in a row." in out and "A new best streak: 1!" in out
    assert "Try again" not in out  # the run ends at the first wrong move
    record = run("puzzle", "streak", "--record")
    assert record.output.strip() == "Best streak: 1 · runs: 1 · last run: 1"


def test_quitting_at_once_is_a_run_of_nothing_in_russian(home: Path) -> None:
    result = run("puzzle", "streak", "--seed", "1", "--lang", "ru", text="quit\n")
    assert result.exit_code == 0, result.output
    assert "Серия окончена: 0 задач решено подряд." in result.output
    assert "Лучшая серия: 0." in result.output
