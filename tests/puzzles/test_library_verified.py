"""Every shipped puzzle re-proven by the solver: only move, stated result, solution tree, themes.

This is the CI check behind the promise "exactly one winning first move".  The
positions were generated small (and with a bounded proof) so that the whole
library verifies in seconds; `ddz puzzles validate --full` adds the
toughest-defence check.
"""

from __future__ import annotations

from functools import partial

from tutor.puzzles.library import load_library
from tutor.puzzles.verify import verify_all
from tutor.solver.solver import Solver


def test_every_shipped_puzzle_is_proven_by_the_solver() -> None:
    library = load_library(check=True)
    failures = {
        v.puzzle_id: v.problems
        for v in verify_all(library, partial(Solver, max_nodes=2_000_000))
        if not v.ok
    }
    assert not failures, failures
