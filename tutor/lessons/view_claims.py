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

from tutor.coach.describe import Description, DescriptionError, to_view
from tutor.coach.evaluation import Budget, CandidateValue, evaluate
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView, Turn
from tutor.lessons.claims import Answer, Tally, move_name, task_answers
from tutor.lessons.model import Setup, Task

Move = Combo | None
FieldPath = tuple[str | int, ...]
Report = Callable[[FieldPath, str, str], None]

#: Samples per task: more than a game's hint uses, since a lesson's word should be surer.
BUDGET = Budget(samples=48)
#: A difference counts when it exceeds this many standard errors.
SIGMAS = 2.0


def lesson_view(setup: Setup) -> PlayerView | None:
    """The learner's view of a lesson position (None when the coach cannot describe it)."""
    if setup.landlord is None or 0 not in setup.hands or setup.to_move != 0:
        return None
    trick: list[Turn] = []
    if setup.table is not None and setup.table_by is not None:
        trick.append(Turn(setup.table_by, setup.table))
        seat = (setup.table_by + 1) % 3
        while seat != 0:
            trick.append(Turn(seat, None))
            seat = (seat + 1) % 3
    counts = {s: setup.count(s) for s in (1, 2)}
    if any(c is None for c in counts.values()):
        return None
    gone = None
    if setup.history_complete:
        current = setup.table.cards if setup.table is not None else 0
        gone = Cards(setup.played().packed - current)
    try:
        return to_view(Description(hand=setup.hands[0], landlord=setup.landlord,
                                   counts={s: int(c) for s, c in counts.items() if c is not None},
                                   trick=tuple(trick), gone=gone, kitty=setup.kitty, bid=setup.bid))
    except DescriptionError:
        return None


def _paired(a: CandidateValue, b: CandidateValue) -> tuple[float, float]:
    """(mean of a − b, its standard error) over the shared samples."""
    diffs = [x - y for x, y in zip(a.outcomes, b.outcomes)]
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
        values = [ev.value(a.move) for a in accepted]
        best = max((v for v in values if v is not None), key=lambda v: v.win_chance)
        for answer in wrong:
            self._weigh(answer, best, ev.value(answer.move))
        if task.moves and not task.kinds and not task.winning:
            self._unlisted(best, [a.move for a in accepted] + [w.move for w in wrong], ev.candidates, where)
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
