"""Cards, ranks and the text notation of RULES §1.

Suits never matter in Dou Di Zhu, so a hand is a multiset of 15 ranks.  We keep
it in two forms:

* a tuple of 15 counts (readable, used by the public API), and
* a *packed* integer with 4 bits per rank (rank ``r`` lives in bits ``4r..4r+3``).

The packed form is what the move generator and the solver work on: adding and
removing cards is integer addition and subtraction, a hand is hashable for
free, and "is this play inside the hand" is a borrow check
(:func:`packed_contains`).  A field holds any count up to 8 (two decks: eight
of a rank, two of each joker), so bit 3 is a count bit, not a spare.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: Rank characters, low to high (RULES §1).  Index = rank number.
RANK_CHARS = "3456789TJQKA2XD"
NUM_RANKS = 15

R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, R2, SMALL_JOKER, BIG_JOKER = range(15)
#: Highest rank that may stand in a straight, pair chain or airplane (the ace).
CHAIN_TOP = RA

#: Bits 4r..4r+3 hold the count of rank r.
BITS = 4
FIELD = 0xF
#: Bit 3 of every field: set only by a count of 8 (two decks), else the borrow guard of :func:`packed_contains`.
GUARD = sum(0x8 << (BITS * r) for r in range(NUM_RANKS))
#: Bits 0-2 of every field.
_LOW3 = GUARD >> 3 ^ GUARD >> 2 ^ GUARD >> 1
#: One card of each rank (packed), handy for building masks.
ONE = tuple(1 << (BITS * r) for r in range(NUM_RANKS))

#: Cards of each rank in the full 54-card deck.
DECK_COUNTS: tuple[int, ...] = (4,) * 13 + (1, 1)

_ALIASES = {"B": SMALL_JOKER, "R": BIG_JOKER}
_SEPARATORS = " ,\t"
#: Every accepted card character (either case) → rank.
_CHAR_RANK = {
    **{c: r for r, c in enumerate(RANK_CHARS)},
    **{c.lower(): r for r, c in enumerate(RANK_CHARS)},
    **_ALIASES,
    **{c.lower(): r for c, r in _ALIASES.items()},
}


class InvalidCardsError(ValueError):
    """Raised for card text that cannot be read; the message names the bad part."""


def rank_char(rank: int) -> str:
    """The one-character name of a rank (``T`` for ten, ``X``/``D`` for jokers)."""
    return RANK_CHARS[rank]


def parse_rank(text: str) -> int:
    """Read one rank (``"10"`` and lower case accepted)."""
    ranks = parse_counts(text)
    if sum(ranks) != 1:
        raise InvalidCardsError(f"expected exactly one rank, got {text!r}")
    return ranks.index(1)


def parse_counts(text: str, deck: tuple[int, ...] = DECK_COUNTS) -> tuple[int, ...]:
    """Parse card text into 15 rank counts.

    Accepts the canonical notation (``33345789TTQKA2XD``), ``10`` for ten, lower
    case, spaces or commas between cards, and ``B``/``R`` for the jokers.  The
    cards need not be in order.  A count above what the deck holds is an error.
    """
    counts = [0] * NUM_RANKS
    i = 0
    # Character by character on the original text: upper-casing the whole string
    # first could change its length ("ǰ" → "J" + caron) and misplace the error.
    while i < len(text):
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch == "1" and text[i + 1 : i + 2] == "0":
            rank = RT
            i += 2
        else:
            rank = _CHAR_RANK.get(ch, -1)
            if rank < 0:
                raise InvalidCardsError(f"bad card {ch!r} in {text!r} (cards are 3-9 T J Q K A 2 X D)")
            i += 1
        counts[rank] += 1
    for rank, n in enumerate(counts):
        if n > deck[rank]:
            raise InvalidCardsError(
                f"too many {RANK_CHARS[rank]!r} in {text!r}: {n} (the deck has {deck[rank]})"
            )
    return tuple(counts)


def pack(counts: Iterable[int]) -> int:
    """Counts → packed integer."""
    value = 0
    for rank, n in enumerate(counts):
        value |= n << (BITS * rank)
    return value


def unpack(packed: int) -> tuple[int, ...]:
    """Packed integer → 15 counts."""
    return tuple((packed >> (BITS * r)) & FIELD for r in range(NUM_RANKS))


def packed_count(packed: int, rank: int) -> int:
    """How many cards of ``rank`` the packed hand holds."""
    return (packed >> (BITS * rank)) & FIELD


_BIT0 = sum(1 << (BITS * r) for r in range(NUM_RANKS))


def packed_size(packed: int) -> int:
    """Number of cards in a packed hand.

    A field's count is the sum of its bits (1, 2, 4, 8), so the size is four
    bit counts over the whole integer instead of a loop over the fields (the
    solver sorts every move list by size).
    """
    return (
        (packed & _BIT0).bit_count()
        + 2 * (packed & _BIT0 << 1).bit_count()
        + 4 * (packed & _BIT0 << 2).bit_count()
        + 8 * (packed & _BIT0 << 3).bit_count()
    )


def packed_contains(hand: int, part: int) -> bool:
    """True when every card of ``part`` is in ``hand`` (both packed; counts up to 8).

    Setting the guard bit of each field before subtracting keeps a shortfall in
    one rank from borrowing out of the next: the guard of that field is simply
    cleared, which is what we test.  That needs bit 3 free, so a hand or part
    holding 8 of a rank (two decks) takes the long way: the guard goes on the
    low three bits alone (``t``: bit 3 set where hand's low bits ≥ part's),
    and a field holds enough when its bit 3 is set and part's is not, or both
    agree and ``t`` says so.
    """
    if (hand | part) & GUARD:
        t = (hand | GUARD) - (part & _LOW3)
        return ((hand & ~part) | (~(hand ^ part) & t)) & GUARD == GUARD
    return ((hand | GUARD) - part) & GUARD == GUARD


def format_counts(counts: Iterable[int]) -> str:
    """15 counts → canonical text, low to high."""
    return "".join(RANK_CHARS[r] * n for r, n in enumerate(counts))


def format_packed(packed: int) -> str:
    """Packed hand → canonical text, low to high."""
    out = []
    rank = 0
    while packed:
        n = packed & FIELD
        if n:
            out.append(RANK_CHARS[rank] * n)
        packed >>= BITS
        rank += 1
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Cards:
    """An immutable multiset of cards (a hand, a play, the kitty).

    Round-trips with text: ``Cards.parse("33344") `` ↔ ``str(cards)``.
    """

    packed: int

    @classmethod
    def parse(cls, text: str, deck: tuple[int, ...] = DECK_COUNTS) -> Cards:
        """Read card text (see :func:`parse_counts`); ``deck`` is the rules' deck (two decks: ``Rules.deck``)."""
        return cls(pack(parse_counts(text, deck)))

    @classmethod
    def from_counts(cls, counts: Iterable[int], deck: tuple[int, ...] = DECK_COUNTS) -> Cards:
        counts = tuple(counts)
        if len(counts) != NUM_RANKS or any(n < 0 or n > most for n, most in zip(counts, deck)):
            raise InvalidCardsError(f"bad rank counts {counts!r}")
        return cls(pack(counts))

    @classmethod
    def from_ranks(cls, ranks: Iterable[int], deck: tuple[int, ...] = DECK_COUNTS) -> Cards:
        counts = [0] * NUM_RANKS
        for r in ranks:
            counts[r] += 1
        return cls.from_counts(counts, deck)

    @property
    def counts(self) -> tuple[int, ...]:
        return unpack(self.packed)

    def count(self, rank: int) -> int:
        return packed_count(self.packed, rank)

    def ranks(self) -> list[int]:
        """Every card as its rank number, low to high (with repeats)."""
        return [r for r, n in enumerate(self.counts) for _ in range(n)]

    def __len__(self) -> int:
        return packed_size(self.packed)

    def __bool__(self) -> bool:
        return self.packed != 0

    def __iter__(self) -> Iterator[int]:
        return iter(self.ranks())

    def __contains__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return packed_contains(self.packed, other.packed)
        if isinstance(other, int):
            return self.count(other) > 0
        return False

    def issubset(self, other: Cards) -> bool:
        return packed_contains(other.packed, self.packed)

    def __add__(self, other: Cards) -> Cards:
        counts = [a + b for a, b in zip(self.counts, other.counts)]
        return Cards.from_counts(counts)

    def __sub__(self, other: Cards) -> Cards:
        if not packed_contains(self.packed, other.packed):
            raise InvalidCardsError(f"{other} is not inside {self}")
        return Cards(self.packed - other.packed)

    def __str__(self) -> str:
        return format_packed(self.packed)

    def __repr__(self) -> str:
        return f"Cards.parse({str(self)!r})"

    def __lt__(self, other: Cards) -> bool:
        """Order by size then by ranks, so sorted lists of plays read naturally."""
        return (len(self), self.ranks()) < (len(other), other.ranks())


FULL_DECK = Cards(pack(DECK_COUNTS))
