"""The games area: running score, game in progress, finished games, stats."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore


def _game(**changes: object) -> FinishedGame:
    base = dict(
        deal=7, level="medium", role="landlord", won=True, bid=2, multiplier=2, cost=40,
        delta=80, scored=True, hints=1, undos=0, record={"deal": 7, "actions": []},
    )
    base.update(changes)
    return FinishedGame(**base)  # type: ignore[arg-type]


def test_running_score_survives_restarts(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store.open(path) as store:
        games = GameStore(store)
        games.finish(_game())
        games.finish(_game(role="farmer", won=False, delta=-40))
    with Store.open(path) as store:
        assert GameStore(store).running_score() == 40


def test_rule_7_replayed_deal_scores_zero(tmp_path: Path) -> None:
    with Store.open(tmp_path / "r.db") as store:
        games = GameStore(store)
        gid = games.finish(_game(scored=False, delta=80))
        assert games.running_score() == 0
        assert games.get(gid).delta == 0  # type: ignore[union-attr]


def test_finishing_a_game_clears_the_game_in_progress_atomically(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        games = GameStore(store)
        games.save_current({"deal": 7, "actions": [["bid", 0, 1]]})
        assert games.load_current() == {"deal": 7, "actions": [["bid", 0, 1]]}
        gid = games.finish(_game())
        assert games.load_current() is None
        again = games.get(gid)
        assert again is not None and again.record == {"deal": 7, "actions": []} and again.id == gid


def test_history_is_newest_first_and_stats_count_by_role_and_level(tmp_path: Path) -> None:
    with Store.open(tmp_path / "h.db") as store:
        games = GameStore(store)
        games.finish(_game(level="easy"))
        games.finish(_game(level="hard", role="farmer", won=False, delta=-20))
        games.finish(_game(level="hard", role="farmer", won=True, delta=20))
        assert [g.level for g in games.history()] == ["hard", "hard", "easy"]
        stats = games.stats()
        assert stats["score"] == 80 and stats["games"] == 3 and stats["wins"] == 2
        assert stats["by_role"] == {"farmer": {"games": 2, "wins": 1}, "landlord": {"games": 1, "wins": 1}}
        assert stats["by_level"]["hard"] == {"games": 2, "wins": 1}


_KILL_WHILE_FINISHING = textwrap.dedent(
    """
    import os, sys
    from tutor.store import Store
    from tutor.store.games import GameStore
    store = Store.open(sys.argv[1])
    games = GameStore(store)
    with store.transaction() as db:
        db.execute("INSERT INTO games (learner, finished_at, deal, level, role, won, bid, multiplier, cost, delta,"
                   " scored, hints, undos, record, game_key)"
                   " VALUES (1, 'x', 1, 'easy', 'farmer', 1, 1, 1, 10, 10, 1, 0, 0, '{}', 'k')")
        db.execute("DELETE FROM open_games")
        os.kill(os.getpid(), 9)
    """
)


def test_a_kill_while_finishing_keeps_the_game_in_progress_and_the_score(tmp_path: Path) -> None:
    path = tmp_path / "kill.db"
    with Store.open(path) as store:
        games = GameStore(store)
        games.finish(_game())
        games.save_current({"deal": 8})
    proc = subprocess.run([sys.executable, "-c", _KILL_WHILE_FINISHING, str(path)], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    with Store.open(path) as store:
        games = GameStore(store)
        assert games.running_score() == 80
        assert games.load_current() == {"deal": 8}
