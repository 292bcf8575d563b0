"""The full-information diagnostic (tutor/bench/oracle.py, tutor/bench/rule_agent_model.py): it hands out the
true deal, only inside its block, only to the watched game's views, and nothing that plays can reach it."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tutor.bench import rlcard_arena
from tutor.bench.oracle import SAMPLING_MODULES, OracleMismatch, TrueDeal, oracle_sampling
from tutor.bots import rollout, sampling, search
from tutor.bots.hard import HardBot
from tutor.engine.game import Game

PACKAGE = Path(__file__).resolve().parents[2] / "tutor"
DIAGNOSTICS = {"tutor.bench.oracle", "tutor.bench.rule_agent_model"}


def game_after_two_plays() -> Game:
    game = Game.from_hands(["334455789TJQKA2XD", "66778899TJQKA2", "3456TTJJQQKKAA2"], 0)
    game.play(game.resolve("33"))
    game.play(game.resolve("66"))
    return game


def test_every_draw_is_the_true_deal_inside_the_block_and_the_samplers_come_back() -> None:
    game = game_after_two_plays()
    originals = [module.sampler for module in (sampling, search, rollout)]
    truth = TrueDeal()
    truth.watch(game)
    view = game.view(game.to_move)
    with oracle_sampling(truth):
        for module in SAMPLING_MODULES.values():
            draw = module.sampler(view, None, None)
            assert draw(random.Random(1)) == {1: game.hands_packed[1], 0: game.hands_packed[0]}
        # The hard bot decides with it (its search and play-outs draw the true deal) ...
        HardBot(3).play(view)
        assert truth.draws > 2
        # ... but a view of another moment is refused, never answered with a wrong deal.
        earlier = Game.from_hands(["334455789TJQKA2XD", "66778899TJQKA2", "3456TTJJQQKKAA2"], 0)
        with pytest.raises(OracleMismatch):
            sampling.sampler(earlier.view(0))
    assert [module.sampler for module in (sampling, search, rollout)] == originals
    with oracle_sampling(truth, ("search",)):
        assert getattr(search, "sampler") != originals[1] and getattr(rollout, "sampler") is originals[2]
    assert getattr(search, "sampler") is originals[1]


def test_nothing_outside_the_benchmarks_imports_the_diagnostics() -> None:
    """Play, the coach, the web and the CLI never reach the oracle: only benchmarks/ import it."""
    for path in sorted(PACKAGE.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        assert not (names & DIAGNOSTICS) or module in DIAGNOSTICS, f"{module} imports {names & DIAGNOSTICS}"


class NoDraw(random.Random):
    """A generator that refuses to draw: marks the rule agent's random choices (skipped by the check)."""

    def randrange(self, *args: object, **kwargs: object) -> int:
        raise LookupError


@pytest.mark.skipif(not rlcard_arena.available(), reason="rlcard is not installed (ddz-tutor[arena])")
def test_the_model_makes_the_rule_agents_moves() -> None:
    """In real arena games, wherever RLCard's agent did not draw at random, the model made its move."""
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    from tutor.bench.losses import start_of
    from tutor.bench.rule_agent_model import RuleAgentBot, rule_agent_move

    agent = DouDizhuRuleAgentV1()
    model = RuleAgentBot()
    checked = 0
    for deck, ours_landlord in ((600, True), (601, False)):
        games: list[Game] = []
        rlcard_arena.play_game(deck, "medium", ours_landlord, games=games)
        replay = start_of(games[0])
        for turn in games[0].history:
            if (turn.seat == rlcard_arena.RLCARD_LANDLORD) != ours_landlord:
                try:
                    assert rule_agent_move(replay, agent, NoDraw()) == turn.play
                    # The same agent from the farmer's view (the model the play-outs' deals are nudged by).
                    assert model.play(replay.view(turn.seat)) == turn.play
                    checked += 1
                except LookupError:
                    pass
            replay.play(turn.play)
    assert checked > 20


@pytest.mark.skipif(not rlcard_arena.available(), reason="rlcard is not installed (ddz-tutor[arena])")
def test_the_ceiling_hands_both_farmers_the_true_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/landlord_ceiling.py --side farmers (round 9): hard plays the farmers, the oracle hands every
    farmer's play-outs the watched game's hands (a view of another position would raise), and --model, the
    landlord's play-outs' farmers, is refused for the farmers."""
    import importlib.util
    import json
    import sys
    from contextlib import redirect_stdout
    from io import StringIO

    path = PACKAGE.parent / "benchmarks" / "landlord_ceiling.py"
    spec = importlib.util.spec_from_file_location("landlord_ceiling", path)
    assert spec is not None and spec.loader is not None
    ceiling = importlib.util.module_from_spec(spec)
    sys.modules["landlord_ceiling"] = ceiling
    spec.loader.exec_module(ceiling)
    sides: list[bool] = []
    real = rlcard_arena.play_game

    def spy(deck: int, level: str, ours_landlord: bool, *args: object, **kwargs: object) -> object:
        sides.append(ours_landlord)
        return real(deck, level, ours_landlord, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rlcard_arena, "play_game", spy)
    today = tmp_path / "today.jsonl"
    today.write_text('{"deck": 2600, "today": [1, 2.0], "changed": [1, 2.0]}\n')
    out = StringIO()
    with redirect_stdout(out):
        code = ceiling.main(["--side", "farmers", "--seed", "2600", "--decks", "1", "--only", "playouts",
                             "--today", str(today), "--json"])
    figures = json.loads(out.getvalue())
    assert code == 0 and figures["side"] == "farmers" and figures["oracle_draws"] > 0
    assert sides == [False]  # one game, hard as the farmers (today's came from the file)
    assert ceiling.main(["--side", "farmers", "--model", "rule-agent", "--decks", "1"]) == 2
