"""The compiled nudging of sampled deals (tutor/solver/playout.py ``mismatches``, ``nudge``; ``_nudge.c``).

The C replay must count exactly what the Python replay (:func:`tutor.bots.sampling.mismatches`) counts with
the same model — a Python bot asking the compiled policy's variant — on many deals and histories; the swaps
must keep the card counts, the viewer's cards and the landlord's known kitty cards where they are, and the
same seed must give the same deals.
"""

from __future__ import annotations

import random

import pytest

from tests.bots.bot_views import dump_history, view
from tutor.bots.counting import landlord_known, pass_limits, unseen_packed
from tutor.bots.sampling import mismatches as python_mismatches
from tutor.bots.sampling import sample_hidden
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.game import Game, Phase
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView
from tutor.solver.playout import VARIANTS, available, choose, mismatches, nudge

pytestmark = pytest.mark.skipif(not available(STANDARD), reason="the compiled core is not built")


class VariantModel:
    """A Python model player that asks the compiled policy's ``variant``: what the C replay asks, from Python."""

    level = "variant-model"

    def __init__(self, variant: str) -> None:
        self.variant = variant

    def play(self, view: PlayerView) -> Combo | None:
        return choose(view, self.variant)


def _game_view(number: int, variants: tuple[str, str, str], stop: int) -> tuple[Game, PlayerView]:
    """A game whose seats play ``variants`` (compiled), stopped after ``stop`` turns (or one before its end);
    the view of the seat to move."""
    game = Game.with_landlord(number, number % 3)
    played = 0
    while game.phase is Phase.PLAYING and played < stop:
        seat = game.to_move
        move = choose(game.view(seat), variants[seat])
        if move is not None and move.cards == game.hand(seat).packed:
            break  # the game would end: no decision left to guess from
        game.play(move)
        played += 1
    return game, game.view(game.to_move)


def _positions(count: int) -> list[tuple[Game, PlayerView]]:
    rng = random.Random(33)
    names = list(VARIANTS)
    out = []
    for number in range(1, count + 1):
        variants = (rng.choice(names), rng.choice(names), rng.choice(names))
        out.append(_game_view(number, variants, rng.randrange(3, 40)))
    return out


def test_the_compiled_count_is_the_python_count_with_the_same_model() -> None:
    rng = random.Random(7)
    checked = wrong_somewhere = 0
    for _, position in _positions(24):
        limits = pass_limits(position)
        for variant in VARIANTS:
            model = VariantModel(variant)
            for recent in (None, 12, 3):
                hidden = sample_hidden(position, rng, limits)
                expected = python_mismatches(position, hidden, model, recent)
                assert mismatches(position, hidden, variant, recent) == expected, (variant, recent)
                checked += 1
                wrong_somewhere += expected > 0
    assert checked == 24 * len(VARIANTS) * 3
    assert wrong_somewhere > checked // 2  # random deals explain few histories: the counts compared are not all 0


def test_the_compiled_blame_is_the_python_blame() -> None:
    from tutor.solver.native import _native

    assert _native is not None
    rng = random.Random(8)
    for _, position in _positions(10):
        hidden = sample_hidden(position, rng)
        for variant, code in VARIANTS.items():
            blame: list[tuple[int, int]] = []
            count = python_mismatches(position, hidden, VariantModel(variant), None, blame=blame)
            history, slots = _slots_history(position, hidden)
            got, compiled = _native.mismatches(
                history, position.seat, tuple(position.card_counts), position.landlord, slots, code, 0
            )
            assert (got, compiled) == (count, blame)


def _slots_history(position: PlayerView, hidden: dict[int, int]) -> tuple[list[object], tuple[int, ...]]:
    from tutor.solver import playout

    return playout._history(position), playout._slots(position, hidden)  # type: ignore[attr-defined]


def test_the_true_hands_explain_every_play_of_a_compiled_player() -> None:
    for variant in VARIANTS:
        for number in (3, 8, 21):
            game, position = _game_view(number, (variant, variant, variant), 30)
            truth = {s: game.hand(s).packed for s in range(3) if s != position.seat}
            assert mismatches(position, truth, variant) == 0
            assert nudge(position, [truth], landlord_known(position), variant, 16, None, 5) == [truth]


def test_nudging_keeps_the_counts_and_the_viewers_cards_and_explains_more() -> None:
    rng = random.Random(9)
    before = after = 0
    for _, position in _positions(16):
        deals = [sample_hidden(position, rng) for _ in range(6)]
        known = landlord_known(position)
        nudged = nudge(position, deals, known, "quick", 16, None, rng.getrandbits(64))
        for plain, deal in zip(deals, nudged):
            assert set(deal) == set(plain)
            assert sum(deal.values()) == unseen_packed(position)
            assert all(len(Cards(deal[s])) == len(Cards(plain[s])) for s in deal)
            before += mismatches(position, plain, "quick")
            after += mismatches(position, deal, "quick")
    assert after < before


def test_the_same_seed_gives_the_same_deals() -> None:
    _, position = _positions(5)[-1]
    rng = random.Random(10)
    deals = [sample_hidden(position, rng) for _ in range(8)]
    known = landlord_known(position)
    first = nudge(position, deals, known, "agent", 16, None, 1234)
    assert nudge(position, deals, known, "agent", 16, None, 1234) == first
    assert any(nudge(position, deals, known, "agent", 16, None, seed) != first for seed in (1, 2, 3))


def test_the_landlords_known_kitty_cards_never_move() -> None:
    history = dump_history({0: "3456789TJQKA2", 1: "33445566QQK", 2: "77889TKKAA"}, then=0)
    position = view(1, "99TTJJ", 0, (7, 6, 7), history, kitty="2XD")
    known = landlord_known(position)
    assert Cards(known) == Cards.parse("XD")
    rng = random.Random(11)
    moved = 0
    for seed in range(20):
        deal = sample_hidden(position, rng)
        for variant in VARIANTS:
            out = nudge(position, [deal], known, variant, 16, None, seed)[0]
            assert Cards.parse("XD").issubset(Cards(out[0]))
            moved += out != deal
    assert moved  # the swaps did run
    farmers = 0
    for _, position in _positions(24):
        known = landlord_known(position)
        if not known:
            continue
        farmers += 1
        assert position.landlord is not None
        deals = [sample_hidden(position, rng) for _ in range(8)]
        for deal in nudge(position, deals, known, "quick", 16, None, farmers):
            assert Cards(known).issubset(Cards(deal[position.landlord]))
    assert farmers > 3


def test_an_unknown_model_is_an_error() -> None:
    _, position = _positions(1)[0]
    with pytest.raises(ValueError, match="auto"):
        nudge(position, [], 0, "auto", 4, None, 0)


def test_the_batch_count_is_the_count_of_each_deal() -> None:
    # mismatch_counts (round 8's filter) asks the nudge for no swap: each deal's count must be mismatches'.
    from tutor.solver.playout import mismatch_counts

    rng = random.Random(11)
    seen = set()
    for _, position in _positions(12):
        limits = pass_limits(position)
        deals = [sample_hidden(position, rng, limits) for _ in range(5)]
        for variant in VARIANTS:
            for recent in (None, 6):
                expected = [mismatches(position, d, variant, recent) for d in deals]
                assert mismatch_counts(position, deals, variant, recent) == expected, (variant, recent)
                seen.update(expected)
    assert len(seen) > 3  # the counts compared differ from deal to deal
