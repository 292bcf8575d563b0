"""Game identity (issue 16): one row per game in progress, owners, idempotent finishing, abandoning.

The two-window cases of the audit are replayed with two real processes on one
store: a lost game (P2 starting a game must not touch P1's) and a double count
(P2 resuming P1's game while P1 plays it) are both impossible.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.engine.game import Game
from tutor.store import GameBusyError, Store
from tutor.store.games import FinishedGame, GameStore, abandoned_result

HUGE = 2**64 + 5  # deal numbers are any non-negative integer (docs/rules.md §4)


def _state(deal: int, actions: list[object] | None = None) -> dict[str, object]:
    return {"version": 1, "record": {"deal_number": deal, "actions": actions or []}, "level": "easy",
            "scored": True, "hints": 0, "undos": 0}


def _finished(deal: int, delta: int = 20) -> FinishedGame:
    return FinishedGame(deal=deal, level="easy", role="farmer", won=delta > 0, bid=1, multiplier=1, cost=10,
                        delta=delta, scored=True, hints=0, undos=0, record={"deal_number": deal})


def test_each_game_in_progress_is_its_own_row_and_huge_deals_are_stored(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.open(path) as one, Store.open(path) as two:
        first, second = GameStore(one), GameStore(two)
        first.save_current(_state(21))
        second.save_current(_state(HUGE))
        assert [g.deal for g in first.unfinished()] == ["21", str(HUGE)]
        assert [g.busy for g in first.unfinished()] == [False, True]  # the second is open "in another window"
        game_id = second.finish(_finished(HUGE))
        assert second.get(game_id).deal == HUGE  # type: ignore[union-attr]
        assert [g.deal for g in first.unfinished()] == ["21"]
        assert first.load_current() == _state(21)


def test_a_game_open_in_another_window_cannot_be_claimed_until_it_is_let_go(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.open(path) as one, Store.open(path) as two:
        p1, p2 = GameStore(one), GameStore(two)
        p1.save_current(_state(31))
        game_id = p1.claimed
        assert game_id is not None
        with pytest.raises(GameBusyError, match="this game is open in another window"):
            p2.claim(game_id)
        with pytest.raises(GameBusyError):
            p2.abandon(game_id)
        p1.release()
        assert p2.claim(game_id) == _state(31)
        with pytest.raises(GameBusyError):
            p1.claim(game_id)


def test_finishing_is_idempotent_and_counts_once(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.db") as store:
        games = GameStore(store)
        games.save_current(_state(7))
        result = _finished(7)
        first = games.finish(result)
        assert games.finish(result) == first
        assert games.stats()["games"] == 1 and games.running_score() == 20 and games.unfinished() == []


def test_a_finished_or_abandoned_game_cannot_be_finished_again_from_a_stale_window(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.open(path) as one, Store.open(path) as two:
        p1, p2 = GameStore(one), GameStore(two)
        p1.save_current(_state(8))
        game_id = p1.claimed
        assert game_id is not None
        p1.release()
        p2.claim(game_id)
        p2.finish(_finished(8))
        with pytest.raises(GameBusyError, match="no longer unfinished"):
            p1.claim(game_id)
        assert p1.stats()["games"] == 1


def test_abandoning_scores_a_loss_at_the_stake_reached() -> None:
    game = Game(42)  # RULES §7: landlord loses twice the stake, a farmer once
    state = {"version": 1, "record": game.record().to_dict(), "level": "hard", "scored": True}
    bidding = abandoned_result(state)
    assert (bidding.role, bidding.bid, bidding.cost, bidding.delta, bidding.won) == ("farmer", 1, 10, -10, False)
    while game.to_move != 0:
        game.make_bid(0)
    game.make_bid(3)  # the learner bids 3: the landlord, at 30
    state["record"] = game.record().to_dict()
    landlord = abandoned_result(state)
    assert (landlord.role, landlord.bid, landlord.cost, landlord.delta) == ("landlord", 3, 30, -60)
    assert landlord.abandoned and landlord.deal == 42
    unreadable = abandoned_result({"record": {"deal_number": 5, "actions": "garbage"}})
    assert unreadable.abandoned and unreadable.delta == -10 and unreadable.deal == 5


def test_abandon_records_it_in_history(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.db") as store:
        games = GameStore(store)
        games.save_current(_state(42))
        game_id = games.claimed
        games.release()
        assert game_id is not None
        result = games.abandon(game_id)
        rows = games.history()
        assert len(rows) == 1 and rows[0].abandoned and rows[0].id == result.id and not rows[0].won
        assert games.running_score() == result.delta < 0 and games.unfinished() == []


def test_a_version_1_store_keeps_its_games_and_its_game_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('format', '1');
        CREATE TABLE schema_version (area TEXT PRIMARY KEY, version INTEGER NOT NULL);
        INSERT INTO schema_version VALUES ('games', 1);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, finished_at TEXT NOT NULL,
            deal INTEGER NOT NULL, level TEXT NOT NULL, role TEXT NOT NULL, won INTEGER NOT NULL,
            bid INTEGER NOT NULL, multiplier INTEGER NOT NULL, cost INTEGER NOT NULL, delta INTEGER NOT NULL,
            scored INTEGER NOT NULL, hints INTEGER NOT NULL DEFAULT 0, undos INTEGER NOT NULL DEFAULT 0,
            record TEXT NOT NULL);
        INSERT INTO games VALUES (1, 'x', 9223372036854775807, 'easy', 'farmer', 1, 1, 1, 10, 10, 1, 0, 0, '{}');
        CREATE TABLE current_game (slot INTEGER PRIMARY KEY CHECK (slot = 1), state TEXT NOT NULL);
        """
    )
    db.execute("INSERT INTO current_game VALUES (1, ?)", (json.dumps(_state(21)),))
    db.close()
    with Store.open(path) as store:
        games = GameStore(store)
        assert [g.deal for g in games.history()] == [2**63 - 1] and games.running_score() == 10
        # Migrated twice: its own row (v2), then its verdicts marked as not kept (v3, issue 13).
        upgraded = {**_state(21), "version": 2, "verdicts": [], "bid_verdicts": [], "open_facts": [], "judged_all": False}
        assert [(g.deal, g.state) for g in games.unfinished()] == [("21", upgraded)]


# ------------------------------------------------------------ two real processes
_WINDOW = textwrap.dedent(
    """
    import json, sys
    from tutor.store import Store, GameBusyError
    from tutor.store.games import FinishedGame, GameStore
    games = GameStore(Store.open(sys.argv[1]))
    for line in sys.stdin:
        command, _, arg = line.strip().partition(" ")
        try:
            if command == "start":
                games.save_current({"version": 1, "record": {"deal_number": int(arg), "actions": []}})
                print("ok", games.claimed, flush=True)
            elif command == "claim":
                games.claim(int(arg))
                print("ok", games.claimed, flush=True)
            elif command == "finish":
                deal = int(arg)
                print("ok", games.finish(FinishedGame(deal=deal, level="easy", role="farmer", won=True, bid=1,
                      multiplier=1, cost=10, delta=10, scored=True, hints=0, undos=0,
                      record={"deal_number": deal})), flush=True)
            elif command == "quit":
                games.release()
                print("ok", flush=True)
        except GameBusyError as error:
            print("busy", error, flush=True)
    """
)


class _Window:
    """One ``ddz``-like process driving the store API line by line."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WINDOW, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


def test_two_processes_can_neither_lose_nor_double_count_a_game(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    Store.open(path).close()
    p1, p2 = _Window(path), _Window(path)
    try:
        # Lost game (audit): P1 plays deal 21, P2 starts deal 22; both games stay, each in its own row.
        first = p1.ask("start 21")
        assert first.startswith("ok")
        game21 = int(first.split()[1])
        assert p2.ask("start 22").startswith("ok")
        # Double count (audit): P2 resuming P1's game while P1 plays it is refused in one line.
        assert p2.ask(f"claim {game21}") == "busy this game is open in another window"
        assert p1.ask("finish 21").startswith("ok") and p2.ask("finish 22").startswith("ok")
        assert p2.ask(f"claim {game21}").startswith("busy")
    finally:
        p1.close()
        p2.close()
    with Store.open(path) as store:
        games = GameStore(store)
        assert sorted(g.deal for g in games.history()) == [21, 22] and games.unfinished() == []
        assert games.stats()["games"] == 2 and games.running_score() == 20


def test_a_killed_window_lets_its_game_go_at_once(tmp_path: Path) -> None:
    path = tmp_path / "kill.db"
    Store.open(path).close()
    p1 = _Window(path)
    try:
        game = int(p1.ask("start 5").split()[1])
        with Store.open(path) as store:
            games = GameStore(store)
            with pytest.raises(GameBusyError):
                games.claim(game)
            os.kill(p1.proc.pid, signal.SIGKILL)
            p1.proc.wait(timeout=60)
            assert games.claim(game) is not None  # no stale "open in another window"
            games.finish(_finished(5))
            assert games.stats()["games"] == 1
    finally:
        p1.close()
