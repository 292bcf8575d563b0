"""The trick rule of RULES §4, in its one home (tutor.engine.trick)."""

from __future__ import annotations

from tutor.engine.cards import Cards
from tutor.engine.combos import readings
from tutor.engine.trick import (
    Trick,
    Turn,
    is_first_trick,
    lead_returns,
    passes_since,
    replay_trick,
    tables_faced,
    trick_winners,
)


def _c(text: str):  # type: ignore[no-untyped-def]
    return readings(Cards.parse(text))[0]


def test_rule_4_two_passes_give_the_lead_back_in_three_players() -> None:
    k = _c("K")
    trick, to_move = Trick().after(0, k, 3)
    assert (trick.table, trick.table_seat, to_move) == (k, 0, 1)
    trick, to_move = trick.after(1, None, 3)
    assert (trick.table, trick.passes, to_move) == (k, 1, 2)
    trick, to_move = trick.after(2, None, 3)
    assert trick.leading and to_move == 0


def test_rule_4_one_pass_gives_the_lead_back_in_two_players() -> None:
    trick, to_move = Trick().after(0, _c("3"), 2)
    trick, to_move = trick.after(1, None, 2)
    assert trick.leading and to_move == 0
    assert lead_returns(1, 2) and not lead_returns(1, 3)


def test_rule_4_a_play_after_a_pass_resets_the_passes() -> None:
    trick, _ = Trick().after(0, _c("5"), 3)
    trick, _ = trick.after(1, None, 3)
    trick, to_move = trick.after(2, _c("9"), 3)
    assert (trick.table_seat, trick.passes, to_move) == (2, 0, 0)


def test_passes_since_counts_the_seats_between_play_and_turn() -> None:
    assert passes_since(None, 1, 3) == 0
    assert passes_since(0, 1, 3) == 0
    assert passes_since(0, 2, 3) == 1


def test_replays_over_a_history() -> None:
    k, a = _c("K"), _c("A")
    history = [Turn(0, k), Turn(1, a), Turn(2, None), Turn(0, None), Turn(1, _c("3")), Turn(2, None)]
    assert replay_trick(history).table_seat == 1
    faced = [(t.seat, table) for t, table, _ in tables_faced(history)]
    assert faced[0] == (0, None) and faced[2] == (2, a) and faced[4] == (1, None)
    assert [i for i, _ in trick_winners(history)] == [1, 4]
    assert is_first_trick(history[:3]) and not is_first_trick(history[:4])


def test_rule_4_trick_after_is_the_step_the_game_itself_takes() -> None:
    """The lessons replay a history with ``Trick.after``: it is the one trick rule, the step ``Game.apply``
    takes (``trick.step``), for three and four seats — the table, who played it and who moves next agree
    after every action of seeded games played with random legal actions."""
    import random

    from tutor.engine.actions import Play
    from tutor.engine.game import Game, Phase
    from tutor.engine.rules import FOUR, STANDARD

    for rules, deal_number, plays in ((STANDARD, 5, 120), (FOUR, 6, 24)):
        rng = random.Random(deal_number)
        game = Game(deal_number, rules)
        while game.phase is Phase.BIDDING:
            game.apply(rng.choice(game.legal_actions()))
        trick = Trick()
        for _ in range(plays):
            if game.is_over:
                break
            seat = game.to_move
            action = rng.choice([a for a in game.legal_actions() if isinstance(a, Play)])
            assert isinstance(action, Play)
            game.apply(action)
            trick, to_move = trick.after(seat, action.combo, rules.players)
            if game.is_over:
                break
            assert (trick.table, trick.table_seat, to_move) == (game.table, game.table_seat, game.to_move)
        assert len(game.history) > 10
