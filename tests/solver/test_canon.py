"""Rank compression (tutor/solver/canon.py) and the static checks the two-player
search relies on, each against the independent brute force or the engine."""

from __future__ import annotations

import random

from solver_brute import Brute, root_state
from tutor.engine.cards import DECK_COUNTS, NUM_RANKS, Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver
from tutor.solver.canon import apply, build_plan, canonical, presence
from tutor.solver.tables import HandTables, table_code


def _deal(rng: random.Random, max_cards: int) -> tuple[int, int, Combo | None]:
    """Two random hands (often from a band of ranks far from 3, so that the
    compression has work to do) and an optional table play from the rest."""
    deck = [r for r in range(NUM_RANKS) for _ in range(DECK_COUNTS[r])]
    if rng.random() < 0.6:
        low = rng.randrange(1, 8)
        deck = [r for r in deck if low <= r < low + rng.randint(4, 7) or (r >= 12 and rng.random() < 0.3)]
    rng.shuffle(deck)
    a_n = rng.randint(1, max_cards)
    b_n = rng.randint(1, max_cards)
    a = Cards.from_ranks(deck[:a_n]).packed
    b = Cards.from_ranks(deck[a_n : a_n + b_n]).packed
    rest = deck[a_n + b_n :]
    table = None
    if rest and rng.random() < 0.5:
        spare = Cards.from_ranks(rest[: rng.randint(1, 6)]).packed
        table = rng.choice(lead_moves_packed(spare))
    return a, b, table


def _shape(moves: list[Combo]) -> list[tuple[int, int]]:
    return sorted((int(m.kind), m.length) for m in moves)


def test_compression_keeps_every_move_shape_and_the_order_of_mains() -> None:
    """Each hand has the same moves (kind, length, card count) after compression,
    and every move maps onto a move: the games are isomorphic."""
    rng = random.Random(5)
    moved = 0
    for _ in range(1500):
        a, b, _table = _deal(rng, 12)
        plan = build_plan(presence(a), presence(b))
        if plan is None:
            continue
        moved += 1
        segments, rank_map = plan
        for hand in (a, b):
            small = apply(segments, hand)
            before = lead_moves_packed(hand)
            after = lead_moves_packed(small)
            assert _shape(before) == _shape(after), (Cards(hand), Cards(small))
            mapped = {(apply(segments, m.cards), m.kind, m.length, rank_map[m.main + 1]) for m in before}
            assert mapped == {tuple(m) for m in after}, (Cards(hand), Cards(small))
    assert moved > 500


def test_compression_is_idempotent_and_never_raises_a_rank() -> None:
    rng = random.Random(6)
    for _ in range(1000):
        a, b, _table = _deal(rng, 15)
        ca, cb, _ = canonical(a, b)
        assert build_plan(presence(ca), presence(cb)) is None
        assert len(Cards(ca)) == len(Cards(a)) and len(Cards(cb)) == len(Cards(b))
        for hand, small in ((a, ca), (b, cb)):
            # Ranks only move down, and 2s and jokers never move.
            assert small >> 48 == hand >> 48
            assert all(x <= y for x, y in zip(Cards(small).ranks(), Cards(hand).ranks()))


def test_compressed_position_has_the_brute_force_value_of_the_original() -> None:
    """Invariance: original and compressed position (table main mapped) have the
    same value and the same number of winning moves, by brute force."""
    rng = random.Random(8)
    checked = 0
    for _ in range(250):
        a, b, table = _deal(rng, 5)
        plan = build_plan(presence(a), presence(b))
        if plan is None:
            continue
        ca, cb, main = canonical(a, b, None if table is None else table.main)
        small_table = None if table is None else Combo(0, Kind(table.kind), table.length, main)
        original = Brute(0, 2)
        compressed = Brute(0, 2)
        s1 = root_state((a, b), table, 1)
        s2 = root_state((ca, cb), small_table, 1)
        assert original.mover_wins(s1) == compressed.mover_wins(s2), (Cards(a), Cards(b), table)
        assert len(original.winning_moves(s1)) == len(compressed.winning_moves(s2))
        checked += 1
    assert checked > 80


def test_solver_on_spread_out_positions_matches_brute_force() -> None:
    """The solver (which searches compressed positions) against the brute force
    on positions whose ranks are far apart, with and without a table."""
    rng = random.Random(11)
    solver = Solver(native=False, rules=STANDARD)  # compression is a feature of the Python search
    solver._two.compress_from = 0  # compress every position, however small
    for _ in range(200):
        a, b, table = _deal(rng, 6)
        pos = Position((Cards(a), Cards(b)), Position.parse("L:3 F:4").roles, 0, table, 1 if table else None, rules=STANDARD)
        brute = Brute(0, 2)
        state = root_state((a, b), table, 1)
        got = solver.solve(pos)
        assert got.mover_wins is brute.mover_wins(state), pos
        assert set(got.winning_moves) == brute.winning_moves(state), pos


def test_compressed_search_matches_uncompressed_search_on_larger_positions() -> None:
    """Positions too big for the brute force: the two-player search with and
    without rank compression (separate tables) gives the same value."""
    from tutor.solver.search import Budget, TwoPlayerSearch

    rng = random.Random(14)
    on = TwoPlayerSearch(HandTables(rules=STANDARD), compress=True, compress_from=0)
    off = TwoPlayerSearch(HandTables(rules=STANDARD), compress=False)
    on.budget = Budget(None, None)
    off.budget = Budget(None, None)
    for _ in range(150):
        a, b, table = _deal(rng, 10)
        code = table_code(table) if table is not None else 0
        assert on.win(a, b, code, table) == off.win(a, b, code, table), (Cards(a), Cards(b), table)
