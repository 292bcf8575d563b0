"""The fast paths of engine.Game are caches, not second truths: stepped side by side, move for move.

* the rollouts' game, built unchecked from a view and a sample
  (``Game.from_view(..., checked=False)``), which the hard bot and the coach's
  evaluations step millions of times;
* the solver's :class:`~tutor.solver.position.Position` (and through it the search;
  the compiled core is checked against the Python search in tests/solver/test_native.py).

Random legal games from many deals — classic, rob and open-hand rule sets — are
played on a :class:`Game`, and every copy must agree at every step: whose turn,
the table, the hands, the legal moves, the views every seat gets, the winner.
"""

from __future__ import annotations

import random

import pytest

from tutor.engine.actions import Open, Play
from tutor.engine.game import Game
from tutor.engine.rules import OPEN, ROB_OPEN, STANDARD, Rules
from tutor.solver.position import Position

GAMES = 12


def _random_game(number: int, rules: Rules) -> tuple[Game, random.Random]:
    """A game from ``number``'s deal after a random legal auction (and a random open-hand choice)."""
    rng = random.Random(number)
    game = Game(number, rules)
    while game.landlord is None:
        game.apply(rng.choice(game.legal_actions()))
    if game.can_open() and rng.random() < 0.5:
        game.apply(Open())
    return game, rng


@pytest.mark.parametrize("rules", [STANDARD, ROB_OPEN, OPEN], ids=lambda r: r.name)
def test_play_sim_and_position_step_like_the_game_move_for_move(rules: Rules) -> None:
    for number in range(GAMES):
        game, rng = _random_game(number, rules)
        seat = game.to_move
        base = game.view(seat)
        others = {s: game.hand(s) for s in range(3) if s != seat}
        sim = Game.from_view(base, {s: h.packed for s, h in others.items()}, checked=False)
        position = Position.from_game(game)
        # Converters agree with each other: the game rebuilt from a view and the truth.
        rebuilt = Game.from_view(base, others)
        assert rebuilt.view(seat) == base and rebuilt.opened == game.opened and rebuilt.robs == game.robs
        winner = None
        while not game.is_over:
            moves = game.legal_moves()
            assert sorted(map(repr, moves)) == sorted(map(repr, position.legal_moves()))  # the same set, any order
            assert [Play(m) for m in moves] == [a for a in game.legal_actions() if isinstance(a, Play)]
            move = rng.choice(moves)
            game.play(move)
            sim.push(move)
            winner = sim.winner
            position = position.after(move)
            if winner is not None:
                break
            assert sim.to_move == game.to_move == position.to_move
            assert sim.table == game.table == position.table
            assert sim.table_seat == game.table_seat == position.table_by
            assert sim.hands_packed == game.hands_packed == position.packed
            for s in range(3):
                assert sim.view(s) == game.view(s), f"deal {number}, seat {s}"
        assert game.is_over and winner == game.winner
        assert position.winner is not None and (position.winner.value == "L") == game.landlord_won
