"""Budgets, never clocks (tutor/bots/effort.py): the hard bot's look-ahead is bounded by counts,
so its move depends on the view alone — not on the machine's load, and not on the bot's past."""

from __future__ import annotations

import ast
import itertools
import time
from pathlib import Path

import pytest

from tutor.bots import HardBot, MediumBot
from tutor.bots.effort import Effort
from tutor.engine.game import Game, Phase
from tutor.engine.view import PlayerView

PACKAGE = Path(__file__).resolve().parents[2] / "tutor"
CLOCKS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time", "thread_time"}


def test_effort_counts_up_to_its_limit() -> None:
    effort = Effort(3)
    assert not effort.exhausted
    effort.spend(2)
    assert not effort.exhausted
    effort.spend()
    assert effort.exhausted and effort.spent == 3
    unlimited = Effort()
    unlimited.spend(10**9)
    assert not unlimited.exhausted
    with pytest.raises(ValueError, match="-1"):
        Effort(-1)


@pytest.mark.parametrize("layer", ["bots", "coach"])
def test_no_bot_or_coach_module_reads_a_clock(layer: str) -> None:
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Import):
                assert not {a.name for a in node.names} & {"time", "datetime"}, where
            elif isinstance(node, ast.ImportFrom):
                assert node.module not in ("time", "datetime"), where
            elif isinstance(node, ast.Attribute):
                assert node.attr not in CLOCKS, where


def _view_with(cards_in_play: int, deal: int) -> PlayerView:
    """The view of the player to move once medium bots have brought the cards in play down to a count."""
    game = Game.with_landlord(deal, 0)
    bots = [MediumBot(deal) for _ in range(3)]
    while sum(len(game.hand(s)) for s in range(3)) > cards_in_play and game.phase is Phase.PLAYING:
        game.play(bots[game.to_move].play(game.view(game.to_move)))
    assert game.phase is Phase.PLAYING, f"deal {deal} ends before {cards_in_play} cards"
    return game.view(game.to_move)


#: (cards in play at most, deal): 20 → determinized search (then rollouts), 30 → rollouts only.
POSITIONS = [(20, 1), (30, 4)]


@pytest.mark.parametrize(("cards", "deal"), POSITIONS)
def test_a_hard_decision_does_not_change_when_the_clock_races(
    cards: int, deal: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clock that jumps 100 s at every reading looks like the busiest machine there is.
    view = _view_with(cards, deal)
    bot = HardBot(deal)
    assert bot.should_roll_out(view) and bot.should_search(view) == (cards <= bot.search_cards)
    calm = bot.play(view)
    ticks = itertools.count()
    real = time.perf_counter
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, lambda: real() + 100.0 * next(ticks))
    assert HardBot(deal).play(view) == calm


@pytest.mark.parametrize(("cards", "deal"), POSITIONS)
def test_a_hard_decision_does_not_depend_on_what_the_bot_decided_before(cards: int, deal: int) -> None:
    # A bot that has already searched other positions (its solver tables warm) decides as a new one:
    # a resumed game or a hint after an undo sees the same move.
    view = _view_with(cards, deal)
    seasoned = HardBot(deal)
    for other in POSITIONS:
        if other != (cards, deal):
            seasoned.play(_view_with(*other))
    assert seasoned.play(view) == HardBot(deal).play(view)
