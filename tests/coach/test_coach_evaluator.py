"""The coach receives its evaluator (``Coach(evaluator=…)``): hints and verdicts measure through it,
and the coach's evaluation reaches the bots only through their public surface (tutor/bots/players.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import tutor
from tutor.coach import Coach
from tutor.coach.describe import describe, to_view
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget, Evaluation, Move, evaluate
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView

CHEAP = Budget(samples=4, width=1, exact_cards=0, policy="medium")


class Counting:
    """An evaluator that records each call and measures with a cheap budget."""

    def __init__(self) -> None:
        self.calls: list[tuple[PlayerView, tuple[Move, ...]]] = []

    def __call__(self, view: PlayerView, moves: Iterable[Move] = (), budget: Budget = DEFAULT_BUDGET) -> Evaluation:
        asked = tuple(moves)
        self.calls.append((view, asked))
        return evaluate(view, asked, CHEAP)


def test_hints_and_verdicts_go_through_the_injected_evaluator() -> None:
    view = to_view(describe("233", "right", "right=1,left=1", "left:5"))
    counting = Counting()
    coach = Coach(evaluator=counting, rules=STANDARD)
    assert coach.hints(view)
    assert len(counting.calls) == 1 and counting.calls[0][0] == view
    coach.after_move(view, None, None, action_index=5, move_number=1)
    assert len(counting.calls) == 1  # the turn's evaluation is kept: the verdict reuses it (asking for pass)
    assert coach.evaluation(view).samples == CHEAP.samples


def test_the_default_evaluator_is_evaluate() -> None:
    assert Coach(rules=STANDARD).evaluator is evaluate


#: The bots' internals the coach's evaluation used to reach into (issue 31).
INTERNALS = {"tutor.bots.hard", "tutor.bots.medium", "tutor.bots.rollout", "tutor.bots.sampling", "tutor.bots.search"}


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_"))
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_coach_imports_no_bot_internals() -> None:
    root = Path(tutor.__file__).parent / "coach"
    found = {f"{p.name}: {n}" for p in sorted(root.rglob("*.py")) for n in _imported(p)
             if n in INTERNALS or (n.startswith("tutor.bots.") and n.rsplit(".", 1)[1].startswith("_"))}
    assert found == set()


def test_the_internals_guard_sees_an_internal(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("from tutor.bots.search import _thrift\nfrom tutor.bots.rollout import Sim\n")
    assert {"tutor.bots.search", "tutor.bots.search._thrift", "tutor.bots.rollout"} <= _imported(source)


def test_a_saved_coach_names_no_function_and_comes_back_with_the_default_evaluator() -> None:
    """The web's saved sessions are read by an unpickler that builds classes only (tutor/web/holder.py):
    a coach that pickled its default evaluator by reference was dropped on every club request."""
    import pickle

    from tutor.coach import Coach
    from tutor.coach.evaluation import evaluate

    data = pickle.dumps(Coach(rules=STANDARD))
    assert b"evaluate" not in data
    assert pickle.loads(data).evaluator is evaluate
