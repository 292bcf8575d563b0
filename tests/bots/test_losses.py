"""The deciding moment of a lost game, the landlord's or the farmers' (tutor/bench/losses.py, benchmarks/hard_losses.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.bench.losses import (
    AFTER, BEFORE, BLUNDER, EARLIER, UNKNOWN, LastLead, Moment, Strength, deciding_moment, last_lead, redecided,
    start_of, strength,
)
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.view import PlayerView
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


#: The landlord leads its 7; the farmer after it wins only by passing, and then the farmer before it only with 8.
FARM = ("79JJK", "8TQ", "482")


def farmers_lost_after(*moves: str) -> Game:
    game = Game.from_hands(list(FARM), 0)
    for move in moves:
        game.play(None if move == "pass" else game.resolve(move))
    finish_by_the_solver(game)
    assert game.winner == 0
    return game


def test_the_farmers_moment_names_the_farmer_who_erred() -> None:
    after = deciding_moment(farmers_lost_after("7", "8"), 3, horizon=30, nodes=200_000, side="farmers")
    assert (after.verdict, after.farmer, after.decision, after.move, after.winning) == (BLUNDER, AFTER, "follow", "8", "pass")
    before = deciding_moment(farmers_lost_after("7", "pass", "2"), 3, horizon=30, nodes=200_000, side="farmers")
    assert (before.verdict, before.farmer, before.kind, before.move, before.winning) == (BLUNDER, BEFORE, "single", "2", "8")
    assert (before.trick, before.landlord_cards, before.farmer_cards, before.cards_in_play) == (1, 4, 3, 10)
    # The landlord's own judge does not look at the farmers' moves (and the landlord erred nowhere here).
    assert deciding_moment(farmers_lost_after("7", "8"), 3, horizon=30, nodes=200_000).farmer == ""
    with pytest.raises(ValueError, match="no side"):
        deciding_moment(farmers_lost_after("7", "8"), 3, horizon=30, nodes=200_000, side="partner")


def test_a_blunder_redecided_from_its_view_is_judged_by_the_open_hands() -> None:
    # The farmer after the landlord played 8 over the landlord's 7 where only the pass wins (the test above).
    game = farmers_lost_after("7", "8")
    moment = deciding_moment(game, 3, horizon=30, nodes=200_000, side="farmers")
    seen: list[int] = []

    def passes(view: PlayerView) -> Combo | None:
        seen.append(view.seat)
        return None

    assert redecided(game, moment, passes, 200_000) is True
    assert seen == [1] and moment.farmer == AFTER  # the erring seat's own view, at the blunder
    blunder = game.history[moment.turn].play
    assert blunder is not None and blunder.text == "8" and redecided(game, moment, lambda view: blunder, 200_000) is False
    assert redecided(game, moment, passes, 1) is None  # the solver did not decide
    assert redecided(game, Moment(3, EARLIER), passes, 200_000) is None


def test_the_losses_benchmark_refuses_a_bad_today_file_in_one_line(tmp_path: Path) -> None:
    # --today (benchmarks/hard_losses.py) skips the decks today's bot won in a hard_paired.py --progress file.
    root = Path(__file__).resolve().parents[2]
    broken = tmp_path / "today.jsonl"
    broken.write_text('{"deck": 5, "today": "won"}\n')
    env = {**os.environ, "PYTHONPATH": str(root)}
    base = [sys.executable, str(root / "benchmarks" / "hard_losses.py"), "--side", "farmers", "--against", "medium",
            "--decks", "0"]
    bad_setting = ["--redecide", "fit:no_such_knob=1"]  # --redecide NAME:ATTR=VALUE names a HardBot attribute
    for extra in (["--today", str(tmp_path / "nowhere")], ["--today", str(broken)], bad_setting):
        done = subprocess.run([*base, *extra], capture_output=True, text=True, env=env, check=False)
        assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1


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
