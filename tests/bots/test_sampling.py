"""Sampling hidden hands consistent with a view (tutor/bots/sampling.py)."""

from __future__ import annotations

import random

import pytest

from tests.bots.bot_views import dump_history, turns, view
from tutor.bots.counting import landlord_known, pass_limits, unseen_packed
from tutor.bots.sampling import likely_samples, mismatches, sample_hidden
from tutor.engine.cards import FULL_DECK, Cards


def test_samples_give_every_unseen_card_to_someone_with_the_right_counts() -> None:
    history = dump_history({0: "3456789TJQKA2", 1: "33445566QQK", 2: "77889TKKAA"}, then=0)
    position = view(1, "99TTJJ", 0, (7, 6, 7), history, kitty="2XD")
    rng = random.Random(1)
    for _ in range(20):
        hidden = sample_hidden(position, rng)
        assert set(hidden) == {0, 2}
        assert len(Cards(hidden[0])) == 7 and len(Cards(hidden[2])) == 7
        assert hidden[0] + hidden[2] == unseen_packed(position)


def test_the_landlord_keeps_the_kitty_cards_it_has_not_played() -> None:
    history = dump_history({0: "3456789TJQKA2", 1: "33445566QQK", 2: "77889TKKAA"}, then=0)
    position = view(1, "99TTJJ", 0, (7, 6, 7), history, kitty="2XD")
    # The landlord played one 2 of its own; the kitty's 2 may be that one, but X and D are still there.
    assert Cards(landlord_known(position)) == Cards.parse("XD")
    rng = random.Random(2)
    for _ in range(20):
        assert Cards.parse("XD").issubset(Cards(sample_hidden(position, rng)[0]))


def test_samples_respect_what_passes_reveal() -> None:
    # The landlord leads a 9; seat 1 passes, and seat 2 — the last who could stop it —
    # passes too: seat 2 most likely holds no single above 9.  The only unseen cards
    # above 9 are KKA2XD, exactly the landlord's six: every sample must give them all to it.
    landlord, me, partner, lead = "KKA2XD", "555666", "3334447", "9"
    rest = FULL_DECK - Cards.parse(landlord + me + partner + lead)
    ranks = "".join(str(Cards.from_ranks([r])) for r in rest.ranks())
    history = dump_history({0: ranks[:13], 1: ranks[13:24], 2: ranks[24:]}, then=0)
    history += turns((0, lead), (1, None), (2, None))
    position = view(1, me, 0, (6, 6, 7), history)
    assert unseen_packed(position) == Cards.parse(landlord + partner).packed
    rng = random.Random(3)
    for _ in range(10):
        hidden = sample_hidden(position, rng)
        assert Cards(hidden[0]) == Cards.parse(landlord)
        assert Cards(hidden[2]) == Cards.parse(partner)


def test_without_passes_the_split_is_random() -> None:
    landlord, me, partner, lead = "KKA2XD", "555666", "3334447", "9"
    rest = FULL_DECK - Cards.parse(landlord + me + partner + lead)
    ranks = "".join(str(Cards.from_ranks([r])) for r in rest.ranks())
    history = dump_history({0: ranks[:13] + lead, 1: ranks[13:24], 2: ranks[24:]}, then=1)
    position = view(1, me, 0, (6, 6, 7), history)
    assert pass_limits(position) == []
    rng = random.Random(3)
    landlord_hands = {sample_hidden(position, rng)[0] for _ in range(10)}
    assert len(landlord_hands) > 1


def _medium_game_view(number: int, cards_left: int):
    """A medium-vs-medium game stopped when at most ``cards_left`` cards remain: (game, view)."""
    from tutor.bots import MediumBot
    from tutor.engine.game import Game, Phase

    game = Game.with_landlord(number, 0)
    bots = [MediumBot(number) for _ in range(3)]
    while game.phase is Phase.PLAYING:
        v = game.view(game.to_move)
        if sum(v.card_counts) <= cards_left:
            return game, v
        game.play(bots[game.to_move].play(v))
    raise AssertionError("the game ended early")


@pytest.mark.parametrize("number", [2, 5, 11])
def test_the_true_hands_explain_every_play_of_sensible_players(number: int) -> None:
    from tutor.bots import MediumBot

    game, position = _medium_game_view(number, 34)
    truth = {s: game.hand(s).packed for s in range(3) if s != position.seat}
    assert mismatches(position, truth, MediumBot(0)) == 0


def test_hard_reads_how_the_others_played() -> None:
    # Swapping cards towards deals that explain the others' past plays (as a sensible
    # player would have made them) leaves fewer unexplained plays than plain sampling.
    from tutor.bots import MediumBot

    model = MediumBot(0)
    plain = nudged = 0
    for number in (2, 5, 11, 19):
        _, position = _medium_game_view(number, 34)
        for hidden in likely_samples(position, random.Random(number), 3, model, steps=0):
            plain += mismatches(position, hidden, model)
        for hidden in likely_samples(position, random.Random(number), 3, model, steps=8):
            nudged += mismatches(position, hidden, model)
            assert sum(hidden.values()) == unseen_packed(position)
            assert [len(Cards(hidden[s])) for s in sorted(hidden)] == [
                position.card_counts[s] for s in sorted(hidden)
            ]
    assert nudged < plain


def test_nudged_samples_keep_the_kitty_with_the_landlord() -> None:
    from tutor.bots import MediumBot

    history = dump_history({0: "3456789TJQKA2", 1: "33445566QQK", 2: "77889TKKAA"}, then=0)
    position = view(1, "99TTJJ", 0, (7, 6, 7), history, kitty="2XD")
    for hidden in likely_samples(position, random.Random(4), 5, MediumBot(0), steps=6):
        assert Cards.parse("XD").issubset(Cards(hidden[0]))


def test_compiled_nudging_draws_then_nudges_reproducibly() -> None:
    from tutor.engine.rules import STANDARD
    from tutor.solver import playout

    if not playout.available(STANDARD):
        pytest.skip("the compiled core is not built")
    from tutor.bots.sampling import nudged_samples

    plain = nudged = 0
    for number in (2, 5, 11, 19):
        _, position = _medium_game_view(number, 34)
        first = nudged_samples(position, random.Random(number), 4, "quick", 16)
        assert nudged_samples(position, random.Random(number), 4, "quick", 16) == first
        drawn = nudged_samples(position, random.Random(number), 4, "quick", 0)
        for deal, raw in zip(first, drawn):
            assert sum(deal.values()) == unseen_packed(position)
            plain += playout.mismatches(position, raw, "quick")
            nudged += playout.mismatches(position, deal, "quick")
    assert nudged < plain
    with pytest.raises(ValueError):
        nudged_samples(position, random.Random(1), 4, "auto", 16)


def _compiled_game_view(number: int, variant: str, stop: int):
    """A game whose farmers play the compiled ``variant`` and the landlord (seat 0) the quick policy, stopped
    after ``stop`` turns: (game, the landlord's view when it is next to move)."""
    from tutor.engine.game import Game, Phase
    from tutor.solver.playout import choose

    game = Game.with_landlord(number, 0)
    played = 0
    while game.phase is Phase.PLAYING:
        seat = game.to_move
        if seat == 0 and played >= stop:
            return game, game.view(0)
        game.play(choose(game.view(seat), "quick" if seat == 0 else variant))
        played += 1
    raise AssertionError("the game ended early")


def test_filtered_samples_keep_the_deals_the_model_explains_best() -> None:
    from tutor.engine.rules import STANDARD
    from tutor.solver import playout

    if not playout.available(STANDARD):
        pytest.skip("the compiled core is not built")
    from tutor.bots.counting import pass_limits
    from tutor.bots.sampling import Filter, filtered_samples, sampler

    closer = 0
    for number in (3, 8, 14, 21):
        game, position = _compiled_game_view(number, "agent", 12)
        truth = {s: game.hand(s).packed for s in (1, 2)}
        kept = filtered_samples(position, random.Random(number), 6, Filter("agent", 8))
        assert filtered_samples(position, random.Random(number), 6, Filter("agent", 8)) == kept
        assert len(kept) == 6
        draw = sampler(position, pass_limits(position))
        rng = random.Random(number)
        pool = [draw(rng) for _ in range(48)]  # the same draws the filter saw (the same generator)
        counts = playout.mismatch_counts(position, pool, "agent")
        best = sorted(counts)[:6]
        assert sorted(playout.mismatch_counts(position, kept, "agent")) == best
        for deal in kept:
            assert sum(deal.values()) == unseen_packed(position)
            assert [len(Cards(deal[s])) for s in (1, 2)] == [position.card_counts[s] for s in (1, 2)]
        closer += sum(best) < sum(counts[:6])
        weighted = filtered_samples(position, random.Random(number), 6, Filter("agent", 8, beta=1.0))
        assert len(weighted) == 6 and all(d in pool for d in weighted)
    assert closer >= 3
    assert playout.mismatch_counts(position, [truth], "agent") == [0]
    with pytest.raises(ValueError):
        filtered_samples(position, random.Random(1), 4, Filter("auto", 4))
