"""The rule agent's habits, refuted from the view (tutor/bots/rule_habits.py): never for a player who keeps
them, by each broken habit for one who does not, and the gate of the hard bot's play-outs built on it."""

from __future__ import annotations

import pytest

from tutor.bots.hard import GATED, HardBot
from tutor.bots.rule_habits import answer_exists, opponents_keep_habits, partner_answers, refuted
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.view import PlayerView
from tutor.solver import playout
from tutor.solver.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the compiled play-out is not built")

# Seat 0 is the landlord, seats 1 and 2 the farmers (1 plays after the landlord, 2 after its partner).
HANDS = ("3334568899TTJJQQKAAA", "34556699JQKKA222D", "4456777788TTJQK2X")


def line(*plays: str) -> PlayerView:
    """The landlord's view after ``plays`` ("" = a pass), made in turn from a fixed deal."""
    game = Game.from_hands(HANDS, 0)
    for text in plays:
        game.play(Combo.parse(text) if text else None)
    return game.view(0)


def views_by(deck: int, landlord_model: str, farmers_model: str, seat: int) -> list[PlayerView]:
    """``seat``'s view after every turn of deck ``deck`` played to its end by play-out models (the landlord is
    seat 0)."""
    game = Game.with_landlord(deck, 0)
    seen = [game.view(seat)]
    while not game.is_over:
        view = game.view(game.to_move)
        game.play(playout.choose(view, landlord_model if game.to_move == 0 else farmers_model))
        seen.append(game.view(seat))
    return seen


@pytest.mark.parametrize("deck", range(12))
def test_players_with_the_habits_are_never_refuted(deck: int) -> None:
    # The compiled "agent" is RLCard's rule agent as its code plays (benchmarks check it move for move).
    for view in views_by(deck, "quick", "agent", 0)[::3]:
        assert not refuted(view, 1) and not refuted(view, 2)
    for view in views_by(deck, "agent", "quick", 1)[::3]:
        assert not refuted(view, 0)


def test_the_quick_policy_breaks_the_habits_in_most_games() -> None:
    ends = [views_by(deck, "quick", "quick", 0)[-1] for deck in range(12)]
    assert sum(not opponents_keep_habits(view) for view in ends) >= 9


def test_a_lead_with_a_kicker_breaks_them() -> None:
    assert refuted(line("3", "4", "5", "", "", "7778"), 2)
    assert not refuted(line("3", "4", "5", "", "", "777"), 2)


def test_a_card_below_a_lead_shown_later_breaks_them() -> None:
    lead = ("3", "4", "5", "", "", "8", "9", "", "", "3", "")
    assert not refuted(line(*lead), 2)
    assert refuted(line(*lead, "7"), 2)  # the 7 was held when the 8 was led


def test_a_single_led_from_a_pair_breaks_them() -> None:
    lead = ("3", "4", "5", "", "", "8", "9", "", "", "3", "")
    assert refuted(line(*lead, "8"), 2)  # the 8 led was one of a pair


def test_a_pass_over_an_answer_held_breaks_them() -> None:
    passed = ("3", "", "4")
    assert not refuted(line(*passed), 1)
    assert refuted(line(*passed, "5", "K"), 1)  # the K was held when seat 1 passed on the 3


def test_an_answer_above_a_lower_one_held_breaks_them() -> None:
    assert not refuted(line("3", "5", "6"), 1)
    assert refuted(line("3", "9", "T", "J", "", "", "3", "5"), 1)  # the 5 was held when the 9 answered the 3


def test_the_sampled_test_catches_what_no_later_card_proves() -> None:
    view = line("5", "", "6")  # seat 1 passes on a single 5 holding 17 cards: no habit does that
    assert not refuted(view, 1)
    assert refuted(view, 1, samples=64)
    assert refuted(view, 1, samples=64) == refuted(view, 1, samples=64)  # seeded by the view


def test_farmers_answering_each_other_are_counted() -> None:
    assert partner_answers(line("3", "4", "5")) == 1
    assert partner_answers(line("3", "4", "", "")) == 0


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The keyword arguments of every played-out decision (the play-outs themselves skipped: the first candidate)."""
    from tutor.bots import rollout

    calls: list[dict[str, object]] = []

    def spy(*args: object, **kwargs: object) -> object:
        calls.append(kwargs)
        return args[1][0]  # type: ignore[index]

    monkeypatch.setattr(rollout, "best_by_playouts", spy)
    return calls


class Open(HardBot):
    """The gate on the proof alone, from the first decision (the mechanism, without the default's waiting)."""

    gate_samples = 0
    gate_evidence = 0
    gate_evidence_rank = 0


def test_the_gate_plays_the_agent_until_the_habits_are_broken() -> None:
    bot = Open()
    kept = line("3", "4", "5")
    assert bot.playout_opponents(kept) == GATED
    broken = line("3", "9", "T", "J", "", "", "3", "5")
    assert bot.playout_opponents(broken) == bot.read_model(broken)

    class Auto(HardBot):
        landlord_playout_opponents = "auto"

    assert Auto().playout_opponents(kept) == Auto().read_model(kept)


def test_by_default_the_gate_waits_for_an_answer_to_a_partners_king_or_higher() -> None:
    # Round 18's declared setting: RHCP-v2's farmers answer each other's low cards as the agent does.
    low, high = line("3", "4", "5"), line("Q", "K", "2")
    assert partner_answers(low) == 1 and partner_answers(low, 10) == 0 and partner_answers(high, 10) == 1
    assert HardBot().playout_opponents(low) == HardBot().read_model(low)
    assert HardBot().playout_opponents(high) == GATED


def counts_of(text: str) -> list[int]:
    return list(Cards.parse(text).counts)


@pytest.mark.parametrize(("hand", "table", "below", "found"), [
    ("3456789", "34567", None, True),  # 45678 and 56789 beat 34567
    ("3456789", "34567", "45678", False),  # but none below 45678
    ("345679T", "34567", None, False),  # no run of five above
    ("5566778", "334455", None, True),
    ("55667", "334455", None, False),
    ("999", "8883", None, False),  # a trio and a single need a fourth card
    ("9994", "8883", None, True),
    ("99945", "88833", None, False),  # a trio and a pair need a pair
    ("999455", "88833", None, True),
    ("QQQQ", "8888", None, True),
    ("QQQQ", "8888", "JJJJ", False),
    ("2X", "A", None, True),
])
def test_answer_exists_reads_each_kind(hand: str, table: str, below: str | None, found: bool) -> None:
    t = Combo.parse(table)
    top = Combo.parse(below).main if below else 15
    assert answer_exists(counts_of(hand), t.kind, t.length, t.main, top) is found


def test_a_farmer_bombing_after_its_partner_breaks_them() -> None:
    # With no answer of the kind the agent's farmer passes when the turn before was its partner's (its code reads
    # the last actor); a bomb there is not its.  Seat 2 always plays after its partner.
    assert refuted(line("A", "2", "7777"), 2)
    assert not refuted(line("A", "2", "X"), 2)


def test_the_gate_waits_for_evidence_and_the_sampled_test_when_asked() -> None:
    class Waiting(Open):
        gate_evidence = 1

    class Sampling(Open):
        gate_samples = 64

    answered, unanswered = line("3", "4", "5"), line("3", "4", "", "", "6")
    assert Waiting().gated(answered) and not Waiting().gated(unanswered)
    assert Open().gated(unanswered)
    improbable = line("5", "", "6")  # seat 1 passed on a single 5 with 17 cards
    assert Open().gated(improbable) and not Sampling().gated(improbable)


def test_under_the_gate_the_deals_are_nudged_towards_the_agent(seen: list[dict[str, object]]) -> None:

    class Auto(HardBot):
        landlord_playout_opponents = "auto"

    view = line("3", "4", "5")
    Open().play(view)
    Auto().play(view)
    assert len(seen) == 2
    assert (seen[0]["opponents"], seen[0]["nudge"], seen[0]["steps"], seen[0]["recent"]) == (
        GATED, GATED, Open.gate_nudge_steps, None)
    assert seen[1]["opponents"] != GATED or seen[1]["steps"] != Open.gate_nudge_steps


def test_only_games_that_play_like_the_standard_one_can_keep_them() -> None:
    from dataclasses import replace

    from tutor.engine.rules import FOUR, ROB, WILD

    view = line("3", "4", "5")
    assert not refuted(view, 1) and not refuted(replace(view, rules=ROB), 1)  # the auction aside, the same play
    wild = replace(WILD, wild_rank=4)  # as in play, once the wild rank is drawn
    assert refuted(replace(view, rules=wild), 1) and refuted(replace(view, rules=FOUR), 1)


def test_the_gates_screened_options_margin_and_read(seen: list[dict[str, object]]) -> None:
    class Unreachable(Open):
        gate_margin = 1000.0

    class Free(Open):
        gate_margin = -1000.0

    class Read(Open):
        gate_plays = "read"

    kept = line("3", "4", "5")
    assert not Unreachable().gated(kept) and Free().gated(kept)
    assert Read().gated(kept) and Read().playout_opponents(kept) == Read().read_model(kept)
    Read().play(kept)
    assert seen and (seen[0]["opponents"], seen[0]["nudge"], seen[0]["steps"]) == (
        Read().read_model(kept), GATED, Read.gate_nudge_steps)
