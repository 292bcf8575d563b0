"""Solving a puzzle move by move: the logic behind the interactive ``ddz puzzle``.

An :class:`Attempt` holds the position, where we are in the solution tree, and
how the attempt is going.  The CLI only reads and prints; everything that
decides — is this move right, what do the opponents answer, what is the
refutation of a mistake, what does a hint say — is here, so it is tested
without a terminal.

Rules of an attempt (as on Lichess):

* each move of the learner's side is checked: a move of the tree is right; a
  different move is still right when the solver proves it keeps the win (and,
  for a "win in N" goal, the pace; for a "win with N bombs" goal, the bombs the
  score search proves the side can still force);
* the opponents answer with the tree's toughest defence, or — once the learner
  has left the tree — with the reply the solver says holds out longest;
* a wrong move is not played: the refutation (how the opponents win after it)
  is shown and the learner tries again.  The first wrong move decides the
  rated result (a loss); from then on the attempt is unrated;
* ``hint`` first names the kind of the winning move, then the move itself;
  ``solution`` plays the rest out.  Either makes the attempt unrated unless it
  was already decided by a mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tutor.engine.combos import Combo, Kind
from tutor.puzzles.generate import SolverLike
from tutor.puzzles.model import GoalType, Node, Puzzle, find_move, move_text
from tutor.solver.position import Position

#: Solver budget while solving interactively, in nodes per call (never a time limit: a refutation
#: line or a verdict must not come out shorter or "unknown" on a busy machine).  The same budget
#: proves every shipped puzzle (tests/puzzles/test_library_verified.py); their calls need far less.
#: Here, beside the attempt that judges with it, because a personal puzzle's making
#: (:mod:`tutor.puzzles.personal`) checks that every winning first play is provable within it.
INTERACTIVE_NODES = 2_000_000

Move = Combo | None


class Outcome(Enum):
    """How an attempt counts for the rating."""

    SOLVED = "solved"  # rated win: no mistake, no hint, no solution
    FAILED = "failed"  # rated loss: a wrong move came first
    ASSISTED = "assisted"  # unrated: a hint or the solution came first
    UNFINISHED = "unfinished"  # no decision yet


@dataclass(frozen=True, slots=True)
class Played:
    """One move made in the attempt: who, what, and whether it was the learner's side."""

    player: int
    move: Move
    by_learner: bool

    @property
    def text(self) -> str:
        return "pass" if self.move is None else self.move.text


@dataclass(slots=True)
class MoveCheck:
    """The answer to a learner's move."""

    correct: bool
    #: The opponents' (and partner's) moves that followed a correct move.
    replies: list[Played] = field(default_factory=list)
    #: For a wrong move: how the other side wins after it (the move first).
    refutation: list[Played] = field(default_factory=list)
    solved: bool = False
    #: A wrong move under a "win with N bombs" goal that keeps the win, not the bombs (said so, not "loses").
    keeps_win: bool = False
    #: The solver could not settle the move within its budget (neither proven to keep the goal nor to lose
    #: it): the move is not played and not counted as a mistake — calling it wrong would be unproven.
    unclear: bool = False


class Attempt:
    """One go at a puzzle.

    Args:
        puzzle: the puzzle.
        solver: used to judge moves off the tree and to find refutations
            (injected; positions are small, so it answers at once).
    """

    def __init__(self, puzzle: Puzzle, solver: SolverLike) -> None:
        self.puzzle = puzzle
        self.solver = solver
        self.side = puzzle.solver_side
        self.position: Position = puzzle.position
        self.history: list[Played] = []
        #: The tree node whose move is expected next; None once off the tree.
        self._expected: Node | None = puzzle.solution
        self.mistakes = 0
        self.hints = 0
        self.hint_level = 0
        self.used_solution = False
        self.outcome = Outcome.UNFINISHED
        self._plays_left = puzzle.goal.plays if puzzle.goal.type is GoalType.WIN_IN else None
        #: For a "win with N bombs" goal: the bombs and rockets (either side's) still to be played.
        self._bombs_left = puzzle.goal.bombs if puzzle.goal.type is GoalType.WIN_BOMBS else None

    # ------------------------------------------------------------------ state
    @property
    def finished(self) -> bool:
        return self.position.is_over

    @property
    def learner_to_move(self) -> bool:
        return not self.finished and self.position.roles[self.position.to_move] is self.side

    @property
    def rated(self) -> bool:
        """Whether the attempt changes ratings (it does once decided by a win or a mistake)."""
        return self.outcome in (Outcome.SOLVED, Outcome.FAILED)

    def legal_moves(self) -> list[Move]:
        return self.position.legal_moves()

    # ---------------------------------------------------------------- judging
    def _tree_move(self) -> Move:
        if self._expected is None:
            raise LookupError("off the tree")
        return find_move(self.position, self._expected.move)

    def _solver_pick(self) -> Move:
        """A winning move for the learner's side here (the fastest, when the goal counts plays; the one that
        forces the most bombs, when it counts bombs)."""
        if self._bombs_left is not None:
            scored = self.solver.solve(self.position, "score")
            pick: Move = scored.line[0][1] if scored.line else scored.best_moves[0]
            return pick
        result = self.solver.solve(self.position, "fastest", all_moves=False)
        move: Move = result.line[0][1] if result.line else result.winning_moves[0]
        return move

    def expected_move(self) -> Move:
        """The move the learner should play now (the tree's, or the solver's off the tree)."""
        if self._expected is not None:
            return self._tree_move()
        return self._solver_pick()

    def _keeps_goal(self, move: Move) -> bool | None:
        """Whether ``move`` keeps the goal: True, False, or None when the solver cannot settle it within its
        budget (a move off the tree in a big position)."""
        if self._expected is not None and move == self._tree_move():
            return True
        verdict = self.solver.is_winning_move(self.position, move)
        if verdict is not True:
            return verdict  # False: proven to lose; None: beyond the budget
        if self._bombs_left is not None:
            return self._keeps_bombs(move)
        if self._plays_left is None:
            return True
        after = self.position.after(move)
        if after.is_over:
            return True
        need: int | None = self.solver.solve(after, "fastest", all_moves=False).win_in
        if need is None:
            return None  # the move wins (proven above) but its pace is beyond the budget
        return need + (move is not None) <= self._plays_left

    def _bombs_after(self, move: Move) -> int | None:
        """The bombs and rockets ``move`` and the rest of the game bring, when the side that wins after it
        plays for the most and the other for the fewest (the score search; None beyond its budget)."""
        after = self.position.after(move)
        now = 1 if move is not None and move.is_bomb else 0
        if after.is_over:
            return now
        rest = self.solver.solve(after, "score").bombs
        return None if rest is None else now + int(rest)

    def _keeps_bombs(self, move: Move) -> bool | None:
        """A winning move keeps a "win with N bombs" goal when the side can still force the bombs left (None:
        the score search did not finish within its budget)."""
        assert self._bombs_left is not None
        got = self._bombs_after(move)
        return None if got is None else got >= self._bombs_left

    def _advance(self, move: Move, by_learner: bool) -> None:
        """Make ``move``; follow the tree while the move is the tree's, else leave it."""
        node = self._expected
        if node is not None and find_move(self.position, node.move) != move:
            node = None
        if by_learner and move is not None and self._plays_left is not None:
            self._plays_left -= 1
        if move is not None and move.is_bomb and self._bombs_left is not None:
            self._bombs_left -= 1  # either side's bomb doubles the stake
        self.history.append(Played(self.position.to_move, move, by_learner))
        self.position = self.position.after(move)
        # Next: at the learner's turns the only child; at the defenders' the first (toughest).
        self._expected = node.replies[0] if node is not None and node.replies else None

    def play(self, text_or_move: str | Move) -> MoveCheck:
        """The learner plays a move (text as typed, or a move).  Wrong moves are not made."""
        if not self.learner_to_move:
            raise ValueError("it is not the learner's turn")
        move = find_move(self.position, text_or_move) if isinstance(text_or_move, str) else text_or_move
        if move not in self.position.legal_moves():
            raise ValueError(f"{move_text(move)!r} is not a legal move here")
        keeps = self._keeps_goal(move)
        if keeps is None:
            return MoveCheck(False, unclear=True)  # unproven either way: not played, not a mistake
        if not keeps:
            self.mistakes += 1
            if self.outcome is Outcome.UNFINISHED:
                self.outcome = Outcome.FAILED
            keeps_win = (self._bombs_left is not None
                         and self.solver.is_winning_move(self.position, move) is True)
            return MoveCheck(False, refutation=self.refutation(move), keeps_win=keeps_win)
        self._advance(move, True)
        replies = self._defend()
        solved = self.finished
        if solved and self.outcome is Outcome.UNFINISHED:
            self.outcome = Outcome.SOLVED
        return MoveCheck(True, replies=replies, solved=solved)

    def refutation(self, move: Move) -> list[Played]:
        """How the other side wins after ``move``: the move, then the solver's fastest line."""
        player = self.position.to_move
        after = self.position.after(move)
        line = [Played(player, move, True)]
        if after.is_over:
            return line
        result = self.solver.solve(after, "fastest", all_moves=False)
        if self._bombs_left is not None and self.solver.is_winning_move(self.position, move):
            # The win is kept, the bombs are not: the line where the defence plays for the fewest bombs.
            result = self.solver.solve(after, "score")
        for who, reply in result.line:
            line.append(Played(who, reply, after.roles[who] is self.side))
        return line

    def _forced_pass(self) -> bool:
        """The learner's side must pass (its only legal move): nothing to decide."""
        return self.learner_to_move and self.position.legal_moves() == [None]

    def _defend(self) -> list[Played]:
        """The other side moves until the learner has a choice again (or the game ends).

        A pass the learner's side is forced into (a partner who can beat nothing,
        as in a duel with the third player out of it) is made for them.
        """
        played = []
        while not self.finished and (not self.learner_to_move or self._forced_pass()):
            if self.learner_to_move:
                self._advance(None, True)
            else:
                move = self._tree_move() if self._expected is not None else self._toughest_defence()
                self._advance(move, False)
            played.append(self.history[-1])
        return played

    def _toughest_defence(self) -> Move:
        """The defence that delays the learner's win the longest (ties: the first legal); for a "win with N
        bombs" goal, the one that lets the fewest bombs be played."""
        if self._bombs_left is not None:
            return self._fewest_bombs_defence()
        best: Move = None
        best_value = -1
        for move in self.position.legal_moves():
            after = self.position.after(move)
            if after.is_over:
                return move
            value = self.solver.solve(after, "fastest", all_moves=False).win_in
            value = -1 if value is None else value
            if value > best_value:
                best, best_value = move, value
        return best

    def _fewest_bombs_defence(self) -> Move:
        """The defence after which the fewest bombs and rockets can be forced (ties: the first legal)."""
        best: Move = None
        best_value: int | None = None
        for move in self.position.legal_moves():
            if self.position.after(move).is_over:
                return move
            value = self._bombs_after(move)
            if value is not None and (best_value is None or value < best_value):
                best, best_value = move, value
        return best

    # ----------------------------------------------------------- hints, solution
    def hint(self) -> tuple[int, Move]:
        """(level, move): level 1 names only the kind, level 2 the move itself."""
        if not self.learner_to_move:
            raise ValueError("it is not the learner's turn")
        self.hints += 1
        self.hint_level = min(self.hint_level + 1, 2)
        if self.outcome is Outcome.UNFINISHED:
            self.outcome = Outcome.ASSISTED
        return self.hint_level, self.expected_move()

    def show_solution(self) -> list[Played]:
        """Play the rest of the solution out (unrated unless already decided)."""
        self.used_solution = True
        if self.outcome is Outcome.UNFINISHED:
            self.outcome = Outcome.ASSISTED
        played: list[Played] = []
        guard = 0
        while not self.finished and guard < 200:
            guard += 1
            if self.learner_to_move:
                self._advance(self.expected_move(), True)
                played.append(self.history[-1])
            else:
                played.extend(self._defend())
        return played

    def start(self) -> list[Played]:
        """Moves before the learner's first turn (none in the shipped puzzles)."""
        return self._defend()


def kind_label(move: Move) -> str:
    """The kind's label of a move (``pass`` for a pass), for hints."""
    return "pass" if move is None else Kind(move.kind).label
