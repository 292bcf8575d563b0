"""Move-generation throughput: every lead move of many random 20-card hands.

The measure the issue sets (≥ 2× DouZero's Python move generator) is taken on
the *same* hands in the *same* process, so the ratio does not depend on the
machine.  Hands are dealt and converted before any clock starts; each run
times one pass over all hands; we report the median run, because a mean is
dragged by the odd slow run (another process, a cache miss storm).

DouZero is never a dependency: :func:`load_douzero` reads its two small
modules straight from a path (its package ``__init__`` imports numpy and
torch, which the move generator does not need).
"""

from __future__ import annotations

import gc
import importlib.util
import random
import statistics
import sys
import time
import types
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tutor.engine.cards import DECK_COUNTS, ONE, pack
from tutor.engine.moves import lead_moves_packed

#: DouZero's card numbers for our ranks 3 … A, 2, small joker, big joker.
DOUZERO_CARD = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_FROM_DOUZERO = {card: rank for rank, card in enumerate(DOUZERO_CARD)}

DouzeroGenerator = Callable[[list[int]], list[list[int]]]


@dataclass(frozen=True)
class Throughput:
    """One generator timed over the same hands: medians over ``runs`` runs."""

    hands: int
    runs: int
    moves_total: int
    run_seconds: tuple[float, ...]

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.run_seconds)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.median_seconds

    @property
    def moves_per_second(self) -> float:
        return self.moves_total / self.median_seconds


@dataclass(frozen=True)
class DouzeroDifferences:
    """How DouZero's output differs from ours on the same hands (card sets only).

    Attributes:
        duplicates: moves DouZero lists more than once (extra copies counted).
        forbidden: distinct card sets DouZero offers that are no lead move here
            (e.g. both jokers as the two wings of a four + 2 or an airplane).
        missing: distinct card sets we offer that DouZero never lists.
        examples: a few of each, as text, for the report.
    """

    duplicates: int
    forbidden: int
    missing: int
    examples: dict[str, list[str]]


def random_hands(count: int, seed: int, size: int = 20) -> list[int]:
    """``count`` packed hands of ``size`` cards, dealt from a seeded shuffle."""
    rng = random.Random(seed)
    deck = [rank for rank, n in enumerate(DECK_COUNTS) for _ in range(n)]
    hands = []
    for _ in range(count):
        hand = 0
        for rank in rng.sample(deck, size):
            hand += ONE[rank]
        hands.append(hand)
    return hands


def to_douzero(hand: int) -> list[int]:
    """Packed hand → DouZero's sorted card-number list (3..14, 17 for 2, 20/30 jokers)."""
    return [DOUZERO_CARD[r] for r in range(15) for _ in range((hand >> (4 * r)) & 0xF)]


def from_douzero(cards: Sequence[int]) -> int:
    counts = [0] * 15
    for card in cards:
        counts[_FROM_DOUZERO[card]] += 1
    return pack(counts)


def _timed(work: Callable[[], int], runs: int) -> tuple[int, tuple[float, ...]]:
    """Run ``work`` ``runs`` times with the garbage collector paused (as timeit does)."""
    seconds = []
    total = 0
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            total = work()
            seconds.append(time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return total, tuple(seconds)


def time_ours(hands: Sequence[int], runs: int) -> Throughput:
    """Time :func:`lead_moves_packed` over the packed hands."""
    lead = lead_moves_packed
    lead(hands[0])  # tables are built at import; this only warms the call path

    def work() -> int:
        return sum(len(lead(hand)) for hand in hands)

    total, seconds = _timed(work, runs)
    return Throughput(len(hands), runs, total, seconds)


def time_douzero(generator: DouzeroGenerator, hands: Sequence[int], runs: int) -> Throughput:
    """Time DouZero's ``MovesGener(cards).gen_moves()`` over the same hands."""
    lists = [to_douzero(hand) for hand in hands]

    def work() -> int:
        return sum(len(generator(cards)) for cards in lists)

    total, seconds = _timed(work, runs)
    return Throughput(len(hands), runs, total, seconds)


def douzero_differences(generator: DouzeroGenerator, hands: Sequence[int]) -> DouzeroDifferences:
    """Compare DouZero's moves with ours, hand by hand, as card sets."""
    duplicates = forbidden = missing = 0
    examples: dict[str, list[str]] = {"duplicates": [], "forbidden": [], "missing": []}
    from tutor.engine.cards import format_packed

    for hand in hands:
        theirs = Counter(from_douzero(move) for move in generator(to_douzero(hand)))
        ours = {move.cards for move in lead_moves_packed(hand)}
        for cards, n in theirs.items():
            if n > 1:
                duplicates += n - 1
                _note(examples["duplicates"], f"{format_packed(cards)} ×{n}")
            if cards not in ours:
                forbidden += 1
                _note(examples["forbidden"], format_packed(cards))
        for cards in ours - theirs.keys():
            missing += 1
            _note(examples["missing"], format_packed(cards))
    return DouzeroDifferences(duplicates, forbidden, missing, examples)


def _note(examples: list[str], text: str, keep: int = 3) -> None:
    if len(examples) < keep and text not in examples:
        examples.append(text)


def find_douzero(path: str | None = None) -> Path | None:
    """The folder holding DouZero's ``move_generator.py``, or None.

    ``path`` may be a site-packages folder, the ``douzero`` package folder or
    its ``env`` folder; without it, the current interpreter's import path is
    searched (without importing the package).
    """
    candidates: list[Path] = []
    if path is not None:
        base = Path(path).expanduser()
        candidates = [base / "douzero" / "env", base / "env", base]
    else:
        try:
            spec = importlib.util.find_spec("douzero")
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            candidates = [Path(p) / "env" for p in spec.submodule_search_locations]
    for folder in candidates:
        try:
            if (folder / "move_generator.py").is_file() and (folder / "utils.py").is_file():
                return folder
        except (OSError, ValueError):  # a name too long, a NUL: not DouZero's folder
            continue
    return None


def load_douzero(folder: Path) -> DouzeroGenerator:
    """Load DouZero's move generator from ``folder`` without running its package ``__init__``.

    Its ``move_generator`` only needs ``douzero.env.utils``; we register empty
    parent packages for the duration of the load and restore ``sys.modules``.
    """
    names = ("douzero", "douzero.env", "douzero.env.utils", "douzero.env.move_generator")
    saved = {name: sys.modules.get(name) for name in names}
    try:
        for name in names[:2]:
            package = types.ModuleType(name)
            package.__path__ = []
            sys.modules[name] = package
        _load_file("douzero.env.utils", folder / "utils.py")
        module = _load_file("douzero.env.move_generator", folder / "move_generator.py")
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
    gener = module.MovesGener

    def generate(cards: list[int]) -> list[list[int]]:
        return gener(cards).gen_moves()  # type: ignore[no-any-return]

    return generate


def _load_file(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
