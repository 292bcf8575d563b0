"""Learn from your mistakes at the bid (moment 0): judged by expected score, tries stored (issue 13; RULES §3, §7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.coach import exercises
from tutor.coach.moments import bid_decision
from tutor.engine.game import Game, Phase
from tutor.engine.rules import STANDARD
from tutor.sessions import mistakes as ms
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore

#: Deal 22: seat 0 bids first with 344568889JQQKA222; a bid of 3 there loses clearly by expected score.
DEAL = 22


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "ddz.sqlite")


def _bid_3_game() -> Game:
    from tutor.bots.medium import MediumBot

    game = Game(DEAL)
    game.make_bid(3)
    bot = MediumBot(0)
    while not game.is_over:
        game.play(bot.play(game.view(game.to_move)))
    return game


def _stored(store: Store, game: Game) -> int:
    score = game.score()
    return GameStore(store).finish(FinishedGame(
        deal=DEAL, level="medium", role="landlord", won=game.winner == 0, bid=3, multiplier=score.multiplier,
        cost=score.cost, delta=score.deltas[0], scored=False, hints=0, undos=0, record=game.record().to_dict()))  # fmt: skip


def test_the_bid_of_the_auction_played_is_found_and_flagged() -> None:
    record = _bid_3_game().record()
    decision = bid_decision(record)
    assert decision is not None and decision.bid == 3 and decision.action_index == 0
    assert decision.view.landlord is None and len(decision.view.hand) == 17
    found = exercises.find_bid(record)
    assert found is not None and found.verdict.flagged and found.verdict.best_bid != 3


def test_a_redealt_auction_is_not_the_bid_to_replay() -> None:
    game = Game(DEAL)
    while game.phase is Phase.BIDDING and game.deal_number == DEAL:
        game.make_bid(0)  # everyone passes: redealt (RULES §3)
    record = game.record()
    later = bid_decision(record)
    assert later is None or later.action_index >= 3


def test_the_bid_moment_comes_first_and_takes_pass_or_a_bid(store: Store) -> None:
    game = _bid_3_game()
    game_id = _stored(store, game)
    found = exercises.find_bid(game.record())
    assert found is not None
    ms.save_game_verdicts(store, game_id, [], found.verdict, rules=STANDARD)  # what a finished coached game stores
    session = ms.MistakesSession.open(store, game_id)
    assert session is not None
    (shown,) = session.start()
    assert isinstance(shown, ms.MomentShown) and shown.moment.number == ms.BID_MOMENT and session.is_bid
    assert shown.moment.move == "3" and shown.view.landlord is None
    assert session.select("33") == []
    (refused,) = session.move("K")
    assert isinstance(refused, ms.NotAMove)
    (wrong,) = session.move("3")
    assert isinstance(wrong, ms.BidTryJudged) and not wrong.accepted and wrong.bid == 3
    best = found.verdict.best_bid
    right, over = session.move("pass" if best == 0 else str(best))
    assert isinstance(right, ms.BidTryJudged) and right.accepted and over == ms.MistakesOver(completed=True)
    (moment,) = MistakeStore(store).for_game(game_id)
    assert moment.solved and moment.tries == 2
    # A front end that cannot take a bid leaves the moment out.
    web = ms.MistakesSession.open(store, game_id, bids=False)
    assert web is not None and web.start() == [ms.NothingToReplay()]


def test_ddz_mistakes_json_marks_the_bid(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from tutor.cli.main import main

    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    home = Store.open()
    game = _bid_3_game()
    game_id = _stored(home, game)
    found = exercises.find_bid(game.record())
    assert found is not None
    ms.save_game_verdicts(home, game_id, [], found.verdict, rules=STANDARD)
    home.close()
    out = CliRunner().invoke(main, ["mistakes", str(game_id), "--json"])
    assert out.exit_code == 0, out.output
    (row,) = json.loads(out.stdout)
    assert row["kind"] == "bid" and row["move_number"] == 0 and row["move"] == "3"
    assert row["expected_score"] < row["better_score"]
    shown = CliRunner().invoke(main, ["mistakes", str(game_id)], input="3\nshow\n")
    assert "the auction: you chose bid 3" in shown.output and "A better choice: " in shown.output
