"""The scan of a finished game for personal puzzles runs in the background of the session (issue 30)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.puzzles.test_personal import _beginner_game, _finish
from tutor.puzzles import personal
from tutor.puzzles.progress import PuzzleProgress
from tutor.sessions import scans
from tutor.store import Store


REAL_SCAN = personal.scan


def _held_scans(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Background scans wait for the event before they start (a scan still running, without a clock)."""
    release = threading.Event()

    def slow_scan(store: Store, game: int | None = None, *args: Any, **kwargs: Any) -> int:
        assert release.wait(60)
        return REAL_SCAN(store, game, *args, **kwargs)

    monkeypatch.setattr(personal, "scan", slow_scan)
    return release


def test_a_finished_game_is_scanned_in_the_background_and_its_puzzle_kept(tmp_path: Path) -> None:
    path = str(tmp_path / "ddz.sqlite3")
    with Store.open(path) as store:
        game_id = _finish(store, "5")  # a single led into the one-card landlord: a missed proven win
    scans.start(path, game_id)
    assert scans.wait(path, game_id, timeout=120)
    assert scans.result(path, game_id) == 1 and game_id not in scans.pending(path)
    with Store.open(path) as store:
        (puzzle,) = PuzzleProgress(store).personal()
        assert puzzle.source.describe() == f"game {game_id}, turn 1"
        assert personal.scan(store) == 0  # scanned once: nothing left to look at


def test_starting_a_scan_never_waits_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next action is not held up: start() returns while the scan is still running, and the
    library skips the game being scanned instead of scanning it a second time."""
    path = str(tmp_path / "ddz.sqlite3")
    with Store.open(path) as store:
        game_id = _finish(store, "5")
    release = _held_scans(monkeypatch)
    scans.start(path, game_id)
    assert scans.pending(path) == {game_id} and scans.result(path, game_id) is None
    assert not scans.wait(path, game_id, timeout=0.01)
    with Store.open(path) as store:
        assert REAL_SCAN(store, skip=scans.pending(path)) == 0  # the library: the game is being scanned
        assert not PuzzleProgress(store).scanned(game_id)
    release.set()
    assert scans.wait(path, game_id, timeout=120) and scans.result(path, game_id) == 1


def test_the_session_hands_its_finished_game_to_the_background_scan(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[str, int]] = []
    monkeypatch.setattr(scans, "start", lambda path, game: started.append((path, game)))
    path = str(tmp_path / "ddz.sqlite3")
    with Store.open(path) as store:
        ids = [_beginner_game(store, 4, "easy", scan_after) for scan_after in (False, True)]
    assert started == [(path, ids[1])]  # only when asked (the front ends of one learner ask)


def test_ddz_play_says_what_the_scan_found_once_it_is_done(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """While the background scan runs, the terminal says nothing yet (it asks again later); once done, it
    names the missed win."""
    from rich.console import Console

    from tutor.cli.puzzle import mention_personal

    path = str(tmp_path / "ddz.sqlite3")
    with Store.open(path) as store:
        game_id = _finish(store, "5")
    release = _held_scans(monkeypatch)
    scans.start(path, game_id)
    console = Console(record=True, width=200)
    with Store.open(path) as store:
        assert mention_personal(console, store, game_id, wait=False) is False
        assert console.export_text() == ""
        release.set()
        assert mention_personal(console, store, game_id, wait=True) is True
    assert "missed" in console.export_text()
