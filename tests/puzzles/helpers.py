"""Small builders for puzzle tests (hand-written positions and lines)."""

from __future__ import annotations

from tutor.puzzles.model import Goal, Node, Puzzle, Source, puzzle_id
from tutor.solver.position import Position


def chain(moves: list[str]) -> Node:
    """A solution tree that is one line."""
    node: Node | None = None
    for move in reversed(moves):
        node = Node(move, () if node is None else (node,))
    assert node is not None
    return node


def make_puzzle(players: str, moves: list[str], beat: str | None = None, beat_by: int | None = None,
                goal: Goal | None = None, themes: tuple[str, ...] = (), rating: float = 1500) -> Puzzle:
    pos = Position.parse(players, beat=beat, beat_by=beat_by)
    return Puzzle(puzzle_id(pos), "test", themes, pos, goal or Goal(), chain(moves), rating, Source())
