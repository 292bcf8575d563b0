"""``ddz arena`` (tutor/cli/arena.py), driven through click's CliRunner."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from click.testing import CliRunner, Result

from tutor.bench import arena
from tutor.bots.base import Bot
from tutor.cli.main import main
from tutor.engine.game import Game

ENV = {"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"}


def run(*args: str) -> Result:
    return CliRunner(env=ENV).invoke(main, ["arena", *args], catch_exceptions=False)


def test_arena_json_has_the_issue_fields() -> None:
    result = run("--landlord", "medium", "--farmers", "easy", "-n", "3", "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("games", "wp", "wp_ci", "adp", "adp_ci", "games_per_second", "decision_ms_median", "decision_ms_max"):
        assert key in data
    assert data["games"] == 6
    assert len(data["wp_ci"]) == 2 and len(data["adp_ci"]) == 2


def test_arena_table_fits_80_columns_without_colour() -> None:
    result = run("--landlord", "medium", "--farmers", "medium", "-n", "2")
    assert result.exit_code == 0, result.output
    assert "WP" in result.output and "ADP" in result.output
    assert "\x1b[" not in result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert "No clear difference" in result.output


def test_arena_bidding_mode() -> None:
    result = run("--landlord", "medium", "--farmers", "easy", "-n", "1", "--bidding", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mode"] == "bidding" and data["games"] == 3


def test_arena_bad_level_exits_2() -> None:
    result = run("--landlord", "expert", "--farmers", "easy", "-n", "1")
    assert result.exit_code == 2
    assert "expert" in result.output


def test_arena_zero_deals_exits_2() -> None:
    result = run("--landlord", "easy", "--farmers", "easy", "-n", "0")
    assert result.exit_code == 2


def test_arena_under_rob_the_landlord_and_the_open_hand() -> None:
    # RULES §12: the variants are full games with the auction; the result says which rules.
    result = run("--landlord", "medium", "--farmers", "easy", "-n", "2", "--auction", "rob", "--open-hand", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mode"] == "bidding" and data["games"] == 6
    assert data["rules"]["auction"] == "rob" and data["rules"]["open_hand"] == "after_kitty"
    table = run("--landlord", "easy", "--farmers", "easy", "-n", "1", "--auction", "rob")
    assert "Rules: rob the landlord" in table.output


def test_arena_with_four_players_seats_four_bots_in_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # RULES §12.4: --players 4 plays four-seat games (25 cards each), paired (roles swapped) or one game per seat.
    seats: list[tuple[int, int]] = []
    play_out = arena.play_out

    def counted(game: Game, bots: Sequence[Bot], times: dict[str, list[float]] | None = None) -> Game:
        seats.append((len(bots), game.rules.players))
        return play_out(game, bots, times)

    monkeypatch.setattr(arena, "play_out", counted)
    result = run("--landlord", "medium", "--farmers", "easy", "-n", "1", "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mode"] == "fixed_landlord" and data["games"] == 2 and data["rules"]["players"] == 4
    rob = json.loads(run("--landlord", "easy", "--farmers", "easy", "-n", "1", "--players", "4", "--auction", "rob",
                         "--json").output)
    assert rob["mode"] == "bidding" and rob["games"] == 4 and rob["rules"]["auction"] == "rob"
    assert seats == [(4, 4)] * 6
    assert "four players" in run("--landlord", "easy", "--farmers", "easy", "-n", "1", "--players", "4").output.lower()
    refused = run("--landlord", "easy", "--farmers", "easy", "-n", "1", "--players", "4", "--wildcard")
    assert refused.exit_code == 2 and len(refused.output.strip().splitlines()) == 1


def test_arena_table_writes_russian_numbers_in_russian() -> None:
    """Round 14: «0.500» and «[0.500, 0.500]» in a Russian table; now «0,500» and «[0,500; 0,500]»."""
    import re

    result = run("--landlord", "easy", "--farmers", "easy", "-n", "1", "--lang", "ru")
    assert result.exit_code == 0, result.output
    assert re.search(r"\[\d,\d{3}; \d,\d{3}\]", result.output), result.output  # the WP interval
    assert not re.search(r"\d\.\d", result.output), result.output  # no English decimal point left
