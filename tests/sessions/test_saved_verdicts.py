"""Verdicts are saved with a game in progress: a resumed game judges nothing twice (issue 13).

The same game is played twice with the same moves — once straight through,
once saved and resumed in a new session object over a new store connection —
and everything the coach said must be identical, while the resumed run never
evaluates a decision made before the save.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import tutor.sessions.game as game_module
from tutor.coach import Coach
from tutor.coach import bidding as bidding_module
from tutor.coach import evaluation as evaluation_module
from tutor.coach.bidding import BidBudget
from tutor.coach.evaluation import Budget, view_seed
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD
from tutor.sessions.events import Review
from tutor.sessions.game import GameSession, Waiting
from tutor.sessions.mistakes import MistakesSession
from tutor.store import Store
from tutor.store.games import GameStore
from tutor.store.mistakes import MistakeStore

#: Deal 10 with this learner: 7 decisions, blunders at decisions 3 and 6 (found by playing it).
DEAL = 10
SAVE_AFTER = 4
SMALL = Budget(samples=6, width=2)
SMALL_BIDS = BidBudget(samples=4)


def small_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every coach the sessions build judges with a small budget (a cheaper test, the same logic)."""
    monkeypatch.setattr(game_module, "Coach", partial(Coach, budget=SMALL, bid_budget=SMALL_BIDS))


@pytest.fixture(autouse=True)
def _small_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    small_coach(monkeypatch)


def count_evaluations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, the views the coach evaluates, in order (one entry per evaluation, by the view's seed).

    Plays and bids alike: a bid's view is entered with the prefix ``bid:``.
    """
    seen: list[str] = []
    plays = evaluation_module._Evaluator.__init__
    bids = bidding_module._BidEvaluator.__init__

    def counting_plays(self: Any, view: Any, budget: Budget, exact: bool) -> None:
        seen.append(view_seed(view))
        plays(self, view, budget, exact)

    def counting_bids(self: Any, view: Any, budget: BidBudget) -> None:
        seen.append("bid:" + view_seed(view))
        bids(self, view, budget)

    monkeypatch.setattr(evaluation_module._Evaluator, "__init__", counting_plays)
    monkeypatch.setattr(bidding_module._BidEvaluator, "__init__", counting_bids)
    return seen


@pytest.fixture()
def evaluated(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    yield count_evaluations(monkeypatch)


def learner_move(session: GameSession) -> Combo | None:
    """A weak, fixed learner: pass when allowed, else lead the lowest single."""
    legal = session.legal_moves()
    if None in legal:
        return None
    return min((m for m in legal if m is not None), key=lambda m: (m.size, m.cards))


def play(session: GameSession, decisions: int | None = None) -> tuple[list[Any], list[str]]:
    """Play on until ``decisions`` more play decisions were made (None: to the end); (events, views judged)."""
    events: list[Any] = []
    judged: list[str] = []
    made = 0
    while not session.is_over and (decisions is None or made < decisions):
        if session.waiting_for is Waiting.BID:
            judged.append("bid:" + view_seed(session.view()))
            events += session.bid(max(session.legal_bids))
            continue
        judged.append(view_seed(session.view()))
        events += session.play(learner_move(session))
        made += 1
    return events, judged


def review(events: list[Any]) -> tuple[Any, ...]:
    return next(e for e in events if isinstance(e, Review)).lines


def _mistakes(store: Store, game_id: int) -> list[tuple[Any, ...]]:
    return [(m.number, m.move, m.best, m.win_chance, m.best_chance, m.loss, m.level, m.explanation)
            for m in MistakeStore(store).for_game(game_id)]  # fmt: skip


def test_a_resumed_game_keeps_its_verdicts_review_and_mistakes_without_judging_again(
    tmp_path: Path, evaluated: list[str]
) -> None:
    # Straight through.
    with Store.open(tmp_path / "straight.sqlite3") as store:
        straight = GameSession.new(DEAL, level="easy", games=GameStore(store), rules=STANDARD)
        straight.start()
        straight_events, _ = play(straight)
        assert straight.final is not None and straight.final.game_id is not None
        expected_mistakes = _mistakes(store, straight.final.game_id)
    expected_verdicts = list(straight.coach.verdicts)
    before = [v for v in expected_verdicts if v[1] <= SAVE_AFTER]
    assert any(v.flagged for _, _, v in before), "the test needs a flagged decision before the save"
    assert any(v.flagged for _, n, v in expected_verdicts if n > SAVE_AFTER)

    # Saved after four decisions, the process's objects dropped, resumed from the store.
    path = tmp_path / "resumed.sqlite3"
    with Store.open(path) as store:
        games = GameStore(store)
        first = GameSession.new(DEAL, level="easy", games=games, rules=STANDARD)
        first.start()
        _, judged_before = play(first, SAVE_AFTER)
        first.stop()
        games.release()
    assert first.coach.verdicts == before and first.coach.bid_verdicts == straight.coach.bid_verdicts != []
    evaluated.clear()
    with Store.open(path) as store:
        games = GameStore(store)
        state = games.claim(games.unfinished()[0].id)
        assert state is not None
        resumed = GameSession.restore(state, games)
        assert resumed.coach.verdicts == before and resumed.coach.judged_all
        assert resumed.coach.bid_verdicts == straight.coach.bid_verdicts
        assert resumed.coach.moments == first.coach.moments
        resumed.start()
        events, judged_after = play(resumed)
        # Only the decisions after the save were evaluated, each once.
        assert set(evaluated) == set(judged_after) and not set(evaluated) & set(judged_before)
        assert resumed.coach.verdicts == expected_verdicts
        assert review(events) == review(straight_events)
        # Learn from your mistakes: the analysis was stored at the end, nothing is analysed again.
        assert resumed.final is not None and resumed.final.game_id is not None
        game_id = resumed.final.game_id
        assert MistakeStore(store).analysed(game_id) and _mistakes(store, game_id) == expected_mistakes
        evaluated.clear()
        mistakes = MistakesSession.open(store, game_id)
        assert mistakes is not None
        shown = mistakes.start()
        assert evaluated == [] and shown and mistakes.moments


def test_the_saved_state_holds_the_verdicts_as_json_data(tmp_path: Path) -> None:
    import json

    with Store.open(tmp_path / "s.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.new(DEAL, level="easy", games=games, rules=STANDARD)
        session.start()
        play(session, SAVE_AFTER)
        state = session.state()
        assert json.loads(json.dumps(state)) == state
        assert len(state["verdicts"]) == len(session.coach.verdicts) >= 3 and state["judged_all"] is True
        again = GameSession.restore(json.loads(json.dumps(state)))
        assert again.coach.verdicts == session.coach.verdicts


def test_a_damaged_verdict_loses_only_the_stored_analysis(tmp_path: Path) -> None:
    session = GameSession.new(DEAL, level="easy", rules=STANDARD)
    session.start()
    play(session, SAVE_AFTER)
    state = session.state()
    state["verdicts"][0][2] = {"level": "superb"}
    again = GameSession.restore(state)
    assert again.coach.verdicts == session.coach.verdicts[1:]
    assert not again.coach.judged_all  # its mistakes will be analysed on demand instead
    assert again.coach.moments == session.coach.moments


def test_a_game_saved_with_the_coach_off_is_not_called_judged(tmp_path: Path) -> None:
    session = GameSession.new(DEAL, level="easy", coach=False, rules=STANDARD)
    session.start()
    play(session, 2)
    again = GameSession.restore(session.state(), coach=True)
    assert again.coach.verdicts == [] and not again.coach.judged_all


def test_an_old_store_s_game_in_progress_is_migrated_in_place_and_resumes(tmp_path: Path) -> None:
    """A game saved before verdicts were kept (state version 1, games area 2) is upgraded when the store opens."""
    import json
    import sqlite3

    session = GameSession.new(DEAL, level="easy", rules=STANDARD)
    session.start()
    play(session, SAVE_AFTER)
    old = {k: v for k, v in session.state().items() if k not in ("verdicts", "bid_verdicts", "open_facts", "judged_all")}
    old["version"] = 1
    assert old["moments"], "the old save carries its remarks"
    path = tmp_path / "old.sqlite3"
    from tutor.store.games import MIGRATIONS

    with Store.open(path) as store:
        store.register_schema("games", MIGRATIONS[:2])  # the games area as version 2 left it
    db = sqlite3.connect(path, isolation_level=None)
    for key, state in (("a", json.dumps(old)), ("b", "{not json")):
        db.execute("INSERT INTO open_games (key, deal, started_at, saved_at, owner, state) VALUES (?, '10', 'x', 'x',"
                   " NULL, ?)", (key, state))  # fmt: skip
    db.close()
    with Store.open(path) as store:
        games = GameStore(store)
        assert store.schema_version("games") == len(MIGRATIONS)  # v4: rules and factors (issue 24), v5: learners
        rows = {g.id: g.state for g in games.unfinished()}
        migrated = [s for s in rows.values() if s is not None]
        assert migrated == [{**old, "version": 2, "verdicts": [], "bid_verdicts": [], "open_facts": [], "judged_all": False}]
        assert len(rows) == 2  # the unreadable one is left as it was, for the resume to report
        resumed = GameSession.restore(migrated[0], games)
        assert not resumed.coach.judged_all and resumed.coach.verdicts == []
        assert resumed.coach.moments == session.coach.moments
        assert resumed.view() == session.view()
