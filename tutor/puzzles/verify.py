"""Re-proving a puzzle with the solver: the claims CI checks for every shipped puzzle.

For each puzzle:

1. **Only move** — the side to move wins, and the solution's first move is the
   one and only winning first move (pass counted as a move).
2. **Stated result** — ``win_in: N``: the fastest forced win takes exactly N
   plays of the solving side; ``win_with_bomb``: the main line has the solving
   side play a bomb or the rocket, and no forced win does without one.
0. **Realism** — three hands (a duel shows the third player out of it);
   nobody passed on the table while their whole hand beat it (they would have
   gone out); no set-up move threw away a forced win of its side (proved by
   the solver): see :mod:`tutor.puzzles.realism`.
1. **No spoiler** — the goal line does not name the answer ("win with a
   bomb" when the first move is the bomb).
3. **Solution tree** — every move of the solving side in the tree wins
   (so any defence in the tree is still met with a winning reply), and the
   themes are exactly what the theme predicates say.
4. **Rating** — a generated puzzle's rating is the calibration of its stored
   signals (:mod:`tutor.puzzles.difficulty`), and the cheap signals (the naive
   panel, the plausible mistakes) are measured again.
5. With ``full=True`` also **toughest defence** — at every defending turn of
   the main line, the tree's first reply delays the end the longest — and the
   tempting mistakes are counted again.

The solver is injected, so tests can use a fake one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from tutor.puzzles.difficulty import naive_share, plausible_losing_moves, tempting_moves
from tutor.puzzles.generate import SolverFactory, SolverLike
from tutor.puzzles.model import GoalType, Node, Puzzle, find_move
from tutor.puzzles.realism import (
    SearchTooBig,
    impossible_passes,
    player_count_problems,
    thrown_wins,
    wins_without_bombs,
)
from tutor.puzzles.themes import MainLine, tag
from tutor.solver.position import Position


@dataclass(slots=True)
class Verdict:
    """The outcome of verifying one puzzle: empty ``problems`` means it holds."""

    puzzle_id: str
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems


def check_only_move(puzzle: Puzzle, solver: SolverLike) -> list[str]:
    pos = puzzle.position
    result = solver.solve(pos, "win", all_moves=True)
    if not result.complete or result.mover_wins is None:
        return ["the solver ran out of budget on the first move"]
    if not result.mover_wins:
        return ["the side to move does not win"]
    first = find_move(pos, puzzle.first_move)
    winning = list(result.winning_moves)
    if winning != [first]:
        names = [("pass" if m is None else m.text) for m in winning]
        return [f"winning first moves are {names}, expected only {puzzle.first_move!r}"]
    return []


def check_goal(puzzle: Puzzle, solver: SolverLike) -> list[str]:
    if puzzle.goal.type is GoalType.WIN_IN:
        result = solver.solve(puzzle.position, "fastest", all_moves=False)
        if result.win_in != puzzle.goal.plays:
            return [f"goal says win in {puzzle.goal.plays}, the fastest win takes {result.win_in}"]
    if puzzle.goal.type is GoalType.WIN_WITH_BOMB:
        plays = MainLine(puzzle).solver_plays()
        if not any(p.is_bomb for p in plays):
            return ["goal says win with a bomb, the main line has none"]
        try:
            if wins_without_bombs(puzzle.position, solver):
                return ["goal says win with a bomb, but a forced win needs no bomb or rocket"]
        except SearchTooBig as error:
            return [str(error)]
    return []


def check_realism(puzzle: Puzzle) -> list[str]:
    """The position comes from a game a sensible player could reach (:mod:`tutor.puzzles.realism`)."""
    return player_count_problems(puzzle.position) + impossible_passes(puzzle.position)


def check_setup(puzzle: Puzzle, solver: SolverLike) -> list[str]:
    """No move of the set-up (the table play, the passes after it) threw away a forced win."""
    try:
        return thrown_wins(puzzle.position, solver)
    except SearchTooBig as error:
        return [str(error)]


def check_spoiler(puzzle: Puzzle) -> list[str]:
    """The goal line must not give the answer away.

    "Win with a bomb" is allowed only when the bomb comes later in the
    solution: when the first move is the bomb (or the rocket), the goal line
    says what to play.
    """
    if puzzle.goal.type is not GoalType.WIN_WITH_BOMB:
        return []
    first = find_move(puzzle.position, puzzle.first_move)
    if first is not None and first.is_bomb:
        return [f"spoiler: the goal says 'win with a bomb' and the first move is the bomb {first.text}"]
    return []


def check_tree(puzzle: Puzzle, solver: SolverLike) -> list[str]:
    side = puzzle.solver_side
    problems: list[str] = []

    def walk(pos: Position, node: Node, path: list[str]) -> None:
        move = find_move(pos, node.move)
        here = path + [node.move]
        if pos.roles[pos.to_move] is side and len(here) > 1:
            verdict = solver.is_winning_move(pos, move)
            if verdict is not True:
                problems.append(f"{' '.join(here)}: {node.move!r} does not win" if verdict is False
                                else f"{' '.join(here)}: the solver ran out of budget")
                return
        after = pos.after(move)
        for child in node.replies:
            walk(after, child, here)

    walk(puzzle.position, puzzle.solution, [])
    return problems


def check_themes(puzzle: Puzzle) -> list[str]:
    found = tag(puzzle)
    if sorted(found) != sorted(puzzle.themes):
        return [f"themes {sorted(puzzle.themes)} but the predicates say {sorted(found)}"]
    return []


def check_rating(puzzle: Puzzle, full: bool = False) -> list[str]:
    """The rating comes from the measured signals stored with the puzzle, and they still hold."""
    stored = puzzle.difficulty
    if stored is None:
        return []
    problems = []
    if round(puzzle.rating) != stored.rating:
        problems.append(f"rating {round(puzzle.rating)} but the signals give {stored.rating}")
    pos = puzzle.position
    answer = find_move(pos, puzzle.first_move)
    losing = plausible_losing_moves(pos, [answer])
    naive = naive_share(pos, answer)
    if len(losing) != stored.plausible_losing or abs(naive - stored.naive) > 0.001:
        problems.append(f"signals changed: {len(losing)} plausible mistakes, naive {naive:.3f} "
                        f"(stored {stored.plausible_losing}, {stored.naive:.3f})")
    if full:
        tempting = len(tempting_moves(pos, losing))
        if tempting != stored.tempting:
            problems.append(f"signals changed: {tempting} tempting mistakes (stored {stored.tempting})")
        if stored.solved_by is not None:  # the calibration's attempts (bots and the quick policy) again
            from tutor.puzzles.calibration import solved_by

            again = solved_by(puzzle)
            if set(again) != set(stored.solved_by):
                problems.append(f"solved by {list(again)} now (stored {list(stored.solved_by)})")
    return problems


def check_toughest_defence(puzzle: Puzzle, solver: SolverLike) -> list[str]:
    """At each defending turn of the main line, the first reply lasts the longest."""
    side = puzzle.solver_side
    pos = puzzle.position
    node = puzzle.solution
    problems = []
    while True:
        pos = pos.after(find_move(pos, node.move))
        if pos.is_over or not node.replies:
            break
        node = node.replies[0]
        if pos.roles[pos.to_move] is not side:
            best = -1
            values = {}
            for move in pos.legal_moves():
                after = pos.after(move)
                if after.is_over:
                    return [f"the defence {move!r} ends the game for the defenders"]
                value = solver.solve(after, "fastest", all_moves=False).win_in
                values[move] = -1 if value is None else value
                best = max(best, values[move])
            chosen = find_move(pos, node.move)
            if values.get(chosen) != best:
                problems.append(f"defence {node.move!r} is not the toughest (it allows {values.get(chosen)}, best {best})")
    return problems


def verify(puzzle: Puzzle, solver: SolverLike, full: bool = False) -> Verdict:
    """All checks on one puzzle (``full`` adds the toughest-defence check)."""
    started = time.perf_counter()
    verdict = Verdict(puzzle.id)
    try:
        verdict.problems += check_realism(puzzle)
        verdict.problems += check_spoiler(puzzle)
        verdict.problems += check_only_move(puzzle, solver)
        if not verdict.problems:
            verdict.problems += check_setup(puzzle, solver)
            verdict.problems += check_goal(puzzle, solver)
            verdict.problems += check_tree(puzzle, solver)
            verdict.problems += check_themes(puzzle)
            verdict.problems += check_rating(puzzle, full)
            if full:
                verdict.problems += check_toughest_defence(puzzle, solver)
    except ValueError as error:
        verdict.problems.append(str(error))
    verdict.seconds = time.perf_counter() - started
    return verdict


def verify_all(
    puzzles: Iterable[Puzzle],
    solver_factory: SolverFactory,
    full: bool = False,
    progress: Callable[[Verdict], None] | None = None,
) -> Iterator[Verdict]:
    """Verify puzzles one by one, a fresh solver each (independent, reproducible checks)."""
    for puzzle in puzzles:
        verdict = verify(puzzle, solver_factory(), full)
        if progress:
            progress(verdict)
        yield verdict

