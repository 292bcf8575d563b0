"""The deciding moment of a lost landlord game (tutor/bench/losses.py, benchmarks/hard_losses.py)."""

from __future__ import annotations

from tutor.bench.losses import BLUNDER, EARLIER, UNKNOWN, LastLead, Strength, deciding_moment, last_lead, start_of, strength
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver

#: Benchmark three-03 (shared/bench/endgames.yaml): the landlord to move wins only with 33344 or 3339.
HANDS = ("333449", "7QQK2", "66KK2")


def finish_by_the_solver(game: Game) -> None:
    """Everyone plays a winning move when there is one (else the first legal move) until the game ends."""
    while not game.is_over:
        result = Solver(max_nodes=200_000, rules=STANDARD).solve(Position.from_game(game, from_mover=True))
        moves = result.winning_moves if result.mover_wins else game.legal_moves()
        game.play(moves[0])


def lost_after(first: str) -> Game:
    game = Game.from_hands(list(HANDS), 0)
    game.play(game.resolve(first))
    finish_by_the_solver(game)
    assert game.winner != 0
    return game


def test_the_first_losing_move_from_a_won_position_is_the_moment() -> None:
    moment = deciding_moment(lost_after("9"), 7, horizon=30, nodes=200_000)
    assert (moment.deck, moment.verdict, moment.decision, moment.kind, moment.move) == (7, BLUNDER, "lead", "single", "9")
    assert sorted(moment.winning.split()) == ["33344", "3339"]
    assert (moment.trick, moment.landlord_cards, moment.cards_in_play) == (1, 6, 16)


def test_a_game_lost_before_the_horizon_and_one_never_decided() -> None:
    blundered = lost_after("9")
    start = start_of(blundered)
    assert [str(start.hand(s)) for s in range(3)] == [str(Game.from_hands(list(HANDS), 0).hand(s)) for s in range(3)]
    # The landlord's 3 and 4 against a 5 and a 6: lost at its first decision, whatever it plays.
    hopeless = Game.from_hands(["34", "5", "6"], 0)
    finish_by_the_solver(hopeless)
    assert deciding_moment(hopeless, 0, horizon=30, nodes=200_000).verdict == EARLIER
    assert deciding_moment(blundered, 0, horizon=10, nodes=200_000).verdict == UNKNOWN
    assert deciding_moment(blundered, 0, horizon=30, nodes=1).verdict == UNKNOWN


def test_the_hand_as_dealt_and_the_last_lead() -> None:
    """The landlord's 333449 (trio with a pair, a single; nothing above the ace) led 9 at trick 1 and never
    led again: the farmers took the 4 tricks' other 3.  A hand with a bomb, the rocket and a 2 counts both."""
    blundered = lost_after("9")
    assert strength(blundered) == Strength(plays=2, bombs=0, high=0, score=strength(blundered).score)
    assert last_lead(blundered) == LastLead(trick=1, tricks=4, cards_left=5)
    bombs = Game.from_hands(["3333XD2", "44", "55"], 0)
    bombs.play(bombs.resolve("3333"))
    assert (strength(bombs).bombs, strength(bombs).high, strength(bombs).plays) == (2, 3, 3)
    assert last_lead(bombs) == LastLead(trick=1, tricks=1, cards_left=3)
