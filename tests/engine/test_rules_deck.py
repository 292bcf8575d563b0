"""The deck, the bombs and the rocket come from the rules (RULES §2, §5, §6, §12.4): one deck gives the
classic game exactly; two decks give bombs of 4 to 8 cards, a longer bomb beating a shorter one, and the
rocket of all four jokers."""

from __future__ import annotations

import pytest

from tutor.engine.cards import BIG_JOKER, DECK_COUNTS, FULL_DECK, SMALL_JOKER, pack
from tutor.engine.combos import Combo, Kind, beats, readings
from tutor.engine.rules import STANDARD, Rules

TWO_DECKS = Rules(name="two decks", decks=2)


def _counts(**ranks: int) -> int:
    """A packed set from rank indexes given as r<index>=count (r4=8: eight sevens)."""
    counts = [0] * 15
    for name, n in ranks.items():
        counts[int(name[1:])] = n
    return pack(counts)


def _bomb(rank: int, size: int, rules: Rules) -> Combo:
    (found,) = [r for r in readings(_counts(**{f"r{rank}": size}), rules) if r.kind == Kind.BOMB]
    return found


def test_one_deck_is_the_classic_deck() -> None:
    assert STANDARD.deck == DECK_COUNTS and STANDARD.deck_packed == FULL_DECK.packed and STANDARD.deck_size == 54
    assert STANDARD.bomb_sizes == (4,) and STANDARD.rocket_size == 2
    assert "decks" not in STANDARD.to_json()  # a classic record is byte for byte what it was


def test_two_decks_hold_eight_of_a_rank_and_four_jokers() -> None:
    assert TWO_DECKS.deck == (8,) * 13 + (2, 2) and TWO_DECKS.deck_size == 108
    assert TWO_DECKS.bomb_sizes == (4, 5, 6, 7, 8) and TWO_DECKS.rocket_size == 4
    assert TWO_DECKS.to_json()["decks"] == 2 and not TWO_DECKS.plays_like(STANDARD)


def test_rules_12_4_an_eight_card_bomb_beats_a_seven_card_bomb() -> None:
    eight_threes, seven_twos = _bomb(0, 8, TWO_DECKS), _bomb(12, 7, TWO_DECKS)
    assert beats(eight_threes, seven_twos, TWO_DECKS) and not beats(seven_twos, eight_threes, TWO_DECKS)
    assert beats(_bomb(5, 5, TWO_DECKS), _bomb(4, 5, TWO_DECKS), TWO_DECKS)  # the same size: the rank decides


def test_rules_12_4_the_four_jokers_are_the_rocket_and_beat_every_bomb() -> None:
    four = _counts(**{f"r{SMALL_JOKER}": 2, f"r{BIG_JOKER}": 2})
    (rocket,) = [r for r in readings(four, TWO_DECKS) if r.kind == Kind.ROCKET]
    assert beats(rocket, _bomb(12, 8, TWO_DECKS), TWO_DECKS)
    # two jokers are no rocket with two decks; four are none with one
    assert not any(r.kind == Kind.ROCKET for r in readings(_counts(**{f"r{SMALL_JOKER}": 1, f"r{BIG_JOKER}": 1}), TWO_DECKS))
    assert not any(r.kind == Kind.ROCKET for r in readings(four, STANDARD))


@pytest.mark.parametrize("size", [5, 8])
def test_one_deck_has_no_bomb_longer_than_four(size: int) -> None:
    assert not any(r.kind == Kind.BOMB for r in readings(_counts(r3=size), STANDARD))


def test_rules_refuse_a_deck_count_that_is_not_a_positive_number() -> None:
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="decks"):
            Rules(decks=bad)  # type: ignore[arg-type]


def test_the_deal_cuts_the_deck_for_the_rules_seat_count() -> None:
    from tutor.engine.deal import deal

    four = Rules(name="four seats", players=4, hand_size=13, kitty_size=2)
    dealt = deal(5, four)
    assert [len(h) for h in dealt.hands] == [13] * 4 and len(dealt.kitty) == 2 and 0 <= dealt.first_bidder < 4
    assert sum(h.packed for h in dealt.hands) + dealt.kitty.packed == four.deck_packed
    assert deal(5).hands == deal(5, STANDARD).hands and len(deal(5).hands) == 3


def test_rules_12_4_the_four_player_preset() -> None:
    from tutor.engine.deal import deal
    from tutor.engine.rules import FOUR, FOUR_ROB, NAMED, variant

    assert (FOUR.players, FOUR.decks, FOUR.hand_size, FOUR.kitty_size, FOUR.landlord_share) == (4, 2, 25, 8, 3)
    assert FOUR.bomb_sizes == (4, 5, 6, 7, 8) and FOUR.rocket_size == 4 and FOUR.joker_pairs
    assert variant(players=4) is FOUR and variant("rob", players=4) is FOUR_ROB and NAMED["four+rob"] is FOUR_ROB
    assert variant() is STANDARD and not STANDARD.joker_pairs
    dealt = deal(1, FOUR)
    assert [len(h) for h in dealt.hands] == [25] * 4 and len(dealt.kitty) == 8  # the landlord holds 33
    assert sum(h.packed for h in dealt.hands) + dealt.kitty.packed == FOUR.deck_packed
    assert deal(1, FOUR) == dealt and deal(1, FOUR_ROB).hands == dealt.hands  # the auction does not change the cut
    with pytest.raises(ValueError, match="players"):
        variant(players=5)


def test_rules_12_4_scoring_landlord_share_three_against_three_farmers() -> None:
    import random

    from tutor.engine.game import Game
    from tutor.engine.rules import FOUR

    rng = random.Random(3)
    game = Game(3, FOUR)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    returns = game.returns()
    assert len(returns) == 4 and sum(returns) == 0
    landlord = game.landlord
    assert landlord is not None
    farmers = [r for s, r in enumerate(returns) if s != landlord]
    assert len(set(farmers)) == 1 and returns[landlord] == -3 * farmers[0]
