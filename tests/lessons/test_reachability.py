"""Lesson positions are proven reachable by a whole game replayed to them (issue 21)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import readings
from tutor.engine.game import Game
from tutor.engine.view import Turn
from tutor.lessons.model import Setup
from tutor.lessons.reachability import Unreachable, build_witness, proven_reachable


def _combo(text: str):  # type: ignore[no-untyped-def]
    return readings(Cards.parse(text))[0]


def _setup(hands: dict[int, str], counts: dict[int, int], landlord: int, table: tuple[int, str] | None = None,
           history: tuple[Turn, ...] = (), complete: bool = False, kitty: str | None = None) -> Setup:
    combo = _combo(table[1]) if table else None
    return Setup(landlord=landlord, bid=1, hands={s: Cards.parse(h) for s, h in hands.items()},
                 show=frozenset({0}), counts=counts, kitty=Cards.parse(kitty) if kitty else None, bids=(),
                 history=history, history_complete=complete, table=combo,
                 table_by=table[0] if table else None, to_move=0)


def test_rule_3_the_landlord_leads_first_so_nobody_sheds_before_his_first_play() -> None:
    """The old lesson 02 step: left (landlord) holds 19 after leading a K, you hold 8: impossible."""
    setup = _setup({0: "4689QA2D"}, {1: 17, 2: 19}, landlord=2, table=(2, "K"))
    why = proven_reachable(setup)
    assert why is not None and "landlord leads first" in why


def test_a_witness_replays_through_the_engine_to_the_position() -> None:
    """Mid-game: left (landlord) has 9 cards and leads a K; the witness game ends exactly there."""
    setup = _setup({0: "4689QA2D"}, {1: 12, 2: 9}, landlord=2, table=(2, "K"))
    witness = build_witness(setup)
    assert sorted(len(h) for h in witness.hands) == [17, 17, 20] and len(witness.hands[2]) == 20
    game = Game.from_hands(witness.hands, 2, 1, witness.kitty)
    for turn in witness.turns:
        assert turn.seat == game.to_move
        game.play(turn.play)
    assert game.hand(0) == Cards.parse("4689QA2D") and game.card_counts == (8, 12, 9)
    assert game.to_move == 0 and game.table_seat == 2 and game.table is not None
    assert Cards(game.table.cards) == Cards.parse("K")


def test_a_seat_that_leads_must_have_won_a_trick_before() -> None:
    """Right (a farmer) leads while still holding all 17 cards: he never played, so never won a trick."""
    setup = _setup({0: "34567"}, {1: 16, 2: 5}, landlord=2, table=(1, "9"))
    why = proven_reachable(setup)
    assert why is not None and "never played" in why


def test_the_face_up_kitty_belongs_to_the_landlord() -> None:
    """The kitty shows both jokers, but you, a farmer, hold them (lesson 01's counter relies on this)."""
    setup = replace(_setup({0: "3456789TJQKA2XD44"}, {1: 17, 2: 20}, landlord=2, kitty="XD5"), to_move=2)
    with pytest.raises(Unreachable, match="kitty"):
        build_witness(setup)


def test_a_whole_history_must_start_from_the_deal() -> None:
    history = (Turn(2, _combo("3")), Turn(0, _combo("4")), Turn(1, None), Turn(2, None))
    ok = _setup({0: "56789TJQKA2XD333"}, {1: 17, 2: 19}, landlord=2, history=history, complete=True)
    assert proven_reachable(ok) is None


def _replays(setup: Setup) -> Game:
    """The witness of ``setup`` replayed through the engine (each turn by the seat to move)."""
    witness = build_witness(setup)
    game = Game.from_hands(witness.hands, setup.landlord or 0, 1, witness.kitty)
    for turn in witness.turns:
        assert turn.seat == game.to_move
        game.play(turn.play)
    return game


@pytest.mark.parametrize("landlord, jokers", [(0, 1), (0, 2), (2, 1)])
def test_both_jokers_in_one_farmers_hand_are_reachable(landlord: int, jokers: int) -> None:
    """A farmer holding the rocket late in the game: every unseen card was played before, one by one.

    Without the jokers in the unseen cards the tricks before the position run out of different
    ranks when they take the lowest ranks first (the validator said "too few" cards); filled from
    the fullest ranks they always find a rising run.
    """
    hands = {0: "3456", 1: "789", 2: "TJQ"}
    hands[jokers] = "XD5"
    setup = replace(_setup(hands, {}, landlord=landlord), to_move=landlord)
    game = _replays(setup)
    assert game.hand(jokers) == Cards.parse("XD5") and game.to_move == landlord and game.table is None


def test_the_kitty_cards_go_into_the_landlords_plays() -> None:
    """The landlord's hand is shown without the kitty's 2 and joker: he must have played them before."""
    setup = _setup({0: "3456", 1: "XD5", 2: "789"}, {}, landlord=0, kitty="2XQ")
    assert proven_reachable(setup) is not None  # the X is in right's hand, not the landlord's
    game = _replays(replace(setup, kitty=Cards.parse("22Q")))
    assert game.hand(0) == Cards.parse("3456") and game.hand(1) == Cards.parse("XD5")
