"""What answers and passes reveal, weighted by measured odds (tutor/bots/revealed.py, sampling.sampler)."""

from __future__ import annotations

import random

import pytest

from tests.bots.bot_views import turns, view
from tutor.bots.hard import HardBot
from tutor.bots.revealed import RULE_AGENT, answering_ranks, follows, log_likelihood
from tutor.bots.sampling import Weighting, sample_hidden, sampler
from tutor.engine.cards import Cards
from tutor.engine.view import PlayerView

ABOVE_FOUR = sum(1 << (4 * r) for r in range(2, 15))  # ranks 5 … big joker


def test_answering_ranks_counts_the_ranks_with_enough_cards_above_the_table() -> None:
    hand = Cards.parse("3345KK22D").packed
    assert answering_ranks(hand, 1, ABOVE_FOUR) == 4  # 5, K, 2, D
    assert answering_ranks(hand, 2, ABOVE_FOUR) == 2  # KK, 22 (33 is below)
    assert answering_ranks(Cards.parse("5558888").packed, 3, ABOVE_FOUR) == 2


def _passed_on_a_low_pair() -> PlayerView:
    """The landlord (seat 0, the viewer) leads 44; farmer 1 passes, farmer 2 answers with 55, all pass back.

    Set up part-way (as a lesson's endgame): the other hands hold 18 of the 43 unseen cards.
    """
    history = turns((0, "44"), (1, None), (2, "55"), (0, None), (1, None))
    return view(0, "3689TJQ", 0, (7, 10, 8), history)


def test_a_pass_is_an_event_with_the_cards_played_after_it() -> None:
    position = _passed_on_a_low_pair()
    events = follows(position.history, 3, 0, position.card_counts, skip=0)
    assert len(events) == 3
    last = events
    assert [(e.seat, e.need, e.passed) for e in last] == [(1, 2, True), (2, 2, False), (1, 2, True)]
    assert last[1].later == Cards.parse("55").packed and last[0].later == 0
    assert not any(e.partner for e in last[:2]) and last[2].partner  # the last pass faced its partner's 55


def test_weights_make_pairs_unlikely_in_the_hand_that_passed_on_a_low_pair() -> None:
    position = _passed_on_a_low_pair()
    plain = sampler(position)
    weighted = sampler(position, weighting=Weighting("rule-agent", 4))
    rng_a, rng_b = random.Random(7), random.Random(7)
    # Hands of farmer 1 with no pair above the 44 it passed on: rare as dealt, common once weighted.
    none_plain = sum(answering_ranks(plain(rng_a)[1], 2, ABOVE_FOUR) == 0 for _ in range(80))
    none_weighted = sum(answering_ranks(weighted(rng_b)[1], 2, ABOVE_FOUR) == 0 for _ in range(80))
    assert none_weighted >= max(12, 5 * none_plain), (none_weighted, none_plain)
    # The likelihood itself: a hand of farmer 1 with no pair above 4 explains its passes best.
    events = follows(position.history, 3, 0, position.card_counts, skip=0)
    tables = {1: RULE_AGENT, 2: RULE_AGENT}
    no_pairs = {1: Cards.parse("6789TJQKA2").packed, 2: Cards.parse("6789TJXD").packed}
    pairs = {1: Cards.parse("66778899TT").packed, 2: Cards.parse("JJQKA2XD").packed}
    assert log_likelihood(events, no_pairs, tables) > log_likelihood(events, pairs, tables) + 5


def test_the_same_seed_draws_the_same_deals_and_no_weighting_is_todays_sampler() -> None:
    position = _passed_on_a_low_pair()
    weighting = Weighting("rule-agent", 4)
    first = [sampler(position, weighting=weighting)(random.Random(3)) for _ in range(2)]
    assert first[0] == first[1]
    rng_a, rng_b = random.Random(5), random.Random(5)
    plain = sampler(position)
    assert [plain(rng_a) for _ in range(5)] == [sample_hidden(position, rng_b) for _ in range(5)]


def test_hard_weights_its_deals_only_when_asked() -> None:
    bot = HardBot(0)
    assert bot.weighting() is None
    bot.revealed_rates = "rule-agent"
    assert bot.weighting() == Weighting("rule-agent", HardBot.sample_pool)
    with pytest.raises(ValueError, match="unknown table"):
        Weighting("rule agent")
