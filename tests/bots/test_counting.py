"""Counting cards: ``is_boss`` (its quick answer) agrees with the full list of ``beaters`` everywhere."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.bots.counting import beaters
from tutor.engine.facts import is_boss
from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD


def _pick(seed: int) -> tuple[Combo, int, int, bool]:
    rng = random.Random(seed)
    deck = Cards(FULL_DECK.packed).ranks()
    rng.shuffle(deck)
    mine = Cards.from_ranks(deck[: rng.randint(1, 20)])
    pool = Cards.from_ranks(deck[20 : 20 + rng.randint(0, 34)]).packed
    combo = rng.choice(legal_moves(mine))
    return combo, pool, rng.randint(1, 20), rng.random() < 0.8


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(0, 10**9))
def test_is_boss_is_no_beater_at_all(seed: int) -> None:
    combo, pool, max_size, bombs = _pick(seed)
    assert is_boss(combo, pool, max_size, bombs, rules=STANDARD) == (not beaters(combo, pool, max_size, bombs, rules=STANDARD))


def test_the_named_cases() -> None:
    rocket = Cards.parse("XD").packed
    twos = Combo.parse("22")
    assert not is_boss(twos, rocket, 2, rules=STANDARD) and is_boss(twos, rocket, 1, rules=STANDARD) and is_boss(twos, rocket, 5, bombs=False, rules=STANDARD)
    assert not is_boss(Combo.parse("2"), rocket, 1, rules=STANDARD)  # a joker on its own beats a 2
    assert is_boss(Combo.parse("7777"), Cards.parse("66664").packed, 5, rules=STANDARD)
    assert not is_boss(Combo.parse("7777"), Cards.parse("88884").packed, 5, rules=STANDARD)
    assert is_boss(Combo.parse("7777"), Cards.parse("88884").packed, 3, rules=STANDARD)
    assert is_boss(Combo.parse("XD"), FULL_DECK.packed, 20, rules=STANDARD)
    assert not is_boss(Combo.parse("34567"), Cards.parse("456789").packed, 5, rules=STANDARD)
    assert is_boss(Combo.parse("34567"), Cards.parse("456789").packed, 4, rules=STANDARD)
