"""`ddz play --players 4` end to end (RULES §12.4): three opponents on the table, the store, history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor.cli.main import main
from tutor.i18n import set_language

FOLLOW_HINTS = "hint\n\n" * 70


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_coach: None) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    monkeypatch.setenv("COLUMNS", "60")  # a narrow terminal: the table still names every seat
    yield tmp_path / "ddz"
    set_language("en")


def run(args: list[str], text: str = "") -> Result:
    return CliRunner().invoke(main, args, input=text, catch_exceptions=False)


def test_rules_12_4_a_whole_four_player_game_in_the_terminal_is_stored_with_its_rules(home: Path) -> None:
    result = run(["play", "--deal", "7", "--level", "easy", "--players", "4", "--auction", "rob", "--no-coach"],
                 "pass\n" * 3 + FOLLOW_HINTS + "q\n")
    out = result.output
    assert result.exit_code == 0, out
    for name in ("Right", "Across", "Left"):  # three opponents, each with a card count
        assert name in out
    assert "25 cards" in out
    assert "four players" in out  # the final card names the rules
    rows = json.loads(run(["history", "--json"]).output)
    assert rows[0]["rules"]["players"] == 4 and rows[0]["rules"]["decks"] == 2 and rows[0]["rules"]["auction"] == "rob"
    assert isinstance(rows[0]["multipliers"], list)
    deltas = rows[0].get("deltas") or rows[0].get("scores")
    if deltas is not None:
        assert len(deltas) == 4 and sum(deltas) == 0
    # Remembered: the next game is dealt for four.
    again = run(["play", "--deal", "8", "--no-coach"], "q\n")
    assert "Across" in again.output
    back = run(["play", "--deal", "8", "--players", "3", "--auction", "bid", "--no-coach"], "q\n")
    assert "Across" not in back.output
