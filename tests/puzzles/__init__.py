"""Tests of tutor.puzzles (a package, so that test module names cannot clash with other areas)."""
