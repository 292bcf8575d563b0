"""The solver on wildcard endgames (RULES §12.3): the Python search, checked against a plain minimax;
the compiled core refuses wild rules cleanly and the default falls back."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from tutor.engine.cards import DECK_COUNTS, Cards
from tutor.engine.combos import Kind, readings
from tutor.engine.rules import STANDARD, UnsupportedRulesError
from tutor.solver.native import available as native_available
from tutor.solver.position import Position, Role
from tutor.solver.solver import Solver


def _minimax(pos: Position) -> bool:
    """Does the side to move win?  Every legal move, nothing pruned."""

    @lru_cache(maxsize=None)
    def win(p: Position) -> bool:
        if p.winner is not None:
            return p.winner is p.roles[p.to_move]
        me = p.roles[p.to_move]
        for move in p.legal_moves():
            child = p.after(move)
            if child.winner is not None:
                if child.winner is me:
                    return True
            elif (child.roles[child.to_move] is me) == win(child):
                return True
        return False

    return win(pos)


def _positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    deck = [r for r, n in enumerate(DECK_COUNTS) for _ in range(n)]
    out = []
    while len(out) < count:
        rules = STANDARD.with_wild(rng.randrange(13))
        players = rng.choice([2, 3])
        pool = rng.sample(deck, 20)
        pool[0] = rules.wild_rank  # at least one wild card in play
        hands = []
        for _ in range(players):
            size = rng.randrange(2, 6)
            hands.append(Cards.from_ranks(pool[:size]))
            pool = pool[size:]
        roles = (Role.LANDLORD, Role.FARMER, Role.FARMER)[:players]
        found = readings(Cards.from_ranks(pool[: rng.randrange(1, 5)]), rules)
        table = rng.choice(found) if found and rng.random() < 0.5 else None
        out.append(Position(tuple(hands), roles, 0, table, players - 1 if table else None, rules=rules))
    return out


def test_rule_12_3_the_python_search_solves_wildcard_endgames_exactly() -> None:
    for pos in _positions(7, 40):
        assert Solver(rules=pos.rules, max_nodes=100_000).solve(pos, line=False).mover_wins == _minimax(pos), pos


def test_rule_12_3_bombs_soft_or_hard_compare_by_rank_in_the_search() -> None:
    rules = STANDARD.with_wild(6)  # 9 is wild
    soft = next(r for r in readings(Cards.parse("7779"), rules) if r.kind == Kind.BOMB)
    # (A hard bomb of the soft bomb's own rank would need a fifth natural card: one deck never has it.)
    for hand, wins in (("8888", True), ("6666", False), ("8899", True), ("6699", False)):
        pos = Position((Cards.parse(hand), Cards.parse("3")), (Role.FARMER, Role.LANDLORD), 0, soft, 1, rules=rules)
        assert Solver(rules=rules).solve(pos, line=False).mover_wins is wins, hand


@pytest.mark.skipif(not native_available(), reason="the compiled core is not built")
def test_rule_12_3_the_compiled_core_refuses_wild_rules_and_the_default_falls_back() -> None:
    rules = STANDARD.with_wild(6)
    with pytest.raises(UnsupportedRulesError, match="standard rules"):
        Solver(rules=rules, native=True)
    assert type(Solver(rules=rules)._two).__name__ == "WildTwoPlayerSearch"
