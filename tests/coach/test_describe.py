"""A position told from a seat becomes a view that counts the cards like the game's own."""

from __future__ import annotations

import pytest

from tutor.bots.counting import landlord_known
from tutor.coach.describe import DescriptionError, describe, to_view
from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.trick import replay_trick

HIDDEN = Cards.parse("44AA567")  # right holds 3 of them, left 4


@pytest.mark.parametrize("trick, cards", [("", ""), ("left:5", "5"), ("right:QQ,left:pass", "QQ")])
def test_history_replays_to_the_described_trick(trick: str, cards: str) -> None:
    gone = Cards(FULL_DECK.packed - Cards.parse("34").packed - HIDDEN.packed - Cards.parse(cards).packed)
    view = to_view(describe("34", "right", "right=3,left=4", trick, str(gone)))
    replayed = replay_trick(view.history)
    assert (replayed.table, replayed.table_seat) == (view.table, view.table_seat)
    assert view.to_move == 0
    assert view.unseen() == HIDDEN


def test_a_trick_out_of_turn_is_refused() -> None:
    with pytest.raises(DescriptionError, match="cannot play after"):
        to_view(describe("34", "right", "right=3,left=3", "left:9,right:T"))


def test_kitty_cards_in_gone_were_played_by_the_landlord() -> None:
    hidden = Cards.parse("D56")  # left (landlord) holds D + one more, right one card
    gone = Cards(FULL_DECK.packed - Cards.parse("3").packed - hidden.packed)
    view = to_view(describe("3", "left", "right=1,left=2", "", str(gone), "D44"))
    assert Cards(landlord_known(view)) == Cards.parse("D")
