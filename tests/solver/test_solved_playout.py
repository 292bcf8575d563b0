"""The quick play-out with its end solved exactly (tutor/solver/playout.py ``solved_playout``, ``Team.playout`` in C).

Round 8: the hard bot's play-outs may hand a game's last cards to the exact open-hand search instead of the quick
policy.  The solved end must be the solver's verdict on the very position the quick line reached, a spent budget
must leave the quick play-out as it was, and the same calls on a fresh search must give the same winners.
"""

from __future__ import annotations

import pytest

from tutor.engine.cards import packed_size
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver
from tutor.solver.playout import available, playout, playout_line, solved_playout, tail_search

pytestmark = pytest.mark.skipif(
    not available(STANDARD) or tail_search(0, STANDARD.players) is None, reason="the compiled cores are not built"
)


def opening(deal: int) -> tuple[Game, list[int]]:
    game = Game.with_landlord(deal, deal % 3)
    return game, list(game.hands_packed)


def reference(deal: int, tail: int) -> int:
    """The winner by the quick line stepped on the engine's game until at most ``tail`` cards are in play, then
    the exact solver's verdict on that position (the landlord's seat, or the first farmer's)."""
    game, hands = opening(deal)
    assert game.landlord is not None
    winner, line = playout_line(hands, game.landlord, game.to_move, None, None)
    for move in line:
        if game.is_over or sum(packed_size(game.hand(s).packed) for s in range(3)) <= tail:
            break
        game.play(move)
    if game.is_over:
        assert game.winner == winner
        return winner
    result = Solver(rules=STANDARD).solve(Position.from_game(game), "win", all_moves=False, line=False)
    assert result.complete
    mover_is_landlord = game.to_move == game.landlord
    landlord_wins = bool(result.mover_wins) == mover_is_landlord
    return game.landlord if landlord_wins else min(s for s in range(3) if s != game.landlord)


@pytest.mark.parametrize("tail", [10, 16])
def test_the_solved_end_is_the_solvers_verdict_on_the_position_the_quick_line_reached(tail: int) -> None:
    differ = 0
    for deal in range(1, 41):
        game, hands = opening(deal)
        assert game.landlord is not None
        search = tail_search(game.landlord, game.players)
        assert search is not None
        got = solved_playout(search, hands, game.to_move, None, None, tail=tail, nodes=10**7)
        assert got == reference(deal, tail), deal
        quick = playout(hands, game.landlord, game.to_move, None, None)
        differ += (got == game.landlord) != (quick == game.landlord)
    assert differ >= 1  # the exact end does change some results


def test_without_a_tail_or_with_a_spent_budget_it_is_the_quick_play_out() -> None:
    for deal in range(1, 31):
        game, hands = opening(deal)
        assert game.landlord is not None
        farmers = [s for s in range(3) if s != game.landlord]
        for variant, seats in (("quick", ()), ("agent", (game.landlord,)), ("lowest", farmers)):
            quick = playout(hands, game.landlord, game.to_move, None, None, variant, seats)
            search = tail_search(game.landlord, game.players)
            assert search is not None
            assert solved_playout(search, hands, game.to_move, None, None, variant, seats, tail=0, nodes=10**6) == quick
            # One node cannot prove the opening: the solve is given up and the quick policy plays on.
            assert solved_playout(search, hands, game.to_move, None, None, variant, seats, tail=54, nodes=1) == quick
        # Round 12: the other seats play ``base`` ("plan") in the solved play-out as in the plain one.
        for variant, seats in (("quick", ()), ("lowest", farmers)):
            planned = playout(hands, game.landlord, game.to_move, None, None, variant, seats, base="plan")
            search = tail_search(game.landlord, game.players)
            assert search is not None
            assert solved_playout(
                search, hands, game.to_move, None, None, variant, seats, tail=54, nodes=1, base="plan"
            ) == planned


def test_a_fresh_search_gives_the_same_winners_in_the_same_order() -> None:
    def run() -> list[int]:
        out = []
        search = tail_search(1, STANDARD.players)
        assert search is not None
        for deal in range(1, 61):
            game = Game.with_landlord(deal, 1)
            out.append(solved_playout(search, game.hands_packed, game.to_move, None, None, tail=22, nodes=300))
        return out

    assert run() == run()


def test_the_table_is_faced_in_the_solved_end() -> None:
    # Farmer 1 to move after the landlord's (seat 0) single 2, one card each but the farmer's 3 and a 4: with the
    # table faced the farmer cannot answer, passes, and the landlord's 5 goes out.  Read as a lead, the farmer
    # would win by going out.
    from tutor.engine.cards import Cards
    from tutor.solver.position import table_reading

    search = tail_search(0, STANDARD.players)
    assert search is not None
    hands = (Cards.parse("5").packed, Cards.parse("3").packed, Cards.parse("4").packed)
    two = table_reading("2")
    assert solved_playout(search, hands, 1, two, 0, tail=54, nodes=1000) == 0
    assert solved_playout(search, hands, 1, None, None, tail=54, nodes=1000) == 1
