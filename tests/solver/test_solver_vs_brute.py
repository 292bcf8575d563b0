"""The solver against an independent brute-force minimax on random small positions.

Same result, the same SET of winning root moves, and (fastest) the same
shortest forced win, for 2 and 3 players, leading and following.

Each test checks a sample of its sweep (``SAMPLE``: the first positions of the same random
sequence); the whole sweeps, four times as many positions, are ``benchmarks/solver_vs_brute.py``.
"""

from __future__ import annotations

import random

import pytest

from solver_brute import Brute, root_state
from tutor.engine.cards import DECK_COUNTS, NUM_RANKS, Cards
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Role, Solver


def _deck() -> list[int]:
    return [r for r in range(NUM_RANKS) for _ in range(DECK_COUNTS[r])]


def random_position(rng: random.Random, players: int, max_cards: int, with_table: bool) -> Position:
    """Random hands of 1..max_cards cards, random landlord, optional table play.

    Cards are drawn from a narrow band of ranks half of the time, so that
    chains, trios and bombs turn up often enough to matter.
    """
    deck = _deck()
    if rng.random() < 0.5:
        low = rng.randrange(0, 9)
        deck = [r for r in deck if low <= r < low + 7 or r >= 12]
    rng.shuffle(deck)
    hands = []
    for _ in range(players):
        size = rng.randint(1, max_cards)
        hand, deck = deck[:size], deck[size:]
        hands.append(Cards.from_ranks(hand))
    roles = [Role.FARMER] * players
    roles[rng.randrange(players)] = Role.LANDLORD
    table = None
    table_by = None
    if with_table:
        spare = Cards.from_ranks(deck[: rng.randint(1, 6)])
        moves = lead_moves_packed(spare.packed)
        table = rng.choice(moves)
        table_by = rng.choice(range(1, players))
    return Position(tuple(hands), tuple(roles), 0, table, table_by, rules=STANDARD)


def _brute_for(pos: Position) -> tuple[Brute, tuple]:
    landlord = pos.roles.index(Role.LANDLORD)
    brute = Brute(landlord, pos.players)
    state = root_state(pos.packed, pos.table, pos.table_by if pos.table is not None else 0)
    return brute, state


def _check(pos: Position, solver: Solver) -> None:
    brute, state = _brute_for(pos)
    expected = brute.mover_wins(state)
    expected_moves = brute.winning_moves(state)
    got = solver.solve(pos, all_moves=True)
    assert got.mover_wins is expected, pos
    assert set(got.winning_moves) == expected_moves, pos
    # The line is legal and ends with the predicted winner going out.
    p = pos
    for player, move in got.line:
        assert player == p.to_move
        p = p.after(move)
    assert p.is_over
    assert (p.winner is pos.roles[0]) is expected


#: The positions of each sweep in the benchmark; the tests check the first 1/SAMPLE of them.
FULL = {"random-2": 700, "random-3": 500, "fresh": 150, "fastest-2": 250, "fastest-3": 150, "cores": 400}
SAMPLE = 4


def sweep_random(players: int, with_table: bool, count: int) -> int:
    rng = random.Random(1000 * players + with_table)
    solver = Solver(rules=STANDARD)
    for i in range(count):
        pos = random_position(rng, players, 6 if players == 2 else (5 if i % 5 == 0 else 4), with_table)
        _check(pos, solver)
    return count


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("with_table", [False, True])
def test_random_positions_match_brute_force(players: int, with_table: bool) -> None:
    sweep_random(players, with_table, FULL[f"random-{players}"] // SAMPLE)


def sweep_fresh(count: int) -> int:
    rng = random.Random(7)
    shared = Solver(rules=STANDARD)
    for _ in range(count):
        pos = random_position(rng, rng.choice([2, 3]), 5, rng.random() < 0.5)
        a = shared.solve(pos)
        b = Solver(rules=STANDARD).solve(pos)
        assert a.mover_wins == b.mover_wins
        assert set(a.winning_moves) == set(b.winning_moves)
    return count


def test_fresh_solver_agrees_with_shared_solver() -> None:
    """Transposition entries from earlier solves never leak wrong answers."""
    sweep_fresh(FULL["fresh"] // SAMPLE)


def sweep_fastest(players: int, count: int) -> int:
    rng = random.Random(42 + players)
    solver = Solver(rules=STANDARD)
    for _ in range(count):
        pos = random_position(rng, players, 5 if players == 2 else 4, rng.random() < 0.5)
        brute, state = _brute_for(pos)
        mover_team = brute.team(0)
        winner_team = mover_team if brute.mover_wins(state) else 1 - mover_team
        expected = brute.plays_to_win(state, winner_team)
        got = solver.solve(pos, objective="fastest")
        assert got.win_in == expected, pos
        # The fastest line really takes that many plays of the winner.
        p = pos
        winner_role = Role.LANDLORD if winner_team == 0 else Role.FARMER
        plays = 0
        for player, move in got.line:
            if move is not None and pos.roles[player] is winner_role:
                plays += 1
            p = p.after(move)
        assert p.winner is winner_role
        assert plays == expected, pos
    return count


@pytest.mark.parametrize("players", [2, 3])
def test_fastest_matches_brute_force_depth(players: int) -> None:
    sweep_fastest(players, FULL[f"fastest-{players}"] // SAMPLE)


def sweep_cores(count: int) -> int:
    from tutor.solver.search import Budget, TeamSearch, TwoPlayerSearch
    from tutor.solver.tables import HandTables, table_code

    rng = random.Random(99)
    tables = HandTables(rules=STANDARD)
    two = TwoPlayerSearch(tables)
    two.budget = Budget(None, None)
    teams = {}
    for _ in range(count):
        pos = random_position(rng, 2, 8, rng.random() < 0.5)
        sides = tuple(0 if r is Role.LANDLORD else 1 for r in pos.roles)
        team = teams.get(sides)
        if team is None:
            team = teams[sides] = TeamSearch(tables, sides)
            team.budget = Budget(None, None)
        code = table_code(pos.table) if pos.table else 0
        a = two.win(pos.packed[0], pos.packed[1], code, pos.table)
        b = team.win(pos.packed, 0, code, pos.table, pos.table_by or 0 if code else 0)
        assert a == b, pos
    return count


def test_two_player_core_matches_team_core() -> None:
    """The negamax two-player core and the general team core agree.

    The two-player core prunes dominated moves and normalises tables, the
    team core does neither for farmers, so this checks those prunings on
    positions larger than the brute force can take.
    """
    sweep_cores(FULL["cores"] // SAMPLE)
