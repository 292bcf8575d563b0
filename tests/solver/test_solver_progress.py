"""The solver's progress callback and memory cap: they watch or stop, never change an answer."""

from __future__ import annotations

from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver

RUNAWAY = "L:335779TTJJJQKKAAX467 F:3446688999TJQQQ2D F:345556788TKKAA222"


def test_progress_is_told_settled_moves_and_positions() -> None:
    seen: list[tuple[int, int, int]] = []
    solver = Solver(max_nodes=40_000, workers=1, rules=STANDARD)
    solver.progress = lambda settled, total, nodes: seen.append((settled, total, nodes))
    result = solver.solve(Position.parse(RUNAWAY))
    assert result.mover_wins is None
    assert seen and all(0 <= s <= t for s, t, _ in seen)
    assert [n for _, _, n in seen] == sorted(n for _, _, n in seen)  # positions only grow
    assert seen[-1][1] == len(Position.parse(RUNAWAY).legal_moves())


def test_progress_does_not_change_the_answer() -> None:
    pos = Position.parse("L:333449 F:7QQK2 F:66KK2")
    plain = Solver(workers=1, rules=STANDARD).solve(pos)
    watched = Solver(workers=1, rules=STANDARD)
    watched.progress = lambda *_: None
    again = watched.solve(pos)
    assert (again.mover_wins, again.winning_moves, again.nodes) == (plain.mover_wins, plain.winning_moves, plain.nodes)


def test_a_memory_cap_below_the_process_size_gives_unknown() -> None:
    result = Solver(workers=1, max_mb=1, rules=STANDARD).solve(Position.parse(RUNAWAY))
    assert result.mover_wins is None and not result.complete
