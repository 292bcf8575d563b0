"""The deal (RULES §2): a deal number fixes the three hands, the kitty and who bids first.

The shuffle uses a pseudo-random generator that this project specifies itself,
not Python's :mod:`random`, whose algorithm is an implementation detail that may
change between releases.  Everything here is integer arithmetic modulo 2**64, so
any language can reproduce a deal bit for bit; ``docs/rules.md`` spells the
algorithm out with a worked example.

The algorithm, in full:

1. **Generator**: SplitMix64 (Steele, Lea & Flood, 2014) seeded with
   ``deal_number mod 2**64``.  Each output adds the golden gamma
   ``0x9E3779B97F4A7C15`` to the state and mixes it.
2. **Bounded draws** ``below(n)`` (uniform in ``0..n-1``): plain rejection —
   draw ``x``; reject while ``x >= 2**64 - (2**64 mod n)``; return ``x mod n``.
   (The rejection zone has fewer than ``n`` values, so for a 54-card deck a
   rejection practically never happens, but it keeps the draw exactly unbiased.)
3. **Initial order**: the 54 cards by rank, low to high, four of each rank
   ``3 … 2`` then ``X``, ``D`` (suits do not exist in this engine).
4. **Shuffle**: Fisher–Yates from the end: for ``i = 53`` down to ``1``:
   ``j = below(i + 1)``, swap positions ``i`` and ``j``.
5. **Dealing**: positions 0–16 to seat 0, 17–33 to seat 1, 34–50 to seat 2,
   51–53 the kitty.
6. **First bidder**: ``below(3)``, drawn from the same stream after the shuffle.
7. **Wild rank** (the wildcard game only, RULES §12.3): ``below(13)``, drawn
   next — ``0`` is ``3`` … ``12`` is ``2``.  Drawn last, it changes nothing above.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tutor.engine.cards import Cards
from tutor.engine.rules import STANDARD, WILD_RANKS, Rules

#: How many ranks the wild rank is drawn from (3 … 2).
WILD_RANK_COUNT = len(WILD_RANKS)

MASK64 = (1 << 64) - 1
#: SplitMix64's increment (the 64-bit golden ratio).
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    """SplitMix64: a tiny, well-tested 64-bit generator that is easy to port.

    Chosen because its whole state is one integer and its definition is five
    lines of arithmetic — a learner's deal must be reproducible forever, on any
    platform and in any language.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output (an int in ``0 .. 2**64-1``)."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound-1`` by plain rejection (no modulo bias)."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound!r}")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound

    def __iter__(self) -> Iterator[int]:
        while True:
            yield self.next()


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal: what each seat holds, the kitty (face down) and who bids first."""

    number: int
    hands: tuple[Cards, ...]
    kitty: Cards
    first_bidder: int
    #: The wild rank of the wildcard game (RULES §12.3), -1 in the other games.
    wild_rank: int = -1


def initial_order(rules: Rules = STANDARD) -> list[int]:
    """The deck before shuffling: ranks low to high, each as often as the deck holds it."""
    return [rank for rank, n in enumerate(rules.deck) for _ in range(n)]


def shuffled_deck(number: int, rules: Rules = STANDARD) -> tuple[list[int], SplitMix64]:
    """The deck after the Fisher–Yates shuffle of deal ``number``, and the generator
    (positioned right after the shuffle, for the first-bidder draw)."""
    rng = SplitMix64(number)
    deck = initial_order(rules)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck, rng


def deal(number: int, rules: Rules = STANDARD) -> Deal:
    """Deal number → hands, kitty and first bidder (RULES §2).

    Args:
        number: The deal number, a non-negative integer (any size; the seed is
            taken modulo 2**64).
        rules: The rule set; its ``players``, ``hand_size`` and ``kitty_size``
            decide how the shuffled deck is cut.

    Raises:
        ValueError: For a negative or non-integer number, or rules whose cut does
            not use exactly the deck of the rules (54 cards a deck).
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError(f"deal number must be a non-negative integer, got {number!r}")
    if number < 0:
        raise ValueError(f"deal number must be a non-negative integer, got {number!r}")
    deck_size = rules.deck_size
    if rules.players * rules.hand_size + rules.kitty_size != deck_size:
        raise ValueError(
            f"rules {rules.name!r}: {rules.players} × {rules.hand_size} + {rules.kitty_size} "
            f"cards do not make the {deck_size}-card deck"
        )
    deck, rng = shuffled_deck(number, rules)
    size = rules.hand_size
    hands = tuple(Cards.from_ranks(deck[seat * size : (seat + 1) * size], rules.deck) for seat in range(rules.players))
    kitty = Cards.from_ranks(deck[rules.players * size :], rules.deck)
    first_bidder = rng.below(rules.players)
    # RULES §12.3: the wild rank is drawn after everything else, so a deal's cards never depend on it.
    wild_rank = rng.below(WILD_RANK_COUNT) if rules.wild != "off" else -1
    return Deal(number, hands, kitty, first_bidder, wild_rank)
