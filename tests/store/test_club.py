"""A club on both engines (SQLite file and a real PostgreSQL): learners apart, accounts, the teacher's summary,
games in progress that two workers can never double (issue 25)."""

from __future__ import annotations

import json
import threading
from datetime import date, timedelta
from typing import Any

import pytest

from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import ReviewBook
from tutor.store import GameBusyError, Store
from tutor.store.club import Club
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore, StoredMistake
from tutor.store.puzzles import PuzzleRows
from tutor.store.users import UserError

from tests.store.filling import fill as _fill
from tests.store.filling import finished as _finished


@pytest.fixture(autouse=True)
def _cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2id with small parameters (the same code path; the real cost is checked once, below)."""
    from argon2 import PasswordHasher

    monkeypatch.setattr("tutor.store.users._hasher", lambda: PasswordHasher(time_cost=1, memory_cost=256,
                                                                              parallelism=1))


def test_each_learner_reads_and_writes_only_their_own_rows(club: Club) -> None:
    anna, boris = club.users.add("anna", "password-a"), club.users.add("Boris", "password-b")
    with club.store_for(anna.id) as a, club.store_for(boris.id) as b:
        _fill(a, "a")
        assert GameStore(b).history() == [] and GameStore(b).unfinished() == [] and b.settings() == {}
        assert ProgressBook(b).all() == {} and ReviewBook(b).items() == [] and PuzzleRows(b).learner_rating() is None
        game_id = GameStore(a).history()[0].id
        assert game_id is not None and GameStore(b).get(game_id) is None and MistakeStore(b).for_game(game_id) == []
        with pytest.raises(GameBusyError):  # another learner's game in progress cannot be claimed either
            GameStore(b).claim(GameStore(a).unfinished()[0].id)
        _fill(b, "b")
        assert a.get_setting("lang") == "a" and b.get_setting("lang") == "b"
        assert list(ProgressBook(a).all()) == ["lesson-a"] and list(ProgressBook(b).all()) == ["lesson-b"]
        assert PuzzleRows(a).learner_rating() == (1601.123456789, 90.5, 0.06)  # doubles kept exactly on both engines
        assert GameStore(a).running_score() == 10 and len(GameStore(b).unfinished()) == 1
    summary = {s.name: s for s in club.class_summary()}
    assert set(summary) == {"anna", "Boris"}
    assert summary["anna"].lessons_done == 1 and summary["anna"].lesson_stars == 2
    assert summary["anna"].top_mistakes == [("code_a", 1)] and summary["anna"].puzzle_streak == 1
    assert summary["Boris"].games_by_level["easy"].games == 1 and summary["Boris"].games_by_level["easy"].score == 10
    assert summary["anna"].puzzle_rating == 1601.123456789 and summary["anna"].puzzle_attempts == 1
    from tutor.store.web_slots import web_slot

    with club.store_for(anna.id) as a, web_slot(a, "game") as slot:
        slot.save(b"open in a browser")
    club.users.remove("anna")  # all of anna's data goes with her account, in one transaction
    with club.store_for(anna.id) as a, club.store_for(boris.id) as b:
        assert GameStore(a).history() == [] and a.settings() == {} and PuzzleRows(a).learner_rating() is None
        with web_slot(a, "game") as slot:
            assert slot.data is None  # her browser's open activities went too
        assert GameStore(b).running_score() == 10
    assert [u.name for u in club.users.list()] == ["Boris"]


def test_accounts_sign_in_and_sessions(club: Club) -> None:
    users = club.users
    teacher = users.add("teacher", "long-enough", teacher=True)
    assert users.verify("teacher", "long-enough") == teacher and users.verify("TEACHER", "long-enough") == teacher
    assert users.verify("teacher", "wrong-password") is None and users.verify("nobody", "long-enough") is None
    for bad, words in (("", "cannot name"), ("a b", "cannot name"), ("_x", "cannot name"), ("x" * 33, "cannot name"),
                       ("Local", "reserved"), ("Teacher", "exists already")):
        with pytest.raises(UserError, match=words):
            users.add(bad, "long-enough")
    with pytest.raises(UserError, match="too short"):
        users.add("short", "1234567")
    assert users.get("local") is None and users.verify("local", "") is None  # the local learner cannot sign in
    token = users.create_session(teacher.id)
    assert users.user_for_session(token) == teacher and users.user_for_session(token + "x") is None
    with club.scratch() as store:  # only the token's hash is stored
        stored = [r[0] for r in store.db.execute("SELECT token_hash FROM sessions").fetchall()]
    assert token not in stored and len(stored) == 1
    users.end_session(token)
    assert users.user_for_session(token) is None
    expired = users.create_session(teacher.id, lifetime=timedelta(seconds=-1))
    assert users.user_for_session(expired) is None
    kept = users.create_session(teacher.id)
    users.set_password("teacher", "another-one")  # a new password ends every session
    assert users.user_for_session(kept) is None and users.verify("teacher", "another-one") == teacher


def test_assignments_reach_the_learner_or_the_whole_class(club: Club) -> None:
    users = club.users
    teacher = users.add("teacher", "long-enough", teacher=True)
    anna, boris = users.add("anna", "long-enough"), users.add("boris", "long-enough")
    users.assign(teacher.id, anna.id, "lesson", "first-deal")
    users.assign(teacher.id, None, "puzzle_theme", "rocket")
    assert [(a.kind, a.ref) for a in users.assignments_for(anna.id)] == [("puzzle_theme", "rocket"),
                                                                         ("lesson", "first-deal")]
    assert [a.ref for a in users.assignments_for(boris.id)] == ["rocket"]
    with pytest.raises(UserError, match="only a teacher"):
        users.assign(anna.id, boris.id, "lesson", "first-deal")
    with pytest.raises(UserError, match="not something to assign"):
        users.assign(teacher.id, anna.id, "game", "x")
    first = users.assignments_by(teacher.id)[-1]
    assert users.unassign(teacher.id, first.id) and not users.unassign(teacher.id, first.id)
    assert [a.ref for a in users.assignments_for(anna.id)] == ["rocket"]


def test_two_workers_on_one_game_never_double_a_move(club: Club) -> None:
    """Each worker reads the game, then saves its move: exactly one save per version wins, the stale one is refused."""
    learner = club.users.add("anna", "long-enough").id
    with club.store_for(learner) as store:
        first = GameStore(store)
        first.save_current({"moves": []})
        game_id, version = first.claimed, first.version
    assert game_id is not None and version == 0
    wins: list[str] = []
    refused: list[str] = []
    barrier = threading.Barrier(2)

    def worker(name: str) -> None:
        for _ in range(6):
            with club.store_for(learner) as store:
                games = GameStore(store)
                state = games.claim(game_id)
                assert state is not None
                barrier.wait()  # both have read the same version before either saves
                try:
                    games.save_current({"moves": [*state["moves"], name]})
                    wins.append(name)
                except GameBusyError:
                    refused.append(name)
                barrier.wait()

    threads = [threading.Thread(target=worker, args=(n,)) for n in ("w1", "w2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(wins) == 6 and len(refused) == 6  # one of each pair, every round
    with club.store_for(learner) as store:
        (game,) = GameStore(store).unfinished()
        assert game.version == 6 and game.state == {"moves": wins}  # every saved move once, none lost
        games = GameStore(store)
        games.claim(game_id)
        with pytest.raises(GameBusyError, match="moved on"):
            GameStore(store).claim(game_id, version=5)  # a page that saw version 5 is stale


def test_many_learners_writing_at_once_lose_nothing(club: Club) -> None:
    learners = [club.users.add(f"l{i}", "long-enough").id for i in range(6)]
    errors: list[BaseException] = []

    def play(learner: int) -> None:
        try:
            with club.store_for(learner) as store:
                games = GameStore(store)
                for deal in range(5):
                    games.save_current({"deal": deal})
                    games.finish(_finished(deal, delta=learner))
                ProgressBook(store).record("first-deal", 1, 0, 0)
                ProgressBook(store).record("first-deal", 3, 0, 0)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(learner,)) for learner in learners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    for learner in learners:
        with club.store_for(learner) as store:
            games = GameStore(store)
            assert games.running_score() == 5 * learner and games.unfinished() == []
            assert [g.deal for g in games.history()] == [4, 3, 2, 1, 0]
            progress = ProgressBook(store).get("first-deal")
            assert progress is not None and progress.stars == 3 and progress.completions == 2


_KILLED = """
import json, os, sys
from tutor.store.club import Club
from tutor.store.games import GameStore
club = Club.open(sys.argv[1])
store = club.store_for(int(sys.argv[2]))
games = GameStore(store)
games.claim(int(sys.argv[3]))
with store.transaction() as db:
    games.save_current({"moves": ["half"]})
    db.execute("INSERT INTO settings (learner, key, value) VALUES (?, 'half', '1')", (store.learner,))
    os.kill(os.getpid(), 9)
"""


def test_a_worker_killed_mid_transaction_leaves_nothing_half_written(club: Club, db_url: str) -> None:
    import signal
    import subprocess
    import sys

    learner = club.users.add("anna", "long-enough").id
    with club.store_for(learner) as store:
        games = GameStore(store)
        games.save_current({"moves": ["one"]})
        game_id = games.claimed
    proc = subprocess.run([sys.executable, "-c", _KILLED, db_url, str(learner), str(game_id)], timeout=120)
    assert proc.returncode == -signal.SIGKILL
    with club.store_for(learner) as store:
        (game,) = GameStore(store).unfinished()
        assert game.state == {"moves": ["one"]} and game.version == 0 and store.get_setting("half") is None
        games = GameStore(store)
        games.claim(game.id, version=0)
        games.save_current({"moves": ["one", "two"]})  # the game goes on from where it was
        assert games.version == 1


def test_passwords_are_argon2id_with_the_librarys_memory_hard_defaults(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Any) -> None:
    monkeypatch.undo()  # the real hasher
    with Club.open(str(tmp_path / "club.sqlite3")) as club:
        club.users.add("anna", "long-enough")
        with club.scratch() as store:
            stored = store.db.execute("SELECT password FROM users WHERE name = 'anna'").fetchone()[0]
        assert stored.startswith("$argon2id$") and "m=65536" in stored and "long-enough" not in stored
        assert club.users.verify("anna", "long-enough") is not None


def test_settings_are_json_per_learner(club: Club) -> None:
    with club.store_for(5) as store:
        store.set_setting("level", {"a": [1, 2.5, None]})
        store.set_setting("level", {"b": True})
        assert store.settings() == {"level": {"b": True}}
    with club.scratch() as store:
        assert store.get_setting("level") is None
    assert json.dumps(None) == "null"
