"""The play-out policy's variants for chosen seats (tutor/solver/playout.py ``VARIANTS``, ``sim_choose`` in C).

The hard bot's play-outs may let the opponents play a variant ("lowest": always beat with the lowest answer,
as RLCard's rule agent; "rule": that, and lead the lowest card).  Every simulated move must be legal in the
engine, a play-out must be a function of its position, and the quick policy itself must not change by a bit:
the coach, the puzzles and the daily pool are built on its games.
"""

from __future__ import annotations

import hashlib

import pytest

from tests.bots.bot_views import combo, turns, view
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.solver.playout import VARIANTS, available, choose, playout, playout_line

pytestmark = pytest.mark.skipif(not available(STANDARD), reason="the compiled core is not built")

#: The quick policy's lines of deals 1-60 (winner and every move), hashed: computed with the C core before the
#: variants were added (commit 4c5c581), so any change to the policy's games fails here.
QUICK_LINES = "32d9f0feb6291094"


def test_the_quick_policy_plays_the_same_games_as_before_the_variants() -> None:
    from tutor.solver.native import _native

    assert _native is not None
    for extra in ((), (0, 7), (1, 0)):  # the old call; variant 0 for every seat; a variant for no seat
        digest = hashlib.sha256()
        for deal in range(1, 61):
            game = Game.with_landlord(deal, deal % 3)
            line = _native.playout(tuple(game.hands_packed), game.landlord, game.to_move, None, -1, True, *extra)
            digest.update(repr(line).encode())
        assert digest.hexdigest()[:16] == QUICK_LINES, extra


@pytest.mark.parametrize("variant", ["lowest", "rule", "agent", "plan", "fit"])
def test_every_move_of_a_variant_playout_is_legal_and_the_winner_is_the_engines(variant: str) -> None:
    changed = 0
    for deal in range(1, 31):
        game = Game.with_landlord(deal, deal % 3)
        assert game.landlord is not None
        seats = [s for s in range(3) if s != game.landlord] if deal % 2 else [game.landlord]
        hands = list(game.hands_packed)
        winner, line = playout_line(hands, game.landlord, game.to_move, None, None, variant, seats)
        assert winner == playout(hands, game.landlord, game.to_move, None, None, variant, seats)
        changed += line != playout_line(hands, game.landlord, game.to_move, None, None)[1]
        for move in line:
            assert not game.is_over
            assert move in game.legal_moves(), f"{variant}: {move} is not legal for seat {game.to_move}"
            game.play(move)
        assert game.is_over and game.winner == winner
    assert changed >= 10  # the variant does play otherwise


def test_lowest_beats_with_the_lowest_answer_of_the_kind_even_the_partners_play() -> None:
    # Farmer 1 after its partner's single 4 (seat 2 led, the landlord passed): the quick policy lets a
    # partner's play stand; the rule agent's way answers it with the lowest single.
    position = view(1, "59KK", 0, (10, 4, 8), turns((2, "4"), (0, None)))
    assert choose(position) is None
    assert choose(position, "lowest") == combo("5")
    assert choose(position, "rule") == combo("5")


def test_rule_leads_a_play_holding_the_lowest_card() -> None:
    position = view(0, "3789TJQQ", 0, (8, 10, 10))
    led = choose(position, "rule")
    assert led is not None and led.cards & 15  # holds the 3
    assert choose(position, "lowest") == choose(position)  # "lowest" leads as the quick policy


def test_agent_leads_the_group_of_its_lowest_card_in_the_rule_agents_split() -> None:
    # RLCard's rule agent: bare trios (no kicker), a bomb when the lowest card is in one, the straight of
    # what the trios leave.
    assert choose(view(0, "3334568TT", 0, (9, 17, 17)), "agent") == combo("333")
    assert choose(view(0, "33334568T", 0, (9, 17, 17)), "agent") == combo("3333")
    assert choose(view(0, "345677789", 0, (9, 17, 17)), "agent") == combo("3")  # the trio 777 breaks the run
    assert choose(view(0, "34567JJ", 0, (7, 17, 17)), "agent") == combo("34567")


def test_agent_passes_after_the_partner_and_may_bomb_the_landlord() -> None:
    # No single to answer the partner's A: a farmer passes; the hand holds no bomb to draw.
    assert choose(view(1, "3", 0, (10, 1, 8), turns((2, "A"), (0, None))), "agent") is None
    # The landlord's single 2 and only a bomb to beat it: the pass or the bomb, drawn by the position's hash,
    # the same draw every time.
    landlord_two = view(1, "55554", 0, (10, 5, 8), turns((0, "2"),))
    draws = {choose(landlord_two, "agent") for _ in range(3)}
    assert len(draws) == 1 and draws <= {None, combo("5555")}


def test_an_unknown_variant_is_named() -> None:
    with pytest.raises(ValueError, match="no play-out variant 'best'"):
        playout([1, 2, 4], 0, 0, None, None, "best", [1])
    assert set(VARIANTS) == {"quick", "lowest", "rule", "agent", "plan", "fit"}
