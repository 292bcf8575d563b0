"""Sampling hidden hands consistent with a view (tutor/bots/sampling.py)."""

from __future__ import annotations

import random

from tests.bots.bot_views import dump_history, turns, view
from tutor.bots.counting import landlord_known, pass_limits, unseen_packed
from tutor.bots.sampling import sample_hidden
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
