"""The forced-win check: the solver says when the learner let a won endgame slip."""

from __future__ import annotations

import pytest

from tutor.coach.endgame import check_position, missed_forced_win
from tutor.coach.status import lead_options
from tutor.engine.cards import Cards
from tutor.engine.combos import Kind
from tutor.engine.rules import STANDARD
from tutor.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def test_you_had_a_forced_win_bomb_then_single() -> None:
    # Landlord (seat 0) holds 9999 + 3; each farmer one higher single: a single 3 first loses.
    hands = (Cards.parse("39999"), Cards.parse("A"), Cards.parse("K"))
    check = check_position(hands, landlord=0, mover=0, table=None, table_seat=None, rules=STANDARD)
    assert check is not None and check.mover_wins
    bomb = next(c for c in lead_options(Cards.parse("9999")) if c.kind == Kind.BOMB)
    assert bomb in check.winning_moves
    three = lead_options(Cards.parse("3"))[0]
    finding = missed_forced_win(check, three)
    assert finding is not None
    first, second = check.own_line[:2]
    assert first in check.winning_moves and three not in check.winning_moves
    assert finding.text == f"You had a forced win: {first.text}, then {second.text}."
    assert {first.text, second.text} in ({"9999", "3"}, {"3999", "9"})
    assert missed_forced_win(check, bomb) is None


def test_lost_positions_and_big_positions_say_nothing() -> None:
    hands = (Cards.parse("34"), Cards.parse("A"), Cards.parse("2"))
    lost = check_position(hands, landlord=0, mover=0, table=None, table_seat=None, rules=STANDARD)
    assert lost is not None and not lost.mover_wins
    assert missed_forced_win(lost, lead_options(Cards.parse("3"))[0]) is None
    big = (Cards.parse("33445566778899TTJ"),) * 1 + (Cards.parse("3"), Cards.parse("4"))
    assert check_position(big, 0, 0, None, None, rules=STANDARD) is None


def test_a_tiny_node_budget_means_unknown_not_a_guess() -> None:
    hands = (Cards.parse("3456789TJ"), Cards.parse("3456789TJ"), Cards.parse("QQKKAA"))
    assert check_position(hands, 0, 0, None, None, max_nodes=5, rules=STANDARD) is None


def test_when_one_move_alone_wins_the_review_says_only_it_wins_proven() -> None:
    # The landlord (seat 0) on 2 + 3 against a farmer's A and K: only the 2 first wins.
    hands = (Cards.parse("32"), Cards.parse("A"), Cards.parse("K"))
    check = check_position(hands, landlord=0, mover=0, table=None, table_seat=None, rules=STANDARD)
    assert check is not None and check.mover_wins and len(check.winning_moves) == 1
    three = lead_options(Cards.parse("3"))[0]
    finding = missed_forced_win(check, three)
    assert finding is not None and finding.code == "only_move_wins"
    assert finding.text.startswith("Only 2 won — proven: ")
