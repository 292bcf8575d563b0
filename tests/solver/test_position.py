"""Position parsing, validation and the turn model (RULES §4: passes, the lead)."""

from __future__ import annotations

import pytest

from tutor.engine.cards import Cards, InvalidCardsError
from tutor.engine.combos import IllegalPlayError, Kind
from tutor.engine.moves import lead_moves_packed
from tutor.solver import InvalidPositionError, Position, Role, table_reading


def _move(pos: Position, text: str):
    packed = Cards.parse(text).packed
    return next(m for m in pos.legal_moves() if m is not None and m.cards == packed)


def test_parse_players_in_turn_order_first_to_move() -> None:
    pos = Position.parse("L:DAQQJJT999844 F:X22AAT886633")
    assert pos.roles == (Role.LANDLORD, Role.FARMER)
    assert str(pos.hands[0]) == "44899 9TJJQQAD".replace(" ", "")
    assert pos.to_move == 0 and pos.table is None


def test_beat_defaults_to_last_listed_player() -> None:
    pos = Position.parse("F:AA9 L:2QQTT7755", beat="3")
    assert pos.table is not None and pos.table.kind == Kind.SINGLE
    assert pos.table_by == 1
    three = Position.parse("L:33 F:44 F:55", beat="7")
    assert three.table_by == 2


@pytest.mark.parametrize(
    "text, beat, beat_by",
    [
        ("L:33Z F:44", None, None),  # bad card
        ("L:3333 F:3", None, None),  # more 3s than the deck holds
        ("Q:33 F:44", None, None),  # bad role letter
        ("L:33 L:44", None, None),  # two landlords
        ("F:33 F:44", None, None),  # no landlord
        ("L:33 F:44", "345", None),  # --beat not a combination
        ("L:33 F:44", "3x", None),  # --beat bad card
        ("L:33 F:44", "333", None),  # table cards + hands beyond the deck
        ("L:33 F:44", "7", 0),  # table played by the mover itself
        ("L:33 F:44", None, 1),  # --beat-by without --beat
        ("L:33", None, None),  # one player
        ("L: F:44", None, None),  # empty hand
        ("L33 F:44", None, None),  # no colon
    ],
)
def test_bad_input_is_a_value_error(text: str, beat: str | None, beat_by: int | None) -> None:
    with pytest.raises(ValueError):
        Position.parse(text, beat=beat, beat_by=beat_by)


def test_bad_card_error_type() -> None:
    with pytest.raises(InvalidCardsError):
        Position.parse("L:33Z F:44")
    with pytest.raises(InvalidPositionError):
        Position.parse("L:33 F:44", beat="3456")


def test_rule_4_two_passes_give_the_lead_back_three_players() -> None:
    pos = Position.parse("L:3 F:44 F:55", beat="9", beat_by=2)
    after_one = pos.after(None)  # landlord passes
    assert after_one.to_move == 1 and after_one.table is not None
    after_two = after_one.after(None)  # farmer 1 passes: back to farmer 2, who played it
    assert after_two.to_move == 2 and after_two.table is None


def test_rule_4_table_by_middle_player_one_pass_left() -> None:
    """--beat-by 1: player 2 has already passed, one more pass gives the lead to 1."""
    pos = Position.parse("L:3 F:44 F:55", beat="9", beat_by=1)
    after = pos.after(None)
    assert after.to_move == 1 and after.table is None


def test_rule_4_one_pass_gives_the_lead_back_two_players() -> None:
    pos = Position.parse("L:3 F:44", beat="9")
    after = pos.after(None)
    assert after.to_move == 1 and after.table is None


def test_rule_4_leader_cannot_pass() -> None:
    with pytest.raises(IllegalPlayError):
        Position.parse("L:3 F:44").after(None)


def test_after_play_sets_table_and_owner() -> None:
    pos = Position.parse("L:345 F:44 F:55")
    child = pos.after(_move(pos, "3"))
    assert child.to_move == 1 and child.table_by == 0 and str(child.hands[0]) == "45"


def test_going_out_ends_the_game() -> None:
    pos = Position.parse("L:3 F:44 F:55")
    child = pos.after(_move(pos, "3"))
    assert child.is_over and child.winner is Role.LANDLORD
    with pytest.raises(IllegalPlayError):
        child.after(None)


def test_illegal_follow_is_rejected() -> None:
    pos = Position.parse("L:34 F:9", beat="8")
    low = lead_moves_packed(Cards.parse("3").packed)[0]
    with pytest.raises(IllegalPlayError):
        pos.after(low)


def test_table_reading_prefers_plain_kind() -> None:
    assert table_reading("333444555666").kind == Kind.AIRPLANE
    assert table_reading("3334").kind == Kind.TRIO_SINGLE
