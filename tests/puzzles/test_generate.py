"""The generator, with the solver injected (real, or a fake that changes one answer)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from tutor.engine.rules import STANDARD
from tutor.puzzles.generate import (
    Candidate,
    Generator,
    Limits,
    generate,
    random_deal_candidates,
    rotate_to_mover,
)
from tutor.puzzles.library import check_tree
from tutor.puzzles.model import Source, find_move
from tutor.puzzles.themes import tag
from tutor.puzzles.verify import verify
from tutor.solver.position import Position
from tutor.solver.solver import Solver

SOURCE = Source("composed", note="test")


class OnlyFirstWinner:
    """A fake solver: the real one, except that it reports only the first winning root move."""

    def __init__(self) -> None:
        self.real = Solver(rules=STANDARD)
        self.calls = 0

    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True) -> Any:
        self.calls += 1
        result = self.real.solve(pos, objective, all_moves)
        if objective == "win" and result.winning_moves:
            result = replace(result, winning_moves=result.winning_moves[:1])
        return result

    def is_winning_move(self, pos: Position, move: Any) -> bool | None:
        return self.real.is_winning_move(pos, move)


class OutOfBudget:
    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True) -> Any:
        return Solver(max_nodes=1, rules=STANDARD).solve(pos, objective, all_moves)

    def is_winning_move(self, pos: Position, move: Any) -> bool | None:
        return None


def test_only_move_positions_become_puzzles() -> None:
    puzzle = Generator(partial(Solver, rules=STANDARD)).examine(Candidate(Position.parse("L:77Q F:6TQA F:3"), SOURCE))
    assert puzzle is not None
    assert puzzle.first_move == "77"
    assert "heads_up" in puzzle.themes and puzzle.difficulty is not None
    check_tree(puzzle)
    assert list(puzzle.themes) == tag(puzzle)
    assert verify(puzzle, Solver(rules=STANDARD)).ok


def test_two_winning_first_moves_are_rejected() -> None:
    # Benchmark three-03: 33344 and 3339 both win.
    pos = Position.parse("L:333449 F:7QQK2 F:66KK2")
    assert Generator(partial(Solver, rules=STANDARD)).examine(Candidate(pos, SOURCE)) is None


def test_the_injected_solver_is_the_one_consulted() -> None:
    fake = OnlyFirstWinner()
    pos = Position.parse("L:333449 F:7QQK2 F:66KK2")
    puzzle = Generator(lambda: fake).examine(Candidate(pos, SOURCE))
    assert fake.calls > 0
    assert puzzle is not None  # the fake hid the second winning move …
    assert not verify(puzzle, Solver(rules=STANDARD)).ok  # … and the real solver's verification catches it


def test_unknown_results_are_skipped() -> None:
    assert Generator(OutOfBudget).examine(Candidate(Position.parse("L:77Q F:6TQA"), SOURCE)) is None


def test_trivial_wins_are_rejected() -> None:
    # 33 goes out at once: one play, one rival move.
    assert Generator(partial(Solver, rules=STANDARD)).examine(Candidate(Position.parse("L:33 F:4"), SOURCE)) is None


def test_positions_too_big_to_verify_fast_are_skipped() -> None:
    big = Position.parse("L:33445566778899TT F:JJQQKKAA22")
    assert Generator(partial(Solver, rules=STANDARD), Limits(max_cards_two=9)).examine(Candidate(big, SOURCE)) is None


def test_rotate_to_mover_lists_the_mover_first() -> None:
    base = Position.parse("L:33 F:4 F:5")
    pos = Position(base.hands, base.roles, 2, find_move(Position.parse("F:9 L:33 F:4"), "9"), 0, rules=STANDARD)
    rotated = rotate_to_mover(pos)
    assert rotated.to_move == 0
    assert rotated.format() == "F:5 L:33 F:4"
    assert rotated.table_by == 1


def test_candidates_are_determined_by_deal_and_seed() -> None:
    first = [c.position for c in random_deal_candidates(5, 1)]
    assert first == [c.position for c in random_deal_candidates(5, 1)]
    assert first != [c.position for c in random_deal_candidates(5, 2)]


def test_generate_is_reproducible_and_skips_known_ids() -> None:
    budget = partial(Solver, max_nodes=100_000, rules=STANDARD)
    puzzles = generate(2, seed=3, solver_factory=budget, first_deal=300_018)
    again = generate(2, seed=3, solver_factory=budget, first_deal=300_018)
    assert [p.to_data() for p in puzzles] == [p.to_data() for p in again]
    assert len({p.id for p in puzzles}) == 2
    others = generate(1, seed=3, solver_factory=budget, first_deal=300_018, skip_ids={puzzles[0].id})
    assert others[0].id != puzzles[0].id


def test_a_puzzle_whose_file_the_library_could_not_load_is_refused() -> None:
    """An untrimmed daily candidate's 37-move main line nested deeper than the loader reads
    (tutor.files.MAX_DEPTH): the generator wrote a file its own library refused."""
    from dataclasses import replace

    from tests.puzzles.helpers import chain
    from tutor.puzzles.library import reads_back
    from tutor.puzzles.model import Goal, Puzzle

    short = Puzzle("t00001", "test", (), Position.parse("L:77Q F:6TQA F:3"), Goal(),
                   chain(["77", "pass", "pass", "Q"]), 1200, SOURCE)
    assert reads_back(short)
    assert not reads_back(replace(short, solution=chain(["pass"] * 40)))
