"""The move generator's tables (tutor/engine/moves.py ``_Tables``) are built entry by entry on
first use (issue 33: building all of them cost ``ddz solve`` 0.7 s at start-up).  Every entry a
lazy table can be asked for equals the one the eager build of round 3 made, for every kind
(RULES §6: the chains of §5, the lead moves of every kind, wings of trios and fours)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tutor.engine.cards import BIG_JOKER, NUM_RANKS, ONE, SMALL_JOKER
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import _Tables
from tutor.engine.rules import STANDARD, Rules

K = Kind


def combo(cards: int, kind: Kind, length: int, main: int) -> Combo:
    return tuple.__new__(Combo, (cards, kind, length, main))


SINGLES, PAIRS, TRIOS = ([combo(n * ONE[r], kind, 1, r) for r in range(NUM_RANKS)]
                         for n, kind in ((1, K.SINGLE), (2, K.PAIR), (3, K.TRIO)))


class Eager:
    """The eager build the lazy tables replaced: every mask at once, in one order."""

    def __init__(self, rules: Rules, lead: bool = True) -> None:
        n_chain = rules.chain_top + 1
        size = 1 << n_chain
        self.straights: list[list[Combo]] = [[] for _ in range(size)]
        self.pair_chains: list[list[Combo]] = [[] for _ in range(size)]
        self.airplanes: list[list[Combo]] = [[] for _ in range(size)]
        self.plane_bodies: list[list[tuple[int, int, int, int]]] = [[] for _ in range(size)]
        for low in range(n_chain):  # run by run, low to high then short to long; onto every mask holding it
            for high in range(low, n_chain):
                bits = ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
                one, length = sum(ONE[r] for r in range(low, high + 1)), high - low + 1
                free = rest = (size - 1) & ~bits
                while True:
                    mask = bits | rest
                    if length >= rules.min_straight:
                        self.straights[mask].append(combo(one, K.STRAIGHT, length, high))
                    if length >= rules.min_pair_chain:
                        self.pair_chains[mask].append(combo(2 * one, K.PAIR_CHAIN, length, high))
                    if length >= rules.min_airplane:
                        self.airplanes[mask].append(combo(3 * one, K.AIRPLANE, length, high))
                        self.plane_bodies[mask].append((3 * one, length, high, bits))
                    if not rest:
                        break
                    rest = (rest - 1) & free
        if lead:
            self.lead_tables(size - 1)

    def lead_tables(self, chain_bits: int) -> None:
        self.ranks: dict[int, tuple[int, ...]] = {0: ()}
        self.lead1: dict[int, list[Combo]] = {}
        self.lead2: dict[int, list[Combo]] = {}
        self.lead3: dict[int, list[Combo]] = {}
        self.bodies: dict[int, list[tuple[int, int, int, int]]] = {}
        spread = [0] * (1 << NUM_RANKS)
        for mask in range(1 << NUM_RANKS):
            if mask:  # the lowest rank, then the ranks of the smaller mask
                rest, low = mask & (mask - 1), (mask & -mask).bit_length() - 1
                spread[mask] = spread[rest] + ONE[low]
                self.ranks[spread[mask]] = (low, *self.ranks[spread[rest]])
            nibbles = spread[mask]
            ranks = self.ranks[nibbles]
            self.lead1[nibbles] = [SINGLES[r] for r in ranks] + self.straights[mask & chain_bits]
            if SMALL_JOKER in ranks and BIG_JOKER in ranks:
                self.lead1[nibbles].append(combo(ONE[SMALL_JOKER] + ONE[BIG_JOKER], K.ROCKET, 1, BIG_JOKER))
            if mask >> SMALL_JOKER:
                continue
            self.lead2[nibbles] = [PAIRS[r] for r in ranks] + self.pair_chains[mask & chain_bits]
            self.lead3[nibbles] = [TRIOS[r] for r in ranks] + self.airplanes[mask & chain_bits]
            self.bodies[nibbles] = [(body, n, high, spread[bits]) for body, n, high, bits in self.plane_bodies[mask & chain_bits]]


@pytest.fixture(scope="module")
def eager() -> Eager:
    return Eager(STANDARD)


def test_rule_6_lazy_chain_tables_equal_the_eager_build_for_every_mask(eager: Eager) -> None:
    lazy = _Tables(STANDARD)
    for mask in range(len(eager.straights)):
        assert lazy.straights[mask] == eager.straights[mask], mask
        assert lazy.pair_chains[mask] == eager.pair_chains[mask], mask
        assert lazy.airplanes[mask] == eager.airplanes[mask], mask
        assert lazy.plane_bodies[mask] == eager.plane_bodies[mask], mask


def test_rule_6_lazy_lead_tables_equal_the_eager_build_for_every_mask(eager: Eager) -> None:
    lazy = _Tables(STANDARD)
    for nibbles, ranks in eager.ranks.items():
        assert lazy.ranks[nibbles] == ranks
        assert lazy.lead1[nibbles] == eager.lead1[nibbles], hex(nibbles)
        if nibbles in eager.lead2:
            assert lazy.lead2[nibbles] == eager.lead2[nibbles], hex(nibbles)
            assert lazy.lead3[nibbles] == eager.lead3[nibbles], hex(nibbles)
            assert lazy.bodies[nibbles] == eager.bodies[nibbles], hex(nibbles)
        else:  # a joker held twice: not in one deck, as before
            with pytest.raises(KeyError):
                lazy.lead2[nibbles]  # noqa: B018


def test_rule_6_lazy_wing_rows_equal_the_eager_build() -> None:
    lazy = _Tables(STANDARD)
    for t in range(NUM_RANKS):
        assert lazy.trio_single[t] == [combo(3 * ONE[t] + ONE[w], K.TRIO_SINGLE, 1, t) for w in range(NUM_RANKS)]
        assert lazy.trio_pair[t] == [combo(3 * ONE[t] + 2 * ONE[w], K.TRIO_PAIR, 1, t) for w in range(NUM_RANKS)]
    for f in range(SMALL_JOKER):
        for a in range(NUM_RANKS):
            for b in range(NUM_RANKS):
                assert lazy.four_singles[f][a][b] == combo(4 * ONE[f] + ONE[a] + ONE[b], K.FOUR_TWO_SINGLES, 1, f)
                assert lazy.four_pairs[f][a][b] == combo(4 * ONE[f] + 2 * (ONE[a] + ONE[b]), K.FOUR_TWO_PAIRS, 1, f)


def test_rule_12_lazy_tables_follow_the_rules_chain_lengths() -> None:
    """Rules are data: other chain minimums give other tables, entry by entry alike."""
    rules = replace(STANDARD, min_straight=3, min_pair_chain=2, min_airplane=3)
    lazy, eager = _Tables(rules), Eager(rules, lead=False)
    for mask in range(len(eager.straights)):
        assert (lazy.straights[mask], lazy.pair_chains[mask], lazy.airplanes[mask], lazy.plane_bodies[mask]) == (
            eager.straights[mask], eager.pair_chains[mask], eager.airplanes[mask], eager.plane_bodies[mask])


def test_a_lookup_builds_only_what_it_asks_for() -> None:
    lazy = _Tables(STANDARD)
    assert not lazy.lead1 and not lazy.straights
    lazy.lead1[ONE[0] + ONE[1] + ONE[2] + ONE[3] + ONE[4]]  # 34567: five singles and one straight
    assert len(lazy.lead1) == 1 and list(lazy.straights) == [0b11111]
