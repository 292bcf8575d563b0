"""The play-outs' opponents as a mixture of models (tutor/bots/model_mix.py): the weights, the slots, the evidence."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from tutor.bots.hard import HardBot
from tutor.bots.model_mix import PRIOR, apportion, mixture, posterior
from tutor.engine.game import Game
from tutor.engine.view import PlayerView
from tutor.solver import playout
from tutor.solver.native import available


def test_the_posterior_is_the_prior_times_the_odds_of_each_explained_decision() -> None:
    w = posterior({"quick": 3.0, "agent": 5.0}, {"quick": 0.5, "agent": 0.5}, 1.0)
    assert w["agent"] / w["quick"] == pytest.approx(math.exp(2.0))
    assert sum(w.values()) == pytest.approx(1.0)
    assert posterior({}, {"quick": 0.25, "agent": 0.75}, 1.0) == pytest.approx({"quick": 0.25, "agent": 0.75})
    assert posterior({"agent": 40.0}, {"quick": 0.5, "agent": 0.5}, 0.0) == pytest.approx({"quick": 0.5, "agent": 0.5})
    assert list(posterior({}, {"quick": 1.0, "lowest": 0.0}, 1.0)) == ["quick"]  # a zero prior is no model
    with pytest.raises(ValueError):
        posterior({}, {"quick": 0.0}, 1.0)


def test_the_slots_follow_the_weights_and_every_prefix_stays_near_them() -> None:
    order = apportion({"quick": 0.75, "agent": 0.25}, 16)
    assert Counter(order) == {"quick": 12, "agent": 4}
    for n in range(1, 17):  # no long run of one model: the first deals already hold both in their shares
        assert abs(order[:n].count("agent") - n / 4) <= 1
    assert apportion({"quick": 0.5, "agent": 0.5}, 4) == ["quick", "agent", "quick", "agent"]
    assert Counter(apportion({"quick": 0.34, "lowest": 0.33, "agent": 0.33}, 16)) == {"quick": 6, "lowest": 5, "agent": 5}
    assert apportion({"quick": 0.99, "agent": 0.01}, 16) == ["quick"] * 16
    with pytest.raises(ValueError):
        apportion({"quick": 1.0}, 0)


needs_native = pytest.mark.skipif(not available(), reason="the compiled play-out is not built")


def farmer_view(deck: int, landlord_model: str, turns: int) -> PlayerView:
    """A farmer's view of deck ``deck`` after ``turns`` turns, the landlord (seat 0) playing ``landlord_model``
    and the farmers the quick policy, each from its own view."""
    game = Game.with_landlord(deck, 0)
    while len(game.history) < turns or game.to_move == 0:
        assert not game.is_over
        view = game.view(game.to_move)
        game.play(playout.choose(view, landlord_model if game.to_move == 0 else "quick"))
    return game.view(game.to_move)


@needs_native
def test_the_mixture_moves_towards_the_model_that_plays_the_landlord() -> None:
    # The landlord's decisions are the evidence: the share of the agent's deals is larger when the landlord
    # plays the agent's variant than when it plays the quick policy, on the same decks and turns.
    agent_share = {"quick": 0, "agent": 0}
    for deck in range(20, 26):
        for model in agent_share:
            mix = mixture(farmer_view(deck, model, 14))
            agent_share[model] += mix.split("+").count("agent")
    assert agent_share["agent"] > agent_share["quick"] + 6 * 2


@needs_native
def test_the_mixture_repeats_and_starts_from_the_prior() -> None:
    view = farmer_view(21, "agent", 12)
    assert mixture(view) == mixture(view)
    first = Game.with_landlord(21, 0)
    assert mixture(first.view(1)) == "+".join(apportion(PRIOR, 16))  # no decision seen: the prior
    assert mixture(view, beta=0.0) == "+".join(apportion(PRIOR, 16))
    assert mixture(view, prior={"quick": 1.0}) == "quick"


@needs_native
def test_hard_mixes_only_a_farmers_play_outs_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    farmer = farmer_view(22, "agent", 12)
    bot = HardBot(0)
    assert bot.playout_opponents(farmer) == "quick"  # today's farmers
    monkeypatch.setattr(HardBot, "farmer_playout_opponents", "mix")
    mix = bot.playout_opponents(farmer)
    assert mix == mixture(farmer) and set(mix.split("+")) <= set(PRIOR)
    monkeypatch.setattr(HardBot, "farmer_mix_prior", {"quick": 0.5, "lowest": 0.5})
    assert set(bot.playout_opponents(farmer).split("+")) <= {"quick", "lowest"}
    monkeypatch.setattr(HardBot, "farmer_mix_slots", 2)
    assert len(bot.playout_opponents(farmer).split("+")) <= 2
    landlord = Game.with_landlord(22, 0).view(0)
    assert bot.playout_opponents(landlord) == bot.playout_opponents(landlord)  # the landlord's own setting
    assert "+" not in bot.playout_opponents(landlord)


def test_the_identification_benchmark_dumps_each_decision_for_other_priors(tmp_path: Path) -> None:
    # Round 10 weighed other priors and betas offline from these lines: each farmer decision's hits per model
    # and the landlord's decisions scored, so the mixture's weights can be recomputed for any prior.
    import json
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "opponent_model.py"
    dump = tmp_path / "fit.jsonl"
    subprocess.run(
        [sys.executable, str(script), "--against", "medium", "--sides", "farmers", "--decks", "1", "--seed", "3",
         "--dump", str(dump)],
        capture_output=True, text=True, check=True,
    )
    rows = [json.loads(line) for line in dump.read_text(encoding="utf-8").splitlines()]
    assert rows and all(r["against"] == "medium" and r["deck"] == 3 and r["landlord"] is False for r in rows)
    assert {"quick", "lowest", "rule", "agent"} <= set(rows[-1]["hits"])
    assert rows[-1]["decisions"] > 0 and rows[-1]["cards"] < rows[0]["cards"]
    later = [r for r in rows if r["decisions"]]
    assert all(0 <= h <= r["decisions"] for r in later for h in r["hits"].values())
