"""Play (RULES §4), readings in play (§6), undo, custom positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, IllegalPlayError, Kind, beats, readings
from tutor.engine.game import AmbiguousPlayError, Game, Phase
from tutor.engine.moves import legal_moves
from tutor.engine.view import Turn


def combo(text: str, kind: Kind | None = None) -> Combo:
    """The single reading of ``text`` (or the highest of ``kind``)."""
    options = [r for r in readings(Cards.parse(text)) if kind is None or r.kind == kind]
    assert len({(r.kind, r.length) for r in options}) == 1, options
    return max(options, key=lambda c: c.main)


def play_randomly(game: Game, rng: random.Random, pass_rate: float = 0.3) -> None:
    """Finish ``game`` with uniformly random legal actions."""
    while not game.is_over:
        if game.phase is Phase.BIDDING:
            game.make_bid(rng.choice(game.legal_bids()))
            continue
        moves = [m for m in game.legal_moves() if m is not None]
        if game.can_pass() and (not moves or rng.random() < pass_rate):
            game.play(None)
        else:
            move = rng.choice(moves)
            # A generated move is recorded exactly as generated (same reading).
            assert game.play(move) == move


# ---------------------------------------------------------------- §4 play


def test_rule_4_the_leader_may_play_any_legal_combination() -> None:
    game = Game.with_landlord(42, landlord=0)
    assert game.table is None
    assert game.legal_moves() == legal_moves(game.hand(0))
    lead = game.legal_moves()[-1]
    game.play(lead)
    assert game.table == lead and game.table_seat == 0


def test_rule_4_each_next_player_must_beat_or_pass() -> None:
    game = Game.from_hands(["773", "5589", "JQ"], landlord=0)
    game.play(combo("77"))
    assert game.to_move == 1
    assert game.can_pass()
    assert game.legal_moves() == [None]  # seat 1's pair 55 cannot beat 77: pass is the only move
    with pytest.raises(IllegalPlayError, match="pair 55 does not beat pair 77"):
        game.play(combo("55"))
    with pytest.raises(IllegalPlayError, match="single 8 cannot beat pair 77"):
        game.play(combo("8"))
    following = Game.from_hands(["3", "88JJ", "4"], 0, history=[Turn(0, combo("77"))], to_move=1).legal_moves()
    assert following[-1] is None and all(beats(m, combo("77")) for m in following[:-1] if m is not None)


def test_rule_4_pass_is_in_the_legal_moves_exactly_when_following() -> None:
    game = Game.from_hands(["773", "5589", "JQ"], landlord=0)
    assert None not in game.legal_moves()
    game.play(combo("77"))
    assert game.legal_moves()[-1] is None and game.can_pass()


def test_rule_4_cannot_pass_when_leading() -> None:
    game = Game.with_landlord(1, landlord=1)
    assert not game.can_pass()
    with pytest.raises(IllegalPlayError, match="cannot pass when leading"):
        game.play(None)


def test_rule_4_a_play_must_come_from_the_players_hand() -> None:
    game = Game.from_hands(["3456", "22", "X"], landlord=0)
    with pytest.raises(IllegalPlayError, match="you hold no 2"):
        game.play(combo("2"))
    with pytest.raises(IllegalPlayError, match="you hold only one 3"):
        game.play_cards("33")
    with pytest.raises(IllegalPlayError, match="you hold no 7"):
        game.play_cards("7")


def test_rule_2_play_goes_0_then_1_then_2() -> None:
    game = Game.from_hands(["345", "678", "9TJ"], landlord=0)
    seats = []
    for text in ("3", "6", "9", None, None, "T"):
        seats.append(game.to_move)
        game.play(None) if text is None else game.play_cards(text)
    assert seats == [0, 1, 2, 0, 1, 2]


def test_rule_4_two_passes_return_the_lead() -> None:
    game = Game.from_hands(["KK3", "55", "66"], landlord=0)
    game.play_cards("KK")
    game.play(None)
    assert game.table == combo("KK")
    game.play(None)
    assert game.to_move == 0
    assert game.table is None and game.table_seat is None
    assert not game.can_pass()
    assert game.legal_moves() == [combo("3")]


def test_rule_4_the_lead_returns_to_the_last_player_even_after_a_beat() -> None:
    game = Game.from_hands(["334", "556", "778"], landlord=1, to_move=0)
    game.play_cards("33")
    game.play_cards("55")
    game.play(None)
    game.play(None)
    assert game.to_move == 1 and game.table is None


def test_rule_4_a_pass_then_a_beat_resets_the_pass_count() -> None:
    game = Game.from_hands(["3K", "4A", "52"], landlord=0)
    game.play_cards("3")
    game.play(None)
    game.play_cards("5")
    game.play(None)
    assert game.to_move == 1 and game.table == combo("5")  # only one pass since the 5


def test_rule_4_landlord_going_out_wins_alone() -> None:
    game = Game.from_hands(["KK", "33", "44"], landlord=0)
    game.play_cards("KK")
    assert game.is_over and game.phase is Phase.OVER
    assert game.winner == 0 and game.landlord_won
    assert game.winning_seats() == (0,)
    assert game.legal_moves() == []
    with pytest.raises(IllegalPlayError, match="game is over"):
        game.play(None)


def test_rule_4_either_farmer_going_out_wins_for_both() -> None:
    game = Game.from_hands(["3KK", "4", "55"], landlord=0)
    game.play_cards("3")
    game.play_cards("4")
    assert game.is_over and game.winner == 1
    assert game.landlord_won is False
    assert game.winning_seats() == (1, 2)


# ------------------------------------------------------- §6 readings in play


def test_rule_6_following_takes_the_highest_beating_reading() -> None:
    table = combo("333444555TJQ", Kind.AIRPLANE_SINGLES)  # 333444555 + T J Q, main 5
    game = Game.from_hands(["K", "6667778889992", "A"], landlord=0, history=[Turn(0, table)], to_move=1)
    # 666777888 + 999 (main 8) and 777888999 + 666 (main 9) both beat; the airplane×4 does not.
    played = game.play_cards("666777888999")
    assert played.kind == Kind.AIRPLANE_SINGLES and played.length == 3
    assert played.main == Cards.parse("9").ranks()[0]
    assert game.table == played


def test_rule_6_a_play_under_a_lower_reading_is_recorded_under_the_highest() -> None:
    game = Game.from_hands(["333444555666K", "3", "4"], landlord=0)
    low = min(
        (r for r in readings(Cards.parse("333444555666")) if r.kind == Kind.AIRPLANE_SINGLES),
        key=lambda c: c.main,
    )
    assert Kind(low.kind) == Kind.AIRPLANE_SINGLES and low.main == 2  # 333444555 + 666
    played = game.play(low)
    assert played is not None and played.main == 3  # 444555666 + 333
    assert game.table == played


def test_rule_6_leading_cards_with_several_readings_is_ambiguous() -> None:
    game = Game.from_hands(["333444555666", "3", "4"], landlord=0)
    with pytest.raises(AmbiguousPlayError, match="airplane×4.*airplane_singles×3") as info:
        game.play_cards("333444555666")
    assert {Kind(r.kind) for r in info.value.readings} == {Kind.AIRPLANE, Kind.AIRPLANE_SINGLES}
    played = game.play_cards("333444555666", Kind.AIRPLANE_SINGLES)
    assert played.main == 3 and game.is_over


def test_rule_6_a_play_must_be_a_real_reading_of_its_cards() -> None:
    game = Game.from_hands(["3344", "5", "6"], landlord=0)
    fake = Combo(Cards.parse("3344").packed, Kind.PAIR_CHAIN, 2, 1)
    with pytest.raises(IllegalPlayError, match="is not a pair_chain"):
        game.play(fake)
    with pytest.raises(IllegalPlayError, match="is not a combination"):
        game.play_cards("3344")
    with pytest.raises(IllegalPlayError, match="cannot be read as bomb"):
        game.play_cards("33", "bomb")


def test_rule_6_the_given_kind_is_respected_when_following() -> None:
    table = combo("7")
    game = Game.from_hands(["3", "8888", "4"], landlord=0, history=[Turn(0, table)], to_move=1)
    with pytest.raises(IllegalPlayError, match="cannot be read as single"):
        game.play_cards("8888", Kind.SINGLE)
    assert game.play_cards("8888").kind == Kind.BOMB
    assert game.bombs_played == 1


# ------------------------------------------------------------------- undo


def test_undo_restores_every_state_back_to_the_start() -> None:
    game = Game(2147483648)
    states = [game.state_key()]
    views = [game.view(0)]
    play_randomly(game, random.Random(5))
    # Replay the same actions while recording each intermediate state.
    replayed = Game(2147483648)
    for action in game.actions:
        if isinstance(action, Turn):
            replayed.play(action.play)
        else:
            replayed.make_bid(action[1])
        states.append(replayed.state_key())
        views.append(replayed.view(0))
    assert states[-1] == game.state_key()
    for state, view in zip(reversed(states[:-1]), reversed(views[:-1])):
        game.undo()
        assert game.state_key() == state
        assert game.view(0) == view
    assert not game.can_undo
    with pytest.raises(ValueError, match="nothing to undo"):
        game.undo()


def test_undo_across_the_end_of_the_game() -> None:
    game = Game.from_hands(["KK", "33", "44"], landlord=0, bid=2)
    game.play_cards("KK")
    assert game.is_over
    game.undo()
    assert game.phase is Phase.PLAYING and game.winner is None
    assert game.hand(0) == Cards.parse("KK") and game.to_move == 0 and game.history == ()
    with pytest.raises(ValueError, match="not over"):
        game.score()


def test_undo_counts_bombs_back() -> None:
    game = Game.from_hands(["88883", "4", "5"], landlord=0)
    game.play_cards("8888")
    assert game.bombs_played == 1 and game.cost_so_far() == 20
    game.undo()
    assert game.bombs_played == 0 and game.cost_so_far() == 10


def test_push_and_pop_walk_the_tree_without_copies() -> None:
    game = Game.with_landlord(3, landlord=0)
    start = game.state_key()
    for move in game.legal_moves()[:50]:
        game.push(move)
        for reply in game.legal_moves()[:3]:
            game.push(reply)
            game.pop()
        game.pop()
        assert game.state_key() == start


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_random_games_end_with_one_empty_hand_and_undo_to_start(seed: int) -> None:
    game = Game(seed)
    start = game.state_key()
    play_randomly(game, random.Random(seed))
    assert game.is_over
    assert game.hand(game.winner) == Cards(0)  # type: ignore[arg-type]
    assert sum(1 for n in game.card_counts if n == 0) == 1
    played = sum(len(t.play.as_cards()) for t in game.history if t.play is not None)
    assert played + sum(game.card_counts) == 54
    while game.can_undo:
        game.undo()
    assert game.state_key() == start


# ---------------------------------------------------------------- cost cell


def test_cost_so_far_is_base_times_bid_times_multiplier() -> None:
    game = Game(42)
    assert game.cost_so_far() == 0  # nobody has bid yet
    game.make_bid(2)
    assert game.cost_so_far() == 20
    game.make_bid(3)
    assert game.cost_so_far() == 30
    game = Game.from_hands(["8888XD3", "4", "5"], landlord=0, bid=3)
    game.play_cards("8888")
    game.play(None)
    game.play(None)
    game.play_cards("XD")
    assert game.multiplier_so_far() == 4 and game.cost_so_far() == 120


# ------------------------------------------------------------ custom positions


def test_from_hands_accepts_any_sizes_and_derives_the_table() -> None:
    history = [Turn(0, combo("99")), Turn(1, None)]
    game = Game.from_hands(["3", "QQ4", "TT"], landlord=0, bid=2, kitty="567", history=history)
    assert game.to_move == 2 and game.table == combo("99") and game.table_seat == 0
    assert game.card_counts == (1, 3, 2)
    assert game.kitty == Cards.parse("567")
    assert game.legal_moves() == [combo("TT"), None]
    game.play(None)
    assert game.to_move == 0 and game.table is None  # two passes: back to seat 0
    assert game.deal_number is None and game.original_deal_number is None


def test_from_hands_rejects_impossible_positions() -> None:
    with pytest.raises(ValueError, match="needs 3 hands"):
        Game.from_hands(["3", "4"], landlord=0)
    with pytest.raises(ValueError, match="seat 1 has no cards"):
        Game.from_hands(["3", "", "4"], landlord=0)
    with pytest.raises(ValueError, match=r"5 × '3'"):
        Game.from_hands(["333", "33", "4"], landlord=0)
    with pytest.raises(ValueError, match="to_move must be a seat"):
        Game.from_hands(["3", "4", "5"], landlord=0, to_move=3)
