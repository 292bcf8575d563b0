"""Status lines of RULES §9: bidding estimate and "can I play this?"."""

from __future__ import annotations

import pytest

from tutor.coach.status import bid_status, combo_name, play_status
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.coach.status import lead_options
from tutor.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def table(text: str) -> Combo:
    return lead_options(Cards.parse(text))[0]


HAND = Cards.parse("3334455789TJJQKA2XD")


def test_rule_9_bid_status_line_has_high_cards_bombs_moves_and_a_bid() -> None:
    status = bid_status(Cards.parse("33345566789TJQKA2"))
    assert status.high_cards == 1 and status.bombs == 0
    set_language("ru")
    line = status.line
    assert line.startswith("Старших карт: 1 · бомб: 0 · ходов до конца: ~")
    assert ("прикидка по силе руки: ставка" in line) if status.suggested else ("прикидка по силе руки: пас" in line)


def test_rule_9_play_status_says_trio_plus_one_can_be_played() -> None:
    status = play_status(HAND, None, "3334")
    assert status.ok and status.line == "Trio + 1 · can be played"
    set_language("ru")
    assert play_status(HAND, None, "3 3 3 4").line == "Тройка + 1 · можно ходить"


def test_input_forms_10_spaces_and_joker_letters() -> None:
    assert play_status(HAND, None, "10").cards == Cards.parse("T")
    assert play_status(HAND, None, "x d").options[0].kind == Kind.ROCKET
    assert play_status(HAND, None, "3, 3, 3").ok


def test_not_in_hand_names_the_missing_cards() -> None:
    status = play_status(HAND, None, "666")
    assert not status.ok and "666" in status.line and "missing: 666" in status.line


def test_not_a_combination() -> None:
    status = play_status(HAND, None, "34")
    assert not status.ok and status.line == "34 is not a combination"


def test_not_cards_names_the_bad_character() -> None:
    status = play_status(HAND, None, "33z")
    assert not status.ok and "'33z'" in status.line and "help" in status.line


def test_not_cards_quotes_at_most_forty_characters() -> None:
    """A pasted paragraph is quoted as its first 40 characters, on one line (the guide's rule)."""
    status = play_status(HAND, None, "K" * 62 + "\n zzz")
    assert not status.ok and "'" + "K" * 39 + "…'" in status.line
    assert "K" * 40 not in status.line and "\n" not in status.line


def test_does_not_beat_says_what_would() -> None:
    status = play_status(HAND, table("KK"), "55")
    assert not status.ok
    assert "does not beat pair KK" in status.line and "would beat it: 22" not in status.line
    assert "XD" in status.line  # the rocket would


def test_wrong_size_is_named() -> None:
    status = play_status(HAND, table("34567"), "789TJQ")
    assert not status.ok and "Wrong size" in status.line and "(5 cards), you chose 6" in status.line


def test_follow_takes_the_highest_beating_reading() -> None:
    status = play_status(HAND, table("8"), "9")
    assert status.ok and status.options[0].main == Cards.parse("9").ranks()[0]
    # 333444555666 after an airplane of 3 with wings: read as the wings reading that beats.
    planes = Cards.parse("333444555666")
    beaten = [c for c in lead_options(Cards.parse("TTTJJJQQQ789")) if c.kind == Kind.AIRPLANE_SINGLES]
    assert not play_status(planes, beaten[0], "333444555666").ok


def test_several_lead_readings_ask_for_a_choice() -> None:
    hand = Cards.parse("333444555666")
    status = play_status(hand, None, "333444555666")
    assert status.ok and status.needs_choice
    names = [combo_name(o) for o in status.options]
    assert "Airplane of 4" in names and "Airplane of 3 + singles" in names
    assert "choose" in status.line


def test_only_a_bomb_beats_a_bomb() -> None:
    status = play_status(HAND, table("8888"), "JJ")
    assert not status.ok and "only a higher bomb or the rocket" in status.line


def test_the_hand_strength_bid_never_reads_as_the_coachs_advice() -> None:
    """The rule of thumb suggests 1 for 456778899TTTJKAAA where the coach's expected score says 3
    (lesson 12 accepts 3): the line that shows it must call it a first guess, never the advice."""
    status = bid_status(Cards.parse("456778899TTTJKAAA"))
    assert status.suggested != 3  # the disagreement this test is about
    assert "first guess from hand strength: " in status.line
    set_language("ru")
    assert "прикидка по силе руки: " in status.line


def test_lesson_bid_tasks_show_no_bare_suggestion_the_lesson_calls_wrong() -> None:
    """Every bidding task of the course: the status line's suggestion is either an accepted bid or
    labelled as a first guess from hand strength (the accepted bids follow the coach's evaluation)."""
    from tutor.lessons.course import load_course
    from tutor.lessons.model import TaskType

    checked = 0
    for lesson in load_course():
        for step in lesson.steps:
            task = step.task
            if task is None or task.type is not TaskType.BID or step.setup is None:
                continue
            status = bid_status(step.setup.hands[0])
            if status.suggested not in task.bids:
                assert "first guess" in status.line, (lesson.id, status.line)
                checked += 1
    assert checked  # lesson 12 has such a task


def test_rule_12_3_the_status_line_reads_wild_cards_and_offers_both_readings() -> None:
    from tutor.engine.combos import readings
    from tutor.engine.rules import STANDARD

    wild = STANDARD.with_wild(6)  # the nines
    lead = play_status(Cards.parse("456893"), None, "45689", wild)
    assert lead.ok and [c.kind for c in lead.options] == [Kind.STRAIGHT]  # 4 5 6 [9 as 7] 8
    assert not play_status(Cards.parse("456893"), None, "45689").ok  # the standard game: no combination
    trio = readings(Cards.parse("6663"), wild)[0]
    follow = play_status(Cards.parse("77793"), trio, "7779", wild)
    assert follow.ok and sorted(c.kind for c in follow.options) == [Kind.TRIO_SINGLE, Kind.BOMB]
    assert "Soft bomb" in follow.line and "Trio + 1" in follow.line
