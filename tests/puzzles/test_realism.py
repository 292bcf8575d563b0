"""Realistic positions only (issue 14): no impossible pass, no "win with a bomb" that a bomb-free line wins."""

from __future__ import annotations

import pytest

from tutor.puzzles.generate import Candidate, Generator
from tutor.puzzles.model import Source
from tutor.puzzles.realism import impossible_passes, wins_without_bombs
from tutor.solver import Position, Solver

#: The five puzzles the audit found (removed from the library): the landlord "passed" a
#: play his last card beat, which would have ended the game.
AUDITED = {
    "2f87ec": ("F:333377 F:7J L:A", "Q"),
    "20973f": ("F:TTQQQQ F:457J L:A", "9"),
    "2576a9": ("F:9999JJ F:358T L:A", "8"),
    "3a9940": ("F:59999T F:345K2X L:2", "5"),
    "125aee": ("F:39JJJJ F:5668TK L:Q", "5"),
}


@pytest.mark.parametrize("ident", sorted(AUDITED))
def test_the_audited_positions_are_rejected_as_unreachable(ident: str) -> None:
    players, table = AUDITED[ident]
    problems = impossible_passes(Position.parse(players, beat=table, beat_by=1))
    assert len(problems) == 1 and "passed" in problems[0] and "landlord" in problems[0]


def test_a_pass_by_a_seat_that_cannot_go_out_is_fine() -> None:
    # The landlord's A cannot beat a 2: passing was his only choice.
    assert impossible_passes(Position.parse("F:333377 F:7J L:A", beat="2", beat_by=1)) == []
    # Nobody passed: the play on the table came from the seat just before the mover.
    assert impossible_passes(Position.parse("F:333377 F:7J L:A", beat="Q", beat_by=2)) == []


def test_125aee_has_a_forced_win_without_a_bomb() -> None:
    """9, K, pass, pass, 66, JJ, JJ, 3 — the bomb is not needed (as the audit said)."""
    pos = Position.parse("F:39JJJJ F:5668TK L:Q", beat="5", beat_by=1)
    assert wins_without_bombs(pos, Solver())


def test_a_real_bomb_finish_needs_the_bomb() -> None:
    # 46c9b5: the landlord played 44KKK and holds a K; only 7777 then 55 wins.
    pos = Position.parse("F:557777 L:K", beat="44KKK", beat_by=1)
    assert not wins_without_bombs(pos, Solver())
    assert not wins_without_bombs(pos)  # the same answer without the solver's pruning


def test_the_generator_skips_unreachable_candidates() -> None:
    players, table = AUDITED["2f87ec"]
    pos = Position.parse(players, beat=table, beat_by=1)
    assert Generator(Solver).examine(Candidate(pos, Source("composed"))) is None
