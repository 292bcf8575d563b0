"""One test (at least) per beginner-mistake detector of RULES §11, on hand-made positions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tutor.coach.mistakes import (
    DETECTORS,
    beats_partner,
    bid_finding,
    breaks_bomb,
    breaks_bomb_for_straight,
    breaks_rocket,
    detect,
    leads_single_when_landlord_has_one,
    not_feeding_partner,
    overkill,
    spends_high_cards_early,
    throws_top_single_while_rocket_out,
)
from tutor.coach.status import lead_options
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.view import PlayerView, Turn, view_from_public
from tutor.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def combo(text: str, kind: Kind | None = None) -> Combo:
    options = lead_options(Cards.parse(text))
    if kind is not None:
        options = [c for c in options if c.kind == kind]
    return options[0]


def view(
    hand: str,
    landlord: int,
    counts: Sequence[int],
    history: Sequence[tuple[int, str | None]] = (),
) -> PlayerView:
    turns = [Turn(seat, None if cards is None else combo(cards)) for seat, cards in history]
    return view_from_public(0, hand, landlord, turns, counts, bid=1, to_move=0)


# ----------------------------------------------------------- mistake 1: bombs
def test_rule_11_mistake_1_breaking_a_bomb_for_a_straight_is_flagged() -> None:
    v = view("3456777789JQKA", 0, (14, 17, 17))
    finding = breaks_bomb_for_straight(v, combo("34567"))
    assert finding is not None and finding.values["bomb"] == "7777"
    assert "7777" in finding.text and "straight" in finding.text


def test_straight_that_leaves_the_bomb_whole_is_fine() -> None:
    v = view("3456789TTTTJQKA", 0, (15, 17, 17))
    assert breaks_bomb_for_straight(v, combo("34567")) is None
    assert detect(v, combo("34567")) is None


def test_breaking_a_bomb_for_a_pair_is_flagged_but_playing_the_bomb_is_not() -> None:
    v = view("34QQQQK", 1, (7, 17, 20), history=[(1, "55"), (2, None)])
    assert breaks_bomb(v, combo("QQ")) is not None
    assert breaks_bomb(v, combo("QQQQ", Kind.BOMB)) is None


def test_breaking_the_rocket_is_flagged() -> None:
    v = view("3456XD", 1, (6, 20, 17), history=[(1, "9"), (2, None)])
    assert breaks_rocket(v, combo("D")) is not None
    assert breaks_rocket(v, combo("XD")) is None


def test_going_out_is_never_a_mistake() -> None:
    v = view("34567", 1, (5, 20, 17), history=[(1, "3"), (2, None)])
    for detector in DETECTORS:
        assert detector(view("XD", 0, (2, 17, 17)), combo("XD")) is None
    assert detect(v, None) is None


# ------------------------------------------------------ mistake 2: high cards
def test_rule_11_mistake_2_leading_a_two_early_is_flagged() -> None:
    v = view("33445566778TJQK2X", 1, (17, 20, 17))
    finding = spends_high_cards_early(v, combo("2"))
    assert finding is not None and finding.values["cards"] == "2"


def test_spending_a_two_is_fine_when_an_opponent_is_close_to_going_out() -> None:
    v = view("33445566778TJQK2X", 1, (17, 4, 17))
    assert spends_high_cards_early(v, combo("2")) is None


def test_overkill_beating_a_low_single_with_a_two_when_a_king_would_do() -> None:
    # Every A, the other 2s and both jokers are gone: the K is as sure to hold as the 2.
    gone = [(1, "XD"), (2, None), (0, None), (1, "AAAA"), (2, None), (0, None), (1, "222"), (2, None), (0, None)]
    turns = [Turn(s, None if c is None else combo(c)) for s, c in gone]
    v = view_from_public(0, "3456K2", 1, [*turns, Turn(1, combo("9")), Turn(2, None)], (6, 9, 17), bid=1)
    finding = overkill(v, combo("2"))
    assert finding is not None and finding.values["lower"] == "K"
    assert overkill(v, combo("K")) is None


def test_no_overkill_when_the_lower_card_could_lose_the_trick_or_breaks_a_pair() -> None:
    v = view_from_public(0, "3456K2", 1, [Turn(1, combo("9")), Turn(2, None)], (6, 19, 17), bid=1)
    assert overkill(v, combo("2")) is None  # an A, a 2 or a joker may still beat the K
    gone = [(1, "XD"), (2, None), (0, None), (1, "AAAA"), (2, None), (0, None), (1, "222"), (2, None), (0, None)]
    turns = [Turn(s, None if c is None else combo(c)) for s, c in gone]
    pair = view_from_public(0, "3456KK2", 1, [*turns, Turn(1, combo("9")), Turn(2, None)], (7, 9, 16), bid=1)
    assert overkill(pair, combo("2")) is None  # the K would break the pair KK


# ----------------------------------------------------- mistake 3: the partner
def test_rule_11_mistake_3_beating_your_partner_is_flagged() -> None:
    # Landlord is seat 1; seat 2 (our partner) played 9, the landlord passed.
    v = view_from_public(0, "3456KA2", 1, [Turn(2, combo("9")), Turn(1, None)], (7, 20, 16), bid=1)
    assert v.table is not None and v.table_seat == 2
    finding = beats_partner(v, combo("K"))
    assert finding is not None and finding.code == "beats_partner"
    assert beats_partner(v, None) is None


def test_beating_the_partner_is_not_flagged_while_the_landlord_still_plays_after_you() -> None:
    # The example: partner (Left) leads 5, the landlord (Right, one card) plays after you.
    v = view_from_public(0, "233", 1, [Turn(2, combo("5"))], (3, 1, 1), bid=1)
    assert beats_partner(v, combo("2")) is None


def test_bombing_your_partner_is_its_own_remark() -> None:
    v = view_from_public(0, "35558888", 1, [Turn(2, combo("9")), Turn(1, None)], (8, 20, 16), bid=1)
    finding = beats_partner(v, combo("8888", Kind.BOMB))
    assert finding is not None and finding.code == "smothers_partner_with_bomb"


def test_the_landlord_has_no_partner_to_beat() -> None:
    v = view_from_public(0, "3456KA2", 0, [Turn(1, combo("9")), Turn(2, None)], (7, 17, 16), bid=1)
    assert beats_partner(v, combo("K")) is None


# ------------------------------------------------ mistake 4: not counting
def test_rule_11_mistake_4_top_single_while_the_rocket_is_out_is_flagged() -> None:
    v = view("34562", 1, (5, 20, 17))
    finding = throws_top_single_while_rocket_out(v, combo("2"))
    assert finding is not None and finding.code == "throws_top_single_while_rocket_out"


def test_top_single_is_fine_once_the_jokers_have_been_played() -> None:
    history = [(1, "XD"), (2, None), (0, None), (1, "3"), (2, None)]
    v = view_from_public(
        0, "34562", 1, [Turn(s, None if c is None else combo(c)) for s, c in history], (5, 17, 17), bid=1
    )
    assert throws_top_single_while_rocket_out(v, combo("2")) is None


def test_top_single_is_fine_when_it_is_the_only_single_that_beats_the_table() -> None:
    v = view_from_public(0, "34562", 1, [Turn(1, combo("A"))], (5, 19, 17), bid=1, to_move=0)
    assert throws_top_single_while_rocket_out(v, combo("2")) is None


def test_the_landlord_is_not_told_about_the_landlords_rocket() -> None:
    v = view("34562", 0, (5, 17, 17))
    finding = throws_top_single_while_rocket_out(v, combo("2"))
    assert finding is not None and "landlord" not in finding.text and "farmer" in finding.text


def test_small_joker_while_the_big_joker_is_out_is_flagged() -> None:
    v = view("3456X", 1, (5, 20, 17))
    finding = throws_top_single_while_rocket_out(v, combo("X"))
    assert finding is not None and finding.code == "throws_top_single_while_joker_out"


# ---------------------------------------------------- landlord with one card
def test_rule_11_leading_a_single_when_the_landlord_has_one_card_is_flagged() -> None:
    v = view("3344K", 1, (5, 1, 10))
    finding = leads_single_when_landlord_has_one(v, combo("3"))
    assert finding is not None and finding.code == "leads_single_when_landlord_has_one"
    assert leads_single_when_landlord_has_one(v, combo("33")) is None


def test_leading_a_single_is_fine_when_nothing_else_can_be_led() -> None:
    v = view("36K", 1, (3, 1, 10))
    assert leads_single_when_landlord_has_one(v, combo("3")) is None


def test_leading_an_unbeatable_single_is_fine() -> None:
    v = view("33D", 1, (3, 1, 10))
    assert leads_single_when_landlord_has_one(v, combo("D")) is None


def test_rule_11_feed_your_partner_when_they_have_one_card() -> None:
    # We are seat 0, a farmer; the partner (seat 1) plays next and holds one card.
    v = view("3399K", 2, (5, 1, 12))
    finding = not_feeding_partner(v, combo("99"))
    assert finding is not None and finding.code == "not_feeding_partner"
    assert not_feeding_partner(v, combo("3")) is None


def test_bid_far_above_the_estimate_is_flagged_and_a_sensible_one_is_not() -> None:
    assert bid_finding("status", 0, 3) is not None
    assert bid_finding("status", 1, 3) is not None
    assert bid_finding("status", 3, 0) is not None
    assert bid_finding("status", 1, 1) is None
    assert bid_finding("status", 1, 2) is None


def test_detect_gives_one_finding_with_russian_text() -> None:
    set_language("ru")
    v = view("3456777789JQKA", 0, (14, 17, 17))
    finding = detect(v, combo("34567"))
    assert finding is not None and "бомбу (7777)" in finding.text


def test_a_pattern_the_better_move_commits_too_is_no_explanation() -> None:
    """Issue 20: "you beat your partner" blamed a move whose better alternative beat the partner too."""
    from tutor.coach.describe import describe, to_view
    from tutor.coach.mistakes import detect
    from tutor.engine.combos import Combo

    view = to_view(describe("3456789QKA", "left", "right=9,left=12", "right:T,left:pass"))
    king, queen = Combo.parse("K"), Combo.parse("Q")
    found = detect(view, king)
    assert found is not None and found.code == "beats_partner"
    assert detect(view, king, better=(queen,)) is None  # Q beats the partner as well
    assert detect(view, king, better=(None,)) == found  # passing does not: the explanation stands
