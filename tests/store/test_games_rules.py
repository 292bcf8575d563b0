"""The rule set and the named factors of every stored game (RULES §12, the store's games area v4)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tutor.engine.auction import CALL, ROB
from tutor.engine.game import Game
from tutor.engine.rules import ROB as ROB_RULES
from tutor.store import Store
from tutor.store.games import MIGRATIONS, GameStore, abandoned_result


def _finished_record() -> dict[str, object]:
    game = Game(42)
    game.make_bid(3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game.record().to_dict()


def test_migration_v4_backfills_the_rules_and_factors_of_games_stored_before_the_variants(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    with Store.open(path) as store:
        store.register_schema("games", MIGRATIONS[:3])  # the games area as version 3 left it: no rules, no factors
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "INSERT INTO games (finished_at, deal, level, role, won, bid, multiplier, cost, delta, scored, record)"
        " VALUES ('x', '42', 'easy', 'farmer', 1, 3, 1, 30, 30, 1, ?)",
        (json.dumps(_finished_record()),),
    )
    db.execute(
        "INSERT INTO games (finished_at, deal, level, role, won, bid, multiplier, cost, delta, scored, record)"
        " VALUES ('x', '1', 'easy', 'farmer', 1, 1, 1, 10, 10, 1, 'not json')"
    )
    db.close()
    with Store.open(path) as store:
        games = GameStore(store)
        assert store.schema_version("games") == len(MIGRATIONS)
        unreadable, classic = games.history()
        assert classic.rules["bids"] == [1, 2, 3] and "auction" not in classic.rules
        replayed = Game(42)
        replayed.make_bid(3)
        while not replayed.is_over:
            replayed.apply(replayed.legal_actions()[0])
        assert classic.factors == replayed.score().factors
        assert unreadable.rules == {} and unreadable.factors == ()


def test_an_abandoned_rob_game_is_lost_at_its_robbed_stake_by_the_auction_leader() -> None:
    game = Game(42, ROB_RULES)
    first = game.to_move
    game.make_bid(CALL)
    game.make_bid(ROB)  # the next seat robs: it leads the auction now, at ×2
    robber = (first + 1) % 3
    state = {"record": game.record().to_dict(), "level": "easy"}
    as_robber = abandoned_result(state, robber)
    assert as_robber.role == "landlord" and as_robber.cost == 20 and as_robber.delta == -40
    assert as_robber.factors == ("rob",) and as_robber.rules["auction"] == "rob"
    as_caller = abandoned_result(state, first)
    assert as_caller.role == "farmer" and as_caller.delta == -20
