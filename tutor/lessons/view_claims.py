"""Claims on hidden hands, checked with the coach's view-based evaluation (issue 13).

When the learner sees only their own cards, "this is right, that is a mistake"
is a claim about what they can know, so the open-hand solver cannot prove it.
The coach's :func:`tutor.coach.evaluation.evaluate` can weigh it: it draws the
hidden hands that fit the learner's view and plays every move out on the same
samples, with budgets counted in samples and nodes (the same figures on every
run).  Its answer has an uncertainty, so the verdicts are three:

* **clearly worse** — the answer called wrong wins less often than the best
  accepted answer by more than :data:`SIGMAS` standard errors of the paired
  difference: proven (as far as sampling proves anything);
* **contradicted** — it wins *more* often by that margin, or an unlisted move
  does when the task names its answers: reported as a problem;
* **not clear** — within the noise: counted, not reported.

Rules exercises ("beat it with a straight": answers accepted by ``kinds``) make
no claim about unlisted moves; their feedback is still weighed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from tutor.coach.advice import level_for
from tutor.coach.bidding import DEFAULT_BID_BUDGET, BID_BLUNDER, BID_INACCURACY, BID_MISTAKE, BidBudget, evaluate_bid
from tutor.coach.describe import Description, DescriptionError, to_view
from tutor.coach.evaluation import Budget, CandidateValue, Evaluation, evaluate
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView, Turn, bidding_view, view_from_public
from tutor.lessons.claims import Answer, Tally, move_name, task_answers
from tutor.lessons.model import Setup, Task

Move = Combo | None
FieldPath = tuple[str | int, ...]
Report = Callable[[FieldPath, str, str], None]

#: Samples per task: more than a game's hint uses, since a lesson's word should be surer.
BUDGET = Budget(samples=48)
#: A difference counts when it exceeds this many standard errors.
SIGMAS = 2.0
#: Hidden deals per bidding task: three times the table's, so the lesson's word is surer than one verdict.
BID_BUDGET = BidBudget(samples=48)
#: Verdicts of the coach that leave a choice alone (advice.FLAGGED are the others).
GOOD = ("best", "good")


def bid_view(setup: Setup) -> PlayerView | None:
    """The learner's view of a bidding step: 17 cards, the bids made before (RULES §3, §8), under the
    lesson's rules (a rob auction's calls and robs, RULES §12.1)."""
    hand = setup.hands.get(0)
    if setup.landlord is not None or hand is None or len(hand) != setup.rules.hand_size:
        return None
    return bidding_view(0, hand, setup.bids, setup.rules)


def show_view(setup: Setup) -> PlayerView | None:
    """The landlord's view at the open-hand decision (RULES §12.2): 20 cards with the kitty, before the
    first play, under a rule set that allows showing. The auction is the lesson's earlier bids and then
    the learner's winning bid. None when the step is not that decision."""
    hand = setup.hands.get(0)
    rules = setup.rules
    full = rules.hand_size + rules.kitty_size
    if (setup.landlord != 0 or hand is None or len(hand) != full or setup.kitty is None or setup.bid is None
            or setup.history or setup.table is not None or not setup.rules.can_open):
        return None
    bids = (*setup.bids, (0, setup.bid))
    counts = (full, *(rules.hand_size for _ in range(rules.players - 1)))
    return view_from_public(0, hand, 0, (), counts, bids=bids, kitty=setup.kitty, to_move=0, bid=setup.bid,
                            rules=setup.rules)


def lesson_view(setup: Setup) -> PlayerView | None:
    """The learner's view of a lesson position (None when the coach cannot describe it)."""
    if setup.landlord is None or 0 not in setup.hands or setup.to_move != 0:
        return None
    trick: list[Turn] = []
    if setup.table is not None and setup.table_by is not None:
        trick.append(Turn(setup.table_by, setup.table))
        seat = (setup.table_by + 1) % setup.rules.players
        while seat != 0:
            trick.append(Turn(seat, None))
            seat = (seat + 1) % setup.rules.players
    counts = {s: setup.count(s) for s in (1, 2)}
    if any(c is None for c in counts.values()):
        return None
    gone = None
    if setup.history_complete or setup.gone is not None:  # the learner knows every card played
        current = setup.table.cards if setup.table is not None else 0
        before = setup.gone.packed if setup.gone is not None else 0
        gone = Cards(setup.played().packed - current + before)
    try:
        return to_view(Description(hand=setup.hands[0], landlord=setup.landlord,
                                   counts={s: int(c) for s, c in counts.items() if c is not None},
                                   trick=tuple(trick), gone=gone, kitty=setup.kitty, bid=setup.bid))
    except DescriptionError:
        return None


def _named(bid: int, rules: Rules, show: bool = False) -> str:
    """A bid, call/rob or open-hand choice as the validator's messages name it."""
    if show:
        return "show the hand" if bid else "keep it closed"
    if rules.robs:
        return ("pass", "call", "rob")[bid]
    return "pass" if bid == 0 else f"bid {bid}"


def _paired(a: CandidateValue, b: CandidateValue) -> tuple[float, float]:
    """(mean of a − b, its standard error) over the shared samples."""
    return _mean_se([x - y for x, y in zip(a.outcomes, b.outcomes)])


def _mean_se(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of paired differences and its standard error."""
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


class ViewProver:
    """Weighs the claims of hidden-hand play tasks with the coach's evaluation."""

    def __init__(self, report: Report, tally: Tally, budget: Budget = BUDGET) -> None:
        self.report = report
        self.tally = tally
        self.budget = budget

    def play(self, task: Task, setup: Setup, where: FieldPath, extra: Sequence[Move] = ()) -> bool:
        """Check one task; False when the coach cannot evaluate it (the claims stay unchecked).

        ``extra``: more accepted answers (the moves a ``winning: true`` or line task accepts).
        """
        view = lesson_view(setup)
        if view is None:
            return False
        accepted, wrong = task_answers(task, setup, where)
        accepted = accepted + [Answer(m, (*where, "accept"), True) for m in extra]
        if not accepted:
            return False
        ev = evaluate(view, [a.move for a in accepted] + [w.move for w in wrong], self.budget)
        self._accepted_good(task, accepted, ev)
        values = [ev.value(a.move) for a in accepted]
        best = max((v for v in values if v is not None), key=lambda v: v.win_chance)
        for answer in wrong:
            self._weigh(answer, best, ev.value(answer.move))
        if task.moves and not task.kinds and not task.winning:
            self._unlisted(best, [a.move for a in accepted] + [w.move for w in wrong], ev.candidates, where)
        return True

    def _accepted_good(self, task: Task, accepted: Sequence[Answer], ev: Evaluation,
                       top: CandidateValue | None = None) -> None:
        """Every accepted answer is one the coach leaves alone (best or good, with its noise).

        Compared with ``top`` when given (the best move that answers a narrower question);
        else a rules drill ("lead a pair": answers accepted by ``kinds``), which asks for a move
        of those kinds, with the best move the drill allows; any other task with the best move.
        """
        drill = bool(task.kinds) and not task.moves and not task.winning
        values = [v for v in (ev.value(a.move) for a in accepted) if v is not None]
        if not values:
            return
        best = top or (max(values, key=lambda v: v.win_chance) if drill else ev.best)
        for answer in accepted:
            got = ev.value(answer.move)
            if got is None:
                continue
            diff, se = _paired(best, got)
            level = level_for(max(0.0, diff), se)
            if level in GOOD:
                self.tally.prove("accepted_view")
            else:
                self.report(answer.where, "coach_disagrees",
                            f"the lesson accepts {move_name(answer.move)!r}, but the coach calls it {level}:"
                            f" {got.win_chance:.0%} against {best.win_chance:.0%} for {move_name(best.move)!r}"
                            f" (±{se:.0%}, {len(got.outcomes)} samples)")

    def scoped(self, task: Task, setup: Setup, where: FieldPath) -> bool:
        """A ``thrift`` or ``fewest_plays`` task on hidden hands: the coach must not contradict it.

        Such a task asks a narrower question than "what is best here" ("beat it cheaply", "the
        first play of your plan"), and its claim is proven on the hand alone. What the coach
        checks is that the course does not teach against it: every accepted answer is among its
        good choices *among the moves that answer the question* (every play but a pass; with
        ``holding``, the plays that take those cards), and no answer called wrong wins clearly
        more often than the best accepted one.
        """
        view = lesson_view(setup)
        if view is None:
            return False
        accepted, wrong = task_answers(task, setup, where)
        if not accepted:
            return False
        ev = evaluate(view, [a.move for a in accepted] + [w.move for w in wrong], self.budget)
        holding = task.goal_holding

        def answers(move: Move) -> bool:
            return move is not None and (holding is None or holding.issubset(Cards(move.cards)))

        scope = [c for c in ev.candidates if answers(c.move)]
        values = [v for v in (ev.value(a.move) for a in accepted) if v is not None]
        if not scope or not values:
            return False
        self._accepted_good(task, accepted, ev, max(scope, key=lambda c: c.win_chance))
        best = max(values, key=lambda v: v.win_chance)
        for answer in wrong:
            got = ev.value(answer.move)
            if got is None:
                continue
            diff, se = _paired(got, best)
            if diff > SIGMAS * se and diff > 0:
                self.report(answer.where, "view_contradicts",
                            f"the lesson calls {move_name(answer.move)!r} wrong, but from the learner's view it wins"
                            f" more often ({got.win_chance:.0%} against {best.win_chance:.0%} for"
                            f" {move_name(best.move)!r}, ±{se:.0%})")
            else:
                self.tally.prove("not_contradicted_view")
        return True

    def bid(self, bids: Sequence[int], setup: Setup, where: FieldPath, show: bool = False) -> bool:
        """A bidding task against the coach's expected score (:mod:`tutor.coach.bidding`).

        Every accepted bid must be one the coach leaves alone — on the lesson's budget and on the
        table's, so the coach at the table never corrects what the course taught — and every
        other legal bid (the learner hears "wrong" for it) must score clearly less than the best
        accepted one: by more than :data:`SIGMAS` standard errors of the paired difference.
        """
        view = show_view(setup) if show else bid_view(setup)
        if view is None:
            return False
        if show:  # the open hand: the same expected-score question as a bid (tutor/coach/variant_judge.py)
            from tutor.coach.variant_judge import evaluate_open

            ev, table = evaluate_open(view, BID_BUDGET), evaluate_open(view, DEFAULT_BID_BUDGET)
        else:
            ev, table = evaluate_bid(view, BID_BUDGET), evaluate_bid(view, DEFAULT_BID_BUDGET)

        def _bid_name(bid: int) -> str:
            return _named(bid, setup.rules, show)

        thresholds = (BID_INACCURACY, BID_MISTAKE, BID_BLUNDER)
        legal = [c.bid for c in ev.candidates]
        for i, bid in enumerate(bids):
            if bid not in legal:
                continue
            for figures, name in ((ev, "lesson"), (table, "table")):
                level = level_for(figures.loss(bid), figures.loss_noise(bid), thresholds)
                if level not in GOOD:
                    self.report((*where, "accept", "bids", i), "coach_disagrees",
                                f"the lesson accepts {_bid_name(bid)}, but the coach calls it {level} on the {name}'s"
                                f" budget: {figures.value(bid).expected:+.2f} against"
                                f" {figures.best.expected:+.2f} for {_bid_name(figures.best.bid)} (base stakes,"
                                f" {figures.samples} samples)")
                    break
            else:
                self.tally.prove("bid_accepted")
        good = [ev.value(b) for b in bids if b in legal]
        if not good:
            return True
        best = max(good, key=lambda v: v.expected)
        for bid in legal:
            if bid in bids:
                continue
            got = ev.value(bid)
            diffs = [a - b for a, b in zip(best.scores, got.scores)]
            mean, se = _mean_se(diffs)
            if mean > SIGMAS * se and mean > 0:
                self.tally.prove("bid_mistake")
            else:
                self.report((*where, "accept", "bids"), "coach_disagrees",
                            f"the lesson calls {_bid_name(bid)} wrong, but the coach does not find it clearly worse:"
                            f" {got.expected:+.2f} against {best.expected:+.2f} for {_bid_name(best.bid)}"
                            f" (±{se:.2f} base stakes, {ev.samples} samples)")
        return True

    def _weigh(self, answer: Answer, best: CandidateValue, got: CandidateValue | None) -> None:
        if got is None:
            self.tally.unchecked += 1
            return
        diff, se = _paired(best, got)
        if diff > SIGMAS * se and diff > 0:
            self.tally.prove("mistake_view")
        elif -diff > SIGMAS * se and diff < 0:
            self.report(answer.where, "view_contradicts",
                        f"the lesson calls {move_name(answer.move)!r} wrong, but from the learner's view it wins more"
                        f" often ({got.win_chance:.0%} against {best.win_chance:.0%} for"
                        f" {move_name(best.move)!r}, ±{se:.0%}, {len(best.outcomes)} samples)")
        else:
            self.tally.by_kind["view_unclear"] = self.tally.by_kind.get("view_unclear", 0) + 1
            self.tally.unclear.append(
                f"{'.'.join(map(str, answer.where))}: {move_name(answer.move)!r} {got.win_chance:.0%} against"
                f" {move_name(best.move)!r} {best.win_chance:.0%} (±{se:.0%})")

    def _unlisted(self, best: CandidateValue, named: Sequence[Move], candidates: Sequence[CandidateValue],
                  where: FieldPath) -> None:
        clear = True
        for other in candidates:
            if other.move in named:
                continue
            diff, se = _paired(other, best)
            if diff > SIGMAS * se and diff > 0:
                clear = False
                self.report((*where, "accept"), "view_contradicts",
                            f"from the learner's view {move_name(other.move)!r} wins more often than the accepted"
                            f" answers ({other.win_chance:.0%} against {best.win_chance:.0%}, ±{se:.0%})")
        if clear:
            self.tally.prove("unique_view")
