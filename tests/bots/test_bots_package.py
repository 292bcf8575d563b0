"""The bots as a package: only the view (RULES §8), the protocol, determinism, legal play."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import tutor.bots
from tests.bots.bot_views import turns, view
from tutor.bots import LEVELS, Bot, BotError, UnknownLevelError, make_bot
from tutor.engine.game import Game, Phase
from tutor.engine.view import PlayerView

BOTS_DIR = Path(tutor.bots.__file__).parent


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def game_uses(path: Path) -> list[str]:
    """Every use of the engine's ``Game`` in a module, as ``Game.<attribute>`` or ``Game(`` / ``Game``."""
    return game_uses_in(path.read_text(encoding="utf-8"))


def game_uses_in(text: str) -> list[str]:
    tree = ast.parse(text)
    attributes = {id(node.value): node.attr for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}
    return [f"Game.{attributes[id(node)]}" if id(node) in attributes else "Game"
            for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == "Game"]


def test_rule_8_bots_build_games_only_from_a_view_and_a_sample() -> None:
    """RULES §8: a bot gets its seat's view and no way to reach the hidden hands.  Since the one play state
    (issue 31) the bots' search steps the engine's ``Game`` — but only one built by ``Game.from_view`` from
    that view and a *sampled* deal of the unseen cards; never the table's game, never one built from real hands."""
    files = sorted(BOTS_DIR.glob("*.py"))
    assert len(files) >= 5
    for path in files:
        for name in imported_modules(path):
            assert not name.startswith(("tutor.coach", "tutor.cli", "tutor.bench", "tutor.sessions")), \
                f"{path.name} imports {name}"
        assert set(game_uses(path)) <= {"Game.from_view"}, f"{path.name}: {game_uses(path)}"


def test_the_game_guard_sees_another_game() -> None:
    source = BOTS_DIR / "rollout.py"
    assert "Game.from_view" in game_uses(source)
    text = "from tutor.engine.game import Game\ng = Game.from_hands(h, 0)\nh = Game(1)\n"
    assert sorted(game_uses_in(text)) == ["Game", "Game.from_hands"]


def test_rule_8_a_bot_is_asked_with_a_view_only() -> None:
    """The protocol's two questions take the seat's :class:`PlayerView` and nothing else."""
    import inspect

    for name in ("bid", "play"):
        params = list(inspect.signature(getattr(Bot, name)).parameters)
        assert params == ["self", "view"], (name, params)
        assert inspect.get_annotations(getattr(Bot, name))["view"] in ("PlayerView", PlayerView)


@pytest.mark.parametrize("level", LEVELS)
def test_make_bot_gives_each_level(level: str) -> None:
    bot = make_bot(level, seed=7)
    assert isinstance(bot, Bot)
    assert bot.level == level
    assert make_bot(level.upper(), 7).level == level


def test_make_bot_rejects_unknown_level() -> None:
    with pytest.raises(UnknownLevelError, match="'expert'"):
        make_bot("expert", 1)


@pytest.mark.parametrize("level", LEVELS)
def test_bot_refuses_to_play_out_of_turn(level: str) -> None:
    not_mine = view(1, "345", 0, (9, 3, 8), turns((0, "8")))
    not_mine = type(not_mine)(**{**{f: getattr(not_mine, f) for f in not_mine.__dataclass_fields__}, "to_move": 2})
    with pytest.raises(BotError, match="seat 2"):
        make_bot(level, 0).play(not_mine)


@pytest.mark.parametrize("level", LEVELS)
def test_bids_are_legal(level: str) -> None:
    for number in range(12):
        game = Game(number)
        bots = [make_bot(level, number) for _ in range(3)]
        while game.phase is Phase.BIDDING:
            amount = bots[game.to_move].bid(game.view(game.to_move))
            assert amount in game.legal_bids()
            game.make_bid(amount)


def play_game(levels: tuple[str, str, str], number: int) -> list[object]:
    game = Game(number)
    bots = [make_bot(level, number) for level in levels]
    while game.phase is not Phase.OVER:
        seat = game.to_move
        if game.phase is Phase.BIDDING:
            game.make_bid(bots[seat].bid(game.view(seat)))
        else:
            game.play(bots[seat].play(game.view(seat)))  # play() checks legality
    return list(game.actions)


@pytest.mark.parametrize("levels", [("easy", "medium", "easy"), ("medium", "medium", "medium"), ("easy", "easy", "easy")])
def test_full_games_are_legal_and_end(levels: tuple[str, str, str]) -> None:
    for number in range(15):
        assert play_game(levels, number)


def test_same_deal_and_actions_give_the_same_game() -> None:
    # Every level, hard included (its samples and rollouts are seeded from the game too).
    levels = ("hard", "easy", "medium")
    assert play_game(levels, 5) == play_game(levels, 5)
    assert play_game(("easy", "easy", "easy"), 9) == play_game(("easy", "easy", "easy"), 9)
