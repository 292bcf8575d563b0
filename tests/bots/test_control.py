"""Control counted (tutor/bots/control.py): the landlord's lead when it knows which plays win the lead back."""

from __future__ import annotations

import pytest

from tests.bots.bot_views import combo, playout_calls, turns, view
from tutor.bots import HardBot, MediumBot
from tutor.bots.base import Seats
from tutor.bots.control import control_lead, control_plan, spendable
from tutor.bots.planner import plan_packed

LANDLORD = 0
#: The big joker is the only play here no farmer can answer but by a bomb; every single is covered by it,
#: the pair 44 is not (no boss pair): the plain lead is the weakest group, 44.
HAND = "334457899TTJQQKKKA2D"


def heuristic() -> HardBot:
    return HardBot(0, search=False, rollouts=False)


def test_a_plan_is_sorted_into_controls_and_answerable_groups() -> None:
    opening = view(LANDLORD, HAND, LANDLORD, (20, 17, 17))
    bot = heuristic()
    plan = control_plan(plan_packed(opening.hand.packed).groups, bot.hidden(opening), 17, opening.rules)
    assert plan.controls == (combo("D"),)
    assert len(plan.answerable) == 9 and plan.turns == 8
    assert combo("44") not in plan.covered() and combo("5") in plan.covered()
    assert not spendable(combo("A")) and spendable(combo("5")) and spendable(combo("789TJQ"))


def test_the_landlord_leads_where_its_control_brings_the_lead_back(monkeypatch: pytest.MonkeyPatch) -> None:
    # Led 44, a farmer's higher pair takes the lead for good (no boss pair); led 5, any single that answers
    # it is beaten by the big joker: the lead comes back.
    opening = view(LANDLORD, HAND, LANDLORD, (20, 17, 17))
    assert heuristic().play(opening) == combo("44")
    monkeypatch.setattr(HardBot, "landlord_control_plan", 1)
    assert heuristic().play(opening) == combo("5")
    # Not against a farmer on two cards (medium's tactics decide there), nor from a farmer's seat.
    late = view(LANDLORD, HAND, LANDLORD, (20, 2, 17))
    assert heuristic().control_lead(late, Seats.of(late), late.hand.packed) is None
    farmer = view(1, HAND[:-4] + "D", LANDLORD, (20, 17, 17))
    assert heuristic().control_lead(farmer, Seats.of(farmer), farmer.hand.packed) is None


def test_short_of_controls_the_landlord_leads_what_the_farmers_can_hardly_answer() -> None:
    opening = view(LANDLORD, "334457899TTJQQKKKA2X", LANDLORD, (20, 17, 17))
    bot = heuristic()
    hidden = bot.hidden(opening)
    plan = control_plan(plan_packed(opening.hand.packed).groups, hidden, 17, opening.rules)
    assert not plan.controls  # the small joker is beaten by the big one, unseen
    assert control_lead(plan, hidden, 17, opening.rules, 1) is None
    assert control_lead(plan, hidden, 17, opening.rules, 2) == combo("789TJQ")  # the fewest answers


def test_the_landlord_can_add_its_sure_answer_to_the_played_out_ones() -> None:
    # A farmer beat the landlord's 3 with a 9: the big joker is the only answer no farmer can beat (but by a bomb).
    history = turns((LANDLORD, "3"), (1, "9"), (2, None))
    answer = view(LANDLORD, HAND[1:], LANDLORD, (19, 16, 17), history)
    assert heuristic().control_answer(answer) == combo("D")


def test_the_control_lead_can_be_a_played_out_candidate_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    # landlord_control_as="candidate": the plain lead stays the default, the control lead joins the play-outs.
    opening = view(LANDLORD, "334457899TTJQQKKKA2X", LANDLORD, (20, 17, 17))
    calls = playout_calls(monkeypatch)
    monkeypatch.setattr(HardBot, "playout_samples", 8)
    monkeypatch.setattr(HardBot, "playout_width", 2)
    monkeypatch.setattr(HardBot, "landlord_control_plan", 2)
    monkeypatch.setattr(HardBot, "landlord_control_as", "candidate")
    HardBot(0).play(opening)
    assert [list(args[1]) for args, _ in calls] == [[combo("44"), combo("5"), combo("789TJQ")]]


def test_a_landlord_short_of_controls_can_take_a_lead_that_costs_its_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    # landlord_control_threshold: a farmer leads 45678; the only answer, 6789T, breaks the landlord's plan, which
    # passes by medium's threshold. With 10 more answerable groups than controls it lets a lead go that may not
    # come back: at a threshold of -8 it answers.
    history = turns((LANDLORD, "3"), (1, "J"), (2, None), (LANDLORD, None), (1, "45678"), (2, None))
    answer = view(LANDLORD, "34555667889TTQKAA2X", LANDLORD, (19, 11, 17), history)
    assert heuristic().control_count(answer, Seats.of(answer)).turns == 10
    assert heuristic().play(answer) is None
    monkeypatch.setattr(HardBot, "landlord_control_threshold", -8.0)
    assert heuristic().play(answer) == combo("6789T")
    farmer = view(2, "33667799JJQQKK22D", LANDLORD, (19, 11, 17), history[:-1])
    assert heuristic().threshold(farmer, Seats.of(farmer)) == MediumBot(0).threshold(farmer, Seats.of(farmer))
