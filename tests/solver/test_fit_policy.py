"""The fitted play-out model ("fit", round 13: ``_fit.c``; tutor/solver/playout.py ``fit_features``, ``fit_weights``).

Its candidates must be the engine's legal moves (the pass last when following), its move the best-scored
candidate under the compiled weights (the first on a tie), the weights the fitted table (not the zeros the file
starts from), and its moves legal and a function of the position.  The quick policy's games are pinned by
tests/solver/test_playout_variants.py (QUICK_LINES), which also plays whole "fit" play-outs.
"""

from __future__ import annotations

import pytest

from tests.bots.bot_views import combo, turns, view
from tutor.engine.game import Game
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView
from tutor.solver.playout import VARIANTS, available, choose, fit_features, fit_weights, playout_line

pytestmark = pytest.mark.skipif(not available(STANDARD), reason="the compiled core is not built")

#: The features' count and the indices the tests read (``_fit.c``'s enum).
NF = 40
PASS, OUT, LOWEST_ANSWER = 0, 5, 20


def positions() -> list[PlayerView]:
    """Views met in real games: every seat's turns of a few quick play-outs (leads and follows)."""
    found = []
    for deal in range(1, 7):
        game = Game.with_landlord(deal, deal % 3)
        assert game.landlord is not None
        _, line = playout_line(list(game.hands_packed), game.landlord, game.to_move, None, None)
        for move in line:
            found.append(game.view(game.to_move))
            game.play(move)
    return found


def score(weights: tuple[int, ...], features: tuple[int, ...]) -> int:
    return sum(w * f for w, f in zip(weights, features, strict=True))


def test_fit_is_a_variant() -> None:
    assert VARIANTS["fit"] == 5 and VARIANTS["quick"] == 0


def test_the_candidates_are_the_legal_moves_and_the_pass_comes_last() -> None:
    for position in positions():
        game_moves: set[int | None] = {m.cards for m in legal_moves(position.hand, position.table, position.rules)}
        if position.table is not None:
            game_moves.add(None)
        cands = fit_features(position)
        assert {None if m is None else m.cards for m, _ in cands} == game_moves
        assert all(len(f) == NF for _, f in cands)
        if position.table is not None:
            assert cands[-1][0] is None and cands[-1][1][PASS] == 1
        assert all(f[PASS] == 0 for m, f in cands if m is not None)


def test_features_say_what_they_name() -> None:
    # Farmer 1 answers the landlord's single 4 holding 5, 9, K, K: 5 is the lowest answer, the pass is last.
    position = view(1, "59KK", 0, (10, 4, 8), turns((0, "4")))
    cands = dict(fit_features(position))
    assert cands[combo("5")][LOWEST_ANSWER] == 1 and cands[combo("9")][LOWEST_ANSWER] == 0
    # Out in one play.
    out = dict(fit_features(view(0, "KK", 0, (2, 10, 10))))
    assert out[combo("KK")][OUT] == 1 and out[combo("K")][OUT] == 0


def test_the_move_is_the_best_scored_candidate_under_the_fitted_weights() -> None:
    weights = fit_weights()
    assert any(weights[0]) and any(weights[1])  # the fitted table, not the zeros _fit.c starts from
    checked = 0
    for position in positions():
        cands = fit_features(position)
        w = weights[position.seat == position.landlord]
        best = max(range(len(cands)), key=lambda i: (score(w, cands[i][1]), -i))
        assert choose(position, "fit") == cands[best][0]
        checked += 1
    assert checked > 50


def test_fit_differs_from_quick_and_is_deterministic() -> None:
    differs = 0
    for position in positions():
        move = choose(position, "fit")
        assert move == choose(position, "fit")
        differs += move != choose(position)
    assert differs > 0
