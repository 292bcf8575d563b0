"""``ddz play``, quit, ``ddz play --resume``: the coach's verdicts from before the quit come back as stored.

The coach judges with a small budget here (the same logic, a cheaper test), and the scan of the finished game for
personal puzzles runs on its small budget (tests/conftest.py's ``small_scan``: the puzzles' own tests keep the real one);
the learner's moves come from playing the same deal through the session API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import small_scan
from tests.sessions.test_saved_verdicts import DEAL, SAVE_AFTER, count_evaluations, learner_move, review, small_coach
from tutor.cli.main import main
from tutor.engine.rules import STANDARD
from tutor.i18n import speaking
from tutor.sessions.game import GameSession, Waiting
from tutor.store import Store
from tutor.store.games import GameStore


def _script() -> tuple[list[str], list[str], GameSession, list[Any]]:
    """The learner's input lines up to the save and after it, and the same game played straight through."""
    session = GameSession.new(DEAL, level="easy", rules=STANDARD)
    events = session.start()
    before: list[str] = []
    after: list[str] = []
    decisions = 0
    while not session.is_over:
        lines = before if decisions < SAVE_AFTER else after
        if session.waiting_for is Waiting.BID:
            amount = max(session.legal_bids)
            lines.append(str(amount) if amount else "pass")
            events += session.bid(amount)
            continue
        move = learner_move(session)
        lines += ["pass"] if move is None else [move.text, ""]
        events += session.play(move)
        decisions += 1
    return before, after, session, events


def test_quit_and_resume_in_the_terminal_keeps_the_verdicts_and_judges_only_new_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_coach(monkeypatch)
    small_scan(monkeypatch)  # the personal-puzzle scan after the game on its small budget (on the real one: 9 of 12 s CPU)
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    before, after, straight, straight_events = _script()
    evaluated = count_evaluations(monkeypatch)
    first = CliRunner().invoke(main, ["play", "--deal", str(DEAL), "--level", "easy", "--lang", "en"],
                               input="\n".join([*before, "quit", ""]))  # fmt: skip
    assert first.exit_code == 0, first.output
    with Store.open(tmp_path / "ddz" / "ddz.sqlite3") as store:
        (saved,) = GameStore(store).unfinished()
    assert saved.state is not None
    stored_verdicts = [v for v in straight.coach.verdicts if v[1] <= SAVE_AFTER]
    assert saved.state["verdicts"] == json.loads(json.dumps([[i, n, v.to_data()] for i, n, v in stored_verdicts]))
    assert saved.state["bid_verdicts"] == [[i, v.to_data()] for i, v in straight.coach.bid_verdicts] != []
    judged_before = set(evaluated)

    evaluated.clear()
    second = CliRunner().invoke(main, ["play", "--resume"], input="\n".join([*after, "quit", ""]))
    assert second.exit_code == 0, second.output
    assert evaluated and not set(evaluated) & judged_before  # nothing from before the quit is judged again
    with speaking("en"):
        lines = [f"• {phrase.render()}" for phrase in review(straight_events)]
    shown = " ".join(second.output.split("\nReview\n", 1)[1].split())  # the terminal wraps long lines
    assert shown.startswith(" ".join(" ".join(lines).split()))
    assert any(f"move {n}" in line.lower() for line in lines for _, n, v in stored_verdicts if v.flagged)

    # Learn from your mistakes: stored at the end of the resumed game, listed without judging anything.
    evaluated.clear()
    with Store.open(tmp_path / "ddz" / "ddz.sqlite3") as store:
        (finished,) = GameStore(store).history()
    listed = CliRunner().invoke(main, ["mistakes", str(finished.id), "--json"])
    assert listed.exit_code == 0 and evaluated == []
    flagged = [(n, "pass" if v.move is None else v.move.text) for _, n, v in straight.coach.verdicts if v.flagged]
    assert sorted((r["move_number"], r["move"]) for r in json.loads(listed.stdout)) == sorted(flagged)
