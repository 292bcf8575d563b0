"""Proving what a lesson teaches: right answers best, "mistakes" worse, nothing better left out.

A lesson's play task makes three kinds of claim about its position:

1. every accepted answer is good for the task's goal;
2. every answer its feedback calls wrong is worse than the accepted ones;
3. when it lists its answers (no ``winning: true``), no unlisted move is as good.

Which claims can be *proven* depends on what the goal needs to see:

* ``win`` and ``fastest`` need every hand: they are proven with the exact solver
  when the position is **open** (every hand given and shown).  ``win``: an
  answer is good when it wins, worse when it loses.  ``fastest``: good when it
  wins in the fewest plays of your side, worse when it loses or needs more.
* ``fewest_plays`` needs only your hand (a plan: how many plays empty it, as
  the landlord's opening plan counts them).  Good: the move starts a plan with
  the least plays; worse: it needs more.  With ``holding`` the question is
  about the play that takes those cards: only moves holding them compete.
* ``thrift`` needs only your hand too: the move that leaves the fewest plays
  in your hand and, among those, spends the lowest cards ("beat it cheaply",
  "the loosest wing", "keep the 2s"): worse is a move that leaves more plays,
  or as many while spending a higher card.

Claims on hidden hands (the learner sees only their own) are about what the
learner can know, so the open-hand solver cannot prove them: with ``view=True``
they are weighed by the coach's view-based evaluation
(:mod:`tutor.lessons.view_claims`), otherwise counted as *unchecked*.  When
every hand is given there, the accepted answers must at least win in the dealt
cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol
from dataclasses import dataclass, field

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.rules import Rules
from tutor.lessons.model import Setup, Task
from tutor.lessons.moves import MoveSpec, illegal_reason, resolve
from tutor.lessons.oracle import Oracle
from tutor.lessons.table import solver_position
from tutor.solver.tables import HandTables

Move = Combo | None
FieldPath = tuple[str | int, ...]

#: Goals that need every hand open, and the ones that need only yours.
OPEN_GOALS = frozenset({"win", "fastest"})
PLAN_GOAL = "fewest_plays"
THRIFT_GOAL = "thrift"
HAND_GOALS = frozenset({PLAN_GOAL, THRIFT_GOAL})
INF = float("inf")
#: A move's figures under a goal, compared in order: lower is better.
Value = tuple[float, ...]


@dataclass
class Tally:
    """How many claims were proven, and how many could not be checked."""

    proven: int = 0
    unchecked: int = 0
    #: Lesson positions in the play proven reachable by a whole game replayed to them.
    reachable: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    #: Hidden-hand claims the view-based evaluation could not tell apart from the accepted answers.
    unclear: list[str] = field(default_factory=list)

    def prove(self, kind: str) -> None:
        self.proven += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1


def is_open(setup: Setup) -> bool:
    """Every hand given and shown: the learner sees what the solver sees."""
    return setup.fully_known and all(seat in setup.show for seat in range(setup.rules.players))


def move_name(move: Move) -> str:
    return "pass" if move is None else move.text


def _same(a: Move, b: Move) -> bool:
    if a is None or b is None:
        return a is b
    return a.cards == b.cards and a.kind == b.kind


@dataclass(frozen=True)
class Answer:
    """One answer the task talks about, where it is written, and what it claims."""

    move: Move
    where: FieldPath
    accepted: bool


def task_answers(task: Task, setup: Setup, where: FieldPath) -> tuple[list[Answer], list[Answer]]:
    """(accepted, called wrong) answers of a play or line task, legal ones only.

    Accepted: the listed moves and every legal move of the listed kinds.
    Called wrong: feedback answers, and every legal move of a feedback kind
    that the task does not accept.
    """
    hand = setup.hands[0]
    table = setup.table
    accepted: list[Answer] = []
    for i, spec in enumerate(task.moves):
        if illegal_reason(hand, table, spec) is None:
            accepted.append(Answer(resolve(hand, table, spec), (*where, "accept", "moves", i), True))
    moves = legal_moves(hand, table)
    for i, kind in enumerate(task.kinds):
        accepted.extend(Answer(m, (*where, "accept", "kinds", i), True) for m in moves if m.kind == kind)
    wrong: list[Answer] = []
    for i, fb in enumerate(task.feedback):
        at: FieldPath = (*where, "feedback", i)
        if fb.answer is not None:
            try:
                spec = MoveSpec(None) if str(fb.answer).strip().lower() == "pass" else _spec(str(fb.answer))
            except ValueError:
                continue
            if illegal_reason(hand, table, spec) is None:
                move = resolve(hand, table, spec)
                if not any(_same(move, a.move) for a in accepted):
                    wrong.append(Answer(move, (*at, "answer"), False))
        elif fb.kind is not None:
            wrong.extend(Answer(m, (*at, "kind"), False) for m in moves
                         if m.kind == fb.kind and not any(_same(m, a.move) for a in accepted))
    return accepted, wrong


def _spec(text: str) -> MoveSpec:
    from tutor.lessons.moves import parse_move

    return parse_move(text)


Report = Callable[[FieldPath, str, str], None]


class Weigher(Protocol):
    """Weighs a hidden-hand task from the learner's view (:class:`tutor.lessons.view_claims.ViewProver`)."""

    def play(self, task: Task, setup: Setup, where: FieldPath, extra: Sequence[Move] = ()) -> bool: ...

    def bid(self, bids: Sequence[int], setup: Setup, where: FieldPath, show: bool = False) -> bool: ...

    def scoped(self, task: Task, setup: Setup, where: FieldPath) -> bool: ...


#: Builds a :class:`Weigher` for a report and a tally (injected: this module does not know the coach).
WeigherFactory = Callable[[Report, "Tally"], Weigher]


class ClaimProver:
    """Proves the claims of play and line tasks; reports what does not hold."""

    def __init__(
        self, oracle: Oracle, report: Report, view: bool = False, weigher: WeigherFactory | None = None
    ) -> None:
        self.oracle = oracle
        #: What weighs hidden-hand claims when ``view`` is on (passed in by the validator).
        self.weigher = weigher
        self.report = report
        self.tally = Tally()
        #: The hand tables of each rule set the lessons' setups follow (RULES §12).
        self._tables: dict[Rules, HandTables] = {}
        #: Weigh hidden-hand claims with the coach's view-based evaluation (slower: ~1-4 s a task).
        self.view = view

    # ----------------------------------------------------------------- values
    def _values(self, task: Task, setup: Setup, moves: Iterable[Move]) -> dict[Move, Value]:
        """Lower is better (compared in order); a first figure of ``inf`` = loses, or is no
        answer to the question."""
        goal = task.goal
        values: dict[Move, Value] = {}
        hand = setup.hands[0]
        tables = self._tables.get(setup.rules)
        if tables is None:
            tables = self._tables[setup.rules] = HandTables(rules=setup.rules)
        if goal == PLAN_GOAL:
            for m in moves:
                if m is None or (task.goal_holding is not None
                                 and not task.goal_holding.issubset(Cards(m.cards))):
                    values[m] = (INF,)
                else:
                    values[m] = (1.0 + tables.min_plays(hand.packed - m.cards),)
            return values
        if goal == THRIFT_GOAL:
            for m in moves:
                spent = () if m is None else tuple(float(r) for r in sorted(Cards(m.cards).ranks(), reverse=True))
                left = hand.packed - (0 if m is None else m.cards)
                values[m] = (float(tables.min_plays(left)), *spent)
            return values
        assert setup.landlord is not None
        pos = solver_position(setup)
        if goal == "win":
            wins = self.oracle.winning_moves(pos)
            return {m: ((0.0,) if any(_same(m, w) for w in wins) else (INF,)) for m in moves}
        for m in moves:
            plays = self.oracle.plays_to_win(pos, m)
            values[m] = (INF,) if plays is None else (float(plays),)
        return values

    # ------------------------------------------------------------------ tasks
    def play(self, task: Task, setup: Setup, where: FieldPath, listed_only: bool) -> None:
        """Claims of a play task.  ``listed_only``: the task names its answers (no ``winning``)."""
        goal = task.goal
        if goal == THRIFT_GOAL:
            self._coach_scoped(task, setup, where)
        elif goal == PLAN_GOAL:
            if setup.table is not None:
                self.report((*where, "goal"), "bad_goal", "a fewest_plays goal is about your lead: the table must be empty")
                return
            self._coach_scoped(task, setup, where)
        elif not is_open(setup):
            accepted, wrong = task_answers(task, setup, where)
            hand = setup.hands[0]
            out = [a for a in accepted if a.move is not None and a.move.cards == hand.packed]
            if out and len(out) == len(accepted) and not wrong:
                # Going out wins whatever the others hold: nothing hidden matters.
                self.tally.prove("accepted")
                return
            if setup.fully_known and goal == "win" and listed_only:
                self._accepted_win_in_deal(setup, accepted)
            if goal == "win" and self.view and self._view_check(task, setup, where, task.winning):
                return
            self.tally.unchecked += len(wrong) + (1 if listed_only else 0)
            return
        self._prove(task, setup, where, listed_only)

    def line(self, task: Task, setup: Setup, where: FieldPath) -> None:
        """A line task accepts every winning move; what its feedback calls wrong must lose."""
        _, wrong = task_answers(task, setup, where)
        if not is_open(setup):
            if not (wrong and self.view and self._view_check(task, setup, where, True)):
                self.tally.unchecked += len(wrong)
            return
        assert setup.landlord is not None
        wins = self.oracle.winning_moves(solver_position(setup))
        self.tally.prove("accepted")
        for answer in wrong:
            if any(_same(answer.move, w) for w in wins):
                self.report(answer.where, "mistake_wins",
                            f"the lesson calls {move_name(answer.move)!r} wrong, but it wins too")
            else:
                self.tally.prove("mistake")

    def _view_check(self, task: Task, setup: Setup, where: FieldPath, solver_accepts: bool) -> bool:
        """Weigh a hidden-hand task with the coach's evaluation; False when it cannot be done.

        ``solver_accepts``: the task accepts the moves the solver proves winning in the dealt
        cards (``winning: true``, line tasks); those are the accepted answers weighed.
        """
        if self.weigher is None:
            return False
        extra: list[Move] = []
        if solver_accepts:
            if not setup.fully_known:
                return False
            assert setup.landlord is not None
            extra = list(self.oracle.winning_moves(solver_position(setup)))
        return self.weigher(self.report, self.tally).play(task, setup, where, extra)

    def _coach_scoped(self, task: Task, setup: Setup, where: FieldPath) -> None:
        """Hand-proven goals on hidden hands: the coach must not contradict them (view only)."""
        if self.view and self.weigher is not None and not is_open(setup):
            self.weigher(self.report, self.tally).scoped(task, setup, where)

    def bid(self, task: Task, setup: Setup, where: FieldPath) -> None:
        """A bidding task against the coach's bid evaluation (counted unchecked without ``view``)."""
        if self.weigher is None or not self.weigher(self.report, self.tally).bid(task.bids, setup, where):
            self.tally.unchecked += 1

    def show(self, task: Task, setup: Setup, where: FieldPath) -> None:
        """An open-hand decision (RULES §12.2) against the coach's expected score of both choices."""
        if self.weigher is None or not self.weigher(self.report, self.tally).bid(task.bids, setup, where, show=True):
            self.tally.unchecked += 1

    def _accepted_win_in_deal(self, setup: Setup, accepted: list[Answer]) -> None:
        assert setup.landlord is not None
        wins = self.oracle.winning_moves(solver_position(setup))
        for answer in accepted:
            if any(_same(answer.move, w) for w in wins):
                self.tally.prove("accepted_in_deal")
            else:
                self.report(answer.where, "refuted",
                            f"accepted answer {move_name(answer.move)!r} loses against the hands dealt here")

    def _prove(self, task: Task, setup: Setup, where: FieldPath, listed_only: bool) -> None:
        accepted, wrong = task_answers(task, setup, where)
        legal: list[Move] = list(legal_moves(setup.hands[0], setup.table))
        if setup.table is not None:
            legal.append(None)
        values = self._values(task, setup, legal)
        best = min(values.values(), default=(INF,))
        plays = f"{best[0]:g}"
        what = {"win": "wins", "fastest": f"wins in {plays} plays", PLAN_GOAL: f"empties your hand in {plays} plays",
                THRIFT_GOAL: f"leaves {plays} plays and spends no higher cards"}
        if best[0] == INF:
            self.report((*where, "goal") if task.goal != "win" else (*where, "accept"), "refuted",
                        "no move holds the cards the goal names" if task.goal == PLAN_GOAL
                        else "no move reaches the goal here (the solver proves every move loses)")
            return
        if task.winning:
            self.tally.prove("accepted")  # every winning move is accepted, and one exists
        for answer in accepted:
            value = self._value_of(values, answer.move)
            if value == best:
                self.tally.prove("accepted")
            elif value[0] == INF:
                self.report(answer.where, "refuted",
                            f"accepted answer {move_name(answer.move)!r} does not reach the goal (best: one that {what[task.goal]})")
            elif value[0] > best[0]:
                self.report(answer.where, "not_best",
                            f"accepted answer {move_name(answer.move)!r} needs {value[0]:g} plays; the best needs {plays}")
            else:
                self.report(answer.where, "not_best",
                            f"accepted answer {move_name(answer.move)!r} spends higher cards than needed (best: one that {what[task.goal]})")
        for answer in wrong:
            value = self._value_of(values, answer.move)
            if value > best:
                self.tally.prove("mistake")
            else:
                self.report(answer.where, "mistake_wins",
                            f"the lesson calls {move_name(answer.move)!r} wrong, but it {what[task.goal]} as well")
        if not listed_only:
            return
        named = [a.move for a in accepted] + [a.move for a in wrong]
        left_out = [m for m in legal if values[m] == best and not any(_same(m, n) for n in named)]
        for m in left_out:
            self.report((*where, "accept"), "unlisted_best",
                        f"{move_name(m)!r} also {what[task.goal]}, but the lesson does not accept it")
        if not left_out:
            self.tally.prove("unique")

    @staticmethod
    def _value_of(values: dict[Move, Value], move: Move) -> Value:
        for m, v in values.items():
            if _same(m, move):
                return v
        return (INF,)
