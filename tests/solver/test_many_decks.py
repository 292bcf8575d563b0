"""The exact search with two decks (tutor/solver/many_decks.py; RULES §12.4): four seats, long bombs.

Checked against a plain minimax over :meth:`Position.after` on random small four-player endgames,
and on a position where a team-search shortcut (a bomb's code without its size) would be wrong.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from tutor.engine.cards import Cards, pack
from tutor.engine.game import Game
from tutor.engine.rules import FOUR, UnsupportedRulesError
from tutor.solver.position import Position, Role
from tutor.solver.solver import Solver


def _brute(pos: Position) -> bool:
    """Does the side to move win?  Every move, no table, no shortcut."""

    @cache
    def win(p: Position) -> bool:
        if p.is_over:
            return p.winner is p.roles[p.to_move]
        me = p.roles[p.to_move]
        for m in p.legal_moves():
            child = p.after(m)
            if child.is_over:
                if child.winner is me:
                    return True
                continue
            v = win(child)
            if (v if child.roles[child.to_move] is me else not v):
                return True
        return False

    return win(pos)


def _endgame(rng: random.Random) -> Position:
    deck = [r for r, n in enumerate(FOUR.deck) for _ in range(n)]
    rng.shuffle(deck)
    sizes = [rng.randint(1, 3) for _ in range(4)]
    hands, start = [], 0
    for n in sizes:
        counts = [0] * 15
        for r in deck[start : start + n]:
            counts[r] += 1
        hands.append(Cards(pack(counts)))
        start += n
    game = Game.at_trick(hands, rng.randrange(4), rng.randrange(4), rules=FOUR)
    return Position.from_game(game, from_mover=True)


@pytest.mark.parametrize("seed", range(12))
def test_rules_12_4_four_player_endgames_agree_with_plain_minimax(seed: int) -> None:
    pos = _endgame(random.Random(seed))
    result = Solver(rules=FOUR, max_nodes=200_000).solve(pos, "win", line=False)
    assert result.complete and result.mover_wins == _brute(pos)
    for move in result.winning_moves:
        child = pos.after(move)
        assert child.is_over or _brute(child) == (child.roles[child.to_move] is pos.roles[pos.to_move])


def test_rules_12_4_a_longer_lower_bomb_is_told_from_a_shorter_higher_one() -> None:
    # The landlord (to move) holds four kings and a 4, the farmer across five 3s: the kings' bomb is
    # answered by the longer bomb of threes, which a table code of kind and main alone would miss.
    hands = [Cards.parse("KKKK4", FOUR.deck), Cards.parse("5", FOUR.deck), Cards.parse("33333", FOUR.deck),
             Cards.parse("6", FOUR.deck)]
    pos = Position.from_game(Game.at_trick(hands, 0, 0, rules=FOUR), from_mover=True)
    assert pos.roles[0] is Role.LANDLORD
    result = Solver(rules=FOUR, max_nodes=100_000).solve(pos, "win", line=False)
    assert result.mover_wins == _brute(pos)


def test_the_compiled_core_refuses_two_decks_and_the_default_falls_back_to_python() -> None:
    from tutor.solver.native import available

    if available():
        with pytest.raises(UnsupportedRulesError):
            Solver(rules=FOUR, native=True)
    Solver(rules=FOUR)  # the Python search serves it
    pos = _endgame(random.Random(1))
    with pytest.raises(UnsupportedRulesError, match="one deck"):
        Solver(rules=FOUR).solve(pos, "fastest")
