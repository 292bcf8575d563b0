"""`ddz play` end to end: whole games with scripted input, resume, undo, the store, languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor.cli.main import main
from tutor.i18n import set_language
from tutor.store import Store
from tutor.store.games import GameStore

#: Enough "hint, then Enter" pairs to finish any game by following the coach's hints.
FOLLOW_HINTS = "hint\n\n" * 45


#: Tests of what the coach says or suggests: the real budget.  The others test the flow around it on a
#: small one (tests/conftest.py's small_coach).
REAL_COACH = {"test_the_coach_judges_from_the_view_and_hints_explain", "test_enter_at_the_bid_prompt_takes_the_suggested_bid",
              "test_hint_again_gives_the_next_suggestion"}


@pytest.fixture(autouse=True)
def _coach_budget(request: pytest.FixtureRequest) -> None:
    if request.node.originalname not in REAL_COACH:
        request.getfixturevalue("small_coach")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield tmp_path / "ddz"
    set_language("en")


def run(args: list[str], text: str = "") -> Result:
    result = CliRunner().invoke(main, args, input=text, catch_exceptions=False)
    return result


def stored_games(home: Path) -> GameStore:
    return GameStore(Store.open(home / "ddz.sqlite3"))


def test_a_whole_game_through_the_cli_with_typed_cards_and_the_final_card(home: Path) -> None:
    # Deal 42: Right bids 2 and leads the straight 345678; we are a farmer.
    script = "pass\n" + "34\n" + "666\n" + "3\n" + "pass\n" + FOLLOW_HINTS + "q\n"
    result = run(["play", "--deal", "42", "--level", "medium"], script)
    out = result.output
    assert result.exit_code == 0, out
    # Bidding status line (RULES §9) and the table.
    assert "High cards: 1 · bombs: 1 · moves to finish: ~" in out
    assert "Game: 10 × bid 2 × 1 = 20" in out
    assert "LANDLORD" in out and "Kitty: [5][6][7]" in out
    assert "[3] [4][4][4] [6][6] [7] [8][8] [J] [Q] [K][K][K][K] [A] [2]" in out
    # The play status line says why not, before anything is committed.
    assert "34 is not a combination" in out
    assert "You do not hold 666" in out
    assert "does not beat straight of 6 345678" in out or "Wrong size" in out
    # The final card: winner, multipliers, all three score changes, hands, kitty, deal, hints/undos.
    assert "The landlord (Right) wins alone." in out or "The farmers (You and Left) win together." in out
    assert "Multipliers: bid 2" in out
    assert "Score: You " in out and " · Right " in out and " · Left " in out
    assert "Left in hand:" in out and "Deal 42 · hints " in out and "undos 0" in out
    assert "Review" in out and "[a] play this deal again (scored 0)" in out
    games = stored_games(home)
    finished = games.history()
    assert len(finished) == 1 and finished[0].deal == 42 and finished[0].scored
    assert games.running_score() == finished[0].delta != 0
    assert games.load_current() is None


# "The same script gives the same game" (deal 7, easy, following the hints, played twice) is
# tests/cli/test_under_load.py's first test, which plays it with every core busy.


def test_typed_cards_are_confirmed_with_enter_and_several_readings_are_chosen(home: Path) -> None:
    # Deal 42, we bid 3 and lead: 444 + 3 can be played as trio + 1.
    script = "3\n" + "4443\n" + "\n" + FOLLOW_HINTS + "q\n"
    out = run(["play", "--deal", "42"], script).output
    assert "You are the landlord with a bid of 3 and take the kitty 567." in out
    assert "Trio + 1 · can be played" in out
    assert "You: [3][4][4][4] Trio + 1" in out


def test_play_this_deal_again_is_scored_zero(home: Path) -> None:
    script = "pass\n" + FOLLOW_HINTS + "a\n" + "pass\n" + FOLLOW_HINTS + "q\n"
    out = run(["play", "--deal", "42"], script).output
    assert "(a replayed deal: scored 0)" in out
    assert "replay, not scored" in out
    games = stored_games(home)
    rows = games.history()
    assert [g.scored for g in rows] == [False, True]
    assert games.running_score() == rows[1].delta


def test_quit_then_resume_finishes_the_same_game(home: Path) -> None:
    out = run(["play", "--deal", "42"], "pass\nquit\n").output
    assert "Game saved. Continue with: ddz play --resume" in out
    assert stored_games(home).load_current() is not None
    out = run(["play", "--resume"], FOLLOW_HINTS + "q\n").output
    assert "Resuming the game of deal 42." in out
    assert "Deal 42 · hints " in out
    games = stored_games(home)
    assert len(games.history()) == 1 and games.load_current() is None


def test_end_of_input_saves_the_game_like_quit(home: Path) -> None:
    out = run(["play", "--deal", "42"], "pass\n").output
    assert "Game saved." in out
    out = run(["play"], "y\n" + FOLLOW_HINTS + "q\n").output  # asked whether to resume
    assert "unfinished game (deal 42)" in out and "Resuming the game of deal 42." in out


def test_undo_goes_back_to_your_previous_decision_and_is_counted(home: Path) -> None:
    # Bid 3 (landlord), lead 4443, then undo: back to the lead, same hand.
    script = "3\n4443\n\nundo\n" + FOLLOW_HINTS + "q\n"
    out = run(["play", "--deal", "42"], script).output
    assert "Undone: back to your previous decision." in out
    assert "undos 1" in out


def test_undo_with_nothing_to_undo(home: Path) -> None:
    out = run(["play", "--deal", "42"], "undo\nquit\n").output
    assert "Nothing to undo yet." in out


def test_counter_toggles_the_line_of_unseen_cards(home: Path) -> None:
    out = run(["play", "--deal", "42"], "counter\nquit\n").output
    assert "Card counter on." in out
    assert "Not seen: D:1 X:1 2:3 A:3 K:0" in out  # our hand holds KKKK, one A, one 2
    with Store.open(home / "ddz.sqlite3") as store:
        assert store.get_setting("counter") is True


def test_hint_again_gives_the_next_suggestion(home: Path) -> None:
    out = run(["play", "--deal", "42"], "3\nhint\nhint\nhint\nquit\n").output
    assert "Hint 1: " in out and "Hint 2: " in out and "Hint 3: " in out


def test_help_lists_the_commands(home: Path) -> None:
    out = run(["play", "--deal", "42"], "help\nquit\n").output
    for word in ("pass", "hint", "undo", "counter", "quit", "10 or T"):
        assert word in out


def test_bidding_refuses_a_bid_that_is_not_higher(home: Path) -> None:
    out = run(["play", "--deal", "42"], "1\nquit\n").output  # Right already bid 2
    assert "Not a bid you can make now: '1'" in out


def test_russian_table_and_status_line(home: Path) -> None:
    out = run(["play", "--deal", "42", "--lang", "ru"], "3\n4443\nquit\n").output
    assert "Старших карт: 1 · бомб: 1 · ходов до конца: ~" in out
    assert "Тройка + 1 · можно ходить" in out
    assert "Партия: 10 × ставка" in out
    with Store.open(home / "ddz.sqlite3") as store:
        assert store.get_setting("lang") == "ru"


def test_a_damaged_store_is_one_line_not_a_traceback(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "ddz.sqlite3").write_bytes(b"garbage" * 1000)
    result = CliRunner().invoke(main, ["play", "--deal", "1"], input="quit\n")
    assert result.exit_code == 2
    assert "damaged" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_stats_history_and_replay_after_a_game(home: Path) -> None:
    run(["play", "--deal", "42"], "pass\n" + FOLLOW_HINTS + "q\n")
    stats = json.loads(run(["stats", "--json"]).output)
    assert stats["games"] == 1 and stats["by_role"]["farmer"]["games"] == 1
    assert stats["by_level"]["medium"]["games"] == 1
    history = json.loads(run(["history", "--json"]).output)
    assert history[0]["deal"] == 42 and history[0]["delta"] == stats["score"]
    text = run(["stats"]).output
    assert "Running score:" in text and "As farmer: 1 game," in text
    table = run(["history"]).output
    assert "42" in table and "medium" in table
    # At 40 columns the table cut every cell («Разд…», «сред…») and left the id no room: one game a line instead.
    narrow = CliRunner().invoke(main, ["history", "--lang", "ru"], env={"COLUMNS": "40"}).output
    assert all(len(line) <= 40 for line in narrow.splitlines()) and "…" not in narrow, narrow
    assert f"#{history[0]['id']} · " in narrow and "раздача 42 · средний · крестьянин" in " ".join(narrow.split()), narrow
    replay = run(["replay", str(history[0]["id"]), "--all"]).output
    assert "Deal 42: the hands as dealt" in replay and "End of the game." in replay
    assert "Right: bid 2" in replay
    stepped = run(["replay", str(history[0]["id"])], "\n\nb\nq\n").output
    assert "Step 2 of" in stepped and "End of the game." not in stepped
    missing = CliRunner().invoke(main, ["replay", "999"])
    assert missing.exit_code == 2 and "No finished game with id 999" in missing.output


def test_the_coach_judges_from_the_view_and_hints_explain(home: Path) -> None:
    # Deal 42: Right (landlord) leads 345678, we pass; Right 8, Left (partner) 9; we beat with J.
    # The landlord plays after us, so beating the partner is no beginner's mistake here
    # (RULES §11's exception).  The first hint (a single above the 9: Q and A are within a point of
    # each other, so which one ranks first is the coach's noise, not the point) is shown with its figures.
    import re

    script = "pass\npass\nhint\nJ\n\nquit\n"
    out = run(["play", "--deal", "42"], script).output
    assert re.search(r"Hint 1: [TJQKA2] — wins \d+% \(±\d+%\)", out), out
    assert "was winning that trick" not in out
    quiet = run(["play", "--deal", "42", "--no-coach"], script).output
    assert "Coach:" not in quiet


@pytest.mark.parametrize("deal_number", [7, 11, 42])
def test_enter_at_the_bid_prompt_takes_the_suggested_bid(deal_number: int) -> None:
    """Enter bids what the bidding status line suggests (the best bid by expected score)."""
    import re

    result = run(["play", "--deal", str(deal_number), "--level", "medium"], "\nquit\n")
    suggested = re.search(r"moves to finish: ~\d+ → (pass|bid (\d)): expected score", result.output)
    assert suggested is not None, result.output
    shown = re.search(r"You: (pass|bid (\d))", result.output)
    assert shown is not None, result.output
    assert shown.group(1) == suggested.group(1)


def test_a_new_deal_asks_before_replacing_a_game_in_progress(home: Path) -> None:
    run(["play", "--deal", "42", "--level", "medium"], "pass\nquit\n")
    # Declining offers resume / abandon / cancel; cancel changes nothing and plays nothing.
    cancelled = run(["play", "--deal", "7", "--level", "medium"], "n\nc\n")
    assert "unfinished game (deal 42)" in cancelled.output and "Deal 7" not in cancelled.output
    assert "stays saved" in cancelled.output
    games = stored_games(home)
    assert games.history() == [] and [g.deal for g in games.unfinished()] == ["42"]
    # Abandoning records the game as a loss at its stake (farmer, bid 2: -20), then deal 7 starts.
    asked = run(["play", "--deal", "7", "--level", "medium"], "n\na\nquit\n")
    assert "recorded in your history as a loss (-20)" in asked.output
    assert "Deal 7" in asked.output
    rows = games.history()
    assert len(rows) == 1 and rows[0].abandoned and rows[0].deal == 42 and not rows[0].won
    assert rows[0].delta == -20 and games.running_score() == -20 and games.stats()["abandoned"] == 1
    assert "Abandoned: 1" in run(["stats"]).output and "abandoned" in run(["history"]).output
    kept = run(["play", "--deal", "11", "--level", "medium"], "y\nquit\n")
    assert "unfinished game (deal 7)" in kept.output
    assert "Deal 7" in kept.output and "Deal 11" not in kept.output


def test_learn_from_your_mistakes_from_the_final_card(home: Path) -> None:
    # Following the coach's hints: its own suggestions are not mistakes, so nothing to replay.
    out = " ".join(run(["play", "--deal", "7", "--level", "easy"], "pass\n" + FOLLOW_HINTS + "m\nq\n").output.split())
    assert "[m] learn from your mistakes" in out
    assert "Looking at your moves from your seat" in out and "nothing to replay" in out
    games = stored_games(home)
    from tutor.store.mistakes import MistakeStore

    assert MistakeStore(games.store).analysed(games.history()[0].id or 0)
