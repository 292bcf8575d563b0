"""One of each (docs/architecture): only trick.py counts passes, only auction.py compares bids,
and only ``Position.from_game`` turns a game (or a view, a lesson's trick) into a solver position.

A variant is a ``Rules`` value because the rule it changes lives in one place:
a second copy of the auction or the two-pass rule would keep playing the old
game.  This test reads every module of ``tutor/`` and refuses the shapes such
a copy takes.  The solver's compiled core (C, not scanned) has its own packed
copy of the trick rule; it is checked against the Python search move for move
(tests/solver/test_native.py), and the Python state against Game
(tests/bots/test_fast_copies.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).parent

#: Shapes of a pass counter: ``passes += 1``, ``passes + 1``, ``passes >= 2``, ``passes == 2``.
PASS_COUNTING = re.compile(r"\bpasses\s*(\+=|\+\s*1|>=|==\s*\d)")
#: Shapes of a bid comparison: the highest of the bids, a bid against the highest, the top bid ending it.
BID_COMPARING = re.compile(
    r"max\(\(?\w+ for _, \w+ in [\w.]*bids"
    r"|\bbid\s*(<=|<|>=|>)\s*(high|highest)\b"
    r"|\b(amount|bid|b)\s*==\s*(self\.)?rules\.top_bid"
    r"|\bbid\s*==\s*3\b"
    r"|key=lambda \w+: \w+\.bid\)"  # the strongest of the candidates by its code (auction.py orders them)
)


def _offenders(pattern: re.Pattern[str], allowed: set[str]) -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if pattern.search(code):
                found.append(f"tutor/{rel}:{number}: {line.strip()}")
    return found


def test_only_trick_py_counts_passes() -> None:
    assert _offenders(PASS_COUNTING, {"engine/trick.py"}) == []


def test_only_auction_py_compares_bids() -> None:
    assert _offenders(BID_COMPARING, {"engine/auction.py"}) == []


def test_the_guard_catches_a_copy() -> None:
    # The patterns recognise the copies this redesign removed (so the guard cannot pass vacuously).
    assert BID_COMPARING.search("high = max((b for _, b in view.bids), default=0)")
    assert BID_COMPARING.search("if bid and bid <= highest:")
    assert BID_COMPARING.search("if amount == self.rules.top_bid:")
    assert PASS_COUNTING.search("passes += 1")
    assert PASS_COUNTING.search("if passes >= 2:")


#: A solver position built by hand: the class called directly (``Position.from_game(...)`` is the converter).
POSITION_BUILDING = re.compile(r"(?<![\w.])Position\(")
#: Where ``Position(...)`` may still be called, by (file, enclosing function): the class's own steps, and
#: puzzles made from a puzzle's own data (a file, a random cut of a deal, a rotation) — none converts a game.
POSITION_ALLOWED = {
    ("solver/position.py", "after"),  # the solver's step
    ("puzzles/model.py", "position_from_data"),  # a puzzle file's position
    ("puzzles/realism.py", "setup_moves"),  # the position before a puzzle's table play, from the puzzle
    ("puzzles/generate.py", "rotate_to_mover"),  # a position, relisted from its mover
    ("puzzles/generate.py", "random_deal_candidates"),  # a random cut of a deal (two-player duels too)
    ("puzzles/generate.py", "with_idle_farmer"),  # a duel given an idle third hand
}


def _hand_built_positions(text: str, rel: str) -> list[str]:
    found, where = [], None
    for number, line in enumerate(text.splitlines(), 1):
        defined = re.match(r"\s*def (\w+)", line)
        if defined:
            where = defined.group(1)
        if POSITION_BUILDING.search(line.split("#", 1)[0]) and (rel, where) not in POSITION_ALLOWED:
            found.append(f"tutor/{rel}:{number} (in {where}): {line.strip()}")
    return found


def test_only_the_converter_builds_positions_from_games() -> None:
    # bots/search.py, coach/endgame.py, lessons/oracle.py, puzzles/generate.py and personal.py go through
    # Position.from_game (Game.from_view / Game.at_trick first): a new hand-written builder fails here.
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        found += _hand_built_positions(path.read_text(encoding="utf-8"), rel)
    assert found == []


def test_the_position_guard_catches_a_builder() -> None:
    builder = "def sample(view, hidden):\n    return Position(hands, roles, 0, view.table, by, view.rules)\n"
    assert _hand_built_positions(builder, "bots/search.py")
    assert not _hand_built_positions("def f(g):\n    return Position.from_game(g)\n", "bots/search.py")
    assert not _hand_built_positions("raise InvalidPositionError('x')\n", "coach/endgame.py")


def test_the_converter_gives_the_positions_the_hand_written_builders_gave() -> None:
    # Cross-check: Game.at_trick → Position.from_game is the position the coach, the lessons and the
    # puzzle generator used to write by hand (same hands, roles, mover, table and its seat).
    from tutor.engine.cards import Cards
    from tutor.engine.combos import readings
    from tutor.engine.game import Game
    from tutor.engine.rules import STANDARD
    from tutor.solver import Position, Role

    hands = [Cards.parse("33JQ"), Cards.parse("4455"), Cards.parse("89TK")]
    table = next(c for c in readings(Cards.parse("77").packed))
    for landlord in range(3):
        roles = tuple(Role.LANDLORD if s == landlord else Role.FARMER for s in range(3))
        for mover, by in ((0, None), (1, 0), (2, 0), (0, 2), (0, 1)):
            got = Position.from_game(Game.at_trick(hands, landlord, mover, table if by is not None else None, by))
            assert got == Position(tuple(hands), roles, mover, table if by is not None else None, by, rules=STANDARD)
    # From a view and a sample, listed from the mover (the bots' search): the old rotation.
    game = Game.at_trick(hands, 1, 2, table, 0)
    view = game.view(2)
    rotated = Position.from_view(view, {0: hands[0], 1: hands[1]}, from_mover=True)
    assert rotated == Position((hands[2], hands[0], hands[1]), (Role.FARMER, Role.FARMER, Role.LANDLORD), 0, table, 1,
                               rules=STANDARD)
