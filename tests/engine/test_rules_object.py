"""The rules as data (RULES §12): the game reads every field it uses from ``Rules``."""

from __future__ import annotations

import dataclasses

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import Kind, readings
from tutor.engine.deal import deal
from tutor.engine.game import Game, Phase
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.scoring import score_game
from tutor.engine.view import Turn

BOMB_8 = next(r for r in readings(Cards.parse("8888")) if r.kind == Kind.BOMB)
SINGLE_3 = readings(Cards.parse("3"))[0]


def test_rule_12_standard_rules_are_the_defaults_of_rules_md() -> None:
    assert STANDARD.base == 10 and STANDARD.bids == (1, 2, 3) and STANDARD.top_bid == 3
    assert STANDARD.hand_size == 17 and STANDARD.kitty_size == 3
    assert STANDARD.landlord_share == 2 and STANDARD.spring_doubles
    assert Game(1).rules is STANDARD
    with pytest.raises(dataclasses.FrozenInstanceError):
        STANDARD.base = 5  # type: ignore[misc]


def test_rule_12_scoring_follows_a_non_standard_base() -> None:
    rules = Rules(name="base5", base=5)
    game = Game.from_hands(["8888K", "3", "4"], landlord=0, bid=3, rules=rules)
    game.play_cards("8888")
    game.play(None)
    game.play(None)
    assert game.cost_so_far() == 5 * 3 * 2
    game.play_cards("K")
    score = game.score()
    assert score.base == 5 and score.cost == 30
    assert score.deltas == (60, -30, -30)


def test_rule_12_bids_come_from_the_rules() -> None:
    rules = Rules(name="four-bids", bids=(1, 2, 3, 4))
    game = Game(42, rules)
    assert game.legal_bids() == [0, 1, 2, 3, 4]
    game.make_bid(3)  # not the top bid any more
    assert game.phase is Phase.BIDDING
    game.make_bid(4)  # the top bid ends the auction
    assert game.phase is Phase.PLAYING and game.bid == 4


def test_rule_12_hand_and_kitty_sizes_come_from_the_rules() -> None:
    rules = Rules(name="big-kitty", hand_size=16, kitty_size=6)
    dealt = deal(3, rules)
    assert [len(h) for h in dealt.hands] == [16, 16, 16] and len(dealt.kitty) == 6
    game = Game.with_landlord(3, landlord=1, rules=rules)
    assert game.card_counts == (16, 22, 16)


def test_rule_12_landlord_share_and_spring_doubling_come_from_the_rules() -> None:
    history = [Turn(1, BOMB_8)]  # landlord 1 bombs out: a spring, one bomb
    standard = score_game(history, landlord=1, bid=1, winner=1)
    assert standard.multiplier == 4 and standard.deltas == (-40, 80, -40)
    no_spring = score_game(history, 1, 1, 1, Rules(name="no-spring", spring_doubles=False))
    assert no_spring.spring and no_spring.multiplier == 2 and "spring" not in no_spring.multipliers
    share3 = score_game(history, 1, 1, 1, Rules(name="share3", landlord_share=3))
    assert share3.deltas == (-40, 120, -40)


def test_the_rules_say_which_games_the_compiled_core_plays() -> None:
    """The C core's choice is a reading of the rules (``native_play``, ``native_coach``), not a comparison
    with STANDARD somewhere else: the auction variants play the standard game; two decks and a wild rank
    do not; the coach's quick play-out serves the classic game only."""
    from tutor.engine.rules import NAMED

    native = {name for name, r in NAMED.items() if r.native_play}
    # the wildcard presets until a deal draws the rank (a game's rules carry it: RULES §12.3)
    assert native == {"standard", "rob", "open", "rob+open", "wild", "rob+wild", "open+wild", "rob+open+wild"}
    assert not any(r.with_wild(3).native_play for r in NAMED.values())
    assert {name for name, r in NAMED.items() if r.native_coach} == {"standard"}
    assert not Rules(wild_rank=6).native_play and not dataclasses.replace(STANDARD, decks=2).native_play
    assert dataclasses.replace(STANDARD, base=20).native_coach  # the stake is not the play
