"""The hand planner: split a hand into the fewest, strongest plays.

Every bot level and the coach reason about a hand the same way a good player
does before touching a card: "how would I play this out if I had the lead
every time?"  The answer is a *plan* — a list of combinations that use up the
whole hand — and two numbers that come with it:

* ``plays``: how many plays the plan needs (the "moves to finish" of the
  bidding status line, RULES §9);
* ``score``: the plan's value, ``Σ value(group) − TURN_COST × plays``.  A low
  group (a single 3) is a liability that must be got rid of; a high one (a 2,
  a bomb, the rocket) wins the lead back.  Each play costs a turn, so a split
  with fewer plays scores better unless it throws away control.

This is the classic evaluation of rule-based Dou Di Zhu programs (a hand's
"weight" against its "rounds"); it is cheap enough to run thousands of times
per second, which the bots need: a medium bot rates every candidate follow by
the plan of what would remain.

How the split is searched: bombs and the rocket are kept whole (breaking a
bomb for a straight is beginner mistake no. 1 of RULES §11); chains —
straights, pair chains, airplanes — are chosen by a depth-first search that
walks the ranks low to high and, at each rank, either starts a chain there or
never again; what is left becomes trios, pairs and singles, and trios and
airplanes take the lowest leftover singles or pairs as wings (never a 2 or a
joker, which are worth more as control).  Results are cached by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tutor.engine.cards import BIG_JOKER, BITS, NUM_RANKS, ONE, R2, RA, SMALL_JOKER, Cards
from tutor.engine.combos import Combo, Kind

_NEW = tuple.__new__
_SHIFTS = tuple(BITS * r for r in range(NUM_RANKS))

#: What one play costs in the plan score: a group must be worth more than this
#: to be "free" (it wins the lead back rather than giving it away).
TURN_COST = 7.0
#: Chains need this many units (RULES §5); the standard rules, fixed here
#: because the planner is a heuristic over the standard game.
MIN_STRAIGHT, MIN_PAIR_CHAIN, MIN_AIRPLANE = 5, 3, 2
#: Bonus over the top rank's value for a chain (it sheds many cards at once).
CHAIN_BONUS = 1.0
BOMB_BONUS = 10.0
ROCKET_VALUE = 20.0
#: Groups up to this rank may be attached as wings.
WING_TOP = RA


def rank_value(rank: int) -> float:
    """Value of a group whose main rank is ``rank``: 3 → −10, K → 0, A → 1, 2 → 2, jokers 3, 4."""
    return float(rank - 10)


def group_value(combo: Combo) -> float:
    """Value of one planned play (see the module docstring)."""
    kind = combo.kind
    if kind == Kind.ROCKET:
        return ROCKET_VALUE
    if kind == Kind.BOMB:
        return rank_value(combo.main) + BOMB_BONUS
    if kind in (Kind.STRAIGHT, Kind.PAIR_CHAIN, Kind.AIRPLANE, Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS):
        return rank_value(combo.main) + CHAIN_BONUS
    return rank_value(combo.main)


@dataclass(frozen=True, slots=True)
class Plan:
    """A split of a hand into plays, with its value (see the module docstring)."""

    groups: tuple[Combo, ...]
    score: float

    @property
    def plays(self) -> int:
        return len(self.groups)

    def __str__(self) -> str:
        return " ".join(group.text for group in self.groups) or "-"


def _single(r: int) -> Combo:
    return _NEW(Combo, (ONE[r], Kind.SINGLE, 1, r))


_SINGLE = tuple(_single(r) for r in range(NUM_RANKS))
_PAIR = tuple(_NEW(Combo, (2 * ONE[r], Kind.PAIR, 1, r)) for r in range(NUM_RANKS))
_TRIO = tuple(_NEW(Combo, (3 * ONE[r], Kind.TRIO, 1, r)) for r in range(NUM_RANKS))
_BOMB = tuple(_NEW(Combo, (4 * ONE[r], Kind.BOMB, 1, r)) for r in range(NUM_RANKS))
_ROCKET = _NEW(Combo, (ONE[SMALL_JOKER] + ONE[BIG_JOKER], Kind.ROCKET, 1, BIG_JOKER))


def _leftover(counts: list[int], planes: list[tuple[int, int]]) -> list[Combo]:
    """The groups of what the chains left: trios, pairs, singles, with wings (:func:`_leftover_score` scores them).

    ``planes`` are the airplanes the search took, as (top, length); they and
    the trios take the lowest singles or pairs (up to the ace) as wings.
    """
    singles = [r for r in range(NUM_RANKS) if counts[r] == 1]
    pairs = [r for r in range(NUM_RANKS) if counts[r] == 2]  # two jokers of one colour pair with two decks
    trios = [r for r in range(R2 + 1) if counts[r] == 3]
    wing_singles = [r for r in singles if r <= WING_TOP]
    wing_pairs = [r for r in pairs if r <= WING_TOP]
    groups: list[Combo] = []
    # Airplanes first: they need several wings of one kind at once.
    for top, length in planes:
        body = 0
        for r in range(top - length + 1, top + 1):
            body += 3 * ONE[r]
        if len(wing_singles) >= length and (len(wing_pairs) < length or wing_singles[length - 1] <= wing_pairs[length - 1]):
            wings = wing_singles[:length]
            del wing_singles[:length]
            groups.append(_NEW(Combo, (body + sum(ONE[r] for r in wings), Kind.AIRPLANE_SINGLES, length, top)))
        elif len(wing_pairs) >= length:
            wings = wing_pairs[:length]
            del wing_pairs[:length]
            groups.append(_NEW(Combo, (body + sum(2 * ONE[r] for r in wings), Kind.AIRPLANE_PAIRS, length, top)))
        else:
            groups.append(_NEW(Combo, (body, Kind.AIRPLANE, length, top)))
    for t in trios:
        if wing_singles and (not wing_pairs or wing_singles[0] <= wing_pairs[0]):
            w = wing_singles.pop(0)
            groups.append(_NEW(Combo, (3 * ONE[t] + ONE[w], Kind.TRIO_SINGLE, 1, t)))
        elif wing_pairs:
            w = wing_pairs.pop(0)
            groups.append(_NEW(Combo, (3 * ONE[t] + 2 * ONE[w], Kind.TRIO_PAIR, 1, t)))
        else:
            groups.append(_TRIO[t])
    # Whatever was not taken as a wing is played on its own.
    taken = {r for r in singles if r <= WING_TOP} - set(wing_singles)
    for r in singles:
        if r not in taken:
            groups.append(_SINGLE[r])
    taken_pairs = {r for r in pairs if r <= WING_TOP} - set(wing_pairs)
    for r in pairs:
        if r not in taken_pairs:
            groups.append(_PAIR[r])
    return groups


_STRAIGHTS = tuple((Kind.STRAIGHT, 1, n) for n in range(RA + 2))
_PAIR_CHAINS = tuple((Kind.PAIR_CHAIN, 2, n) for n in range(RA + 2))
_AIRPLANES = tuple((Kind.AIRPLANE, 3, n) for n in range(RA + 2))


def _chain_options(counts: list[int], p: int) -> list[tuple[Kind, int, int]]:
    """Chains that can start at rank ``p``: (kind, need per rank, length) — straights, pair chains, airplanes."""
    r = p
    while r <= RA and counts[r]:
        r += 1
    options = list(_STRAIGHTS[MIN_STRAIGHT : r - p + 1])
    if counts[p] >= 2:
        r = p
        while r <= RA and counts[r] >= 2:
            r += 1
        options += _PAIR_CHAINS[MIN_PAIR_CHAIN : r - p + 1]
        if counts[p] >= 3:
            r = p
            while r <= RA and counts[r] >= 3:
                r += 1
            options += _AIRPLANES[MIN_AIRPLANE : r - p + 1]
    return options


def _leftover_score(counts: list[int], planes: list[tuple[int, int]]) -> float:
    """The score of :func:`_leftover`'s groups (Σ value − TURN_COST each), without building them (the search's hot path)."""
    score = 0.0
    groups = 0
    trios = 0
    wing_singles = []
    wing_pairs = []
    for r in range(NUM_RANKS):
        c = counts[r]
        if c:
            score += r - 10
            groups += 1
            if c == 3:
                trios += 1
            elif r <= WING_TOP:
                if c == 1:
                    wing_singles.append(r)
                else:
                    wing_pairs.append(r)
    si = pi = 0
    ns, np_ = len(wing_singles), len(wing_pairs)
    for top, length in planes:
        score += top - 10 + CHAIN_BONUS
        groups += 1
        if ns - si >= length and (np_ - pi < length or wing_singles[si + length - 1] <= wing_pairs[pi + length - 1]):
            for r in wing_singles[si : si + length]:
                score -= r - 10
            groups -= length
            si += length
        elif np_ - pi >= length:
            for r in wing_pairs[pi : pi + length]:
                score -= r - 10
            groups -= length
            pi += length
    # Each trio takes the lowest wing left (which trio takes which does not change the score).
    for _ in range(trios):
        if si < ns and (pi >= np_ or wing_singles[si] <= wing_pairs[pi]):
            score -= wing_singles[si] - 10
            si += 1
        elif pi < np_:
            score -= wing_pairs[pi] - 10
            pi += 1
        else:
            break
        groups -= 1
    return score - TURN_COST * groups


#: The highest rank a chain can start at (an airplane, the shortest chain, needs two ranks up to the ace).
_LAST_START = RA - MIN_AIRPLANE + 1


def _search(counts: list[int], p: int, chain_score: float, chains: list[Combo], planes: list[tuple[int, int]], best: list[Any]) -> None:
    """Depth first over the chains, ranks low to high; ``best`` keeps the first best split found.

    Scores are sums of whole numbers (exact in floating point), so the order of
    the additions does not matter; the order of the search does (ties keep the
    first split found), and it is the same as a plain recursion over every rank.
    """
    # A rank that is empty, or whose next rank is (every chain needs two ranks in a row),
    # starts no chain: go on to the next rank without a call.
    while p <= _LAST_START and (not counts[p] or not counts[p + 1]):
        p += 1
    if p > _LAST_START:
        score = chain_score + _leftover_score(counts, planes)
        if score > best[0]:
            best[0] = score
            best[1] = list(chains)
            best[2] = list(counts)
            best[3] = list(planes)
        return
    for kind, need, length in _chain_options(counts, p):
        top = p + length - 1
        for r in range(p, top + 1):
            counts[r] -= need
        if kind == Kind.AIRPLANE:
            planes.append((top, length))
            _search(counts, p, chain_score, chains, planes, best)
            planes.pop()
        else:
            cards = 0
            for r in range(p, top + 1):
                cards += need * ONE[r]
            chains.append(_NEW(Combo, (cards, kind, length, top)))
            _search(counts, p, chain_score + top - 10 + CHAIN_BONUS - TURN_COST, chains, planes, best)
            chains.pop()
        for r in range(p, top + 1):
            counts[r] += need
    _search(counts, p + 1, chain_score, chains, planes, best)


@lru_cache(maxsize=1 << 17)
def plan_packed(hand: int, decks: int = 1) -> Plan:
    """The best plan for a packed hand (cached: bots ask about the same hands often).

    ``decks`` is the rules' deck count: with two (RULES §12.4) the rocket is all four jokers and
    four to eight cards of a rank are one bomb, kept whole.
    """
    counts = [(hand >> s) & 0xF for s in _SHIFTS]
    fixed: list[Combo] = []
    if counts[SMALL_JOKER] == counts[BIG_JOKER] == decks:
        fixed.append(_ROCKET if decks == 1 else _NEW(Combo, (decks * (ONE[SMALL_JOKER] + ONE[BIG_JOKER]), Kind.ROCKET, 1, BIG_JOKER)))
        counts[SMALL_JOKER] = counts[BIG_JOKER] = 0
    for r in range(R2 + 1):
        if counts[r] == 4:
            fixed.append(_BOMB[r])
            counts[r] = 0
        elif counts[r] > 4:
            fixed.append(_NEW(Combo, (counts[r] * ONE[r], Kind.BOMB, 1, r)))
            counts[r] = 0
    best: list[Any] = [float("-inf"), [], counts, []]
    _search(counts, 0, 0.0, [], [], best)
    leftover = _leftover(best[2], best[3])
    groups = tuple(best[1]) + tuple(leftover) + tuple(fixed)
    score = best[0] + sum(group_value(g) - TURN_COST for g in fixed)
    return Plan(groups, score)


def plan(hand: Cards | int, decks: int = 1) -> Plan:
    """The best plan for a hand (``Cards`` or packed int)."""
    return plan_packed(hand.packed if isinstance(hand, Cards) else hand, decks)


def moves_to_finish(hand: Cards | int, decks: int = 1) -> int:
    """How many plays the hand needs if it always had the lead (the "~7 moves" of RULES §9)."""
    return plan(hand, decks).plays
