"""Our bots against RLCard's rule agent in RLCard's environment (tutor/bench/rlcard_arena.py).

Only when the optional rlcard package is installed (``ddz-tutor[arena]``); the CI does without it.
"""

from __future__ import annotations

import pytest

from tutor.bench import rlcard_arena

pytestmark = pytest.mark.skipif(not rlcard_arena.available(), reason="rlcard is not installed (ddz-tutor[arena])")


def test_two_decks_with_seats_swapped_follow_rlcard_move_for_move() -> None:
    """Two decks, each as landlord then as farmers: four games in RLCard's environment, our game agreeing on
    every move and the winner (a disagreement raises), the figures of the DouZero protocol."""
    result = rlcard_arena.run("medium", 2, seed=5)
    assert result.deals == 2 and result.games == 4 and result.b == rlcard_arena.RULE_AGENT
    assert 0.0 <= result.wp_ci[0] <= result.wp <= result.wp_ci[1] <= 1.0
    assert result.wp_as_landlord is not None and result.wp_as_farmers is not None
    assert result.wp == pytest.approx((result.wp_as_landlord + result.wp_as_farmers) / 2)
    assert result.adp_ci[0] <= result.adp <= result.adp_ci[1] and result.decision_ms["medium"][1] > 0


def test_the_same_deck_is_the_same_game_and_the_result_is_rlcards() -> None:
    """Seeded: RLCard's deal and its agent's random choices repeat, and so does our bot; our side's result
    is what RLCard pays our seats (seat 0 is the landlord)."""
    for ours_landlord in (True, False):
        won, bombs, payoffs = rlcard_arena.play_game(7, "medium", ours_landlord)
        assert (won, bombs, payoffs) == rlcard_arena.play_game(7, "medium", ours_landlord)
        our_seat = 0 if ours_landlord else 1
        assert won == (payoffs[our_seat] == 1) and bombs >= 0


def test_a_move_rlcard_does_not_allow_is_an_error() -> None:
    from tutor.engine.combos import Combo, Kind

    with pytest.raises(rlcard_arena.ProtocolError):
        rlcard_arena._theirs(None, ["33", "44"])
    three = Combo(1, Kind.SINGLE, 1, 0)  # a single 3
    assert rlcard_arena._theirs(three, ["pass", "3", "4"]) == "3"
    with pytest.raises(rlcard_arena.ProtocolError):
        rlcard_arena._theirs(three, ["pass", "4"])

