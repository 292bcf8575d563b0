"""Every shipped puzzle re-proven by the solver: only move, stated result, solution tree, themes.

This is the CI check behind the promise "exactly one winning first move".  The
positions were generated small (and with a bounded proof) so that the whole
library verifies in seconds; `ddz puzzles validate --full` adds the
toughest-defence check.

The proofs are cached (tests/verdicts.py): a puzzle whose content, and whose solver, puzzle and
engine code, are those of a recorded good verdict is not proven again; any other puzzle is, and
every ``SAMPLE``-th puzzle of the library is proven on every run all the same.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from tests.verdicts import Verdicts, digest
from tutor.engine.rules import STANDARD
from tutor.puzzles.library import load_library
from tutor.puzzles.model import Puzzle
from tutor.puzzles.verify import verify_all
from tutor.solver.solver import Solver

#: The solver's budget for one proof (part of each verdict's key: another budget, another proof).
MAX_NODES = 2_000_000
#: Every SAMPLE-th puzzle is proven on every run, cached or not (a check of the check).
SAMPLE = 40


def _key(puzzle: Puzzle) -> str:
    return digest({"puzzle": puzzle.to_data(), "max_nodes": MAX_NODES, "full": False})


def _prove(puzzles: list[Puzzle]) -> dict[str, list[str]]:
    """Each puzzle's problems (empty: proven)."""
    return {v.puzzle_id: v.problems for v in verify_all(puzzles, partial(Solver, max_nodes=MAX_NODES, rules=STANDARD))}


def puzzle_verdicts() -> dict[str, Any]:
    """The good verdicts of the whole library (``python -m tests.verdicts`` writes them)."""
    library = list(load_library(check=True))
    found = _prove(library)
    for puzzle_id, problems in found.items():
        if problems:
            print(f"NOT proven, not recorded: {puzzle_id}: {problems}")
    return {_key(p): {"id": p.id} for p in library if not found[p.id]}


def test_every_shipped_puzzle_is_proven_by_the_solver() -> None:
    cache = Verdicts("puzzles")
    library = list(load_library())  # the files' structure: test_library.py
    todo = [p for i, p in enumerate(library) if i % SAMPLE == 0 or cache.get(_key(p)) is None]
    print(f"\n{cache.note()}; proving {len(todo)} of {len(library)} puzzles")
    failures = {puzzle_id: problems for puzzle_id, problems in _prove(todo).items() if problems}
    assert not failures, failures
