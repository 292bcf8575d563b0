"""Legal moves with two decks (RULES §12.4): up to 8 cards of a rank, two of each joker.

The one-deck generator (:mod:`tutor.engine.moves`) reads a rank's count from
bit tricks that hold only for counts up to 4, and its tables know one bomb a
rank and the two-joker rocket.  This module serves every rule set with more
than one deck: it unpacks the counts once and builds each kind from them —
bombs of 4 up to every card of a rank (each size its own move: a longer bomb
beats a shorter one), the rocket of every joker, pairs of jokers of one colour,
trios, chains and airplanes taking any 3 of up to 8 cards.  The contract is the
one-deck generator's, checked against :func:`tutor.engine.combos.readings` by
tests/engine/test_multideck.py:

* leading: one move per card set and reading kind/length, under the highest main;
* following: one move per card set that beats the table, under its highest
  beating reading; pass is not a move here.

It is slower than the table-driven generator (a 25-card hand leads in about
0.2 ms); the classic game never enters it.
"""

from __future__ import annotations

from itertools import combinations

from tutor.engine.cards import BIG_JOKER, BITS, NUM_RANKS, ONE, SMALL_JOKER
from tutor.engine.combos import Combo, Kind, beats
from tutor.engine.rules import Rules

_NEW = tuple.__new__
_SHIFTS = tuple(BITS * r for r in range(NUM_RANKS))
_CHAIN_KINDS = {Kind.STRAIGHT: 1, Kind.PAIR_CHAIN: 2, Kind.AIRPLANE: 3}


def _combo(cards: int, kind: Kind, length: int, main: int) -> Combo:
    return _NEW(Combo, (cards, kind, length, main))


def _pairable(rank: int, rules: Rules) -> bool:
    """A pair of this rank exists: never jokers with one deck; one colour's two with two (RULES §5, §12.4)."""
    return rank < SMALL_JOKER or rules.joker_pairs


def _single_wings(counts: list[int], excluded: set[int], how_many: int, rules: Rules) -> list[int]:
    """Every multiset of ``how_many`` single wings (packed), never of an excluded rank nor every joker (the rocket)."""
    done: list[int] = []
    partial = [(0, how_many)]
    for r in range(NUM_RANKS):
        n = counts[r]
        if not n or r in excluded:
            continue
        grown = []
        for value, left in partial:
            grown.append((value, left))
            for take in range(1, min(n, left) + 1):
                if take == left:
                    done.append(value + take * ONE[r])
                else:
                    grown.append((value + take * ONE[r], left - take))
        partial = grown
    rocket = rules.decks * (ONE[SMALL_JOKER] + ONE[BIG_JOKER])
    mask = 0xF * (ONE[SMALL_JOKER] + ONE[BIG_JOKER])
    return [w for w in done if w & mask != rocket]


def _pair_wings(counts: list[int], excluded: set[int], how_many: int, rules: Rules) -> list[int]:
    """Every set of ``how_many`` pair wings of different ranks (packed)."""
    pool = [r for r in range(NUM_RANKS) if counts[r] >= 2 and r not in excluded and _pairable(r, rules)]
    return [sum(2 * ONE[r] for r in pick) for pick in combinations(pool, how_many)]


def _runs(counts: list[int], need: int, minimum: int, rules: Rules) -> list[tuple[int, int]]:
    """(low, high) of every run of ≥ ``minimum`` consecutive chain ranks held ≥ ``need`` times."""
    found = []
    top = rules.chain_top
    for low in range(top + 1):
        high = low
        while high <= top and counts[high] >= need:
            if high - low + 1 >= minimum:
                found.append((low, high))
            high += 1
    return found


def _kind_moves(counts: list[int], kind: Kind, rules: Rules) -> list[Combo]:
    """Every move of one kind the counts hold (card sets repeated under a lower main are dropped)."""
    ranks = range(NUM_RANKS)
    if kind == Kind.SINGLE:
        return [_combo(ONE[r], kind, 1, r) for r in ranks if counts[r]]
    if kind == Kind.PAIR:
        return [_combo(2 * ONE[r], kind, 1, r) for r in ranks if counts[r] >= 2 and _pairable(r, rules)]
    if kind == Kind.TRIO:
        return [_combo(3 * ONE[r], kind, 1, r) for r in ranks if counts[r] >= 3]
    if kind == Kind.TRIO_SINGLE:
        return [
            _combo(3 * ONE[t] + ONE[w], kind, 1, t) for t in ranks if counts[t] >= 3 for w in ranks if w != t and counts[w]
        ]
    if kind == Kind.TRIO_PAIR:
        return [
            _combo(3 * ONE[t] + 2 * ONE[w], kind, 1, t)
            for t in ranks
            if counts[t] >= 3
            for w in ranks
            if w != t and counts[w] >= 2 and _pairable(w, rules)
        ]
    if kind in _CHAIN_KINDS:
        need = _CHAIN_KINDS[kind]
        minimum = {1: rules.min_straight, 2: rules.min_pair_chain, 3: rules.min_airplane}[need]
        return [
            _combo(need * sum(ONE[low : high + 1]), kind, high - low + 1, high)
            for low, high in _runs(counts, need, minimum, rules)
        ]
    if kind in (Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS):
        best: dict[int, Combo] = {}
        for low, high in _runs(counts, 3, rules.min_airplane, rules):
            n = high - low + 1
            body = 3 * sum(ONE[low : high + 1])
            chain = set(range(low, high + 1))
            wings = (
                _single_wings(counts, chain, n, rules)
                if kind == Kind.AIRPLANE_SINGLES
                else _pair_wings(counts, chain, n, rules)
            )
            for w in wings:
                # Runs come low to high: a later chain of the same card set has the higher main.
                best[body + w] = _combo(body + w, kind, n, high)
        return list(best.values())
    if kind in (Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
        out = []
        for f in range(SMALL_JOKER):
            if counts[f] < 4:
                continue
            wings = (
                _single_wings(counts, {f}, 2, rules)
                if kind == Kind.FOUR_TWO_SINGLES
                else _pair_wings(counts, {f}, 2, rules)
            )
            out += [_combo(4 * ONE[f] + w, kind, 1, f) for w in wings]
        return out
    if kind == Kind.BOMB:
        return [
            _combo(size * ONE[r], kind, 1, r)
            for r in range(SMALL_JOKER)
            for size in rules.bomb_sizes
            if counts[r] >= size
        ]
    if kind == Kind.ROCKET:
        if counts[SMALL_JOKER] >= rules.decks and counts[BIG_JOKER] >= rules.decks:
            return [_combo(rules.decks * (ONE[SMALL_JOKER] + ONE[BIG_JOKER]), kind, 1, BIG_JOKER)]
        return []
    raise ValueError(f"unknown kind {kind!r}")


def lead_moves(hand: int, rules: Rules) -> list[Combo]:
    """Every move that can open a trick, for a packed hand of a many-deck game."""
    counts = [(hand >> s) & 0xF for s in _SHIFTS]
    moves: list[Combo] = []
    for kind in Kind:
        moves += _kind_moves(counts, kind, rules)
    return moves


def follow_moves(hand: int, table: Combo, rules: Rules) -> list[Combo]:
    """Every move that beats ``table`` (pass not included), for a packed hand of a many-deck game."""
    if table[1] == Kind.ROCKET:
        return []
    counts = [(hand >> s) & 0xF for s in _SHIFTS]
    kind = Kind(table[1])
    moves = [] if kind == Kind.BOMB else [m for m in _kind_moves(counts, kind, rules) if beats(m, table, rules)]
    return moves + [m for m in _kind_moves(counts, Kind.BOMB, rules) if beats(m, table, rules)] + _kind_moves(
        counts, Kind.ROCKET, rules
    )


_BODY = {
    Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIO: 3, Kind.TRIO_SINGLE: 3, Kind.TRIO_PAIR: 3, Kind.STRAIGHT: 1,
    Kind.PAIR_CHAIN: 2, Kind.AIRPLANE: 3, Kind.AIRPLANE_SINGLES: 3, Kind.AIRPLANE_PAIRS: 3,
    Kind.FOUR_TWO_SINGLES: 4, Kind.FOUR_TWO_PAIRS: 4,
}


def may_beat(cards: int, table: Combo, max_size: int, bombs: bool, rules: Rules) -> bool:
    """Could a hand of at most ``max_size`` cards out of ``cards`` beat ``table``?  Never "no" when it could.

    The bots ask this of the pooled unseen cards (80 and more with two decks), where listing every
    answer would cost too much: a bomb or the rocket is checked exactly, another kind by its main part
    (the trios, the four, the chain) with enough other cards left for the wings — so a "yes" may be
    a play whose wings the cards cannot make, never a missed answer.
    """
    counts = [(cards >> s) & 0xF for s in _SHIFTS]
    if table[1] == Kind.ROCKET:
        return False
    if bombs:
        if max_size >= rules.rocket_size and counts[SMALL_JOKER] >= rules.decks and counts[BIG_JOKER] >= rules.decks:
            return True
        for r in range(SMALL_JOKER):
            for size in rules.bomb_sizes:
                if size <= min(counts[r], max_size) and beats(_combo(size * ONE[r], Kind.BOMB, 1, r), table, rules):
                    return True
    kind = Kind(table[1])
    size = sum((table[0] >> s) & 0xF for s in _SHIFTS)
    if kind == Kind.BOMB or size > max_size:
        return False
    need, length, total = _BODY[kind], table[2], sum(counts)
    top = rules.chain_top if kind.is_chain else (NUM_RANKS - 1 if kind in (Kind.SINGLE, Kind.PAIR) else SMALL_JOKER - 1)
    for high in range(table[3] + 1, top + 1):
        low = high - length + 1
        if low < 0 or any(counts[r] < need for r in range(low, high + 1)):
            continue
        if kind == Kind.PAIR and not _pairable(high, rules):
            continue
        body = need * length
        if total - sum(counts[low : high + 1]) >= size - body:
            return True
    return False
