"""Win chances from the learner's view: the coach's one measure of a move.

The coach may only know what the learner knows (RULES §8), so it judges a
decision the way a strong card program would: it draws hidden hands that fit
the learner's :class:`~tutor.engine.view.PlayerView` (the unseen cards, the
card counts, the landlord's kitty cards, what passes and past plays reveal —
the hard bot's inference, :func:`tutor.bots.sampling.likely_samples`), plays
every candidate out on every sample, and counts how often the learner's side
wins.  The *same* samples serve every candidate (common random numbers), so
the difference between two candidates is not the luck of two different sets of
deals; :meth:`Evaluation.loss_noise` is the standard error of that difference.

How a candidate is played out on one sample:

* when few cards are left (:attr:`Budget.exact_cards`), the sampled deal is
  solved exactly (:mod:`tutor.solver`): one search gives every legal move's
  verdict on that deal, so *every* legal move is a candidate;
* otherwise the candidate is played and the hard level's judgement (without
  its own look-ahead) plays everybody until the cards in play drop to
  :attr:`Budget.leaf_cards`, where the solver takes over.

Every budget is a count — samples, candidates, solver nodes — never seconds:
the same view gives the same figures on an idle or a busy machine.  The random
generator is seeded from the view's public facts only, so a view that is the
same gives the same answer wherever it comes from (a game, ``ddz analyze``).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tutor.bots.base import whole_hand_play
from tutor.bots.counting import pass_limits
from tutor.bots.hard import HardBot
from tutor.bots.medium import MediumBot
from tutor.bots.rollout import PlaySim
from tutor.bots.sampling import likely_samples
from tutor.bots.search import sample_position
from tutor.engine.cards import packed_size
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.trick import replay_trick
from tutor.engine.view import PlayerView
from tutor.solver import Solver

Move = Combo | None

#: A rollout that has not ended after this many turns counts as a loss (cannot happen with legal play).
MAX_TURNS = 400


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one decision may cost — in samples and nodes, never in seconds.

    The defaults are sized by ``ddz bench coach`` (median under 0.3 s, worst
    under 1.5 s per decision on a 2-core machine); see docs/coach.md.
    """

    #: Hidden deals drawn per decision (every candidate plays on each).
    samples: int = 16
    #: Candidates rolled out (besides the moves asked about) before the endgame.
    width: int = 4
    #: Solve each sample exactly when the cards in play are at most this many.
    exact_cards: int = 20
    #: A rollout hands over to the solver when the cards in play drop to this many.
    leaf_cards: int = 12
    #: Node budget of one exact solve ("unknown" beyond it, then the rollout goes on).
    nodes: int = 20_000
    #: Card swaps per sample towards a deal that explains the others' past plays.
    steps: int = 3
    #: How many recent turns that explanation looks at.
    recent: int = 8
    #: Who plays the rollouts: "medium" (what the hard bot's own rollouts use) or "hard"
    #: (the hard level's judgement without look-ahead: about 1.6 times slower per play).
    policy: str = "hard"


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True, slots=True)
class CandidateValue:
    """One candidate's result over the samples: ``outcomes[i]`` is 1 when it won sample ``i``."""

    move: Move
    outcomes: tuple[int, ...]

    @property
    def wins(self) -> int:
        return sum(self.outcomes)

    @property
    def win_chance(self) -> float:
        return self.wins / len(self.outcomes) if self.outcomes else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`win_chance` (binomial)."""
        n = len(self.outcomes)
        if n < 2:
            return 0.0
        p = self.win_chance
        return math.sqrt(p * (1 - p) / n)


@dataclass(slots=True)
class Evaluation:
    """Every candidate's win chance for one decision, best first."""

    view: PlayerView
    candidates: list[CandidateValue]
    samples: int
    #: "exact" (each sample solved) or "rollout".
    method: str
    budget: Budget = field(default=DEFAULT_BUDGET)
    _evaluator: _Evaluator | None = field(default=None, repr=False, compare=False)

    @property
    def best(self) -> CandidateValue:
        return self.candidates[0]

    def value(self, move: Move) -> CandidateValue | None:
        for c in self.candidates:
            if c.move == move:
                return c
        return None

    def loss(self, move: Move) -> float:
        """Win chance lost by ``move`` against the best candidate (0 for the best)."""
        got = self.value(move)
        if got is None:
            raise KeyError(f"{move!r} was not evaluated")
        return max(0.0, self.best.win_chance - got.win_chance)

    def with_moves(self, moves: Iterable[Move]) -> Evaluation:
        """This evaluation with ``moves`` added, played out on the same samples.

        The same figures as :func:`evaluate` with ``moves`` asked for: the new
        moves are evaluated after the others, as there.
        """
        new = [m for m in moves if self.value(m) is None]
        if not new:
            return self
        if self._evaluator is None:
            return evaluate(self.view, new, self.budget)
        legal = _legal(self.view)
        for m in new:
            if m not in legal:
                raise ValueError(f"{'pass' if m is None else m.text} is not a legal move here")
        added = [self._evaluator.outcomes(m) for m in new]
        return _ranked(self.view, [*self.candidates, *added], self.method, self.budget, self._evaluator)

    def loss_noise(self, move: Move) -> float:
        """Standard error of :meth:`loss`: the spread of the paired per-sample differences."""
        got = self.value(move)
        if got is None:
            raise KeyError(f"{move!r} was not evaluated")
        diffs = [a - b for a, b in zip(self.best.outcomes, got.outcomes)]
        n = len(diffs)
        if n < 2:
            return 0.0
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return math.sqrt(var / n)


def view_seed(view: PlayerView, salt: str = "coach") -> str:
    """A seed made of the view's public facts only (so equal views draw equal samples)."""
    history = [(t.seat, None if t.play is None else tuple(t.play)) for t in view.history]
    facts = (
        view.seat,
        view.hand.packed,
        view.bids,
        view.landlord,
        None if view.kitty is None else view.kitty.packed,
        history,
        view.card_counts,
        view.to_move,
        None if view.table is None else tuple(view.table),
        view.table_seat,
        view.bid,
    )
    return salt + ":" + hashlib.sha256(repr(facts).encode()).hexdigest()


def make_policy(name: str) -> MediumBot:
    """The rollout policy named by a budget: "hard" (its judgement, no look-ahead) or "medium"."""
    if name == "hard":
        return HardBot(0, search=False, rollouts=False)
    if name == "medium":
        return MediumBot(0)
    raise ValueError(f"unknown rollout policy {name!r} (hard or medium)")


def _side_wins(view: PlayerView, winner: int) -> int:
    assert view.landlord is not None
    return int((winner == view.landlord) == (view.seat == view.landlord))


class _Evaluator:
    """One evaluation's working state: samples, the policy, the solver and its caches."""

    def __init__(self, view: PlayerView, budget: Budget, exact: bool) -> None:
        self.view = view
        self.budget = budget
        self.exact_mode = exact
        self.policy = make_policy(budget.policy)
        # A fresh solver per evaluation: with a node budget, warm tables could
        # turn an "unknown" into an answer, and the answer must not depend on
        # what was asked before.
        self.solver = Solver(max_nodes=budget.nodes, workers=1, rules=view.rules)
        rng = random.Random(view_seed(view))
        self.deals = likely_samples(
            view, rng, budget.samples, MediumBot(0), budget.steps, pass_limits(view), budget.recent
        )
        self._exact: dict[tuple[int, ...], tuple[bool, list[Move]]] = {}

    def outcomes(self, move: Move) -> CandidateValue:
        """``move`` played out on every sample."""
        if move is not None and move.cards == self.view.hand.packed:
            return CandidateValue(move, tuple(1 for _ in self.deals))  # going out wins at once
        if self.exact_mode:
            return CandidateValue(move, tuple(self.exact_outcome(h, move) for h in self.deals))
        return CandidateValue(move, tuple(self.rollout(h, move) for h in self.deals))

    def _key(self, hidden: dict[int, int]) -> tuple[int, ...]:
        return tuple(sorted(hidden.items()))  # type: ignore[arg-type]

    # ------------------------------------------------------------ exact mode
    def exact(self, hidden: dict[int, int]) -> tuple[bool, list[Move]]:
        """(complete, proven winning moves) of the sampled deal, solved once per distinct deal."""
        key = self._key(hidden)
        got = self._exact.get(key)
        if got is None:
            result = self.solver.solve(sample_position(self.view, hidden), "win", all_moves=True, line=False)
            got = (result.complete, list(result.winning_moves))
            self._exact[key] = got
        return got

    def exact_outcome(self, hidden: dict[int, int], move: Move) -> int:
        complete, winners = self.exact(hidden)
        if move in winners:
            return 1
        if complete:
            return 0
        return self.rollout(hidden, move)

    # ---------------------------------------------------------- rollout mode
    def rollout(self, hidden: dict[int, int], first: Move) -> int:
        """Play ``first``, then the policy for everybody; the solver once the cards are few."""
        view = self.view
        assert view.landlord is not None
        hands = [view.hand.packed if s == view.seat else hidden.get(s, 0) for s in range(view.players)]
        sim = PlaySim(hands, view.landlord, view.seat, replay_trick(view.history, view.players), list(view.history), view)
        winner = sim.apply(first)
        turns = 0
        while winner is None and turns < MAX_TURNS:
            if sum(packed_size(h) for h in sim.hands) <= self.budget.leaf_cards:
                leaf = self.leaf(sim)
                if leaf is not None:
                    return leaf
            winner = sim.apply(self.policy.play(sim.view(sim.to_move)))
            turns += 1
        return 0 if winner is None else _side_wins(view, winner)

    def leaf(self, sim: PlaySim) -> int | None:
        """Solve the rollout's position exactly; None when the node budget runs out."""
        seat_view = sim.view(sim.to_move)
        others = {s: sim.hands[s] for s in range(len(sim.hands)) if s != sim.to_move}
        result = self.solver.solve(sample_position(seat_view, others), "win", all_moves=False, line=False)
        if result.mover_wins is None:
            return None
        mover_side = _side_wins(self.view, sim.to_move)
        return mover_side if result.mover_wins else 1 - mover_side


def _legal(view: PlayerView) -> list[Move]:
    moves: list[Move] = list(legal_moves(view.hand, view.table, view.rules))
    if view.table is not None:
        moves.append(None)
    return moves


def rollout_candidates(view: PlayerView, width: int) -> list[Move]:
    """The moves worth rolling out: the hard level's choice and its plausible alternatives."""
    bot = HardBot(0, search=False, rollouts=False)
    bot.rollout_width = width
    found = bot.candidates(view, bot.heuristic_play(view))
    return found[: max(width, 1) + (1 if view.table is not None else 0)]


def evaluate(view: PlayerView, moves: Iterable[Move] = (), budget: Budget = DEFAULT_BUDGET) -> Evaluation:
    """Each candidate's win chance for the learner's decision, best first.

    Args:
        view: the learner's view, on their turn in the play phase.
        moves: moves that must be among the candidates (the move the learner
            played, the one they ask about).  They are evaluated after the
            others, so asking about a move never changes the other figures.
        budget: samples and nodes allowed.

    Raises:
        ValueError: When it is not the viewer's turn to play, or a move asked
            about is not legal.
    """
    if view.landlord is None or view.to_move != view.seat or not view.hand:
        raise ValueError("the coach evaluates a play of the player to move")
    legal = _legal(view)
    asked = [m for m in moves]
    for m in asked:
        if m not in legal:
            raise ValueError(f"{'pass' if m is None else m.text} is not a legal move here")
    finish = whole_hand_play(view.hand.packed, view.table)
    if finish is not None and finish not in asked:
        asked.insert(0, finish)
    total = sum(view.card_counts)
    exact = total <= budget.exact_cards
    if exact:
        order = _ordered_unique([*legal, *asked])
    else:
        order = _ordered_unique([*rollout_candidates(view, budget.width), *asked])
    if len(legal) == 1:
        order = legal
    ev = _Evaluator(view, budget, exact)
    results = [ev.outcomes(move) for move in order]
    return _ranked(view, results, "exact" if exact else "rollout", budget, ev)


def _ranked(
    view: PlayerView, results: list[CandidateValue], method: str, budget: Budget, ev: _Evaluator
) -> Evaluation:
    """Best first: most wins, then the thriftiest move, then the order of evaluation."""
    ranked = sorted(enumerate(results), key=lambda ir: (-ir[1].wins, _thrift_rank(ir[1].move, view), ir[0]))
    return Evaluation(view, [r for _, r in ranked], len(ev.deals), method, budget, ev)


def _ordered_unique(moves: Sequence[Move]) -> list[Move]:
    out: list[Move] = []
    for m in moves:
        if m not in out:
            out.append(m)
    return out


def _thrift_rank(move: Move, view: PlayerView) -> tuple[int, int, int, int]:
    """Between equal win chances: going out, then pass, no bomb, low cards, more of them.

    The cheapest of equally good moves keeps the most for later — the same
    tie-break the hard bot's search uses.
    """
    from tutor.bots.search import _thrift

    return (int(move is None or move.cards != view.hand.packed), *_thrift(move))
