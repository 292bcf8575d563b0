"""Lesson positions are proven reachable by a whole game replayed to them (issue 21)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import readings
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.engine.view import Turn
from tutor.lessons.model import Setup
from tutor.lessons.reachability import Unreachable, build_witness, proven_reachable


def _combo(text: str):  # type: ignore[no-untyped-def]
    return readings(Cards.parse(text))[0]


def _setup(hands: dict[int, str], counts: dict[int, int], landlord: int, table: tuple[int, str] | None = None,
           history: tuple[Turn, ...] = (), complete: bool = False, kitty: str | None = None) -> Setup:
    combo = _combo(table[1]) if table else None
    return Setup(landlord=landlord, bid=1, hands={s: Cards.parse(h) for s, h in hands.items()},
                 show=frozenset({0}), counts=counts, kitty=Cards.parse(kitty) if kitty else None, bids=(),
                 history=history, history_complete=complete, table=combo,
                 table_by=table[0] if table else None, to_move=0, rules=STANDARD)


def test_rule_3_the_landlord_leads_first_so_nobody_sheds_before_his_first_play() -> None:
    """The old lesson 02 step: left (landlord) holds 19 after leading a K, you hold 8: impossible."""
    setup = _setup({0: "4689QA2D"}, {1: 17, 2: 19}, landlord=2, table=(2, "K"))
    why = proven_reachable(setup)
    assert why is not None and "landlord leads first" in why


def test_a_witness_replays_through_the_engine_to_the_position() -> None:
    """Mid-game: left (landlord) has 9 cards and leads a K; the witness game ends exactly there."""
    setup = _setup({0: "4689QA2D"}, {1: 12, 2: 9}, landlord=2, table=(2, "K"))
    witness = build_witness(setup)
    assert sorted(len(h) for h in witness.hands) == [17, 17, 20] and len(witness.hands[2]) == 20
    game = Game.from_hands(witness.hands, 2, 1, witness.kitty)
    for turn in witness.turns:
        assert turn.seat == game.to_move
        game.play(turn.play)
    assert game.hand(0) == Cards.parse("4689QA2D") and game.card_counts == (8, 12, 9)
    assert game.to_move == 0 and game.table_seat == 2 and game.table is not None
    assert Cards(game.table.cards) == Cards.parse("K")


def test_a_seat_that_leads_must_have_won_a_trick_before() -> None:
    """Right (a farmer) is to lead while still holding all 17 cards: he never played, so never won a trick."""
    setup = replace(_setup({0: "34567"}, {1: 17, 2: 5}, landlord=2), to_move=1)
    why = proven_reachable(setup)
    assert why is not None and "never played" in why


def test_a_single_to_beat_may_answer_a_lower_single_in_the_same_trick() -> None:
    """Left (a farmer) has played one card, the Q on the table, and the landlord (right) is to move:
    left never led, but his Q answered a lower single the landlord led (you passed) — a real position
    the validator used to refuse as "left leads but has never played"."""
    setup = replace(_setup({0: "3456789TJQKA2"}, {1: 7, 2: 16}, landlord=1, table=(2, "Q")), to_move=1)
    game = _replays(setup)
    assert game.to_move == 1 and game.table_seat == 2 and game.table is not None
    assert Cards(game.table.cards) == Cards.parse("Q") and game.card_counts == (13, 7, 16)


def test_the_face_up_kitty_belongs_to_the_landlord() -> None:
    """The kitty shows both jokers, but you, a farmer, hold them (lesson 01's counter relies on this)."""
    setup = replace(_setup({0: "3456789TJQKA2XD44"}, {1: 17, 2: 20}, landlord=2, kitty="XD5"), to_move=2)
    with pytest.raises(Unreachable, match="kitty"):
        build_witness(setup)


def test_a_whole_history_must_start_from_the_deal() -> None:
    history = (Turn(2, _combo("3")), Turn(0, _combo("4")), Turn(1, None), Turn(2, None))
    ok = _setup({0: "56789TJQKA2XD333"}, {1: 17, 2: 19}, landlord=2, history=history, complete=True)
    assert proven_reachable(ok) is None


def _replays(setup: Setup) -> Game:
    """The witness of ``setup`` replayed through the engine (each turn by the seat to move)."""
    witness = build_witness(setup)
    game = Game.from_hands(witness.hands, setup.landlord or 0, 1, witness.kitty)
    for turn in witness.turns:
        assert turn.seat == game.to_move
        game.play(turn.play)
    return game


@pytest.mark.parametrize("landlord, jokers", [(0, 1), (0, 2), (2, 1)])
def test_both_jokers_in_one_farmers_hand_are_reachable(landlord: int, jokers: int) -> None:
    """A farmer holding the rocket late in the game: every unseen card was played before, one by one.

    Without the jokers in the unseen cards the tricks before the position run out of different
    ranks when they take the lowest ranks first (the validator said "too few" cards); filled from
    the fullest ranks they always find a rising run.
    """
    hands = {0: "3456", 1: "789", 2: "TJQ"}
    hands[jokers] = "XD5"
    setup = replace(_setup(hands, {}, landlord=landlord), to_move=landlord)
    game = _replays(setup)
    assert game.hand(jokers) == Cards.parse("XD5") and game.to_move == landlord and game.table is None


def test_the_kitty_cards_go_into_the_landlords_plays() -> None:
    """The landlord's hand is shown without the kitty's 2 and joker: he must have played them before."""
    setup = _setup({0: "3456", 1: "XD5", 2: "789"}, {}, landlord=0, kitty="2XQ")
    assert proven_reachable(setup) is not None  # the X is in right's hand, not the landlord's
    game = _replays(replace(setup, kitty=Cards.parse("22Q")))
    assert game.hand(0) == Cards.parse("3456") and game.hand(1) == Cards.parse("XD5")


def test_cards_gone_are_the_earlier_tricks_and_the_hidden_hands_are_the_rest() -> None:
    """A lesson that says which cards are gone (the counter): the witness plays exactly those before
    the position and deals the hidden hands from what is left; the learner's view knows them too."""
    from tutor.engine.cards import FULL_DECK
    from tutor.lessons.view_claims import lesson_view

    mine, out = Cards.parse("99946"), Cards.parse("TTJQQK")
    gone = Cards(FULL_DECK.packed - mine.packed - out.packed)
    setup = replace(_setup({0: "99946"}, {1: 3, 2: 3}, landlord=0), gone=gone)
    assert setup.still_out() == out
    witness = build_witness(setup)
    game = _replays(setup)
    assert Cards(game.hand(1).packed + game.hand(2).packed) == out and game.hand(0) == mine
    played = sum(t.play.cards for t in witness.turns if t.play is not None)
    assert Cards(played) == gone  # every card gone, and only those, was played before
    view = lesson_view(setup)
    assert view is not None  # the view's history holds the cards gone: the coach samples only splits of 10 10 J Q Q K
    assert Cards(sum(t.play.cards for t in view.history if t.play is not None)) == gone
    wrong = replace(setup, gone=Cards(gone.packed - Cards.parse("3").packed))
    assert "gone" in (proven_reachable(wrong) or "")  # a card unaccounted for: not the position it says


def test_a_lesson_with_cards_gone_must_account_for_every_card(tmp_path: Path) -> None:
    from tutor.lessons.loader import load_lesson_file
    from tutor.lessons.model import build_lesson

    path = tmp_path / "gone.yaml"
    path.write_text('id: gone\ntitle: "Gone"\nlevel: 1\nsteps:\n  - text: "Count."\n    position:\n'
                    '      landlord: you\n      bid: 1\n      hands: {you: "99946"}\n      counts: {right: 3, left: 3}\n'
                    '      gone: "33335555777788TT"\n', encoding="utf-8")
    _, problems = build_lesson(load_lesson_file(path))
    assert [(p.code, p.path) for p in problems] == [("hand_size", "steps[0].position.gone")]
    assert "make 27, not 54" in problems[0].message


def test_rule_12_4_a_four_player_position_is_proven_by_a_four_seat_witness() -> None:
    """Four players (RULES §12.4): across (the landlord, 33 cards dealt) leads a K with 15 left; you hold 8 of
    your 25, right 20, left 18 and has passed.  The witness deals 25, 25, 33, 25 and replays through the
    engine's four-seat game to exactly there; with the landlord still at 32 nobody could have shed a card."""
    from tutor.engine.rules import FOUR

    def at(counts: dict[int, int]) -> Setup:
        return Setup(landlord=2, bid=1, hands={0: Cards.parse("4689QA2D")}, show=frozenset({0}), counts=counts,
                     kitty=None, bids=(), history=(), history_complete=False,
                     table=readings(Cards.parse("K"), FOUR)[0], table_by=2, to_move=0, rules=FOUR)

    setup = at({1: 20, 2: 15, 3: 18})
    witness = build_witness(setup)
    assert [len(h) for h in witness.hands] == [25, 25, 33, 25] and len(witness.kitty) == 8
    game = Game.from_hands(witness.hands, 2, 1, witness.kitty, rules=FOUR)
    for turn in witness.turns:
        assert turn.seat == game.to_move
        game.play(turn.play)
    assert game.hand(0) == Cards.parse("4689QA2D") and game.card_counts == (8, 20, 15, 18)
    assert game.to_move == 0 and game.table_seat == 2 and game.table is not None
    assert witness.turns[-1] == Turn(3, None)  # left passed the K
    why = proven_reachable(at({1: 25, 2: 32, 3: 25}))
    assert why is not None and "landlord leads first" in why and "hold 25 cards" in why
