""""You had a forced win": the solver looks over the learner's shoulder in the endgame.

When few cards remain, the exact solver (:mod:`tutor.solver`) can say whether
the side to move wins with perfect play and which moves keep the win.  After
the learner moves, the coach checks: was the position won, and did the move
throw the win away?  Then it shows a winning line in the learner's own plays
("9999, then 3").

This is advice after the fact, so the coach may look at every hand — exactly
as a teacher reviewing the game would.  The search runs under a *node* budget
(deterministic, unlike a time budget): when it runs out the coach says
nothing rather than guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules
from tutor.i18n import Phrase
from tutor.coach.mistakes import Finding

if TYPE_CHECKING:
    from tutor.solver.solver import Solver as SolverLike

#: Solve only when every hand is at most this long …
MAX_HAND = 10
#: … and all hands together hold at most this many cards.
MAX_TOTAL = 22
#: Node budget per check; "unknown" beyond it.
NODE_BUDGET = 60_000


@dataclass(frozen=True, slots=True)
class EndgameCheck:
    """The solver's verdict on the learner's position before they moved."""

    mover_wins: bool
    winning_moves: tuple[Combo | None, ...]
    #: The mover's own plays along a winning line (None = pass).
    own_line: tuple[Combo | None, ...]


def small_enough(hands: Sequence[Cards]) -> bool:
    return max(len(h) for h in hands) <= MAX_HAND and sum(len(h) for h in hands) <= MAX_TOTAL


def check_position(
    hands: Sequence[Cards],
    landlord: int,
    mover: int,
    table: Combo | None,
    table_seat: int | None,
    max_nodes: int = NODE_BUDGET,
    *,
    rules: Rules,
    solver: SolverLike | None = None,
) -> EndgameCheck | None:
    """Solve the position before the learner's move; None when too big or undecided.

    Seats are already in turn order (0 → 1 → 2, RULES §2), so they map onto the
    solver's player indices directly.  ``solver`` is injected when given (it
    must follow ``rules``); otherwise a fresh one per check, so the answer never
    depends on what was asked before.
    """
    if not small_enough(hands) or any(not h for h in hands):
        return None
    from tutor.engine.game import Game
    from tutor.solver import Position, Solver

    # The one converter: the hands and the trick as a game, then its position (Position.from_game).
    position = Position.from_game(Game.at_trick(hands, landlord, mover, table, table_seat, rules))
    result = (solver or Solver(max_nodes=max_nodes, rules=rules)).solve(position)
    if result.mover_wins is None or not result.complete:
        return None
    own = tuple(move for player, move in result.line if player == mover and move is not None)
    return EndgameCheck(bool(result.mover_wins), tuple(result.winning_moves), own)


def missed_forced_win(check: EndgameCheck | None, move: Combo | None) -> Finding | None:
    """The finding "You had a forced win: 9999, then 3" when ``move`` threw a won position away."""
    if check is None or not check.mover_wins:
        return None
    if move in check.winning_moves:
        return None
    shown: list[str | Phrase] = [c.text for c in check.own_line[:4] if c is not None]
    if not shown:
        first = next((m for m in check.winning_moves if m is not None), None)
        shown = [first.text] if first is not None else [Phrase("play.cmd_pass")]
    line = shown[-1]
    for step in reversed(shown[:-1]):
        line = Phrase("coach.forced_win_step", {"move": step, "then": Phrase("coach.forced_win_then"), "rest": line})
    if len(check.winning_moves) == 1:
        # Issue 29: one move alone kept the win — proven by the solver on the open hands.
        only = check.winning_moves[0]
        return Finding("only_move_wins", {"move": Phrase("play.cmd_pass") if only is None else only.text, "line": line})
    return Finding("forced_win_missed", {"line": line})
