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


@pytest.mark.parametrize("variant", [v for v in playout.VARIANTS if v not in playout.READS_REST])  # the test below
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

    def fake(view: object, models: tuple[str, ...], **_: object) -> str:
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
    assert bot.playout_opponents(farmer) == "rule" and len(asked) == 3  # the farmers' default (round 16)
    monkeypatch.setattr(HardBot, "farmer_playout_opponents", "quick")
    assert bot.playout_opponents(farmer) == "quick" and len(asked) == 3


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


# ----------------------------------------------------------------- round 9: the posterior and the mixture
def test_the_posterior_is_the_prior_before_any_farmer_decision() -> None:
    from tutor.bots.opponent_model import posterior

    game = Game.with_landlord(3, 0)
    view = game.view(0)
    assert posterior(view) == {m: 0.25 for m in MODELS}
    weights = posterior(view, MODELS, (3, 1, 1, 1))
    assert weights["quick"] == pytest.approx(0.5) and weights["agent"] == pytest.approx(1 / 6)
    with pytest.raises(ValueError):
        posterior(view, MODELS, (1, 1))
    with pytest.raises(ValueError):
        posterior(view, MODELS, error=1.0)


def test_the_posterior_moves_to_the_model_the_farmers_play_by() -> None:
    # Farmers playing the quick policy: the posterior puts most of its weight on "quick"; farmers playing the
    # rule agent's model: on the models that answer with their lowest card, "quick" nearly out.
    from tutor.bots.opponent_model import posterior

    quick_weight = {"quick": [], "agent": []}  # type: dict[str, list[float]]
    for deck in range(10, 16):
        for farmers in quick_weight:
            for turns in (18, 21, 24, 27):
                game = game_by(deck, "quick", farmers, turns)
                if not game.is_over and game.to_move == 0:
                    quick_weight[farmers].append(posterior(game.view(0))["quick"])
    assert len(quick_weight["quick"]) >= 12 and len(quick_weight["agent"]) >= 12
    assert sum(quick_weight["quick"]) / len(quick_weight["quick"]) > 0.6
    assert max(quick_weight["agent"]) < 0.15


def test_the_posterior_is_deterministic_bounded_and_counted() -> None:
    from tutor.bots.opponent_model import posterior

    game = game_by(11, "quick", "agent", 24)
    view = game.view(game.to_move if game.to_move == 0 else 0)
    effort = Effort()
    first = posterior(view, effort=effort)
    assert first == posterior(view)
    assert sum(first.values()) == pytest.approx(1.0)
    found = len(past_decisions(view, opponents(view)))
    assert effort.spent == 8 * found * len(MODELS)
    small = Effort()
    posterior(view, max_calls=8 * len(MODELS) * 3, effort=small)
    assert small.spent == 8 * len(MODELS) * 3


def test_a_model_the_prior_rules_out_keeps_weight_0_and_is_not_asked() -> None:
    # Round 10's two families (quick and agent, mix_prior [1, 0, 0, 1]): the same weights as the posterior over
    # those two models alone, "lowest" and "rule" at 0, and only the two models' calls made and counted.
    from tutor.bots.opponent_model import posterior

    game = game_by(12, "quick", "agent", 21)
    view = game.view(0)
    found = len(past_decisions(view, opponents(view)))
    assert found >= 8
    effort = Effort()
    four = posterior(view, MODELS, (1, 0, 0, 1), effort=effort)
    two = posterior(view, ("quick", "agent"))
    assert four["lowest"] == 0.0 and four["rule"] == 0.0
    assert four["quick"] == pytest.approx(two["quick"]) and four["agent"] == pytest.approx(two["agent"])
    assert 0.0 < four["quick"] < four["agent"]
    assert effort.spent == 8 * found * 2


def test_the_allocation_splits_the_deals_by_weight() -> None:
    from tutor.bots.opponent_model import allocation

    assert allocation({"quick": 0.5, "lowest": 0.25, "rule": 0.125, "agent": 0.125}, 64) == [
        ("quick", 32), ("lowest", 16), ("rule", 8), ("agent", 8)
    ]
    # Largest remainders, ties to the earlier model; a model with no deal is left out.
    assert allocation({"quick": 1.0, "lowest": 1.0, "rule": 1.0}, 4) == [("quick", 2), ("lowest", 1), ("rule", 1)]
    assert allocation({"quick": 0.999, "agent": 0.001}, 64) == [("quick", 64)]
    split = allocation({"quick": 0.3, "lowest": 0.3, "rule": 0.2, "agent": 0.2}, 63)
    assert sum(n for _, n in split) == 63
    assert allocation({"quick": 1.0}, 0) == []


@pytest.mark.parametrize("variant", ["plan", "fit"])
def test_the_policies_that_read_the_cards_out_are_refused_as_models_of_past_decisions(variant: str) -> None:
    # Rounds 12 and 13: plan and fit read the cards still out at each decision, which the replay does not keep.
    game = game_by(7, "quick", "quick", 24)
    view = game.view(0)
    found = past_decisions(view, opponents(view))
    with pytest.raises(ValueError, match=variant):
        explained(0, {s: game.hands_packed[s] for s in (1, 2)}, found, ["quick", variant])
