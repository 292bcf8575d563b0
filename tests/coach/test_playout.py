"""The coach's compiled play-out against the engine, move for move.

The quick policy (``tutor/solver/_native.c``, :func:`tutor.solver.playout.playout`)
keeps its own tiny game state — hands, the table, who played it.  Every move
of its line must be one the engine's :class:`~tutor.engine.game.Game` accepts
in the same position, and the game must end with the same winner.  It also
must never peek: a seat's choice depends on its own hand and the counts.
"""

from __future__ import annotations

import pytest

from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.solver.playout import available, playout, playout_line

pytestmark = pytest.mark.skipif(not available(STANDARD), reason="the compiled core is not built")


def _line_in_engine(game: Game) -> None:
    hands = list(game.hands_packed)
    assert game.landlord is not None
    winner, line = playout_line(hands, game.landlord, game.to_move, game.table, game.table_seat)
    assert winner == playout(hands, game.landlord, game.to_move, game.table, game.table_seat)
    for move in line:
        assert not game.is_over
        assert move in game.legal_moves(), f"{move} is not legal for seat {game.to_move}"
        game.play(move)
    assert game.is_over and game.winner == winner


@pytest.mark.parametrize("deal", range(1, 41))
def test_every_move_of_a_playout_is_legal_and_the_winner_is_the_engines(deal: int) -> None:
    _line_in_engine(Game.with_landlord(deal, deal % 3))


def test_a_playout_from_the_middle_of_a_trick_follows_the_engine() -> None:
    for deal in range(41, 61):
        game = Game.with_landlord(deal, 0)
        for _ in range(deal % 7 + 1):  # a few turns of the quick policy's own line, then hand over
            assert game.landlord is not None
            _, line = playout_line(list(game.hands_packed), game.landlord, game.to_move, game.table, game.table_seat)
            game.play(line[0])
        _line_in_engine(game)


def test_the_unchecked_game_steps_like_the_checked_one() -> None:
    """The coach's rollouts' game (``Game.from_view(..., checked=False)``, stepped with ``push``)
    against a game stepped with checked plays, over whole play-outs."""
    for deal in range(1, 21):
        game = Game.with_landlord(deal, deal % 3)
        assert game.landlord is not None
        view = game.view(game.to_move)
        fast = Game.from_view(view, {s: game.hands_packed[s] for s in range(3) if s != view.seat}, checked=False)
        _, line = playout_line(list(game.hands_packed), game.landlord, game.to_move, None, None)
        for move in line:
            assert (fast.to_move, fast.table, fast.table_seat) == (game.to_move, game.table, game.table_seat)
            fast.push(move)
            game.play(move)
            assert fast.hands_packed == game.hands_packed
            assert fast.is_over == game.is_over
            assert fast.view(game.landlord) == game.view(game.landlord)


def test_a_seat_decides_from_its_own_hand_only() -> None:
    """Swapping cards between the two other hands never changes what the mover plays first."""
    game = Game.with_landlord(7, 0)
    hands = list(game.hands_packed)
    _, line = playout_line(hands, 0, 0, None, None)
    a, b = hands[1], hands[2]
    low_a, low_b = (1 << 4 * ((h & -h).bit_length() - 1 >> 2) for h in (a, b))  # each hand's lowest card
    if low_a != low_b:
        swapped = [hands[0], a - low_a + low_b, b - low_b + low_a]
        _, other = playout_line(swapped, 0, 0, None, None)
        assert other[0] == line[0]
