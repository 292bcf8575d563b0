"""Endgame puzzles with one solution: format, library, generator, themes, daily pick, ratings.

* :mod:`tutor.puzzles.model` — a puzzle as data (position, goal, solution tree, rating, source);
* :mod:`tutor.puzzles.library` — loading ``puzzles/*.yaml`` against ``puzzle.schema.json``;
* :mod:`tutor.puzzles.generate` — candidates → solver-checked puzzles (solver injected);
* :mod:`tutor.puzzles.verify` — re-proving a puzzle (CI and ``ddz puzzles validate``);
* :mod:`tutor.puzzles.themes` — one predicate per theme, and the tagger;
* :mod:`tutor.puzzles.difficulty` — the first rating estimate;
* :mod:`tutor.puzzles.daily` — today's puzzle, never repeated within a year;
* :mod:`tutor.puzzles.solving` — an attempt: checked moves, defences, hints, solution;
* :mod:`tutor.puzzles.glicko2` and :mod:`tutor.puzzles.progress` — ratings and progress in the store.

See docs/puzzles.md.
"""
