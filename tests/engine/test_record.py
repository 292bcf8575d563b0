"""Game records: JSON round trip and exact replay."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import Cards
from tutor.engine.combos import readings
from tutor.engine.game import Game, Phase
from tutor.engine.game import replay
from tutor.engine.record import VERSION, GameRecord, RecordError
from tutor.engine.rules import Rules
from tutor.engine.view import Turn


def play_randomly(game: Game, rng: random.Random, stop_after: int | None = None) -> None:
    steps = 0
    while not game.is_over and (stop_after is None or steps < stop_after):
        steps += 1
        if game.phase is Phase.BIDDING:
            game.make_bid(rng.choice(game.legal_bids()))
            continue
        moves = game.legal_moves()
        if game.can_pass() and (not moves or rng.random() < 0.3):
            game.play(None)
        else:
            game.play(rng.choice(moves))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=0, max_value=10**6), st.booleans())
def test_a_replayed_record_reaches_the_same_state(number: int, seed: int, finish: bool) -> None:
    game = Game(number)
    rng = random.Random(seed)
    play_randomly(game, rng, stop_after=None if finish else rng.randrange(0, 40))
    text = game.record().to_json()
    again = replay(GameRecord.from_json(text))
    assert again.state_key() == game.state_key()
    assert again.record().to_json() == text
    if game.is_over:
        assert again.score() == game.score()


def test_record_json_has_a_version_and_the_deal_number() -> None:
    game = Game(41)
    for _ in range(3):
        game.make_bid(0)  # redeal to 42
    game.make_bid(2)
    data = json.loads(game.record().to_json())
    assert data["version"] == VERSION
    assert data["deal_number"] == 41  # the original: the redeal is an action's consequence
    assert data["rules"]["name"] == "standard"
    assert len(game.bids) == 1  # the current deal's auction
    assert data["actions"] == [{"seat": seat, "bid": amount} for seat, amount in game.actions]
    assert [a["bid"] for a in data["actions"]] == [0, 0, 0, 2]
    assert replay(game.record()).deal_number == 42


def test_record_of_a_game_without_auction() -> None:
    game = Game.with_landlord(5, landlord=1, bid=3)
    play_randomly(game, random.Random(3))
    record = GameRecord.from_json(game.record().to_json())
    assert (record.landlord, record.bid) == (1, 3)
    assert replay(record).state_key() == game.state_key()


def test_record_of_a_custom_position() -> None:
    pair9 = readings(Cards.parse("99"))[0]
    game = Game.from_hands(["3K", "QQ4", "TT"], landlord=0, bid=2, kitty="567", history=[Turn(0, pair9)])
    game.play_cards("QQ")
    game.play(None)
    record = GameRecord.from_json(game.record().to_json())
    assert record.deal_number is None and record.start is not None
    assert replay(record).state_key() == game.state_key()


def test_record_keeps_non_standard_rules() -> None:
    rules = Rules(name="base5", base=5, bids=(1, 2, 3, 4))
    game = Game(8, rules)
    game.make_bid(4)
    record = GameRecord.from_json(game.record().to_json())
    assert record.rules == rules
    assert replay(record).cost_so_far() == 20


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d.update(version=99), "'version'"),
        (lambda d: d.update(deal_number=-3), "'deal_number'"),
        (lambda d: d.update(actions="none"), "'actions'"),
        (lambda d: d["actions"].append({"seat": 0}), "'actions[1]'"),
        (lambda d: d["actions"].append({"seat": "x", "bid": 1}), "'actions[1].seat'"),
        (lambda d: d["actions"].append({"seat": 0, "play": {"cards": "33", "kind": "duo", "length": 1, "main": "3"}}),
         "'actions[1].play.kind'"),
        (lambda d: d["actions"].append({"seat": 0, "play": {"cards": "3Z", "kind": "pair", "length": 1, "main": "3"}}),
         "'actions[1].play.cards'"),
        (lambda d: d["rules"].update(colour="red"), "'rules.colour'"),
        (lambda d: d["rules"].update(base="ten"), "'rules.base'"),
        (lambda d: d.update(rules="martian"), "'rules'"),
    ],
)
def test_bad_record_json_names_the_field(mutate, field: str) -> None:  # type: ignore[no-untyped-def]
    game = Game(42)
    game.make_bid(1)
    data = json.loads(game.record().to_json())
    mutate(data)
    with pytest.raises(RecordError, match=re.escape(field)):
        GameRecord.from_json(json.dumps(data))


def test_not_json_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        GameRecord.from_json("{oops")
    with pytest.raises(ValueError, match="JSON object"):
        GameRecord.from_json("[1, 2]")


def test_replay_rejects_illegal_or_out_of_turn_actions() -> None:
    game = Game(42)
    first = game.to_move
    game.make_bid(2)
    data = json.loads(game.record().to_json())
    data["actions"].append({"seat": (first + 1) % 3, "bid": 1})
    with pytest.raises(RecordError, match=r"actions\[1\].*bid 1 must be higher"):
        replay(GameRecord.from_json(json.dumps(data)))
    data["actions"][-1] = {"seat": first, "bid": 3}
    with pytest.raises(RecordError, match=r"actions\[1\].*turn"):
        replay(GameRecord.from_json(json.dumps(data)))
