"""Rollouts (tutor/bots/rollout.py): the tiny simulator agrees with the game, and the best move wins."""

from __future__ import annotations

import pytest

from tests.bots.bot_views import combo, view
from tutor.bots import MediumBot
from tutor.bots.rollout import best_by_rollouts, rollout
from tutor.engine.game import Game, Phase


@pytest.mark.parametrize("number", [3, 17, 40])
def test_rollout_with_the_true_hands_replays_the_real_game(number: int) -> None:
    # Medium bots everywhere: a rollout from the opening view, given the real hidden hands,
    # must end exactly as the real game does (same two-pass rule, same turn order).
    game = Game.with_landlord(number, 0)
    bots = [MediumBot(number) for _ in range(3)]
    opening = game.view(0)
    hidden = {s: game.hand(s).packed for s in (1, 2)}
    first = bots[0].play(opening)
    while game.phase is Phase.PLAYING:
        game.play(bots[game.to_move].play(game.view(game.to_move)))
    assert rollout(opening, hidden, first, MediumBot(number)) == game.score().landlord_won


def test_best_by_rollouts_prefers_the_move_that_wins_in_the_samples() -> None:
    # The landlord holds 33.  Leading one 3 leaves a card that can never win a trick again;
    # the pair goes out at once.  Offered first, the single must still lose to the pair.
    position = view(0, "33", 0, (2, 5, 5))
    chosen = best_by_rollouts(position, [combo("3"), combo("33")], samples=4, seed=1, policy=MediumBot(1))
    assert chosen == combo("33")


def test_best_by_rollouts_keeps_the_heuristic_choice_within_the_margin() -> None:
    position = view(0, "33", 0, (2, 5, 5))
    chosen = best_by_rollouts(position, [combo("3"), combo("33")], samples=2, seed=1, policy=MediumBot(1), margin=3)
    assert chosen == combo("3")


def test_rollouts_stop_at_the_time_cap_with_a_fair_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    # With no time at all, one sample is still rolled out for every candidate, so the
    # answer is one of the candidates and the better one wins on that sample.
    import tutor.bots.rollout as rollout_module

    monkeypatch.setattr(rollout_module, "TIME_CAP", 0.0)
    position = view(0, "33", 0, (2, 5, 5))
    chosen = best_by_rollouts(position, [combo("3"), combo("33")], samples=50, seed=1, policy=MediumBot(1), steps=4)
    assert chosen == combo("33")
