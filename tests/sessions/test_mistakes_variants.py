"""Learn from your mistakes before the play in the variants: a call, rob or rob back (RULES §12.1) and the
open hand (§12.2) are moments judged by expected score, replayed in their own words (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.bots.medium import MediumBot
from tutor.coach import exercises
from tutor.coach.bidding import BidBudget, BidVerdict
from tutor.coach.moments import OPEN_MOMENT, ROB_BACK_MOMENT, auction_decisions, open_decision
from tutor.engine.auction import CALL, PASS, ROB
from tutor.engine.game import Game, Phase
from tutor.engine.rules import OPEN, ROB as ROB_RULES
from tutor.i18n import speaking
from tutor.sessions import mistakes as ms
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore

#: Open hand: seat 0, the landlord, holds the rocket and four bombs and plays without showing.
STRONG = ["XD2222AAAAKKKK345679", "33344455566677788", "88999TTTTJJJJQQQQ"]


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "ddz.sqlite")


def _finish(game: Game) -> Game:
    bot = MediumBot(0)
    while game.phase is Phase.BIDDING:
        game.make_bid(bot.bid(game.view(game.to_move)))
    while not game.is_over:
        game.play(bot.play(game.view(game.to_move)))
    return game


def _stored(store: Store, game: Game) -> int:
    score = game.score()
    return GameStore(store).finish(FinishedGame(
        deal=0, level="medium", role="landlord" if game.landlord == 0 else "farmer", won=0 in game.winning_seats(),
        bid=score.bid, multiplier=score.multiplier, cost=score.cost, delta=score.deltas[0], scored=False, hints=0,
        undos=0, record=game.record().to_dict(), rules=game.rules.to_json()))  # fmt: skip


def test_rule_12_1_the_callers_two_words_are_two_moments() -> None:
    game = Game(19, ROB_RULES)  # seat 2 speaks first
    game.make_bid(PASS)
    game.make_bid(CALL)  # seat 0 calls
    game.make_bid(ROB)  # seat 1 robs; seat 0 may rob back
    game.make_bid(ROB)
    words = auction_decisions(_finish(game).record())
    assert [(d.number, d.bid) for d in words] == [(0, CALL), (ROB_BACK_MOMENT, ROB)]
    assert words[1].view.bids == ((2, PASS), (0, CALL), (1, ROB))


def test_rule_12_1_a_flagged_rob_is_replayed_with_call_rob_pass(store: Store) -> None:
    game = Game(19, ROB_RULES)
    game.make_bid(CALL)  # seat 2 calls; seat 0 robs with 33445679TJJQQKAA2
    game.make_bid(ROB)
    game_id = _stored(store, _finish(game))
    robbed = BidVerdict(ROB, -3.0, PASS, -1.0, 2.0, 0.5, "blunder")  # as the coach saved it in the game
    ms.save_game_verdicts(store, game_id, [], choices=[(0, robbed)], rules=ROB_RULES)
    assert [(m.number, m.move, m.best) for m in MistakeStore(store).for_game(game_id)] == [(0, "rob", "pass")]
    session = ms.MistakesSession.open(store, game_id)
    assert session is not None
    (shown,) = session.start()
    assert isinstance(shown, ms.MomentShown) and session.is_bid and shown.choices == ("pass", "rob")
    with speaking("en"):
        line = ms.moment_phrase(1, 1, shown.moment, 10, ROB_RULES, shown.choices).render()
        assert "the auction: you chose “rob” (expected score −30; 20 ± 5 points below the best)" in line
        assert line.endswith("Find a better choice: pass, rob.")
    (refused,) = session.move("call")  # nobody may call after a call
    assert isinstance(refused, ms.NotAMove)
    with speaking("ru"):
        assert "выберите: pass, rob" in refused.reason.render()
    (judged, *_) = session.move("pass")
    assert isinstance(judged, ms.BidTryJudged) and judged.bid == PASS and judged.label is not None


def test_rule_12_2_keeping_a_sure_win_closed_is_a_moment_and_open_is_the_answer(store: Store) -> None:
    game = _finish(Game.from_hands(STRONG, 0, 1, "679", rules=OPEN))  # the landlord never showed
    record = game.record()
    decision = open_decision(record)
    assert decision is not None and not decision.shown and decision.number == OPEN_MOMENT
    found = exercises.find_open(record, BidBudget(samples=6, tries=1))
    assert found is not None and found.verdict.flagged and found.verdict.best_bid == 1
    game_id = _stored(store, game)
    ms.save_game_verdicts(store, game_id, [], choices=[(OPEN_MOMENT, found.verdict)], rules=OPEN)
    session = ms.MistakesSession.open(store, game_id)
    assert session is not None
    (shown,) = session.start()
    assert isinstance(shown, ms.MomentShown) and shown.moment.move == "closed" and session.is_bid
    with speaking("en"):
        line = ms.moment_phrase(1, 1, shown.moment, 10, OPEN, shown.choices).render()
        assert "the open hand: you chose “keep the hand closed”" in line and line.endswith("closed, open.")
    right, over = session.move("open")
    assert isinstance(right, ms.BidTryJudged) and right.accepted and over == ms.MistakesOver(completed=True)
    (moment,) = MistakeStore(store).for_game(game_id)
    assert moment.solved and moment.number == OPEN_MOMENT
