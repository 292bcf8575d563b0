"""The compiled two-player search against the Python one it was written from.

Same answers on every position, the C one expanding fewer positions (it prunes
more); the move order keeps the proofs small (counted); the dominance pairs the C
code works out equal the Python ones; follow moves are the lead moves that beat
the table (the compiled search relies on it); budgets answer "unknown".
"""

from __future__ import annotations

import os
import random

import pytest

from tutor.engine.cards import DECK_COUNTS, NUM_RANKS, Cards
from tutor.engine.combos import beats
from tutor.engine.moves import follow_moves_packed, lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver, native
from tutor.solver.search import Budget, BudgetExceeded, TwoPlayerSearch
from tutor.solver.tables import HandTables, table_code

needs_native = pytest.mark.skipif(not native.available(), reason="the C solver core is not built here")


def _deck() -> list[int]:
    return [r for r in range(NUM_RANKS) for _ in range(DECK_COUNTS[r])]


def _hands(rng: random.Random, max_cards: int) -> tuple[int, int, tuple | None]:
    deck = _deck()
    if rng.random() < 0.6:  # a narrow band of ranks: chains, trios, kickers, bombs
        low = rng.randrange(0, 8)
        deck = [r for r in deck if low <= r < low + 7 or r >= 12]
    rng.shuffle(deck)
    a = Cards.from_ranks(deck[: rng.randint(1, max_cards)])
    rest = deck[len(a) :]
    b = Cards.from_ranks(rest[: rng.randint(1, max_cards)])
    table = None
    spare = rest[len(b) : len(b) + rng.randint(1, 6)]
    if spare and rng.random() < 0.5:
        table = rng.choice(lead_moves_packed(Cards.from_ranks(spare).packed))
    return a.packed, b.packed, table


def test_build_is_there_in_ci() -> None:
    """CI machines have a C compiler: the benchmark figures are the compiled search's."""
    if os.environ.get("CI"):
        assert native.available()


def test_follow_moves_are_the_lead_moves_that_beat_the_table() -> None:
    rng = random.Random(5)
    tables = HandTables(rules=STANDARD)
    for _ in range(600):
        a, b, _ = _hands(rng, 20)
        lead = lead_moves_packed(a)
        for table in rng.sample(lead_moves_packed(b), min(4, len(lead_moves_packed(b)))):
            expected = set(follow_moves_packed(a, table))
            assert expected == {m for m in lead if beats(m, table)}
            assert expected == set(tables.follow_moves(a, table_code(table), table))


@needs_native
def test_native_lead_moves_are_the_engines_in_its_order() -> None:
    """The C generator is lead_moves_packed move for move, in the same order
    (the order decides the search's tie-breaks, hence the node counts)."""
    from tutor.solver import _native  # type: ignore[attr-defined]

    rng = random.Random(13)
    for _ in range(3000):
        a, b, _ = _hands(rng, 20)
        for hand in (a, b):
            expected = [(int(m[0]), int(m[1]), int(m[2]), int(m[3])) for m in lead_moves_packed(hand)]
            assert _native.lead_moves(hand) == expected, Cards(hand)
    # every kind with wings, and both jokers (never together as wings)
    for text in ("333444555666789TXD", "3334445556667788XD", "22223344XD", "33334444", "KKKAAA22XD", "5555XD"):
        hand = Cards.parse(text).packed
        expected = [(int(m[0]), int(m[1]), int(m[2]), int(m[3])) for m in lead_moves_packed(hand)]
        assert _native.lead_moves(hand) == expected, text


@needs_native
def test_native_min_plays_equals_the_python_one() -> None:
    from tutor.solver import _native  # type: ignore[attr-defined]

    rng = random.Random(17)
    tables = HandTables(rules=STANDARD)
    for _ in range(1500):
        a, _, _ = _hands(rng, 17)
        assert _native.min_plays(a) == tables.min_plays(a), Cards(a)


@needs_native
def test_native_dominance_pairs_equal_the_python_ones() -> None:
    from tutor.solver import _native  # type: ignore[attr-defined]

    rng = random.Random(8)
    tables = HandTables(rules=STANDARD)
    for _ in range(400):
        a, _, _ = _hands(rng, 17)
        moves = tables.lead_moves(a)
        index = {m: i for i, m in enumerate(moves)}
        python = {(index[y], low, high, code) for y, low, high, code in tables.dominance_pairs(a, moves)}
        assert set(_native.dominance_pairs(a, moves)) == python, Cards(a)


@needs_native
def test_native_search_matches_python_search_answers_with_fewer_nodes() -> None:
    """The C search prunes more than the Python one (docs/solver.md: the table
    keeps immediate wins; plays the other hand goes out over are lost unsearched),
    so the two agree on every answer and the C one expands fewer positions in all."""
    rng = random.Random(21)
    py = TwoPlayerSearch(HandTables(rules=STANDARD), compress=True, compress_from=0)  # the C keys are rank-compressed
    c = native.NativeTwoPlayerSearch(HandTables(rules=STANDARD), STANDARD)
    py.budget = Budget(None, None)
    c.budget = Budget(None, None)
    for i in range(500):
        a, b, table = _hands(rng, 4 + i % 8)
        code = table_code(table) if table else 0
        assert py.win(a, b, code, table) == c.win(a, b, code, table), (Cards(a), Cards(b), table)
    assert 0 < c.nodes < py.nodes


@needs_native
@pytest.mark.parametrize(
    ("players", "most"),
    [("L:XDKTT78866 F:22AAA9976633", 22_000), ("L:3335688JQK22 F:445567TTKAAA", 10_600)],
    ids=["two-07", "two-08"],
)
def test_native_search_order_keeps_the_proof_small(players: str, most: int) -> None:
    """Positions expanded, counted (not timed): the move order of issue 33 (fewest plays
    left, bombs last, more cards, lower main) and no killer move.  With a killer move
    per hand these took 39,561 and 34,968; ordered by plays left and main alone,
    18,832 and 10,938 (shared/bench two-07, two-08; every winning move listed)."""
    result = Solver(native=True, workers=1, rules=STANDARD).solve(Position.parse(players), line=False)
    assert result.complete and result.mover_wins is True
    assert result.nodes <= most, result.nodes


@needs_native
def test_native_and_python_solvers_list_the_same_winning_moves() -> None:
    rng = random.Random(34)
    for _ in range(120):
        a, b, table = _hands(rng, 9)
        pos = Position((Cards(a), Cards(b)), Position.parse("L:3 F:4").roles, 0, table, 1 if table else None, rules=STANDARD)
        fast = Solver(native=True, rules=STANDARD).solve(pos)
        slow = Solver(native=False, rules=STANDARD).solve(pos)
        assert fast.mover_wins is slow.mover_wins, pos
        assert set(fast.winning_moves) == set(slow.winning_moves), pos


@needs_native
def test_native_budget_answers_unknown() -> None:
    pos = Position.parse("L:33456789TJQKKA22X F:445567789TJQQAA2D")
    result = Solver(max_nodes=5_000, native=True, rules=STANDARD).solve(pos)
    assert not result.complete  # a win proven before the budget ran out stays proven
    assert result.mover_wins in (True, None) and result.nodes <= 5_000
    search = native.NativeTwoPlayerSearch(HandTables(rules=STANDARD), STANDARD)
    search.budget = Budget(100, None)
    with pytest.raises(BudgetExceeded):
        search.win(pos.packed[0], pos.packed[1], 0, None)


@needs_native
def test_native_search_forgets_and_starts_again() -> None:
    search = native.NativeTwoPlayerSearch(HandTables(rules=STANDARD), STANDARD)
    search.budget = Budget(None, None)
    pos = Position.parse("L:DAQQJJT999844 F:X22AAT886633")
    first = search.win(pos.packed[0], pos.packed[1], 0, None)
    search.clear()
    search.nodes = 0
    assert search.win(pos.packed[0], pos.packed[1], 0, None) == first
    assert search.nodes > 1000  # solved again from nothing


@needs_native
def test_native_compression_keeps_two_deck_counts_and_equals_the_python_one() -> None:
    """Issue 31: a packed hand may hold 8 of a rank.  The compiled key's rank
    compression keeps every card of such hands (a rank held 8 times is held:
    bit 3 is a count bit) and is tutor.solver.canon's, field for field."""
    from tutor.engine.cards import pack, packed_size
    from tutor.solver import _native  # type: ignore[attr-defined]
    from tutor.solver.canon import canonical

    rng = random.Random(31)
    below_jokers = (1 << 52) - 1
    for _ in range(3000):
        a = [0] * NUM_RANKS
        b = [0] * NUM_RANKS
        for rank in rng.sample(range(13), rng.randint(1, 8)):
            (a if rng.random() < 0.5 else b)[rank] = rng.choice((1, 2, 3, 4, 5, 8, 8))
        a[13 + rng.randrange(2)] = rng.randrange(2)
        pa, pb = pack(a), pack(b)
        # C keeps the small joker at bit 52 and the big one at bit 53: back to their own fields.
        ca, cb = ((c & below_jokers) | ((c >> 52) & 1) << 52 | ((c >> 53) & 1) << 56 for c in _native.compress(pa, pb))
        assert packed_size(ca) == packed_size(pa) and packed_size(cb) == packed_size(pb), (a, b)
        assert (ca, cb) == canonical(pa, pb)[:2], (a, b)


@needs_native
def test_native_search_refuses_a_second_joker_of_a_kind() -> None:
    """The compiled key keeps one bit per joker: two decks' jokers are refused, never mixed up."""
    from tutor.solver import _native  # type: ignore[attr-defined]

    core = _native.TwoSearch(BudgetExceeded, 12, 16)
    two_small = Cards.parse("3").packed + (2 << 52)
    with pytest.raises(ValueError, match="one deck"):
        core.win(two_small, Cards.parse("4").packed, 0, -1, -1.0)
    assert core.win(Cards.parse("3X").packed, Cards.parse("4").packed, 0, -1, -1.0) in (True, False)
