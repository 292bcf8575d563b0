"""Why a wrong answer is wrong, when the lesson's author wrote no feedback for it (issue 21).

"Not this one" teaches nothing.  Every wrong answer gets a reason drawn from
what proves the task — never invented:

* a rules drill (answers accepted by ``kinds``): the answer is a different
  combination than the one asked for;
* a ``thrift`` or ``fewest_plays`` goal: the plays left in the hand (the same
  count the validator proves the accepted answers with) or the higher card spent;
* every hand face up: the solver's refutation (the line after which the other
  side wins), or, for ``fastest``, how many more plays the answer needs;
* hidden hands: the coach's view-based evaluation — how often the answer wins
  from what the learner can see against the accepted answer, with its
  precision (counted budgets: the same figures on every machine);
* a name task: what the cards really read as.

Bids and scores are explained by the author's feedback (the validator asks for
one on every bid the task calls wrong) and the runner's sign check.
"""

from __future__ import annotations

from collections.abc import Sequence

from tutor.engine.cards import Cards, rank_char
from tutor.engine.combos import Combo, Kind, readings
from tutor.engine.game import Game
from tutor.engine.moves import legal_moves
from tutor.i18n import t
from tutor.lessons.claims import is_open
from tutor.lessons.model import YOU, Setup, Task
from tutor.lessons.moves import format_move
from tutor.lessons.oracle import Oracle
from tutor.lessons.table import shown_hands, solver_position
from tutor.solver.tables import HandTables

Move = Combo | None

#: Hidden deals the coach plays out to explain one wrong answer (the table's hint budget).
EXPLAIN_SAMPLES = 16


def kind_name(kind: Kind) -> str:
    return t(f"rules.kind_{kind.label}")


def _plays_left(hand: Cards, move: Move, tables: HandTables) -> int:
    return tables.min_plays(hand.packed - (0 if move is None else move.cards))


def explain_move(task: Task, setup: Setup, game: Game, move: Move, accepted: Sequence[Move],
                 oracle: Oracle) -> str | None:
    """One line on why ``move`` (legal, not accepted) is worse than ``accepted`` in ``game`` (the lesson's
    position as the engine's game); None if nothing is known."""
    hand = shown_hands(setup, game)[YOU]
    if hand is None:
        return None
    if task.kinds and not task.moves and not task.winning and (move is None or move.kind not in task.kinds):
        asked = " / ".join(kind_name(k) for k in task.kinds)
        got = t("lessons.bid_pass") if move is None else kind_name(Kind(move.kind))
        return t("lessons.explain_kind", got=got, asked=asked)
    best = next((m for m in accepted), None)
    holding = task.goal_holding
    if task.goal == "fewest_plays" and holding is not None and (move is None or not holding.issubset(Cards(move.cards))):
        return t("lessons.explain_holding", cards=str(holding))
    if task.goal in ("thrift", "fewest_plays") and best is not None:
        tables = HandTables(rules=setup.rules)
        mine, theirs = _plays_left(hand, move, tables), _plays_left(hand, best, tables)
        if mine > theirs:
            return t("lessons.explain_plays", mine=mine, theirs=theirs, answer=format_move(best))
        if move is not None and best is not None and max(Cards(move.cards).ranks()) > max(Cards(best.cards).ranks()):
            return t("lessons.explain_spends", card=rank_char(max(Cards(move.cards).ranks())),
                     answer=format_move(best))
        return None
    if is_open(setup) and setup.landlord is not None:  # hidden hands: the line would show them
        pos = solver_position(setup, game)
        if not oracle.is_winning(pos, move):
            line = oracle.refutation(pos, move)
            if len(line) > 1:
                names = (t("lessons.seat_you"), t("lessons.seat_right"), t("lessons.seat_left"))
                shown = ", ".join(f"{names[s]} {format_move(m) if m is not None else t('lessons.bid_pass')}"
                                  for s, m in line)
                return t("lessons.reason_refutation", line=shown)
            return t("lessons.explain_loses")
        if task.goal == "fastest" and best is not None:
            slow, fast = oracle.plays_to_win(pos, move), oracle.plays_to_win(pos, best)
            if slow is not None and fast is not None and slow > fast:
                return t("lessons.explain_slower", mine=slow, theirs=fast, answer=format_move(best))
    return _coach_figures(setup, move, accepted)


def _coach_figures(setup: Setup, move: Move, accepted: Sequence[Move]) -> str | None:
    """From the learner's view: how often the answer wins against the best accepted answer."""
    from tutor.coach.evaluation import Budget, evaluate
    from tutor.lessons.view_claims import lesson_view

    view = lesson_view(setup)
    if view is None or not accepted:
        return None
    ev = evaluate(view, [*accepted, move], Budget(samples=EXPLAIN_SAMPLES))
    got = ev.value(move)
    values = [v for v in (ev.value(a) for a in accepted) if v is not None]
    if got is None or not values:
        return None
    best = max(values, key=lambda v: v.win_chance)
    if best.win_chance <= got.win_chance:
        return None
    return t("lessons.explain_view", mine=round(100 * got.win_chance), theirs=round(100 * best.win_chance),
             answer=format_move(best.move), samples=len(got.outcomes))


def explain_name(cards: Cards) -> str:
    """What the cards of a name task really read as."""
    kinds = sorted({r.kind for r in readings(cards)})
    if not kinds:
        return t("lessons.explain_not_a_combination", cards=str(cards))
    return t("lessons.explain_reads_as", cards=str(cards), kinds=", ".join(kind_name(k) for k in kinds))


def accepted_moves(task: Task, game: Game, winning: Sequence[Move]) -> list[Move]:
    """The moves the task accepts here, listed ones first (what an explanation compares with)."""
    out: list[Move] = []
    legal: list[Move] = [*legal_moves(game.hand(YOU), game.table)]
    for spec in task.moves:
        for m in legal:
            if m is not None and spec.cards is not None and m.cards == spec.cards.packed \
                    and (spec.kind is None or m.kind == spec.kind) and m not in out:
                out.append(m)
        if spec.cards is None and game.table is not None:
            out.append(None)
    out.extend(m for m in legal if m is not None and m.kind in task.kinds and m not in out)
    out.extend(m for m in winning if m not in out)
    return out
