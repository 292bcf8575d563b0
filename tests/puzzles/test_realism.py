"""Realistic positions only (issue 14): no impossible pass, no "win with a bomb" that a bomb-free line wins."""

from __future__ import annotations

from functools import partial

import pytest

from tutor.engine.rules import STANDARD
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
    assert wins_without_bombs(pos, Solver(rules=STANDARD))


def test_a_real_bomb_finish_needs_the_bomb() -> None:
    # 46c9b5: the landlord played 44KKK and holds a K; only 7777 then 55 wins.
    pos = Position.parse("F:557777 L:K", beat="44KKK", beat_by=1)
    assert not wins_without_bombs(pos, Solver(rules=STANDARD))
    assert not wins_without_bombs(pos)  # the same answer without the solver's pruning


def test_the_generator_skips_unreachable_candidates() -> None:
    players, table = AUDITED["2f87ec"]
    pos = Position.parse(players, beat=table, beat_by=1)
    assert Generator(partial(Solver, rules=STANDARD)).examine(Candidate(pos, Source("composed"))) is None


# ------------------------------------------------------------- issue 21: set-up and three players
def test_the_set_up_is_the_table_play_as_a_lead_then_the_passes() -> None:
    from tutor.puzzles.realism import setup_moves

    pos = Position.parse("F:9K F:4 L:Q2X", beat="8", beat_by=1)
    steps = setup_moves(pos)
    assert [(before.to_move, move) for before, move in steps] == [(1, pos.table), (2, None)]
    assert str(steps[0][0].hands[1]) == "48" and steps[0][0].table is None
    assert setup_moves(Position.parse("F:9K F:4 L:Q2X")) == []


def test_a_farmer_who_can_beat_nothing_is_out_of_it() -> None:
    from tutor.puzzles.realism import out_of_it

    assert out_of_it(Position.parse("L:77Q F:6TQA F:3")) == 2
    assert out_of_it(Position.parse("L:77Q F:3 F:6TQA")) == 1
    # A 3 beats nothing, but a 4 beats the farmer's 3: then both farmers are in the game.
    assert out_of_it(Position.parse("L:77Q F:36TA F:4")) is None
    # A pair of 5s would beat the landlord's pair of 4s some day.
    assert out_of_it(Position.parse("L:44Q F:6TQA F:55")) is None
    # A bomb beats anything.
    assert out_of_it(Position.parse("L:77Q F:6TQA F:3333")) is None
    # The landlord is never "out of it", and two hands have no third player.
    assert out_of_it(Position.parse("L:3 F:6TQA F:77Q")) is None
    assert out_of_it(Position.parse("L:77Q F:6TQA")) is None


def test_a_duel_gets_a_third_player_who_is_out_of_it() -> None:
    import random

    from tutor.puzzles.generate import with_idle_farmer
    from tutor.puzzles.realism import out_of_it

    duel = Position.parse("L:77Q F:6TQA", beat="5", beat_by=1)
    for seed in range(20):
        three = with_idle_farmer(duel, random.Random(seed))
        assert three is not None and three.players == 3
        idle = out_of_it(three)
        assert idle is not None and three.hands[idle].packed and max(three.hands[idle].ranks()) <= 2  # 3, 4 or 5
        others = [h for i, h in enumerate(three.hands) if i != idle]
        assert [str(h) for h in others] == ["77Q", "6TQA"] and three.to_move == 0
        assert three.table_by is not None and three.hands[three.table_by] == duel.hands[1]
    # Every 3 taken by the two hands: no card is left that can beat nothing.
    assert with_idle_farmer(Position.parse("L:333Q F:36A"), random.Random(0)) is None


def test_the_generator_makes_only_three_player_puzzles_with_a_fair_set_up() -> None:
    generator = Generator(partial(Solver, rules=STANDARD))
    source = Source("composed", note="test")
    assert generator.examine(Candidate(Position.parse("L:77Q F:6TQA"), source)) is None
    assert generator.examine(Candidate(Position.parse("L:77Q F:6TQA F:3"), source)) is not None
    # The landlord threw his win away by passing the 8 (X 2 Q was a forced win): no puzzle.
    thrown = Position.parse("F:9K F:4 L:Q2X", beat="8", beat_by=1)
    assert Solver(rules=STANDARD).solve(thrown, "win").winning_moves == [None]  # pass is the farmers' only win …
    assert generator.examine(Candidate(thrown, source)) is None  # … yet it is no puzzle
