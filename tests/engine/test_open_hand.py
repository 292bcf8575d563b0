"""Open hand (RULES §12.2): one test per rule sentence."""

from __future__ import annotations

import pytest

from tutor.bots.counting import landlord_known
from tutor.engine.actions import Open, Play
from tutor.engine.combos import IllegalPlayError
from tutor.engine.game import Game, replay
from tutor.engine.record import GameRecord
from tutor.engine.rules import OPEN, ROB_OPEN, STANDARD

DEAL = 42


def test_rule_12_2_after_the_kitty_and_before_the_first_play_the_landlord_may_show_the_hand() -> None:
    game = Game.with_landlord(DEAL, 1, 2, OPEN)
    assert game.legal_actions()[0] == Open()
    game.apply(Open())
    assert game.opened and game.to_move == 1  # still the landlord's lead
    assert Open() not in game.legal_actions()  # once only
    # Not at all under the classic rules, and not after the first play.
    assert Open() not in Game.with_landlord(DEAL, 1, 2, STANDARD).legal_actions()
    with pytest.raises(IllegalPlayError, match="no open hand"):
        Game.with_landlord(DEAL, 1, 2, STANDARD).open_hand()
    late = Game.with_landlord(DEAL, 1, 2, OPEN)
    late.apply(late.legal_actions()[1])
    assert Open() not in late.legal_actions()
    with pytest.raises(IllegalPlayError, match="before the first play"):
        late.open_hand()
    # Not during the auction either.
    bidding = Game(DEAL, OPEN)
    assert all(not isinstance(a, (Open, Play)) for a in bidding.legal_actions())


def test_rule_12_2_showing_the_hand_doubles_the_game() -> None:
    game = Game.with_landlord(DEAL, 1, 2, OPEN)
    assert game.cost_so_far() == 20
    game.apply(Open())
    assert game.cost_so_far() == 40 and game.factors_so_far() == ["open"]
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    score = game.score()
    k = score.bombs + (1 if score.spring or score.anti_spring else 0)
    assert score.cost == 10 * 2 * 2 * 2**k and "open" in score.factors and score.opened
    game2 = Game(DEAL, ROB_OPEN)
    game2.make_bid(1)  # call
    game2.make_bid(2)  # rob
    game2.make_bid(0)
    game2.make_bid(0)  # no rob back
    game2.apply(Open())
    assert game2.cost_so_far() == 10 * 2 * 2 and game2.factors_so_far() == ["rob", "open"]


def test_rule_12_2_every_seats_view_includes_the_landlords_cards_as_they_are_played() -> None:
    game = Game.with_landlord(DEAL, 1, 2, OPEN)
    assert all(game.view(s).shown is None for s in range(3))
    game.apply(Open())
    for s in range(3):
        assert game.view(s).shown == game.hand(1)
    game.apply(game.legal_actions()[0])  # the landlord plays
    assert game.view(0).shown == game.hand(1)  # updated
    # The samplers of the bots and the coach deal exactly the shown hand to the landlord.
    assert landlord_known(game.view(0)) == game.hand(1).packed
    # The card counter ("not seen") leaves the shown cards out: only the other farmer's are unknown.
    assert game.view(0).not_seen() == game.hand(2)
    assert game.view(1).not_seen() == game.view(1).unseen()  # the landlord's own view is unchanged
    game.undo()
    game.undo()
    assert game.view(0).shown is None and not game.opened


def test_rule_12_2_an_open_game_records_the_show_and_replays_it() -> None:
    game = Game(DEAL, OPEN)
    game.make_bid(3)
    game.apply(Open())
    game.apply(game.legal_actions()[0])
    text = game.record().to_json()
    assert '"open": true' in text
    again = replay(GameRecord.from_json(text))
    assert again.opened and again.state_key() == game.state_key()
