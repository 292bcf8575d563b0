"""One move vocabulary: text → move against the legal list, the printer, and Combo's round-tripping repr."""

from __future__ import annotations

import random

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, readings
from tutor.engine.game import Game
from tutor.engine.moves import legal_moves
from tutor.engine.notation import MoveTextError, move_notation, parse_move_text, resolve


def test_every_legal_move_prints_to_text_that_resolves_back_to_it() -> None:
    rng = random.Random(5)
    for deal in range(12):
        game = Game.with_landlord(deal, landlord=deal % 3)
        for _ in range(rng.randrange(0, 12)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        legal = game.legal_moves()
        for move in legal:
            assert resolve(move_notation(move, legal), legal).move == move


def test_pass_is_resolved_only_where_it_is_legal() -> None:
    lead = legal_moves(Cards.parse("3345"))
    assert resolve("pass", lead).options == ()
    follow = [*legal_moves(Cards.parse("3345"), readings(Cards.parse("2"))[0]), None]
    assert resolve("пас", follow).move is None


def test_several_readings_are_a_choice_given_as_data() -> None:
    legal = legal_moves(Cards.parse("333444555666"))
    found = resolve("333444555666", legal)
    assert found.ambiguous and len(found.options) > 1
    assert resolve("333444555666/airplane", legal).found
    with pytest.raises(LookupError):
        _ = found.move


def test_bad_text_is_refused_with_the_text_quoted() -> None:
    with pytest.raises(MoveTextError, match="'ZZ'|ZZ"):
        parse_move_text("ZZ")
    with pytest.raises(MoveTextError):
        parse_move_text("33/nonsense")


def test_combo_repr_round_trips_for_every_reading() -> None:
    for text in ("3", "XD", "2222", "345678", "33344455", "333444555666", "3334445556667777"):
        for reading in readings(Cards.parse(text)):
            assert eval(repr(reading)) == reading  # noqa: S307 - repr shows how to rebuild it
            assert Combo.parse(reading.notation) == reading
