"""The ``score`` objective: the most bombs and rockets the winner can force.

Checked against a plain recursion over the test oracle (solver_brute): the
winner picks, among its moves that keep the win, the most bombs to come; the
loser the fewest.  Positions are dealt so that bombs and the rocket are common.  The test checks the first
100 positions of the sweep; ``benchmarks/solver_vs_brute.py`` runs all 300.
"""

from __future__ import annotations

import random

from solver_brute import Brute, root_state
from tutor.engine.cards import Cards
from tutor.engine.combos import Kind
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Role, Solver

BOMBS = (Kind.BOMB, Kind.ROCKET)


def brute_bombs(brute: Brute, state: tuple, winner_team: int, memo: dict) -> int:
    key = (state, winner_team)
    if key in memo:
        return memo[key]
    ours = brute.team(state[1]) == winner_team
    values = []
    for move, child, winner in brute.children(*state):
        bomb = 1 if move is not None and move.kind in BOMBS else 0
        if child is None:
            if winner == winner_team:
                values.append(bomb)
            continue
        landlord_wins = brute.landlord_wins(child)
        if ours and landlord_wins != (winner_team == 0):
            continue
        values.append(bomb + brute_bombs(brute, child, winner_team, memo))
    memo[key] = max(values) if ours else min(values)
    return memo[key]


def bomb_heavy_position(rng: random.Random, players: int) -> Position:
    """Small hands from a few ranks (four of a kind is common), jokers often in."""
    low = rng.randrange(0, 10)
    deck = [r for r in range(low, low + 3) for _ in range(4)] + [13, 14] * rng.randint(0, 1)
    deck += [rng.randrange(0, 13) for _ in range(3)]
    deck = [r for r in deck if r < 13 or deck.count(r) == 1]
    counts = {r: min(4, deck.count(r)) for r in set(deck)}
    deck = [r for r, n in counts.items() for _ in range(n)]
    rng.shuffle(deck)
    # Half the time somebody is dealt a whole rank: a bomb in hand.
    whole = [r for r, n in counts.items() if n == 4]
    gift = rng.randrange(players) if whole and rng.random() < 0.5 else None
    bomb = [rng.choice(whole)] * 4 if gift is not None else []
    deck = [r for r in deck if not bomb or r != bomb[0]]
    hands = []
    for k in range(players):
        size = rng.randint(0 if k == gift else 1, 3 if k == gift else 5)
        hands.append(Cards.from_ranks(deck[:size] + (bomb if k == gift else [])))
        deck = deck[size:]
    roles = [Role.FARMER] * players
    roles[rng.randrange(players)] = Role.LANDLORD
    table, table_by = None, None
    if deck and rng.random() < 0.4:
        table = rng.choice(lead_moves_packed(Cards.from_ranks(deck[:3]).packed))
        table_by = rng.choice(range(1, players))
    return Position(tuple(hands), tuple(roles), 0, table, table_by, rules=STANDARD)


def check_against_brute(pos: Position) -> int:
    """Assert the score search's bombs, best moves and line against the brute force; the bombs."""
    landlord = pos.roles.index(Role.LANDLORD)
    brute = Brute(landlord, pos.players)
    state = root_state(pos.packed, pos.table, pos.table_by if pos.table is not None else 0)
    mover_team = brute.team(0)
    mover_wins = brute.mover_wins(state)
    winner_team = mover_team if mover_wins else 1 - mover_team
    memo: dict = {}
    expected = brute_bombs(brute, state, winner_team, memo)
    got = Solver(rules=STANDARD).solve(pos, "score")
    assert got.mover_wins is mover_wins, pos
    assert got.bombs == expected, pos
    if mover_wins:
        best = set()
        for move, child, winner in brute.children(*state):
            bomb = 1 if move is not None and move.kind in BOMBS else 0
            if child is None:
                value = bomb if winner == winner_team else None
            elif brute.landlord_wins(child) == (winner_team == 0):
                value = bomb + brute_bombs(brute, child, winner_team, memo)
            else:
                value = None
            if value == expected:
                best.add(move)
        assert set(got.best_moves) == best, pos
    else:
        assert got.best_moves == []
    # the line is a legal game the winner wins, with exactly that many bombs
    p, played = pos, 0
    for player, move in got.line:
        assert player == p.to_move
        played += move is not None and move.kind in BOMBS
        p = p.after(move)
    assert p.is_over and played == expected, pos
    return expected


#: Positions of the whole sweep (the benchmark) and of the test's sample (its first ones).
FULL, SAMPLED = 300, 100


def sweep_score(count: int) -> tuple[int, int]:
    """(positions checked, positions where the winner forces a bomb) of the first ``count`` dealt."""
    rng = random.Random(2026)
    checked = bombs_seen = 0
    for i in range(count):
        pos = bomb_heavy_position(rng, 2 if i % 3 else 3)
        if pos.is_over or any(len(h) == 0 for h in pos.hands):
            continue
        expected = check_against_brute(pos)
        checked += 1
        bombs_seen += expected > 0
    return checked, bombs_seen


def test_score_matches_brute_force() -> None:
    checked, bombs_seen = sweep_score(SAMPLED)
    assert checked > 66 and bombs_seen > 16, (checked, bombs_seen)


def test_score_on_known_positions() -> None:
    got = Solver(rules=STANDARD).solve(Position.parse("L:3333XD F:KK"), "score")
    assert got.mover_wins and got.bombs == 2  # the rocket and the bomb, in either order
    assert {m.text for m in got.best_moves} == {"XD", "3333"}
    got = Solver(rules=STANDARD).solve(Position.parse("L:33334 F:5"), "score")
    assert got.bombs == 1 and [m.text for m in got.best_moves] == ["3333"]  # 4 first loses


def test_score_the_loser_denies() -> None:
    """A position of the whole sweep where the loser's one denying reply decides (issue 30, ninth pass: the
    score search asks "can the winner force k more?", and every reply of the loser must allow it)."""
    assert check_against_brute(Position.parse("F:345XD L:35K F:33455")) >= 0
