"""Win chances from the learner's view: the coach's one measure of a move.

The coach may only know what the learner knows (RULES §8), so it judges a
decision the way a strong card program would: it draws hidden hands that fit
the learner's :class:`~tutor.engine.view.PlayerView` (the unseen cards, the
card counts, the landlord's kitty cards, what passes and past plays reveal —
the hard bot's inference, provided as :func:`tutor.judgement.players`), plays
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

**Sequential sampling.**  The samples come in fixed steps
(:attr:`Budget.samples` each): after every step the figures are read, and
another step is drawn only while a figure the coach will say is still
undecided — a candidate's loss against the best whose verdict could change
within twice its noise and whose noise is above :attr:`Budget.target_noise`,
or the win chance of the best or of a move asked about with a standard error
above :attr:`Budget.chance_noise` — up to :attr:`Budget.max_samples`.  A
candidate that is settled stops being played out (it keeps the figures of the
samples it saw; the paired figures use the samples both candidates saw), so
the work goes where the verdict is close.

Every budget is a count — samples, steps, candidates, solver nodes — never
seconds: the same view gives the same figures on an idle or a busy machine.  The random
generator is seeded from the view's public facts only, so a view that is the
same gives the same answer wherever it comes from (a game, ``ddz analyze``).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from tutor import judgement
from tutor.engine.combos import Combo
from tutor.engine.facts import whole_hand_play
from tutor.engine.game import Game
from tutor.engine.moves import legal_moves
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView
from tutor.solver import Position, Solver
from tutor.solver.playout import available as quick_available
from tutor.solver.playout import playout

Move = Combo | None

#: A rollout that has not ended after this many turns counts as a loss (cannot happen with legal play).
MAX_TURNS = 400


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one decision may cost — in samples and nodes, never in seconds.

    The defaults are sized by ``ddz bench coach`` and ``ddz bench coach
    --quality``; see docs/coach.md for the measured time and precision.
    """

    #: Hidden deals drawn per step of the sequential sampling (the first step included).
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
    #: Who plays the rollouts: "quick" (the compiled play-out, :func:`tutor.bots.rollout.playout`;
    #: the hard policy stands in where it is not built or the rules are not the standard ones),
    #: "hard" (the hard level's judgement without look-ahead, in Python: ten to fifty times
    #: slower a game) or "medium".  A hand-made budget keeps "hard" (what the lesson validator
    #: and older callers were measured with); :data:`DEFAULT_BUDGET`, the coach's, is "quick".
    policy: str = "hard"
    #: At most this many samples in all (steps of :attr:`samples` are added while a figure is
    #: undecided).  ``max_samples <= samples`` (the default of a hand-made budget) gives one
    #: fixed step, the behaviour before issue 20; :data:`DEFAULT_BUDGET` samples up to 320.
    max_samples: int = 0
    #: A loss whose standard error is at most this is settled (issue 20: 0.04).
    target_noise: float = 0.04
    #: A shown win chance (the best's, a move asked about) is settled at this standard error.
    chance_noise: float = 0.05


#: The coach's budget: steps of 16 samples up to 320 (``ddz bench coach``: median 0.2 s CPU a decision).
DEFAULT_BUDGET = Budget(policy="quick", max_samples=320)

#: The most one decision may cost with two decks (RULES §12.4: four hands of 25 cards, no compiled
#: play-out, the exact search without its one-deck shortcuts): medium plays the rollouts, fewer
#: samples, the solver only on the last few cards.  The verdicts read the noise as ever, so a
#: smaller sample says "unclear" more often, never something false.
MANY_DECKS_CAP = Budget(samples=8, width=3, exact_cards=10, leaf_cards=8, nodes=4_000, policy="medium", max_samples=24)


def within_rules(budget: Budget, rules: Rules) -> Budget:
    """``budget`` capped by :data:`MANY_DECKS_CAP` when the rules deal more than one deck."""
    if rules.decks == 1:
        return budget
    cap = MANY_DECKS_CAP
    return replace(
        budget, samples=min(budget.samples, cap.samples), width=min(budget.width, cap.width),
        exact_cards=min(budget.exact_cards, cap.exact_cards), leaf_cards=min(budget.leaf_cards, cap.leaf_cards),
        nodes=min(budget.nodes, cap.nodes), policy=cap.policy, max_samples=min(budget.max_samples, cap.max_samples),
    )


#: Loss thresholds of the play verdicts (inaccuracy, mistake, blunder): lichess's fractions of
#: winning chances (docs/coach.md).  They live here because the sequential sampling stops on them.
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
#: A loss is told from luck when it exceeds this many standard errors of the paired difference.
NOISE_SIGMAS = 2.0
#: A loss is flagged (a remark, a moment of "learn from your mistakes") only when it lies at least
#: this many standard errors above the inaccuracy line (issue 20): the quality bench's false alarms
#: were all losses measured just above 0.10 that 16 times the samples put just below it.  Sized on
#: the bench's 200 decisions (docs/coach.md): 0.3 keeps agreement above 0.90 with false alarms
#: under 0.03; 0.5 cut false alarms to 0.01 but missed 6 of 48 real inaccuracies.
FLAG_MARGIN = 0.3


def flags(loss: float, noise: float) -> bool:
    """Is a loss of ``loss`` ± ``noise`` flagged?  Told from luck (above :data:`NOISE_SIGMAS`
    noises) and at least :data:`FLAG_MARGIN` noises above the inaccuracy line."""
    return loss > NOISE_SIGMAS * noise and loss - FLAG_MARGIN * noise >= INACCURACY


def settled(loss: float, noise: float, target: float, thresholds: tuple[float, ...] = (INACCURACY, MISTAKE, BLUNDER)) -> bool:
    """Is a loss of ``loss`` ± ``noise`` known well enough to name its verdict?

    Yes when its noise is at most ``target``, or when every value within
    :data:`NOISE_SIGMAS` noises of it falls in the same verdict band (a loss of
    0.02 ± 0.03 is good either way; 0.70 ± 0.1 a blunder either way).
    """
    if noise <= target:
        return True
    low, high = loss - NOISE_SIGMAS * noise, loss + NOISE_SIGMAS * noise
    return sum(low >= x for x in thresholds) == sum(high >= x for x in thresholds)


@dataclass(frozen=True, slots=True)
class CandidateValue:
    """One candidate's result over the samples: ``outcomes[i]`` is 1 when it won sample ``i``."""

    move: Move
    outcomes: tuple[int, ...]
    #: The move plays the whole hand: a win, proven, whatever the hidden cards are.
    going_out: bool = False

    @property
    def wins(self) -> int:
        return sum(self.outcomes)

    @property
    def win_chance(self) -> float:
        return self.wins / len(self.outcomes) if self.outcomes else 0.0

    @property
    def samples(self) -> int:
        return len(self.outcomes)

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`win_chance` (binomial)."""
        n = len(self.outcomes)
        if n < 2:
            return 0.0
        p = self.win_chance
        return math.sqrt(p * (1 - p) / n)

    @property
    def noise(self) -> float:
        """:attr:`stderr`, or — when every sample agreed — the rule-of-three bound's third
        (``1/n``): all wins on ``n`` samples is not a proof, and the noise says so."""
        n = len(self.outcomes)
        if n == 0 or self.going_out:
            return 0.0
        return max(self.stderr, 1.0 / n) if self.wins in (0, n) else self.stderr

    @property
    def proven(self) -> bool:
        """Is the win chance exact, not sampled?  Only going out at once (the game is won)."""
        return self.going_out


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
        """Win chance lost by ``move`` against the best candidate (0 for the best), paired: on the
        samples both saw (a candidate the sequential sampling stopped early saw the first ones)."""
        got = self.value(move)
        if got is None:
            raise KeyError(f"{move!r} was not evaluated")
        n = min(got.samples, self.best.samples)
        if n == 0:
            return 0.0
        return max(0.0, (sum(self.best.outcomes[:n]) - sum(got.outcomes[:n])) / n)

    def with_moves(self, moves: Iterable[Move]) -> Evaluation:
        """This evaluation with ``moves`` added, played out on the same samples.

        The moves are asked about: they are played on every sample drawn so
        far (a candidate already evaluated included), and the sequential
        sampling goes on while their figures are undecided (so the other
        candidates' figures may gain samples too).
        """
        moves = list(moves)
        new = [m for m in moves if self.value(m) is None]
        if self._evaluator is None:
            return evaluate(self.view, new, self.budget) if new else self
        if all(m in self._evaluator.asked for m in moves):
            return self
        legal = _legal(self.view)
        for m in new:
            if m not in legal:
                raise ValueError(f"{'pass' if m is None else m.text} is not a legal move here")
        # A candidate already evaluated becomes a move asked about too: the verdict's figures
        # follow the asked moves' rules (played on every sample, their win chance shown within its target).
        return self._evaluator.run(moves)

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


class Evaluator(Protocol):
    """What measures a decision for the coach (``Coach(evaluator=…)``): :func:`evaluate` by default;
    a test may inject a cached or a cheaper one."""

    def __call__(self, view: PlayerView, moves: Iterable[Move] = (), budget: Budget = ...) -> Evaluation: ...


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


def make_policy(name: str) -> judgement.Player:
    """The Python rollout policy named by a budget (the provided judgement's, :mod:`tutor.judgement`)."""
    return judgement.players().policy(name)


def _side_wins(view: PlayerView, winner: int) -> int:
    assert view.landlord is not None
    return int((winner == view.landlord) == (view.seat == view.landlord))


class _Evaluator:
    """One evaluation's working state: samples, the policy, the solver and its caches.

    It keeps every candidate's outcomes so far, so asking about another move
    later (:meth:`Evaluation.with_moves`) plays only that move — on the samples
    already drawn — and then goes on with the sequential sampling.
    """

    def __init__(self, view: PlayerView, budget: Budget, exact: bool) -> None:
        self.view = view
        self.budget = budget
        self.exact_mode = exact
        self.method = "exact" if exact else "rollout"
        self.policy = make_policy(budget.policy)
        self.quick = budget.policy == "quick" and quick_available(view.rules)
        # A fresh solver per evaluation: with a node budget, warm tables could
        # turn an "unknown" into an answer, and the answer must not depend on
        # what was asked before.
        self.solver = Solver(max_nodes=budget.nodes, workers=1, rules=view.rules)
        self.deals: list[dict[int, int]] = []
        self.steps = 0
        self._exact: dict[tuple[int, ...], tuple[bool, list[Move]]] = {}
        #: Every candidate's outcomes so far, in the order they were first asked for.
        self.results: dict[Move, list[int]] = {}
        self.asked: list[Move] = []
        self.going_out = whole_hand_play(view.hand.packed, view.table, view.rules)

    # ------------------------------------------------------- sequential sampling
    def draw(self) -> bool:
        """Add one step of samples (False when the cap is reached).

        Step ``k`` draws from a generator seeded by the view's public facts and
        ``k`` (the first step with the seed alone, as before sequential sampling).
        """
        room = max(self.budget.max_samples, self.budget.samples) - len(self.deals)
        if room <= 0:
            return False
        seed = view_seed(self.view) if self.steps == 0 else f"{view_seed(self.view)}:{self.steps}"
        rng = random.Random(seed)
        count = min(self.budget.samples, room)
        self.deals.extend(judgement.players().sample_deals(self.view, rng, count, self.quick, self.budget.steps, self.budget.recent))
        self.steps += 1
        return True

    def fill(self, move: Move) -> None:
        """Play ``move`` out on every sample drawn so far that it has not seen."""
        got = self.results.setdefault(move, [])
        for hidden in self.deals[len(got):]:
            got.append(self.outcome(hidden, move))

    def outcome(self, hidden: dict[int, int], move: Move) -> int:
        if move is not None and move == self.going_out:
            return 1  # going out wins at once
        if self.exact_mode:
            return self.exact_outcome(hidden, move)
        return self.rollout(hidden, move)

    def value(self, move: Move) -> CandidateValue:
        return CandidateValue(move, tuple(self.results[move]), move is not None and move == self.going_out)

    def evaluation(self) -> Evaluation:
        return _ranked(self.view, [self.value(m) for m in self.results], self.method, self.budget, self)

    def needs(self, ev: Evaluation) -> list[Move]:
        """The candidates whose figures are still undecided (empty: stop sampling).

        A candidate other than the best needs more samples while its loss is
        not :func:`settled`; the best and every move asked about also while
        their win chance's standard error is above ``chance_noise``.  When
        anything needs more, the best and the moves asked about are played on
        the new samples too (every loss is measured against the best, on the
        samples both saw).
        """
        budget = self.budget
        best = ev.best
        wanted: list[Move] = []
        for c in ev.candidates[1:]:
            if c.samples < len(self.deals) and c.move not in self.asked:
                continue  # settled earlier: it stays as it was
            if not settled(ev.loss(c.move), ev.loss_noise(c.move), budget.target_noise):
                wanted.append(c.move)
        shown: list[CandidateValue | None] = [best, *(ev.value(m) for m in self.asked)]
        for value in shown:
            if value is not None and not value.proven and value.stderr > budget.chance_noise and value.move not in wanted:
                wanted.append(value.move)
        if not wanted:
            return []
        return _ordered_unique([best.move, *self.asked, *wanted])

    def run(self, asked: Sequence[Move] = (), order: Sequence[Move] = ()) -> Evaluation:
        """Evaluate ``order`` and ``asked`` (new moves), drawing steps while anything is undecided."""
        self.asked = _ordered_unique([*self.asked, *asked])
        if not self.deals:
            self.draw()
        for move in _ordered_unique([*order, *asked]):
            self.fill(move)
        while True:
            ev = self.evaluation()
            if ev.best.samples < len(self.deals):
                # A candidate stopped early now leads: every loss is measured against it, so it
                # sees every sample first (it may then fall back behind another).
                self.fill(ev.best.move)
                continue
            active = self.needs(ev)
            if not active or not self.draw():
                return ev
            for move in active:
                self.fill(move)

    def _key(self, hidden: dict[int, int]) -> tuple[int, ...]:
        return tuple(sorted(hidden.items()))  # type: ignore[arg-type]

    # ------------------------------------------------------------ exact mode
    def exact(self, hidden: dict[int, int]) -> tuple[bool, list[Move]]:
        """(complete, proven winning moves) of the sampled deal, solved once per distinct deal."""
        key = self._key(hidden)
        got = self._exact.get(key)
        if got is None:
            result = self.solver.solve(Position.from_view(self.view, hidden, from_mover=True), "win", all_moves=True, line=False)
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
        game = Game.from_view(view, hidden, checked=False)
        game.push(first)
        if self.quick:
            if not game.is_over and sum(game.card_counts) <= self.budget.leaf_cards:
                leaf = self.leaf(game)
                if leaf is not None:
                    return leaf
            winner = game.winner
            if winner is None:
                winner = playout(game.hands_packed, view.landlord, game.to_move, game.table, game.table_seat)
            return 0 if winner is None or winner < 0 else _side_wins(view, winner)
        turns = 0
        while not game.is_over and turns < MAX_TURNS:
            if sum(game.card_counts) <= self.budget.leaf_cards:
                leaf = self.leaf(game)
                if leaf is not None:
                    return leaf
            game.push(self.policy.play(game.view(game.to_move)))
            turns += 1
        return 0 if game.winner is None else _side_wins(view, game.winner)

    def leaf(self, game: Game) -> int | None:
        """Solve the rollout's position exactly; None when the node budget runs out."""
        mover = game.to_move
        seat_view = game.view(mover)
        others = {s: game.hands_packed[s] for s in range(game.players) if s != mover}
        result = self.solver.solve(Position.from_view(seat_view, others, from_mover=True), "win", all_moves=False, line=False)
        if result.mover_wins is None:
            return None
        mover_side = _side_wins(self.view, mover)
        return mover_side if result.mover_wins else 1 - mover_side


def _legal(view: PlayerView) -> list[Move]:
    moves: list[Move] = list(legal_moves(view.hand, view.table, view.rules))
    if view.table is not None:
        moves.append(None)
    return moves


def rollout_candidates(view: PlayerView, width: int) -> list[Move]:
    """The moves worth rolling out: the hard level's choice and its plausible alternatives."""
    return judgement.players().candidates(view, width)


def evaluate(view: PlayerView, moves: Iterable[Move] = (), budget: Budget = DEFAULT_BUDGET) -> Evaluation:
    """Each candidate's win chance for the learner's decision, best first.

    Args:
        view: the learner's view, on their turn in the play phase.
        moves: moves that must be among the candidates (the move the learner
            played, the one they ask about).  They are evaluated after the
            others and are never dropped by the sequential sampling (their
            figures may add samples that the other candidates then share).
        budget: samples, steps and nodes allowed.

    Raises:
        ValueError: When it is not the viewer's turn to play, or a move asked
            about is not legal.
    """
    if view.landlord is None or view.to_move != view.seat or not view.hand:
        raise ValueError("the coach evaluates a play of the player to move")
    budget = within_rules(budget, view.rules)
    legal = _legal(view)
    asked = [m for m in moves]
    for m in asked:
        if m not in legal:
            raise ValueError(f"{'pass' if m is None else m.text} is not a legal move here")
    finish = whole_hand_play(view.hand.packed, view.table, view.rules)
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
    return _Evaluator(view, budget, exact).run(asked, order)


def _ranked(
    view: PlayerView, results: list[CandidateValue], method: str, budget: Budget, ev: _Evaluator
) -> Evaluation:
    """Best first: highest win chance, then the thriftiest move, then the order of evaluation."""
    ranked = sorted(
        enumerate(results), key=lambda ir: (-ir[1].win_chance, _thrift_rank(ir[1].move, view), ir[0])
    )
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
    return (int(move is None or move.cards != view.hand.packed), *judgement.players().thrift(move))
