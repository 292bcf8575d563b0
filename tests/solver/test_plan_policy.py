"""Round 12's "plan" play-out policy (``_native.c``, ``plan_choose``): quick with a sense of control.

The hard bot's play-outs may let every seat play it (:attr:`HardBot.landlord_playout_policy`); it must play
legal games for every seat, decide from the seat's own view (its hand, the counts, the cards still out —
never which other hand holds them), and do what it is built to do where quick does not.
"""

from __future__ import annotations

import pytest

from tests.bots.bot_views import combo, turns, view
from tutor.engine.cards import Cards
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.solver.playout import available, choose, playout, playout_line

pytestmark = pytest.mark.skipif(not available(STANDARD), reason="the compiled core is not built")


def plan(hand: str, rest: str, counts: tuple[int, int, int], landlord: int, seat: int,
         table: str | None = None, table_seat: int = -1) -> str | None:
    """The plan policy's move for ``seat`` holding ``hand`` with ``rest`` still out, as text (None: a pass)."""
    from tutor.solver.native import _native

    assert _native is not None
    played = combo(table) if table is not None else None
    raw_table = None if played is None else (played.cards, int(played.kind), played.length, played.main)
    raw = _native.choose(Cards.parse(hand).packed, counts, landlord, seat, raw_table, table_seat, 4,
                         Cards.parse(rest).packed)
    return None if raw is None else str(Cards(raw[0]))


def text(cards: str) -> str:
    return str(Cards.parse(cards))


def test_every_seat_playing_plan_plays_legal_games_the_engine_scores_alike() -> None:
    differ = 0
    for deal in range(1, 31):
        game = Game.with_landlord(deal, deal % 3)
        assert game.landlord is not None
        hands = list(game.hands_packed)
        winner, line = playout_line(hands, game.landlord, game.to_move, None, None, base="plan")
        assert winner == playout(hands, game.landlord, game.to_move, None, None, base="plan")
        differ += line != playout_line(hands, game.landlord, game.to_move, None, None)[1]
        for move in line:
            assert move in game.legal_moves(), f"plan: {move} is not legal for seat {game.to_move}"
            game.play(move)
        assert game.is_over and game.winner == winner
    assert differ >= 20  # it plays otherwise than quick


def test_pinned_opponents_play_quick_while_the_own_side_plays_plan() -> None:
    # Round 16's "plan-own" (tutor.bots.rollout.play_deals): the viewer's side plays plan, the opponents the
    # quick policy they are modelled by; unpinned, quick opponents play the base policy (plan) too.
    pinned_differ = 0
    for deal in range(1, 31):
        game = Game.with_landlord(deal, deal % 3)
        assert game.landlord is not None
        hands, landlord = list(game.hands_packed), game.landlord
        farmers = [s for s in range(3) if s != landlord]
        winner, line = playout_line(hands, landlord, game.to_move, None, None, "quick", farmers, base="plan",
                                    pinned=True)
        assert winner == playout(hands, landlord, game.to_move, None, None, "quick", farmers, base="plan",
                                 pinned=True)
        pinned_differ += line != playout_line(hands, landlord, game.to_move, None, None, "quick", farmers,
                                              base="plan")[1]
        for move in line:
            seat = game.to_move
            assert move == choose(game.view(seat), "plan" if seat == landlord else "quick"), f"deal {deal}"
            game.play(move)
        assert game.is_over and game.winner == winner
    assert pinned_differ >= 10


def test_a_boss_is_led_before_the_last_play() -> None:
    # Nothing out beats a single 2 (no joker is out): lead it, win the lead back, go out with the pair.
    # Quick leads the pair first (it spends no high card) and an opponent's 66 takes the lead.
    assert plan("255", "3344667788", (3, 5, 5), 0, 0) == text("2")
    # A joker still out can beat the 2: then plan leads as quick does, the pair first.
    assert plan("255", "334466778R", (3, 5, 5), 0, 0) == text("55")


def test_an_opponent_is_answered_even_with_a_high_card() -> None:
    # The landlord's single 9; the farmer's only answer is an ace from its pair, which takes no play off the
    # hand: quick passes (the landlord holds ten cards), plan answers.
    assert plan("AA55", "3456789TJQKK2", (10, 4, 10), 0, 1, "9", 0) == text("A")


def test_a_partners_low_play_is_overtaken_only_while_the_landlord_has_to_answer_it() -> None:
    # Seat 1 after its partner's (seat 0) single 4, the landlord (seat 2) still to answer: the 5 takes a
    # play off the hand and costs no high card.
    assert plan("59KK", "4678TJQ22", (5, 4, 10), 2, 1, "4", 0) == text("5")
    # The landlord (seat 0) has passed the partner's (seat 2) 4: it stands.
    assert plan("59KK", "4678TJQ22", (10, 4, 5), 0, 1, "4", 2) is None


def test_choose_reads_the_cards_still_out_from_the_view() -> None:
    # Both jokers and every 2 but the landlord's were played: its 2 is a boss, led before the pair.
    history = turns((0, "3"), (1, "B"), (2, "R"), (0, None), (1, None),
                    (2, "2"), (0, None), (1, None), (2, "2"), (0, None), (1, None), (2, "2"), (0, None), (1, None),
                    (2, "4"), (0, "6"), (1, None), (2, None))
    position = view(0, "255", 0, (3, 16, 12), history)
    assert position.table is None
    assert choose(position, "plan") == combo("2")
    assert choose(position) == combo("55")
