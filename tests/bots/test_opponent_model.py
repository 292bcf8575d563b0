"""The opponents' model read from the view (tutor/bots/opponent_model.py): the replay, the pick, the bound."""

from __future__ import annotations

import pytest

from tutor.bots.effort import Effort
from tutor.bots.hard import HardBot
from tutor.bots.opponent_model import (
    MODELS, PRIOR, Fit, chosen_model, explained, model_fit, opponents, past_decisions,
)
from tutor.engine.game import Game
from tutor.solver import playout
from tutor.solver.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the compiled play-out is not built")


def game_by(deck: int, landlord_model: str, farmers_model: str, turns: int) -> Game:
    """Deck ``deck`` played ``turns`` turns (or to the end) with the landlord (seat 0) and the farmers each
    deciding by a play-out model from their own view."""
    game = Game.with_landlord(deck, 0)
    for _ in range(turns):
        if game.is_over:
            break
        view = game.view(game.to_move)
        game.play(playout.choose(view, landlord_model if game.to_move == 0 else farmers_model))
    return game


@pytest.mark.parametrize("variant", list(playout.VARIANTS))
def test_with_the_true_hands_the_model_that_played_explains_every_past_decision(variant: str) -> None:
    # The replay puts back onto each hand what it played from that turn on: a wrong turn would
    # misplace a card and some decision would not be the model's.
    game = game_by(7, "quick", variant, 24)
    view = game.view(0)
    hidden = {s: game.hands_packed[s] for s in (1, 2)}
    found = past_decisions(view, opponents(view))
    assert len(found) >= 12
    assert explained(0, hidden, found, [variant])[variant] == len(found)
    game = game_by(8, variant, "quick", 24)
    seat = game.to_move if game.to_move != 0 else 1
    view = game.view(seat)
    hidden = {s: game.hands_packed[s] for s in range(3) if s != seat}
    found = past_decisions(view, opponents(view))
    assert [d.seat for d in found] == [0] * len(found) and len(found) >= 6
    assert explained(0, hidden, found, [variant])[variant] == len(found)


def test_the_landlord_tells_rule_agent_like_farmers_from_quick_ones() -> None:
    picks = {"quick": [], "agent": []}  # type: dict[str, list[str]]
    for deck in range(10, 16):
        for farmers in picks:
            game = game_by(deck, "quick", farmers, 27)
            if not game.is_over and game.to_move == 0:
                picks[farmers].append(chosen_model(game.view(0)))
    assert len(picks["quick"]) >= 4 and len(picks["agent"]) >= 4
    assert all(p == PRIOR for p in picks["quick"])
    assert sum(p != PRIOR for p in picks["agent"]) >= len(picks["agent"]) - 1


def test_the_prior_until_there_is_evidence() -> None:
    view = Game.with_landlord(3, 0).view(0)
    assert chosen_model(view) == PRIOR
    assert Fit({"quick": 3.0, "lowest": 4.5}, 6, 96).best() == PRIOR  # ahead, but by less than the margin
    assert Fit({"quick": 3.0, "lowest": 5.0}, 6, 96).best() == "lowest"
    assert Fit({"quick": 3.0, "lowest": 5.0, "agent": 5.0}, 6, 96).best() == "lowest"  # ties: the earlier


def test_the_same_view_gives_the_same_fit() -> None:
    view = game_by(11, "quick", "lowest", 20).view(0)
    assert model_fit(view) == model_fit(view)
    assert chosen_model(view) == chosen_model(view)


def test_the_work_is_bounded_and_counted() -> None:
    view = game_by(12, "quick", "agent", 30).view(0)
    full = model_fit(view)
    assert full.decisions >= 12 and full.calls == 8 * len(MODELS) * full.decisions
    effort = Effort()
    cut = model_fit(view, max_calls=100, effort=effort)
    assert cut.calls <= 100 and cut.decisions == 100 // (8 * len(MODELS))
    assert effort.spent == cut.calls
    assert model_fit(view, max_calls=10).decisions == 0


def test_hard_reads_the_model_when_set_to_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.bots import opponent_model

    asked: list[tuple[str, ...]] = []

    def fake(view: object, models: tuple[str, ...], margin: float) -> str:
        asked.append(models)
        return "rule"

    monkeypatch.setattr(opponent_model, "chosen_model", fake)
    view = game_by(13, "quick", "quick", 6).view(0)
    bot = HardBot(0)
    assert bot.playout_opponents(view) == "rule" and len(asked) == 1  # the landlord's default (round 7)
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "quick")
    assert bot.playout_opponents(view) == "quick" and len(asked) == 1
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "auto")
    monkeypatch.setattr(HardBot, "auto_models", ("quick", "lowest"))
    assert bot.playout_opponents(view) == "rule" and asked[-1] == ("quick", "lowest")
    farmer = game_by(13, "quick", "quick", 7).view(1)
    assert bot.playout_opponents(farmer) == "quick" and len(asked) == 2  # the farmers' stays "quick"


def test_the_identification_benchmark_prints_its_table() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "opponent_model.py"
    out = subprocess.run(
        [sys.executable, str(script), "--against", "medium", "--sides", "landlord", "--decks", "1", "--seed", "3"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "hard as landlord against medium, decks 3-3" in out
    assert "| 41-54 |" in out and "model calls a decision" in out
