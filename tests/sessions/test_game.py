"""A whole coached game through GameSession alone: no click, no rich, no terminal."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor.engine.rules import STANDARD
from tutor.i18n import Phrase
from tutor.sessions.events import BidMade, FinalCard, HintShown, LandlordChosen, Played, Remark, Review, StatusLine
from tutor.sessions.game import GameSession, Waiting
from tutor.store import Store
from tutor.store.games import GameStore


def _follow_hints(session: GameSession) -> list[object]:
    """Play a game to the end: the suggested bid, then the first hint every turn (four players: 33 + 3×25 cards)."""
    events: list[object] = list(session.start())
    turns = 0
    while not session.is_over:
        turns += 1
        assert turns < 300
        if session.waiting_for is Waiting.BID:
            events += session.bid(session.suggested_bid)
        else:
            events += session.hint()
            events += session.confirm()
    return events


@pytest.fixture(scope="module")
def hinted_42(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GameSession, list[object], GameStore]]:
    """Deal 42 played to the end by following the hints, on its own store: the costliest game of this
    file (the hard bot for every hint, the coach on every move), played once for the tests that read it."""
    with Store.open(tmp_path_factory.mktemp("hinted") / "s.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.new(42, level="easy", games=games, rules=STANDARD)
        yield session, _follow_hints(session), games


def test_a_whole_game_from_python_ends_with_the_final_card_and_the_review(
    hinted_42: tuple[GameSession, list[object], GameStore],
) -> None:
    session, events, _ = hinted_42
    assert any(isinstance(e, BidMade) for e in events)
    assert any(isinstance(e, LandlordChosen) for e in events)
    assert any(isinstance(e, Played) and e.seat == 0 for e in events)
    final = [e for e in events if isinstance(e, FinalCard)]
    assert len(final) == 1 and final[0].deal == 42 and final[0].scored
    assert sum(final[0].deltas) == 0 and any(final[0].deltas)
    assert isinstance(events[-1], Review) and events[-1].lines
    assert session.waiting_for is Waiting.OVER


def test_sessions_import_neither_click_nor_rich() -> None:
    code = (
        "import sys, tutor.sessions.game, tutor.sessions.lesson, tutor.sessions.puzzle;"
        "print(sorted(m for m in ('click', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _first_legal(session: GameSession) -> list[object]:
    """Play a game to the end with the first legal move every turn (no hints: no hard bot)."""
    events: list[object] = list(session.start())
    while not session.is_over:
        if session.waiting_for is Waiting.BID:
            events += session.bid(session.suggested_bid)
        else:
            events += session.play(session.legal_moves()[0])
    return events


def test_the_same_actions_give_the_same_game() -> None:
    # The bots' plays are compared: the coach stays silent (its verdicts are not what is compared).
    first = [e for e in _first_legal(GameSession.new(7, level="medium", coach=False, rules=STANDARD)) if isinstance(e, Played)]
    second = [e for e in _first_legal(GameSession.new(7, level="medium", coach=False, rules=STANDARD)) if isinstance(e, Played)]
    assert first == second and len(first) > 10


def test_typed_cards_give_a_status_line_and_enter_plays_them() -> None:
    session = GameSession.new(42, level="easy", rules=STANDARD)
    session.start()
    session.bid(3)  # we take the kitty 567 and lead
    events = session.select("4443")
    status = events[0]
    assert isinstance(status, StatusLine) and status.ok
    assert status.render("en") == "Trio + 1 · can be played"
    assert status.render("ru").startswith("Тройка + 1")
    assert session.prompt().kind == "confirm"
    played = session.confirm()
    assert played[0] == Played(0, played[0].move, STANDARD) and played[0].move is not None and played[0].move.text == "3444"


def test_a_pass_when_leading_is_explained_not_made() -> None:
    session = GameSession.new(42, level="easy", rules=STANDARD)
    session.start()
    session.bid(3)
    events = session.pass_()
    assert isinstance(events[0], StatusLine) and not events[0].ok
    assert session.waiting_for is Waiting.PLAY and session.view().history == ()


def test_hints_cycle_and_a_hinted_move_draws_no_remark() -> None:
    session = GameSession.new(42, level="easy", rules=STANDARD)
    session.start()
    session.bid(3)
    shown = [session.hint()[0] for _ in range(3)]
    assert [h.n for h in shown if isinstance(h, HintShown)] == [1, 2, 3]
    events = session.confirm()
    assert not any(isinstance(e, Remark) for e in events[:2])
    assert session.hints == 3


def test_undo_goes_back_to_the_learners_previous_decision_and_is_counted() -> None:
    session = GameSession.new(42, level="easy", rules=STANDARD)
    session.start()
    session.bid(3)
    before = session.view()
    session.hint()
    session.confirm()
    session.undo()
    assert session.view().hand == before.hand and session.undos == 1
    session.undo()
    assert session.waiting_for is Waiting.BID


def test_quit_saves_and_restore_resumes_exactly(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.new(42, level="easy", games=games, rules=STANDARD)
        session.start()
        session.bid(3)
        session.hint()
        session.confirm()
        session.stop()
        assert session.waiting_for is Waiting.QUIT
        saved = games.load_current()
        assert saved is not None
        again = GameSession.restore(saved, games)
        again.start()
        assert again.view() == session.view() and again.hints == 1 and again.level == "easy"


def test_a_replayed_deal_is_stored_with_zero_and_remarks_as_data(
    hinted_42: tuple[GameSession, list[object], GameStore], small_coach: None,
) -> None:
    """The replay's coach on the small budget (the same code): what is checked is how a replay is scored and stored;
    the real budget's hints and remarks on this deal are the fixture's game, read by the tests above."""
    first, _, games = hinted_42
    replay = first.again()
    assert replay.deal == 42 and not replay.scored
    events = _follow_hints(replay)
    final = next(e for e in events if isinstance(e, FinalCard))
    assert final.deltas == (0, 0, 0)
    stored = games.history()
    assert [g.scored for g in stored] == [False, True] and stored[0].delta == 0
    assert "remarks" in stored[0].record


def test_bids_that_are_not_allowed_are_refused() -> None:
    session = GameSession.new(42, level="easy", rules=STANDARD)
    session.start()
    with pytest.raises(ValueError):
        session.bid(7)


def test_remarks_render_in_either_language() -> None:
    remark = Phrase("coach.beats_partner", {"partner": Phrase("play.seat_2")})
    assert Phrase.from_data(remark.to_data()) == remark
    assert remark.render("en") != remark.render("ru")


def test_the_language_is_chosen_per_call_not_per_process() -> None:
    from tutor.i18n import language, speaking

    before = language()
    status = GameSession.new(42, level="easy", rules=STANDARD)
    status.start()
    shown = status.bid(3) and status.select("4443")[0]
    assert isinstance(shown, StatusLine)
    with speaking("ru"):
        russian = shown.render()
        assert language() == "ru"
    assert language() == before and shown.render("en") != russian and shown.render("ru") == russian
