"""What each player knows (RULES §8): the view is a frozen copy of public facts."""

from __future__ import annotations

import dataclasses
import gc
import random
import types

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import readings
from tutor.engine.game import Game
from tutor.engine.view import PlayerView, Turn, trick_state, view_from_public


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` (skipping classes, modules and functions)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def a_game_in_play() -> Game:
    game = Game(42)
    game.make_bid(3)
    rng = random.Random(2)
    for _ in range(7):
        moves = [m for m in game.legal_moves() if m is not None]
        if game.can_pass() and not moves:
            game.play(None)
        else:
            game.play(rng.choice(moves))
    return game


def test_rule_8_view_has_no_hidden_hands() -> None:
    game = a_game_in_play()
    for seat in range(3):
        view = game.view(seat)
        objects = reachable(view)
        ids = {id(o) for o in objects}
        assert id(game) not in ids
        assert id(game._hands) not in ids and id(game._history) not in ids
        assert id(game._undo) not in ids
        hidden = {game.hands_packed[s] for s in range(3) if s != seat}
        for obj in objects:
            assert not (isinstance(obj, int) and obj in hidden), "another seat's hand is reachable"
            assert not isinstance(obj, Game)
        assert view.hand == game.hand(seat)


def test_rule_8_view_holds_exactly_the_public_facts() -> None:
    game = a_game_in_play()
    view = game.view(1)
    assert view.seat == 1
    assert view.hand == game.hand(1)
    assert view.bids == game.bids
    assert view.landlord == game.landlord
    assert view.kitty == game.kitty
    assert view.history == game.history
    assert view.card_counts == game.card_counts
    assert view.to_move == game.to_move
    assert view.table == game.table and view.table_seat == game.table_seat
    assert view.bid == 3
    assert view.rules is game.rules
    assert view.shown is None  # the classic game shows no hand (RULES §12.2 is off)
    assert {f.name for f in dataclasses.fields(PlayerView)} == {
        "seat", "hand", "bids", "landlord", "kitty", "history", "card_counts",
        "to_move", "table", "table_seat", "bid", "rules", "shown",
    }


def test_rule_8_view_is_a_frozen_snapshot() -> None:
    game = a_game_in_play()
    view = game.view(0)
    before = (view.hand, view.history, view.card_counts, view.to_move)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = Cards(0)  # type: ignore[misc]
    game.play(game.legal_moves()[0])
    assert (view.hand, view.history, view.card_counts, view.to_move) == before


def test_rule_8_kitty_is_hidden_during_bidding() -> None:
    game = Game(42)
    view = game.view(0)
    assert view.kitty is None and view.landlord is None and view.bid is None
    assert view.card_counts == (17, 17, 17)


def test_view_rejects_a_bad_seat() -> None:
    with pytest.raises(ValueError, match="seat must be a seat 0..2"):
        Game(1).view(3)


def test_rule_4_trick_state_applies_the_two_pass_rule() -> None:
    k = readings(Cards.parse("K"))[0]
    a = readings(Cards.parse("A"))[0]
    assert trick_state([]) == (None, None, None)
    assert trick_state([Turn(0, k)]) == (k, 0, 1)
    assert trick_state([Turn(0, k), Turn(1, a), Turn(2, None)]) == (a, 1, 0)
    assert trick_state([Turn(0, k), Turn(1, a), Turn(2, None), Turn(0, None)]) == (None, None, 1)


def test_view_from_public_matches_the_games_view() -> None:
    game = a_game_in_play()
    seat = 2
    built = view_from_public(
        seat,
        str(game.hand(seat)),
        game.landlord,
        game.history,
        game.card_counts,
        bids=game.bids,
        kitty=game.kitty,
        bid=game.bid,
    )
    assert built == game.view(seat)


def test_view_from_public_checks_its_input() -> None:
    with pytest.raises(ValueError, match="card_counts needs 3"):
        view_from_public(0, "33", 0, [], [2, 5])
    with pytest.raises(ValueError, match=r"card_counts\[0\] = 3"):
        view_from_public(0, "33", 0, [], [3, 5, 5])
    view = view_from_public(1, "33", 0, [], [20, 2, 17])
    assert view.to_move == 0 and view.table is None  # no history: the landlord leads
