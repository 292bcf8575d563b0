"""The coach's evaluation: from the view only, reproducible, and never against the solver."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.coach.positions import determined
from tutor.bots.search import sample_position
from tutor.coach.advice import hints, judge
from tutor.coach.evaluation import Budget, evaluate
from tutor.engine.cards import Cards
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.solver import Solver

#: One fixed step of 8 samples (no sequential sampling): the tests of what one step does.
SMALL = Budget(samples=8, width=3, max_samples=8)
#: Sequential sampling in steps of 8, up to 64, on the compiled play-out (the coach's method).
SEQUENTIAL = Budget(samples=8, width=3, max_samples=64, policy="quick")
#: Its first step alone.
FIRST_STEP = Budget(samples=8, width=3, max_samples=8, policy="quick")


def _mid_game_view(deal: int, plays: int) -> Game:
    """Seat 0's first turn after ``plays`` turns, medium bots playing."""
    from tutor.bots.medium import MediumBot

    game = Game.with_landlord(deal, 1)
    bots = [MediumBot(s) for s in range(3)]
    while len(game.history) < plays or game.to_move != 0:
        game.play(bots[game.to_move].play(game.view(game.to_move)))
    return game


def test_same_view_same_figures() -> None:
    view = _mid_game_view(3, 12).view(0)
    a, b = evaluate(view, (), SMALL), evaluate(view, (), SMALL)
    assert [(c.move, c.outcomes) for c in a.candidates] == [(c.move, c.outcomes) for c in b.candidates]


def test_every_candidate_plays_the_same_samples() -> None:
    ev = evaluate(_mid_game_view(4, 9).view(0), (), SMALL)
    assert {len(c.outcomes) for c in ev.candidates} == {ev.samples} == {SMALL.samples}


def test_sequential_sampling_stops_when_every_figure_is_settled_or_at_the_cap() -> None:
    """Steps of 8 are drawn only while a loss is unsettled (or a shown chance too noisy)."""
    from tutor.coach.evaluation import settled

    for deal, plays in ((4, 9), (6, 8), (3, 12)):
        view = _mid_game_view(deal, plays).view(0)
        ev = evaluate(view, (), SEQUENTIAL)
        assert ev.samples % SEQUENTIAL.samples == 0 and SEQUENTIAL.samples <= ev.samples <= SEQUENTIAL.max_samples
        assert ev.best.samples == ev.samples  # the best is always played on every sample
        first = evaluate(view, (), FIRST_STEP)
        # The first step is the fixed budget's, sample for sample.
        assert {c.move: c.outcomes[:8] for c in ev.candidates if c.move in {d.move for d in first.candidates}} == {
            c.move: c.outcomes for c in first.candidates if ev.value(c.move) is not None
        }
        if ev.samples < SEQUENTIAL.max_samples:
            for c in ev.candidates[1:]:
                assert settled(ev.loss(c.move), ev.loss_noise(c.move), SEQUENTIAL.target_noise)
            assert ev.best.stderr <= SEQUENTIAL.chance_noise or ev.best.proven


def test_asking_about_a_move_does_not_change_the_others() -> None:
    view = Game.with_landlord(5, 0).view(0)  # the landlord's opening lead: many moves
    plain = evaluate(view, (), SMALL)
    worst = plain.candidates[-1].move
    from tutor.engine.moves import legal_moves

    extra = next(m for m in legal_moves(view.hand, view.table) if plain.value(m) is None)
    asked = evaluate(view, (extra,), SMALL)
    for c in plain.candidates:
        got = asked.value(c.move)
        assert got is not None and got.outcomes == c.outcomes
    assert asked.value(extra) is not None and plain.value(worst) is not None
    assert plain.with_moves((extra,)).value(extra) == asked.value(extra)


@pytest.mark.parametrize("deal", [6, 7])
def test_hints_do_not_depend_on_hidden_cards(deal: int) -> None:
    """Permute the hidden cards between the other seats, keeping the view: the same hints."""
    game = _mid_game_view(deal, 8)
    view = game.view(0)
    hidden = game.hand(1).ranks() + game.hand(2).ranks()
    rng = random.Random(deal)
    rng.shuffle(hidden)
    n1 = len(game.hand(1))
    # The landlord (seat 1) keeps the kitty cards everyone saw it take and has not played.
    from tutor.bots.counting import landlord_known

    known = Cards(landlord_known(view)).ranks()
    pool = list(hidden)
    for r in known:
        pool.remove(r)
    hands = [game.hand(0), Cards.from_ranks(known + pool[: n1 - len(known)]), Cards.from_ranks(pool[n1 - len(known) :])]
    assert hands[1] != game.hand(1)
    other = Game.from_hands(hands, 1, game.bid or 1, game.kitty, history=game.history)
    original = Game.from_hands(game.hands, 1, game.bid or 1, game.kitty, history=game.history)
    assert other.view(0) == original.view(0)
    first = [(h.move, h.win_chance, h.reason) for h in hints(original.view(0), SMALL)]
    second = [(h.move, h.win_chance, h.reason) for h in hints(other.view(0), SMALL)]
    assert first == second


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_best_candidate_wins_whenever_the_solver_finds_a_win(seed: int) -> None:
    """Where the view determines the hidden hands, the best candidate is a solver-proven winner."""
    game, _ = determined(seed)
    view = game.view(0)
    ev = evaluate(view, (), Budget(samples=4, nodes=200_000))
    hidden = {s: game.hand(s).packed for s in (1, 2)}
    result = Solver(max_nodes=2_000_000, rules=STANDARD).solve(sample_position(view, hidden), "win", all_moves=True, line=False)
    assert result.complete
    if result.winning_moves:
        assert ev.best.move in result.winning_moves
        assert ev.best.win_chance == 1.0
        # No proven winning move is ever judged worse than best.
        for move in result.winning_moves:
            assert judge(view, move, evaluation=ev)[0].level == "best"
    else:
        assert ev.best.win_chance == 0.0


def test_the_coach_calls_passing_into_a_one_card_landlord_a_blunder_and_beating_best() -> None:
    """The issue's example: partner (Left) leads 5, the landlord (Right) has one card and plays next."""
    from tutor.coach import Coach
    from tutor.coach.describe import describe, to_view
    from tutor.i18n import set_language

    set_language("en")
    view = to_view(describe("233", "right", "right=1,left=1", "left:5"))
    coach = Coach(rules=STANDARD)
    two = next(h.move for h in coach.hints(view) if h.move is not None)
    assert coach.hints(view)[0].move == two and two.text == "2"
    assert coach.after_move(view, two, None, 10, 3) is None
    said = coach.after_move(view, None, None, 10, 3)
    assert said is not None and said.startswith("Blunder") and "2 wins" in said
    assert [v.level for _, _, v in coach.verdicts] == ["best", "blunder"]
