"""The 14 combinations, their readings, and which beats which (RULES §5, §6).

A *reading* is one way to see a set of cards as a combination: its kind, its
chain length and the top rank of its main part.  One card set can have several
readings (``333444555666``), and the reading a play was made under is what the
next player must beat — so a move is always cards **and** a reading.  That pair
is :class:`Combo`.
"""

from __future__ import annotations

from enum import IntEnum
from itertools import combinations_with_replacement
from typing import NamedTuple

from tutor.engine.cards import (
    BIG_JOKER,
    NUM_RANKS,
    ONE,
    SMALL_JOKER,
    Cards,
    format_packed,
    packed_size,
    rank_char,
    unpack,
)
from tutor.engine.rules import STANDARD, Rules


class Kind(IntEnum):
    """The 14 combination kinds; ``label`` is the name used in JSON and docs."""

    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_CHAIN = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Kind:
        try:
            return cls[label.strip().upper().replace("-", "_").replace(" ", "_")]
        except KeyError:
            names = ", ".join(k.label for k in cls)
            raise ValueError(f"unknown combination kind {label!r} (one of: {names})") from None

    @property
    def is_chain(self) -> bool:
        """Kinds whose ``length`` counts chain units."""
        return self in _CHAIN_KINDS

    @property
    def is_bomb(self) -> bool:
        """Bombs and the rocket: they beat any other kind and double the stake (RULES §6, §7)."""
        return self is Kind.BOMB or self is Kind.ROCKET


_CHAIN_KINDS = frozenset(
    {Kind.STRAIGHT, Kind.PAIR_CHAIN, Kind.AIRPLANE, Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS}
)


class Combo(NamedTuple):
    """A play: its cards (packed, see :mod:`tutor.engine.cards`) and its reading.

    A plain tuple underneath, so the move generator and the solver can build
    millions of them cheaply and use them as dictionary keys.
    """

    cards: int
    kind: Kind
    length: int
    main: int

    @property
    def wild(self) -> int:
        """The ranks the wild cards stand for, packed (RULES §12.3); 0 for a play read as its own cards."""
        return 0

    @property
    def soft(self) -> bool:
        """A soft bomb: a bomb with wild cards standing in (RULES §12.3)."""
        return False

    @property
    def text(self) -> str:
        """The cards in canonical notation."""
        return format_packed(self.cards)

    def as_cards(self) -> Cards:
        return Cards(self.cards)

    @property
    def is_bomb(self) -> bool:
        """A bomb or the rocket (RULES §6): beats every other kind, doubles the stake."""
        return self.kind == Kind.BOMB or self.kind == Kind.ROCKET

    @property
    def strength(self) -> tuple[bool, bool, int, int]:
        """The one ordering of readings: rocket, then bombs, then the highest main, then the longest.

        Used wherever "the highest reading" of some cards is chosen (RULES §6).
        """
        return (self[1] == Kind.ROCKET, self[1] == Kind.BOMB, self[3], self[2])

    @property
    def size(self) -> int:
        return sum(unpack(self.cards))

    def describe(self) -> str:
        """Short English description, e.g. ``airplane_singles×3 (top 6)``."""
        length = f"×{self.length}" if Kind(self.kind).is_chain else ""
        return f"{Kind(self.kind).label}{length} (main {rank_char(self.main)})"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "cards": self.text,
            "kind": Kind(self.kind).label,
            "length": self.length,
            "main": rank_char(self.main),
        }
        if self.wild:
            out["as"] = format_packed(self.wild)
            if self.kind == Kind.BOMB:
                out["soft"] = True
        return out

    def __str__(self) -> str:
        return f"{self.text} [{self.describe()}]"

    @property
    def notation(self) -> str:
        """The shortest text :meth:`parse` reads back as this very reading.

        ``3444`` when the cards have one reading; else ``cards/kind``, then
        ``cards/kind/length``, then ``cards/kind/length/main`` — as much as it takes.
        """
        hint = self.wild_rank_hint()
        options = readings(self.cards, STANDARD.with_wild(hint) if hint >= 0 else STANDARD)
        parts = [self.text, Kind(self.kind).label, str(self.length), rank_char(self.main)]
        for size in range(1, 5):
            if sum(1 for r in options if _matches(r, parts[:size])) == 1:
                return "/".join(parts[:size])
        return "/".join(parts)

    def wild_rank_hint(self) -> int:
        """The wild rank a stand-in reading was made under (-1 for a plain one)."""
        return -1

    def __repr__(self) -> str:
        return f"Combo.parse({self.notation!r})"

    @classmethod
    def parse(cls, text: str, rules: Rules = STANDARD) -> Combo:
        """Read :attr:`notation` (``"3444"``, ``"333444555666/airplane_singles/3/6"``).

        Raises:
            ValueError: not cards, not a combination, or several readings and
                the text does not say which.
        """
        parts = [p.strip() for p in str(text).split("/")]
        options = [r for r in readings(Cards.parse(parts[0], rules.deck), rules) if _matches(r, parts)]
        if len(options) != 1:
            what = "no combination" if not options else "several readings: " + ", ".join(o.notation for o in options)
            raise ValueError(f"{str(text)[:40]!r} names {what}")
        return options[0]


class WildCombo(Combo):
    """A play read with wild cards standing in (RULES §12.3): a :class:`Combo` with two more fields.

    :attr:`wild` is what the wild cards stand for (packed ranks) and
    :attr:`wild_rank` the rank of the wild cards.  Only plays with a stand-in
    are this type, so the classic game's moves stay the plain four-field
    tuples (no cost where no card is wild).  :func:`same_reading` compares
    readings whatever the stand-ins: where a wild card stands does not change
    what beats what.
    """

    __slots__ = ()

    def __new__(cls, cards: int, kind: Kind, length: int, main: int, wild: int, wild_rank: int) -> WildCombo:
        return tuple.__new__(cls, (cards, kind, length, main, wild, wild_rank))

    def __getnewargs__(self) -> tuple[int, Kind, int, int, int, int]:
        return (self[0], self[1], self[2], self[3], self[4], self[5])  # type: ignore[misc]

    @property
    def wild(self) -> int:
        return self[4]  # type: ignore[no-any-return,misc]

    @property
    def soft(self) -> bool:
        return self[1] == Kind.BOMB

    def wild_rank_hint(self) -> int:
        return self[5]  # type: ignore[no-any-return,misc]

    @property
    def effective(self) -> int:
        """The cards as they count: the wild cards replaced by what they stand for."""
        return self[0] - packed_size(self[4]) * ONE[self[5]] + self[4]  # type: ignore[no-any-return,misc]

    def describe(self) -> str:
        soft = " soft" if self.soft else ""
        return f"{Combo.describe(self)}{soft} [{rank_char(self[5]) * packed_size(self[4])} as {format_packed(self[4])}]"  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"Combo.parse({self.notation!r}, wild={rank_char(self[5])!r})"  # type: ignore[misc]


def stand_ins(combo: Combo) -> list[tuple[int, int | None]]:
    """The cards of ``combo`` as they count, low to high: (rank it counts as, the wild card's rank
    if a wild card stands in there, else None) — what a front end spells «7 7 7 [9 as 7]» (RULES §12.3)."""
    if not combo.wild:
        return [(r, None) for r in Cards(combo[0]).ranks()]
    wild_rank = combo.wild_rank_hint()
    natural = combo[0] - packed_size(combo.wild) * ONE[wild_rank]
    out: list[tuple[int, int | None]] = []
    for rank in range(NUM_RANKS):
        out += [(rank, None)] * ((natural >> (4 * rank)) & 0xF)
        out += [(rank, wild_rank)] * ((combo.wild >> (4 * rank)) & 0xF)
    return out


def same_reading(a: Combo, b: Combo) -> bool:
    """Do ``a`` and ``b`` name the same play under the same reading (stand-ins aside; RULES §12.3)?

    The cards, kind and main also decide soft or hard: a soft bomb holds a wild
    card, and four wild cards are the hard bomb of their own rank.
    """
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[3] == b[3]


def _matches(reading: Combo, parts: list[str]) -> bool:
    """Does ``reading`` fit the notation ``parts`` (cards, then kind, length, main)?"""
    if len(parts) > 1 and Kind(reading.kind) is not Kind.from_label(parts[1]):
        return False
    if len(parts) > 2 and str(reading.length) != parts[2]:
        return False
    return not (len(parts) > 3 and rank_char(reading.main) != parts[3].upper())


class IllegalPlayError(ValueError):
    """A play that cannot be made; the message says why."""


def _consecutive_run(counts: tuple[int, ...], need: int, rules: Rules) -> tuple[int, int] | None:
    """If the non-zero ranks are consecutive chain ranks each held exactly ``need``
    times, return (low, high); otherwise None."""
    present = [r for r, n in enumerate(counts) if n]
    if not present or any(counts[r] != need for r in present):
        return None
    low, high = present[0], present[-1]
    if high > rules.chain_top or high - low + 1 != len(present):
        return None
    return low, high


def readings(cards: Cards | int, rules: Rules = STANDARD) -> list[Combo]:
    """Every reading of a set of cards, sorted by kind, length, then main.

    This is the *definition* of the 14 combinations; the move generator is a
    fast enumeration that the tests check against it.  Under a wild rank
    (RULES §12.3) the readings with wild cards standing in are added
    (:func:`wild_readings`).
    """
    packed = cards.packed if isinstance(cards, Cards) else cards
    w = rules.wild_rank
    if w >= 0 and (packed >> (4 * w)) & 0xF and packed != ((packed >> (4 * w)) & 0xF) << (4 * w):
        return wild_readings(packed, rules)
    return _natural_readings(packed, rules)


def wild_readings(packed: int, rules: Rules) -> list[Combo]:
    """Every reading of cards that hold wild cards and others (RULES §12.3), one per distinct reading.

    Each wild card either is its own rank or stands for a rank 3…2 (never a
    joker); every assignment is tried (at most four wild cards: 1,820
    assignments) and read as natural cards.  Readings that differ only in where
    the wild cards stand are one reading (kind, length, main and soft decide
    what beats what); the one kept uses the fewest stand-ins, then the lowest.
    Cards made only of wild cards are ordinary (read by :func:`readings`).
    """
    w = rules.wild_rank
    natural_rules = rules.natural()
    k = (packed >> (4 * w)) & 0xF
    base = packed - k * ONE[w]
    options = [r for r in range(SMALL_JOKER) if r != w]
    found: dict[tuple[int, int, int, bool], Combo] = {}
    for used in range(k + 1):
        for stand in combinations_with_replacement(options, used):
            wild = sum(ONE[r] for r in stand)
            effective = base + (k - used) * ONE[w] + wild
            for r in _natural_readings(effective, natural_rules):
                soft = bool(used) and r.kind == Kind.BOMB
                key = (r.kind, r.length, r.main, soft)
                if key in found:
                    continue
                found[key] = WildCombo(packed, r.kind, r.length, r.main, wild, w) if used else Combo(packed, r.kind, r.length, r.main)
    return sorted(found.values(), key=lambda c: (c.kind, c.length, c.main, c.soft))


def _natural_readings(packed: int, rules: Rules) -> list[Combo]:
    """Every reading of cards that are all their own ranks (RULES §5)."""
    counts = unpack(packed)
    size = sum(counts)
    found: list[Combo] = []

    def add(kind: Kind, length: int, main: int) -> None:
        found.append(Combo(packed, kind, length, main))

    if size == 0:
        return found
    ranks_with = [r for r, n in enumerate(counts) if n]
    if size == 1:
        add(Kind.SINGLE, 1, ranks_with[0])
    if size == 2 and len(ranks_with) == 1 and (ranks_with[0] < SMALL_JOKER or rules.joker_pairs):
        add(Kind.PAIR, 1, ranks_with[0])
    if size == rules.rocket_size and counts[SMALL_JOKER] == counts[BIG_JOKER] == rules.decks:
        add(Kind.ROCKET, 1, BIG_JOKER)
    if size == 3 and len(ranks_with) == 1:
        add(Kind.TRIO, 1, ranks_with[0])
    if size in rules.bomb_sizes and len(ranks_with) == 1 and ranks_with[0] < SMALL_JOKER:
        add(Kind.BOMB, 1, ranks_with[0])
    if size == 4 and sorted(counts[r] for r in ranks_with) == [1, 3]:
        add(Kind.TRIO_SINGLE, 1, next(r for r in ranks_with if counts[r] == 3))
    if size == 5 and sorted(counts[r] for r in ranks_with) == [2, 3]:
        pair_rank = next(r for r in ranks_with if counts[r] == 2)
        if pair_rank < SMALL_JOKER or rules.joker_pairs:
            add(Kind.TRIO_PAIR, 1, next(r for r in ranks_with if counts[r] == 3))
    for need, kind, minimum in (
        (1, Kind.STRAIGHT, rules.min_straight),
        (2, Kind.PAIR_CHAIN, rules.min_pair_chain),
        (3, Kind.AIRPLANE, rules.min_airplane),
    ):
        run = _consecutive_run(counts, need, rules)
        if run and run[1] - run[0] + 1 >= minimum:
            add(kind, run[1] - run[0] + 1, run[1])
    # Airplanes with wings: try every chain of trios and check what is left.
    for wing_size, kind in ((1, Kind.AIRPLANE_SINGLES), (2, Kind.AIRPLANE_PAIRS)):
        if size % (3 + wing_size):
            continue
        length = size // (3 + wing_size)
        if length < rules.min_airplane:
            continue
        for low in range(0, rules.chain_top - length + 2):
            high = low + length - 1
            if any(counts[r] != 3 for r in range(low, high + 1)):
                continue
            wings = [0 if low <= r <= high else n for r, n in enumerate(counts)]
            if _wings_ok(wings, wing_size, length, rules):
                add(kind, length, high)
    # Four with two singles or two pairs.
    for rank in ranks_with:
        if counts[rank] != 4:
            continue
        wings = list(counts)
        wings[rank] = 0
        if size == 6 and _wings_ok(wings, 1, 2, rules):
            add(Kind.FOUR_TWO_SINGLES, 1, rank)
        if size == 8 and _wings_ok(wings, 2, 2, rules):
            add(Kind.FOUR_TWO_PAIRS, 1, rank)
    found.sort(key=lambda c: (c.kind, c.length, c.main))
    return found


def _wings_ok(wings: list[int], wing_size: int, how_many: int, rules: Rules = STANDARD) -> bool:
    """Wings rule of RULES §5 (the main ranks are already removed from ``wings``): the rocket (every
    joker, §12.4) is never single wings; jokers of one colour pair only with two decks (§12.4)."""
    if wing_size == 1:
        return sum(wings) == how_many and not (
            wings[SMALL_JOKER] >= rules.decks and wings[BIG_JOKER] >= rules.decks
        )
    pair_ranks = [r for r in range(NUM_RANKS) if wings[r]]
    return (
        len(pair_ranks) == how_many
        and all(wings[r] == 2 for r in pair_ranks)
        and all(r < SMALL_JOKER or rules.joker_pairs for r in pair_ranks)
    )


def beats(play: Combo, table: Combo, rules: Rules = STANDARD) -> bool:
    """Does ``play`` beat ``table`` under ``rules``?  (RULES §6; §12.4: a longer bomb beats a shorter one;
    §12.3: a hard bomb beats a soft bomb of the same rank.)"""
    if play.kind == Kind.ROCKET:
        return table.kind != Kind.ROCKET
    if table.kind == Kind.ROCKET:
        return False
    if play.kind == Kind.BOMB:
        if table.kind != Kind.BOMB:
            return True
        if rules.wild_rank >= 0:  # RULES §12.3: a hard bomb beats a soft bomb of the same rank
            return (packed_size(play.cards), play.main, not play.soft) > (
                packed_size(table.cards), table.main, not table.soft)
        if rules.decks == 1:  # one deck: every bomb has four cards, the rank decides
            return play.main > table.main
        return (packed_size(play.cards), play.main) > (packed_size(table.cards), table.main)
    if table.kind == Kind.BOMB:
        return False
    return play.kind == table.kind and play.length == table.length and play.main > table.main


def why_not_beats(play: Combo, table: Combo) -> str:
    """A one-line reason why ``play`` does not beat ``table`` (for errors and the coach)."""
    p, t = Kind(play.kind).label, Kind(table.kind).label
    if table.kind == Kind.ROCKET:
        return "nothing beats the rocket"
    if table.kind == Kind.BOMB and play.kind == Kind.BOMB:
        return f"bomb {play.text} is lower than bomb {table.text}"
    if table.kind == Kind.BOMB:
        return f"only a higher bomb or the rocket beats bomb {table.text}"
    if play.kind != table.kind:
        return f"{p} {play.text} cannot beat {t} {table.text}: it needs a {t}, a bomb or the rocket"
    if play.length != table.length:
        return f"{p} {play.text} has {play.length} units, {t} {table.text} has {table.length}"
    return f"{p} {play.text} does not beat {t} {table.text}"


def best_beating_reading(cards: Cards | int, table: Combo, rules: Rules = STANDARD) -> Combo | None:
    """The highest reading of ``cards`` that beats ``table``, if any (RULES §6)."""
    beating = [r for r in readings(cards, rules) if beats(r, table, rules)]
    return max(beating, key=strength, default=None)


def plainest(options: list[Combo]) -> Combo:
    """The reading a player leading these cards would normally announce, and the table shows:
    the plainest kind, then the longest chain, then the highest main."""
    return min(options, key=lambda c: (int(c.kind), -c.length, -c.main))


def strength(combo: Combo) -> tuple[bool, bool, int, int]:
    """:attr:`Combo.strength` as a function, for ``max(..., key=strength)``."""
    return combo.strength


#: A move of the play phase: a combination, or :data:`PASS`.
Move = Combo | None
#: The pass, in every layer (legal move lists include it wherever passing is allowed).
PASS: None = None
