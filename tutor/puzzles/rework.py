"""Bring an existing puzzle file up to today's rules: ``python -m tutor.puzzles.rework [--ratings] FILE…``.

The library was generated before three rules existed (issue 21): every
position has three hands, no set-up move throws away a forced win, and no goal
line names the answer.  Regenerating from scratch would throw away puzzles
that are fine, so each puzzle is put through the generator again
(:meth:`tutor.puzzles.generate.Generator.examine`):

* a duel (two hands) gets its third player, a farmer who is out of it
  (:func:`tutor.puzzles.generate.with_idle_farmer`, seeded by the puzzle's
  id, so a rerun gives the same hands);
* the position is proven again: one winning first move, no thrown win in the
  set-up, a goal that does not give the answer away, the themes, and the
  rating from the measured difficulty;
* a puzzle that fails is dropped, and the count of each reason is printed.

Composed puzzles keep their title and note.  The files are rewritten in
place (atomically); ids of converted duels change, since the position does.
``--ratings`` only recomputes each rating from the signals stored with the
puzzle (after the calibration changes; no solver).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path

from tutor.puzzles.generate import Candidate, Generator, Limits, SolverFactory, with_idle_farmer
from tutor.puzzles.library import dump_file, load_file, read_yaml
from tutor.puzzles.model import Puzzle

#: The proof budget of a reworked puzzle: a duel with its third hand searches a little more.
REWORK_LIMITS = Limits(max_root_nodes=80_000)


def rework(puzzle: Puzzle, generator: Generator) -> tuple[Puzzle | None, str]:
    """The puzzle under today's rules, or None and the reason it is dropped."""
    pos = puzzle.position
    if pos.players == 2:
        converted = with_idle_farmer(pos, random.Random(int(puzzle.id, 16)))
        if converted is None:
            return None, "no card left for an idle third hand"
        pos = converted
    made = generator.examine(Candidate(pos, puzzle.source))
    if made is None:
        return None, "no longer a puzzle (thrown win in the set-up, several wins, or too small)"
    if puzzle.source.kind != "generated":
        made = replace(made, title=puzzle.title)
    return made, "kept" if pos is puzzle.position else "duel given its third player"


def rework_file(path: Path, solver_factory: SolverFactory, counts: Counter[str]) -> list[Puzzle]:
    """Rework every puzzle of ``path`` and rewrite it; returns the puzzles kept."""
    generator = Generator(solver_factory, REWORK_LIMITS)
    kept = []
    for puzzle in load_file(path):
        made, why = rework(puzzle, generator)
        counts[why] += 1
        if made is not None:
            kept.append(made)
    description = read_yaml(path).get("description")
    dump_file(kept, path, description=description)
    return kept


def rerate_file(path: Path) -> None:
    """Only the ratings again, from the signals stored with each puzzle (after a change of
    :func:`tutor.puzzles.difficulty.estimate_rating`: no solver needed)."""
    puzzles = [replace(p, rating=p.difficulty.rating) if p.difficulty is not None else p for p in load_file(path)]
    dump_file(puzzles, path, description=read_yaml(path).get("description"))


def main(paths: Iterable[str]) -> int:
    from tutor.engine.rules import STANDARD
    from tutor.solver.solver import Solver

    names = list(paths)
    if names and names[0] == "--ratings":
        for name in names[1:]:
            rerate_file(Path(name))
        return 0
    counts: Counter[str] = Counter()
    for name in names:
        path = Path(name)
        kept = rework_file(path, partial(Solver, max_nodes=2_000_000, rules=STANDARD), counts)
        print(f"{path.name}: {len(kept)} puzzles kept", flush=True)
    for why, n in counts.most_common():
        print(f"  {n:4d}  {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
