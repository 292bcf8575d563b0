"""The coach at the table: status lines, hints, mistakes, forced wins and the review.

No click, no rich: the coach produces *lines* (in the current language, from
:mod:`tutor.i18n`) and the CLI, the lessons or the puzzles decide how to show
them.  :class:`Coach` keeps what the coach said during one game, so the review
can recall it and an undo can take it back.

* :mod:`tutor.coach.status` — bidding and play status lines (RULES §9);
* :mod:`tutor.coach.evaluation` — win chances from the learner's view;
* :mod:`tutor.coach.advice` — hints and verdicts from those win chances;
* :mod:`tutor.coach.bidding` — bids judged by expected score (a win chance
  cannot compare roles with different stakes);
* :mod:`tutor.coach.mistakes` — one detector per beginner mistake (RULES §11),
  attached as explanations to verdicts of inaccuracy or worse;
* :mod:`tutor.coach.endgame` — "you had a forced win" from the exact solver on
  open hands: a full-information fact, said only in the review, labelled;
* :mod:`tutor.coach.review` — the short review after the game.

During play the coach speaks from the learner's view only (RULES §8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tutor.coach import advice
from tutor.coach.advice import Hint, Verdict, judge, verdict_phrase, verdict_text
from tutor.coach.bidding import (
    DEFAULT_BID_BUDGET,
    BidBudget,
    BidEvaluation,
    BidVerdict,
    bid_hint_phrase,
    bid_status_phrase,
    bid_verdict_phrase,
    evaluate_bid,
    judge_bid,
)
from tutor.coach.endgame import EndgameCheck, check_position, missed_forced_win
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget, Evaluation, Evaluator, evaluate, view_seed
from tutor.coach.mistakes import Finding, bid_finding, detect
from tutor.coach.review import Moment, review_phrases
from tutor.coach.status import BidStatus, PlayStatus, bid_status, play_status
from tutor.coach.variant_judge import evaluate_open, judge_open, open_hint_phrase, open_verdict_phrase
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView, Turn
from tutor.engine.rules import Rules
from tutor.i18n import Phrase

if TYPE_CHECKING:
    from tutor.solver.solver import Solver


class Coach:
    """One game's coach.

    Args:
        enabled: when False the coach stays silent during play (status lines
            and hints still work: they are the table's, not the coach's).
        endgame: whether to run the solver check when few cards remain.
        max_nodes: the solver's node budget per check.
        evaluator: what measures the learner's play decisions (hints and verdicts share one
            evaluation a turn); :func:`~tutor.coach.evaluation.evaluate` by default.
    """

    def __init__(
        self,
        enabled: bool = True,
        endgame: bool = True,
        max_nodes: int | None = None,
        budget: Budget = DEFAULT_BUDGET,
        *,
        rules: Rules,
        solver: Solver | None = None,
        bid_budget: BidBudget = DEFAULT_BID_BUDGET,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.rules = rules
        #: What measures the learner's decisions (injected; :func:`tutor.coach.evaluation.evaluate` by default).
        self.evaluator: Evaluator = evaluate if evaluator is None else evaluator
        self.bid_budget = bid_budget
        #: Injected exact solver for the open-hand checks (None: a fresh one per check).
        self.solver = solver
        self.enabled = enabled
        self.endgame = endgame
        self.max_nodes = max_nodes
        self.budget = budget
        self.moments: list[Moment] = []
        #: Every judged move of the learner: (action index, move number, verdict).
        self.verdicts: list[tuple[int, int, Verdict]] = []
        #: Full-information facts for the review only: (action index, move number, finding).
        self.open_facts: list[tuple[int, int, Finding]] = []
        self._evaluation: tuple[str, Evaluation] | None = None
        #: Every judged bid of the learner: (action index, verdict).
        self.bid_verdicts: list[tuple[int, BidVerdict]] = []
        self._bid_evaluation: tuple[str, BidEvaluation] | None = None
        #: The learner's open-hand decision, judged (RULES §12.2): (action index, verdict; bid 1 = shown).
        self.open_verdicts: list[tuple[int, BidVerdict]] = []
        self._open_evaluation: tuple[str, BidEvaluation] | None = None
        #: False once a move of the learner went unjudged (coach off, or a save from before verdicts were kept).
        self.judged_all = True

    def __getstate__(self) -> dict[str, Any]:
        """A saved coach holds no reference to the default evaluator (a function): the web's saved sessions
        are read back by an unpickler that builds classes only and never resolves a function, and a
        coach saved that way would be dropped on the next request.  An injected evaluator is kept."""
        state = self.__dict__.copy()
        if state.get("evaluator") is evaluate:
            state["evaluator"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.evaluator is None:
            self.evaluator = evaluate

    def to_data(self) -> dict[str, Any]:
        """What a saved game keeps of the coach, as data (JSON-ready), so a resumed game judges nothing twice.

        The remarks, every verdict on a move or a bid (exact figures) and the
        open-hand facts for the review, and whether every move so far was judged (False once a move
        went unjudged: the coach off, or verdicts lost with an old save).
        """
        return {
            "moments": [m.to_data() for m in self.moments],
            "verdicts": [[index, number, v.to_data()] for index, number, v in self.verdicts],
            "bid_verdicts": [[index, v.to_data()] for index, v in self.bid_verdicts],
            "open_verdicts": [[index, v.to_data()] for index, v in self.open_verdicts],
            "open_facts": [[index, number, f.to_data()] for index, number, f in self.open_facts],
            "judged_all": self.enabled and self.judged_all,
        }

    def load_data(self, data: Mapping[str, Any]) -> None:
        """Take back :meth:`to_data` of a saved game (nothing is evaluated again).

        An item that cannot be read is left out; a verdict left out means the
        game's analysis is no longer complete, so :attr:`judged_all` turns False.
        """
        self.judged_all = data.get("judged_all") is True
        for item in _items(data.get("moments")):
            try:
                self.moments.append(Moment.from_data(item))
            except (TypeError, ValueError):
                continue
        for item in _items(data.get("verdicts")):
            try:
                index, number, raw = item
                self.verdicts.append((int(index), int(number), Verdict.from_data(raw, self.rules)))
            except (TypeError, ValueError):
                self.judged_all = False
        for item in _items(data.get("bid_verdicts")):
            try:
                index, raw = item
                self.bid_verdicts.append((int(index), BidVerdict.from_data(raw)))
            except (TypeError, ValueError):
                self.judged_all = False
        for item in _items(data.get("open_verdicts")):
            try:
                index, raw = item
                self.open_verdicts.append((int(index), BidVerdict.from_data(raw)))
            except (TypeError, ValueError):
                self.judged_all = False
        for item in _items(data.get("open_facts")):
            try:
                index, number, raw = item
                self.open_facts.append((int(index), int(number), Finding.from_data(raw)))
            except (TypeError, ValueError):
                continue

    def evaluation(self, view: PlayerView, moves: Sequence[Combo | None] = ()) -> Evaluation:
        """The evaluation of the learner's decision (kept for the turn: hint and verdict share it)."""
        key = view_seed(view)
        if self._evaluation is not None and self._evaluation[0] == key:
            ev = self._evaluation[1].with_moves(moves)
        else:
            ev = self.evaluator(view, moves, self.budget)
        self._evaluation = (key, ev)
        return ev

    def hints(self, view: PlayerView) -> list[Hint]:
        """The hint list of the learner's turn, best first, from their view only."""
        return advice.hints(view, self.budget, self.evaluation(view))

    def bid_status(self, hand: Cards) -> BidStatus:
        return bid_status(hand)

    # -------------------------------------------------------- bids by expected score
    def bid_evaluation(self, view: PlayerView) -> BidEvaluation:
        """The expected score of every legal bid (kept for the turn: status, hints and verdict share it)."""
        key = view_seed(view, "bid")
        if self._bid_evaluation is None or self._bid_evaluation[0] != key:
            self._bid_evaluation = (key, evaluate_bid(view, self.bid_budget))
        return self._bid_evaluation[1]

    def bid_status_phrase(self, view: PlayerView) -> Phrase:
        """The bidding status line: the hand's facts (RULES §9) and the best bid by expected score."""
        return bid_status_phrase(bid_status(view.hand), self.bid_evaluation(view))

    def bid_hints(self, view: PlayerView) -> list[tuple[int, Phrase]]:
        """The bid hints, best first: (bid, its line) — "hint" the first, "hint again" the next."""
        ev = self.bid_evaluation(view)
        return [(c.bid, bid_hint_phrase(n, c, ev)) for n, c in enumerate(ev.candidates, 1)]

    def bid_verdict(self, view: PlayerView, made: int, action_index: int) -> Phrase | None:
        """Judge the learner's bid by expected score; a remark (as data) on an inaccuracy or worse, else None.

        The old rule-of-thumb remark (:func:`~tutor.coach.mistakes.bid_finding`:
        a bid far from the hand's points) becomes the explanation of a flagged
        verdict when it matches, and is never said on its own.
        """
        if not self.enabled:
            return None
        verdict, ev = judge_bid(view, made, self.bid_budget, self.bid_evaluation(view))
        self.bid_verdicts.append((action_index, verdict))
        if verdict.unclear:
            return bid_verdict_phrase(verdict, ev)  # said with its figures, not a mistake to replay
        if not verdict.flagged:
            return None
        remark = bid_verdict_phrase(verdict, ev)
        status = bid_status(view.hand)
        # The rule of thumb speaks of 1-2-3 bids: in a rob auction (RULES §12.1) the figures stand alone.
        finding = None if view.rules.robs else bid_finding(status.phrase, status.suggested, made)
        if finding is not None:
            remark = Phrase("coach.joined", {"first": remark, "second": finding.phrase})
        self.moments.append(Moment(action_index, 0, remark))
        return remark

    # ------------------------------------------------ the open hand by expected score
    def open_evaluation(self, view: PlayerView) -> BidEvaluation:
        """Keep the hand closed or show it (RULES §12.2): both choices' expected scores (kept for the turn)."""
        key = view_seed(view, "open")
        if self._open_evaluation is None or self._open_evaluation[0] != key:
            self._open_evaluation = (key, evaluate_open(view, self.bid_budget))
        return self._open_evaluation[1]

    def open_hints(self, view: PlayerView) -> list[tuple[int, Phrase]]:
        """The open-hand hints, best first: (choice: 1 = show, 0 = keep closed; its line)."""
        ev = self.open_evaluation(view)
        return [(c.bid, open_hint_phrase(n, c, ev)) for n, c in enumerate(ev.candidates, 1)]

    def open_verdict(self, view: PlayerView, shown: bool, action_index: int) -> Phrase | None:
        """Judge showing the hand (or not) by expected score: a remark on an inaccuracy or worse, else None.

        "Unclear" (a loss inside twice its noise) is said with its figures and not kept as a mistake.
        """
        if not self.enabled:
            return None
        verdict, ev = judge_open(view, shown, self.bid_budget, self.open_evaluation(view))
        self.open_verdicts.append((action_index, verdict))
        if verdict.unclear:
            return open_verdict_phrase(verdict, ev)
        if not verdict.flagged:
            return None
        remark = open_verdict_phrase(verdict, ev)
        self.moments.append(Moment(action_index, 0, remark))
        return remark

    def after_bid(self, status: BidStatus, made: int, action_index: int, move: int) -> str | None:
        """:meth:`bid_remark` in the current language."""
        remark = self.bid_remark(status, made, action_index, move)
        return None if remark is None else remark.render()

    def bid_remark(self, status: BidStatus, made: int, action_index: int, move: int) -> Phrase | None:
        """A remark on the bid, as data (what sessions use), or None."""
        if not self.enabled:
            return None
        finding = bid_finding(status.phrase, status.suggested, made)
        if finding is None:
            return None
        self.moments.append(Moment(action_index, move, finding.phrase))
        return finding.phrase

    def before_move(
        self,
        hands: Sequence[Cards],
        landlord: int,
        mover: int,
        table: Combo | None,
        table_seat: int | None,
    ) -> EndgameCheck | None:
        """Solve the position before the learner moves (None when too big, off or undecided)."""
        if not (self.enabled and self.endgame):
            return None
        kwargs = {} if self.max_nodes is None else {"max_nodes": self.max_nodes}
        return check_position(hands, landlord, mover, table, table_seat, rules=self.rules, solver=self.solver, **kwargs)

    def after_move(
        self,
        view: PlayerView,
        move: Combo | None,
        check: EndgameCheck | None,
        action_index: int,
        move_number: int,
    ) -> str | None:
        """:meth:`move_remark` in the current language."""
        remark = self.move_remark(view, move, check, action_index, move_number)
        return None if remark is None else remark.render()

    def move_remark(
        self,
        view: PlayerView,
        move: Combo | None,
        check: EndgameCheck | None,
        action_index: int,
        move_number: int,
    ) -> Phrase | None:
        """One remark about the learner's move, as data (what sessions use), or None.

        The verdict comes from the learner's view; the coach speaks only on an
        inaccuracy or worse (with the beginner mistake it matches, if any).  A
        forced win missed on open hands (``check``) is kept for the review.
        """
        if not self.enabled:
            return None
        missed = missed_forced_win(check, move)
        if missed is not None:
            self.open_facts.append((action_index, move_number, missed))
        if _forced(view):
            return None
        verdict, _ = judge(view, move, self.budget, self.evaluation(view, (move,)))
        self.verdicts.append((action_index, move_number, verdict))
        if verdict.unclear:
            return verdict_phrase(verdict)  # said with its figures, but not a mistake to replay
        if not verdict.flagged:
            return None
        remark = verdict_phrase(verdict)
        self.moments.append(Moment(action_index, move_number, remark))
        return remark

    def forget_from(self, action_index: int) -> None:
        """Undo took the game back to ``action_index`` actions: drop later remarks."""
        self.moments = [m for m in self.moments if m.action_index < action_index]
        self.verdicts = [v for v in self.verdicts if v[0] < action_index]
        self.bid_verdicts = [v for v in self.bid_verdicts if v[0] < action_index]
        self.open_verdicts = [v for v in self.open_verdicts if v[0] < action_index]
        self.open_facts = [f for f in self.open_facts if f[0] < action_index]

    def review(
        self,
        history: Sequence[Turn],
        landlord: int,
        winner: int,
        hints: int,
        undos: int,
    ) -> list[str]:
        return [line.render() for line in self.review_phrases(history, landlord, winner, hints, undos)]

    def review_phrases(
        self, history: Sequence[Turn], landlord: int, winner: int, hints: int, undos: int
    ) -> list[Phrase]:
        """The review as data (render each phrase in the learner's language)."""
        return review_phrases(self.moments, history, landlord, winner, hints, undos,
                              verdicts=self.verdicts, open_facts=self.open_facts, rules=self.rules)  # fmt: skip


def _items(value: object) -> list[Any]:
    """A stored list, or nothing (a damaged save loses its remarks, never the game)."""
    return list(value) if isinstance(value, list) else []


def _forced(view: PlayerView) -> bool:
    """Only one legal move: nothing to judge."""
    from tutor.engine.moves import legal_moves

    return len(legal_moves(view.hand, view.table, view.rules)) + (view.table is not None) <= 1


__all__ = [
    "BidBudget",
    "BidStatus",
    "BidVerdict",
    "Budget",
    "Coach",
    "EndgameCheck",
    "Finding",
    "Hint",
    "PlayStatus",
    "Verdict",
    "bid_status",
    "play_status",
    "verdict_text",
]
