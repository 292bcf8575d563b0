"""``ddz play`` with unfinished games: several listed, another window's game refused, abandon / cancel."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor.cli.main import main
from tutor.i18n import set_language
from tutor.store import Store
from tutor.store.games import GameStore


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    yield tmp_path / "ddz"
    set_language("en")


def run(args: list[str], text: str = "") -> Result:
    return CliRunner().invoke(main, args, input=text)


def games_in(home: Path) -> GameStore:
    return GameStore(Store.open(home / "ddz.sqlite3"))


_HOLD = textwrap.dedent(
    """
    import sys
    from tutor.store import Store
    from tutor.store.games import GameStore
    games = GameStore(Store.open(sys.argv[1]))
    games.claim(int(sys.argv[2]))
    print("holding", flush=True)
    sys.stdin.read()
    """
)


def test_a_game_open_in_another_window_is_refused_in_one_line_and_never_touched(home: Path) -> None:
    run(["play", "--deal", "21", "--level", "easy"], "pass\nquit\n")
    window = subprocess.Popen([sys.executable, "-c", _HOLD, str(home / "ddz.sqlite3"), "1"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert window.stdout is not None and window.stdout.readline().strip() == "holding"
        refused = run(["play", "--resume"])
        assert refused.exit_code == 2
        assert refused.output.strip() == "error: this game is open in another window"
        # A new game in this window does not ask about (or touch) the other window's game.
        other = run(["play", "--deal", "22", "--level", "easy"], "quit\n")
        assert other.exit_code == 0 and "unfinished" not in other.output and "Deal 22" in other.output
    finally:
        assert window.stdin is not None
        window.stdin.close()
        window.wait(timeout=60)
    games = games_in(home)
    assert sorted(g.deal for g in games.unfinished()) == ["21", "22"] and games.history() == []


def test_several_unfinished_games_are_listed_and_each_can_be_resumed_or_abandoned(home: Path) -> None:
    run(["play", "--deal", "42", "--level", "medium"], "pass\nquit\n")
    window = subprocess.Popen([sys.executable, "-c", _HOLD, str(home / "ddz.sqlite3"), "1"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert window.stdout is not None and window.stdout.readline().strip() == "holding"
    run(["play", "--deal", "7", "--level", "medium"], "pass\nquit\n")
    assert window.stdin is not None
    window.stdin.close()
    window.wait(timeout=60)
    # Both are free now: listed, with what abandoning each would score.
    listed = run(["play", "--resume"], "n\nc\n")
    assert "You have 2 unfinished games:" in listed.output
    assert "1. deal 42" in listed.output and "2. deal 7" in listed.output and "abandoning it scores -20" in listed.output
    assert "stays saved" in listed.output and len(games_in(home).unfinished()) == 2
    # Abandon the first, then resume the one left.
    chosen = run(["play"], "n\na 1\ny\nquit\n")
    assert "The game of deal 42 is abandoned" in chosen.output
    assert "Resuming the game of deal 7." in chosen.output
    games = games_in(home)
    assert [(g.deal, g.abandoned, g.delta) for g in games.history()] == [(42, True, -20)]
    assert [g.deal for g in games.unfinished()] == ["7"]
    picked = run(["play", "--resume"], "quit\n")
    assert "Resuming the game of deal 7." in picked.output


def test_a_saved_game_that_cannot_be_read_can_still_be_abandoned(home: Path) -> None:
    run(["play", "--deal", "42", "--level", "medium"], "pass\nquit\n")
    with Store.open(home / "ddz.sqlite3") as store, store.transaction() as db:
        db.execute("UPDATE open_games SET state = json_set(state, '$.record.actions', 'garbage')")
    out = run(["play", "--deal", "5"], "a\nquit\n")
    assert out.exit_code == 0, out.output
    assert "cannot be resumed" in out.output and "The game of deal 42 is abandoned" in out.output
    assert "Deal 5" in out.output
    assert [g.abandoned for g in games_in(home).history()] == [True]


def test_the_largest_deal_numbers_are_played_and_recorded(home: Path, small_coach: None) -> None:
    deal = 2**64 - 1  # the largest --deal (RULES §2 seeds mod 2**64); 2**63 and up once broke the store
    result = run(["play", "--deal", str(deal), "--level", "easy"], "pass\n" + "hint\n\n" * 45 + "q\n")
    assert result.exit_code == 0, result.output
    rows = games_in(home).history()
    assert [g.deal for g in rows] in ([deal], [deal + 1], [deal + 2])  # all passing redeals deal + 1
    shown = run(["replay", str(rows[0].id), "--all"])
    assert shown.exit_code == 0, shown.output
    for args in (["replay", str(2**63)], ["play", "--deal", str(2**64)]):
        refused = run(args)
        assert refused.exit_code == 2 and refused.output.count("\n") == 1, refused.output
