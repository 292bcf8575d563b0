"""Whole coached four-player games through GameSession (RULES §12.4): each level, and rob the landlord.

One game each on the tiny coach budget (tests/conftest.py) (the flow, the store and the final card are what is checked;
the coach's figures for two decks are capped by ``within_rules``, tested here as well).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sessions.test_game import _follow_hints
from tutor.coach.evaluation import DEFAULT_BUDGET, MANY_DECKS_CAP, within_rules
from tutor.engine.rules import FOUR, FOUR_ROB, STANDARD
from tutor.sessions.events import FinalCard, HintShown, Played
from tutor.sessions.game import GameSession
from tutor.store import Store
from tutor.store.games import GameStore


@pytest.mark.parametrize(("level", "rules"), [("easy", FOUR), ("medium", FOUR), ("hard", FOUR), ("easy", FOUR_ROB),
                                                  ("medium", FOUR_ROB), ("hard", FOUR_ROB)])
def test_rules_12_4_a_whole_coached_four_player_game(level: str, rules: object, tmp_path: Path, tiny_coach: None,
                                                     light_hard_bot: None) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        games = GameStore(store)
        session = GameSession.new(7, level, True, games, rules=rules)  # type: ignore[arg-type]
        events = _follow_hints(session)
        assert session.view().players == 4
        assert any(isinstance(e, HintShown) for e in events)
        seats = {e.seat for e in events if isinstance(e, Played)}
        assert seats == {0, 1, 2, 3} or session.final is not None
        (final,) = [e for e in events if isinstance(e, FinalCard)]
        assert len(final.deltas) == 4 and sum(final.deltas) == 0
        farmers = [d for s, d in enumerate(final.deltas) if s != final.landlord]
        assert final.deltas[final.landlord] == -3 * farmers[0] and len(set(farmers)) == 1  # share 3
        (row,) = games.history()
        assert row.rules["players"] == 4 and row.rules["decks"] == 2 and row.rules["hand_size"] == 25
        assert (row.rules.get("auction") == "rob") == (rules is FOUR_ROB)


def test_the_coach_budget_is_capped_for_two_decks_only() -> None:
    assert within_rules(DEFAULT_BUDGET, STANDARD) is DEFAULT_BUDGET
    capped = within_rules(DEFAULT_BUDGET, FOUR)
    assert capped.max_samples == MANY_DECKS_CAP.max_samples and capped.policy == "medium"


def test_four_seats_are_named_from_the_rules_seat_layout_in_both_languages() -> None:
    from tutor.coach.seats import seat_name
    from tutor.i18n import speaking

    assert FOUR.seat_layout == ("you", "right", "across", "left") and STANDARD.seat_layout == ("you", "right", "left")
    with speaking("en"):
        assert [seat_name(s, FOUR) for s in range(4)] == ["You", "Right", "Across", "Left"]
        assert [seat_name(s, STANDARD) for s in range(3)] == ["You", "Right", "Left"]
    with speaking("ru"):
        assert [seat_name(s, FOUR) for s in range(4)] == ["Вы", "Правый", "Напротив", "Левый"]


def test_rules_12_4_the_coachs_review_names_seat_2_across_in_a_four_player_game() -> None:
    """The deciding moment of the review (a coach remark) names the seat by the game's layout, not «Left»."""
    from tutor.coach.review import review_phrases
    from tutor.engine.cards import Cards
    from tutor.engine.combos import readings
    from tutor.engine.view import Turn

    def single(text: str) -> object:
        return readings(Cards.parse(text))[0]

    def decided(rules: object, players: int) -> str:
        others = [Turn(s % players, None) for s in range(3, 3 + players - 1)]
        history = [Turn(2, single("3")), *others, Turn(2, single("5"))]  # type: ignore[arg-type]
        phrases = review_phrases([], history, 2, 2, 0, 0, rules=rules)  # type: ignore[arg-type]
        (line,) = [p for p in phrases if p.key == "coach.review_decided"]
        return line.render("en")

    assert "Across" in decided(FOUR, 4) and "Left" not in decided(FOUR, 4)
    assert "Left" in decided(STANDARD, 3)


def test_rules_12_2_and_12_4_the_open_hand_with_four_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--players 4 --open-hand``: a whole game through the session layer (no coach, the learner's first legal
    move each turn: cheap; the coached four-player games are above).  The learner bids 3 first and
    shows the hand after the kitty; from then on every other seat's view holds the landlord's hand as it
    stands (and none before), and their card counters leave it out; the game is stored and
    ``ddz history --json`` records ``rules.players``, ``rules.open_hand`` and the ``open`` factor."""
    import json

    from click.testing import CliRunner

    from tutor.cli.main import main
    from tutor.engine.deal import deal
    from tutor.engine.rules import FOUR_OPEN
    from tutor.sessions.events import HandShown
    from tutor.sessions.game import Waiting

    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    number = next(n for n in range(50) if deal(n, FOUR_OPEN).first_bidder == 0)
    with Store.open() as store:
        session = GameSession.new(number, "easy", False, GameStore(store), rules=FOUR_OPEN)
        events: list[object] = list(session.start())
        events += session.bid(3)  # a bid of 3 ends the auction at once: the learner is the landlord
        game = session._game
        assert game.landlord == 0 and len(game.hand(0)) == 33
        assert all(game.view(s).shown is None for s in range(4))  # nothing shown before the choice
        assert session.can_show_hand
        events += session.show_hand()
        (shown,) = [e for e in events if isinstance(e, HandShown)]
        assert shown.is_learner and shown.rules is FOUR_OPEN
        turns = 0
        while not session.is_over:
            for seat in (1, 2, 3):  # the others see the landlord's hand as it stands now
                assert session._game.view(seat).shown == session._game.hand(0)
            farmer = session._game.view(2)  # the counter no longer counts the shown cards
            assert len(farmer.not_seen()) == len(farmer.unseen()) - len(session._game.hand(0))
            turns += 1
            assert turns < 200
            assert session.waiting_for is Waiting.PLAY
            events += session.play(session.legal_moves()[0])
        (final,) = [e for e in events if isinstance(e, FinalCard)]
        assert final.opened and "open" in final.factors and len(final.deltas) == 4 and sum(final.deltas) == 0
    rows = json.loads(CliRunner().invoke(main, ["history", "--json"], catch_exceptions=False).output)
    assert rows[0]["rules"]["players"] == 4 and rows[0]["rules"]["open_hand"] == "after_kitty"
    assert "open" in rows[0]["multipliers"]
