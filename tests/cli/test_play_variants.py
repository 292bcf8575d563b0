"""`ddz play --auction rob --open-hand` end to end (RULES §12.1, §12.2): the words, the store, history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor.cli.main import main
from tutor.i18n import set_language
from tutor.store import Store
from tutor.store.games import GameStore

FOLLOW_HINTS = "hint\n\n" * 45


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_coach: None) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    yield tmp_path / "ddz"
    set_language("en")


def run(args: list[str], text: str = "") -> Result:
    return CliRunner().invoke(main, args, input=text, catch_exceptions=False)


def test_rule_12_1_a_whole_rob_game_in_the_terminal_is_stored_with_its_rules_and_factors(home: Path) -> None:
    # Deal 42: Right speaks first and calls; Left passes; we rob (×2); Right may rob back.
    result = run(["play", "--deal", "42", "--level", "medium", "--auction", "rob", "--no-coach"],
                 "call\nrob\n" + FOLLOW_HINTS + "q\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Right: call" in out and "Your call (pass / rob; Enter = " in out
    assert "Not a bid you can make now: 'call'" in out  # a call after a call is refused, with the choices
    assert "You: rob" in out
    assert "robs: 1, ×2" in out or "robs: 2, ×4" in out  # the live game cell shows the robs
    assert "Rules: rob the landlord" in out  # the final card says what the game was played under
    rows = json.loads(run(["history", "--json"]).output)
    assert rows[0]["rules"]["auction"] == "rob"
    assert rows[0]["multipliers"][0] == "rob" and "bid" not in rows[0]["multipliers"]
    # ddz analyze reads the rob game: our first word (the rob) judged in the words of that auction.
    judged = json.loads(run(["analyze", str(rows[0]["id"]), "--at", "0", "--json"]).output)
    assert judged["move"]["move"] == "rob" and {c["move"] for c in judged["candidates"]} == {"pass", "rob"}
    # The choice is remembered: the next game is a rob game too.
    again = run(["play", "--deal", "43", "--no-coach"], "q\n")
    assert "Your call (pass / call; Enter = " in again.output or ": call" in again.output


def test_rule_12_2_the_open_hand_in_the_terminal_in_russian(home: Path) -> None:
    # Deal 42 with the classic auction: we bid 3 and become the landlord, then show the hand.
    result = run(["play", "--deal", "42", "--level", "easy", "--open-hand", "--no-coach", "--lang", "ru"],
                 "3\nоткрыть\nоткрыть\n" + FOLLOW_HINTS + "q\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "До первого хода можно открыть руку" in out
    assert "Вы открыли руку: ×2." in out
    assert "Открыть руку может только помещик и только до первого хода." in out  # the second time
    assert "открытые карты ×2" in out  # the final card's factors
    rows = json.loads(run(["history", "--json"]).output)
    assert rows[0]["rules"]["open_hand"] == "after_kitty" and "open" in rows[0]["multipliers"]
    # ddz analyze GAME_ID --at -2: showing the hand judged by expected score (RULES §12.2).
    shown = json.loads(run(["analyze", str(rows[0]["id"]), "--at", "-2", "--json"]).output)
    assert shown["move"]["move"] == "open" and {c["move"] for c in shown["candidates"]} == {"open", "closed"}
    refused = CliRunner().invoke(main, ["analyze", str(rows[0]["id"]), "--at", "-1"])
    assert refused.exit_code == 2 and "no word -1" in refused.output
    assert rows[0]["cost"] == 10 * 3 * rows[0]["multiplier"] and rows[0]["multiplier"] % 2 == 0


def test_rule_12_a_classic_game_is_stored_as_classic(home: Path) -> None:
    run(["play", "--deal", "42", "--no-coach"], "pass\n" + FOLLOW_HINTS + "q\n")
    rows = json.loads(run(["history", "--json"]).output)
    assert "auction" not in rows[0]["rules"] and rows[0]["rules"]["bids"] == [1, 2, 3]
    assert all(f in ("bomb", "rocket", "spring", "anti-spring") for f in rows[0]["multipliers"])
    games = GameStore(Store.open(home / "ddz.sqlite3"))
    assert games.history()[0].rules == rows[0]["rules"]


def test_rule_12_3_a_wildcard_game_in_the_terminal_is_remembered_and_stored_with_its_wild_rank(home: Path) -> None:
    from tutor.engine.deal import deal
    from tutor.engine.rules import WILD

    result = run(["play", "--deal", "42", "--level", "easy", "--wildcard", "--no-coach"],
                 "pass\n" + FOLLOW_HINTS + "q\n")
    out = result.output
    rank = "3456789TJQKA2"[deal(42, WILD).wild_rank]
    assert result.exit_code == 0, out
    assert f"Wild rank: [{rank}]" in out  # the table shows it from the start (RULES §12.3)
    assert f"wildcard (wild rank {rank})" in out  # the final card's rules line
    rows = json.loads(run(["history", "--json"]).output)
    assert rows[0]["rules"]["wild"] == "random_rank" and rows[0]["rules"]["wild_rank"] == deal(42, WILD).wild_rank
    again = run(["play", "--deal", "7", "--no-coach"], "q\n")  # remembered, like --auction
    assert "Wild rank: [" in again.output
    assert "Wild rank" not in run(["play", "--deal", "7", "--no-wildcard", "--no-coach"], "q\n").output
