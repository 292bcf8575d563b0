"""An independent, deliberately naive definition of the 14 combinations (RULES §5, §6).

The engine *classifies* card sets (:func:`tutor.engine.combos.readings`) and
*enumerates* moves kind by kind on packed integers (:mod:`tutor.engine.moves`).
This module does neither: it **constructs** every combination that fits inside a
multiset of rank counts, straight from the table in RULES §5, and records which
(kind, length, main) each card set was built as.  It imports nothing from the
engine, so a misunderstanding of the rules shared by both engine files cannot
hide here.  It is slow and simple on purpose.

Also a script: ``python tests/engine/ddz_reference.py`` rewrites
``tests/data/lead_counts.txt`` (see :func:`write_lead_counts`).
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from itertools import combinations
from pathlib import Path

RANKS = "3456789TJQKA2XD"
SMALL, BIG = 13, 14
#: Chain ranks are 3 … A (indices 0 … 11): never a 2 or a joker (RULES §5).
CHAIN_RANKS = range(12)
DECK = (4,) * 13 + (1, 1)

Counts = tuple[int, ...]
Reading = tuple[str, int, int]  # (kind label, length, main rank)

LEAD_COUNTS_FILE = Path(__file__).resolve().parent.parent / "data" / "lead_counts.txt"


def counts_of(text: str) -> Counts:
    """Canonical card text → 15 counts (only the canonical characters)."""
    counts = [0] * 15
    for ch in text:
        counts[RANKS.index(ch)] += 1
    return tuple(counts)


def text_of(counts: Counts) -> str:
    return "".join(RANKS[r] * n for r, n in enumerate(counts))


def _add(*parts: dict[int, int]) -> Counts:
    counts = [0] * 15
    for part in parts:
        for rank, n in part.items():
            counts[rank] += n
    return tuple(counts)


def _multisets(available: dict[int, int], size: int) -> list[dict[int, int]]:
    """Every multiset of ``size`` cards drawn from ``available`` (rank → count)."""
    ranks = sorted(r for r, n in available.items() if n)
    out: list[dict[int, int]] = []

    def grow(index: int, left: int, chosen: dict[int, int]) -> None:
        if left == 0:
            out.append(dict(chosen))
            return
        if index == len(ranks):
            return
        rank = ranks[index]
        for take in range(min(available[rank], left), -1, -1):
            if take:
                chosen[rank] = take
            else:
                chosen.pop(rank, None)
            grow(index + 1, left - take, chosen)
        chosen.pop(rank, None)

    grow(0, size, {})
    return out


def _runs(holding: Counts, per_rank: int, minimum: int) -> list[tuple[int, int]]:
    """(low, high) of every run of ≥ ``minimum`` consecutive chain ranks held ≥ ``per_rank`` times."""
    return [
        (low, high)
        for low in CHAIN_RANKS
        for high in CHAIN_RANKS
        if high - low + 1 >= minimum and all(holding[r] >= per_rank for r in range(low, high + 1))
    ]


def constructions(holding: Counts) -> dict[Counts, set[Reading]]:
    """Every combination that can be built from ``holding``: card set → its readings.

    The keys are all sub-multisets of ``holding`` that form at least one
    combination; the value is the set of (kind, length, main) they were built as.
    """
    found: dict[Counts, set[Reading]] = defaultdict(set)
    have = {r: n for r, n in enumerate(holding) if n}

    def record(cards: Counts, kind: str, length: int, main: int) -> None:
        found[cards].add((kind, length, main))

    for r, n in have.items():
        record(_add({r: 1}), "single", 1, r)
        if n >= 2 and r < SMALL:
            record(_add({r: 2}), "pair", 1, r)
        if n >= 3:
            record(_add({r: 3}), "trio", 1, r)
            for w, m in have.items():
                if w != r:
                    record(_add({r: 3}, {w: 1}), "trio_single", 1, r)
                    if m >= 2 and w < SMALL:
                        record(_add({r: 3}, {w: 2}), "trio_pair", 1, r)
        if n == 4:
            record(_add({r: 4}), "bomb", 1, r)
            rest = {w: m for w, m in have.items() if w != r}
            for wings in _multisets(rest, 2):
                if wings.get(SMALL) and wings.get(BIG):
                    continue  # the jokers together are a rocket, never two wings
                record(_add({r: 4}, wings), "four_two_singles", 1, r)
            pair_ranks = [w for w, m in rest.items() if m >= 2 and w < SMALL]
            for a, b in combinations(pair_ranks, 2):
                record(_add({r: 4}, {a: 2, b: 2}), "four_two_pairs", 1, r)
    if have.get(SMALL) and have.get(BIG):
        record(_add({SMALL: 1, BIG: 1}), "rocket", 1, BIG)
    for low, high in _runs(holding, 1, 5):
        record(_add({r: 1 for r in range(low, high + 1)}), "straight", high - low + 1, high)
    for low, high in _runs(holding, 2, 3):
        record(_add({r: 2 for r in range(low, high + 1)}), "pair_chain", high - low + 1, high)
    for low, high in _runs(holding, 3, 2):
        length = high - low + 1
        body = {r: 3 for r in range(low, high + 1)}
        record(_add(body), "airplane", length, high)
        rest = {w: m for w, m in have.items() if not low <= w <= high}
        for wings in _multisets(rest, length):
            if wings.get(SMALL) and wings.get(BIG):
                continue
            record(_add(body, wings), "airplane_singles", length, high)
        pair_ranks = [w for w, m in rest.items() if m >= 2 and w < SMALL]
        for chosen in combinations(pair_ranks, length):
            record(_add(body, {w: 2 for w in chosen}), "airplane_pairs", length, high)
    return dict(found)


def reference_readings(cards: Counts) -> set[Reading]:
    """Every reading of exactly these cards (empty set: not a combination)."""
    return constructions(cards).get(tuple(cards), set())


def reference_beats(play: Reading, table: Reading) -> bool:
    """RULES §6, written out again."""
    if table[0] == "rocket":
        return False
    if play[0] == "rocket":
        return True
    if play[0] == "bomb":
        return table[0] != "bomb" or play[2] > table[2]
    if table[0] == "bomb":
        return False
    return play[0] == table[0] and play[1] == table[1] and play[2] > table[2]


def reference_lead_moves(hand: Counts) -> set[tuple[Counts, str, int, int]]:
    """Leading: one move per card set and (kind, length), under the highest main."""
    moves = set()
    for cards, readings in constructions(hand).items():
        best: dict[tuple[str, int], int] = {}
        for kind, length, main in readings:
            best[kind, length] = max(main, best.get((kind, length), -1))
        moves.update((cards, kind, length, main) for (kind, length), main in best.items())
    return moves


def reference_follow_moves(hand: Counts, table: Reading) -> set[tuple[Counts, str, int, int]]:
    """Following: one move per card set with a beating reading, under the highest one."""
    moves = set()
    for cards, readings in constructions(hand).items():
        beating = [r for r in readings if reference_beats(r, table)]
        if beating:
            kind, length, main = max(beating, key=lambda r: r[2])
            moves.add((cards, kind, length, main))
    return moves


def random_hand(rng: random.Random, size: int) -> Counts:
    deck = [r for r in range(15) for _ in range(DECK[r])]
    return _add({r: n for r, n in _count(rng.sample(deck, size)).items()})


def _count(ranks: list[int]) -> dict[int, int]:
    out: dict[int, int] = defaultdict(int)
    for r in ranks:
        out[r] += 1
    return out


#: Hands chosen by hand for the perft file: airplanes with every kind of wing,
#: several bombs, both jokers, long chains, the RULES §6 example.
TRICKY_HANDS = (
    "333444555666",
    "333444555666777888",
    "3334445556667778889T",
    "33334444555566667777",
    "333344445555XD",
    "3333444455556666XD22",
    "3456789TJQKA2XD",
    "33445566778899TTJJQQ",
    "3344556677889TJQKA22",
    "333444555666777XD",
    "QQQKKKAAA222XD",
    "KKKAAA2222XD",
    "2222XD",
    "XD",
    "X",
    "D2",
    "3",
    "33",
    "333",
    "3333",
    "33334",
    "333344",
    "33334455",
    "33334444",
    "3333XD",
    "99993355",
    "777888333K",
    "7778883KXD",
    "7778889993KXD",
    "444555666777888999",
    "444555666777TTJJQQKK",
    "3456789TJQKAAA222XD",
    "3456789TJQKA",
    "3456789TJQKA2",
    "TTTJJJQQQKKKAAA22XD",
    "TTTTJJJJQQQQKKKKAAAA",
)


def perft_hands() -> list[str]:
    """The fixed hands of the lead-count file: the tricky ones, then seeded random
    hands of every size from 1 to 20 (some with extra bombs and jokers forced in)."""
    rng = random.Random(20240602)
    hands = [text_of(counts_of(h)) for h in TRICKY_HANDS if h]
    seen = set(hands)
    while len(hands) < 200:
        size = rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 17, 18, 19, 20, 20, 20, 20])
        hand = random_hand(rng, size)
        if rng.random() < 0.25 and size >= 6:  # force a bomb in: swap in four of a rank
            rank = rng.randrange(13)
            cards = [r for r, n in enumerate(hand) for _ in range(n) if r != rank][: size - 4] + [rank] * 4
            hand = _add(_count(cards))
        text = text_of(hand)
        if text not in seen:
            seen.add(text)
            hands.append(text)
    return hands


def write_lead_counts(path: Path = LEAD_COUNTS_FILE) -> None:
    """Rewrite the perft file from :func:`perft_hands` and :func:`reference_lead_moves`."""
    lines = [
        "# Lead-move counts (a \"perft\" file, like chess move-generator tests).",
        "# Format: one hand per line, `<hand> <number of lead moves>`; the hand is in the",
        "# canonical notation of RULES §1 (low to high, T = ten, X/D = small/big joker).",
        "# A lead move is one (card set, kind, chain length) with the highest main rank;",
        "# pass is not counted (RULES §6, issue 2).",
        "# Made by `python tests/engine/ddz_reference.py`: the counts come from the",
        "# brute-force constructor in tests/engine/ddz_reference.py, never from the engine;",
        "# tests/engine/test_lead_counts.py checks the engine (and a sample of the",
        "# reference) against this file.",
    ]
    for hand in perft_hands():
        lines.append(f"{hand} {len(reference_lead_moves(counts_of(hand)))}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_lead_counts(path: Path = LEAD_COUNTS_FILE) -> list[tuple[str, int]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            hand, count = line.split()
            rows.append((hand, int(count)))
    return rows


if __name__ == "__main__":
    write_lead_counts(Path(sys.argv[1]) if len(sys.argv) > 1 else LEAD_COUNTS_FILE)
    print(f"wrote {LEAD_COUNTS_FILE if len(sys.argv) == 1 else sys.argv[1]}")
