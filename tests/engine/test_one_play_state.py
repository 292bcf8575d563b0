"""One play state, rules all the way down (issue 31): the guards.

The engine's :class:`~tutor.engine.game.Game` is the one state that steps a
game; every other part steps it (``legal_actions``/``apply``, or ``push`` on a
game built by ``Game.from_view(..., checked=False)`` for search).  A variant is
a :class:`~tutor.engine.rules.Rules` value, so nothing below the front ends may
assume the standard rules by default, build a view by hand, or count three
seats.  This test reads every module of ``tutor/`` and refuses:

* a second stepping model: a class outside the engine with a stepping method
  (``apply``, ``after``, ``push``, ``legal_actions``), or named ``Sim``/``Trick``;
* a hand-built :class:`~tutor.engine.view.PlayerView` (the factory is
  :func:`tutor.engine.view.view_from_public`, and ``Game.view``);
* a ``STANDARD`` default outside engine/;
* a three-seat constant outside the rules (``% 3``, ``range(3)``, ``players == 3``, …).

Where today's code still has some, they are listed below by file with their
count: the lists may only shrink (a new one anywhere fails; a file that has
fewer than listed passes — lower its number when you remove one).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).parent

# ------------------------------------------------------------------ stepping models
STEPPING_METHODS = {"apply", "after", "push", "legal_actions"}
STEPPING_NAMES = re.compile(r"^(Sim|PlaySim|Trick)$")
#: Stepping classes outside the engine that remain, with the reason.
KNOWN_STEPPERS = {
    # The solver's search position: hands by player index, no history; what the exact search
    # steps millions of times.  Built only from a Game (Position.from_game, test_one_of_each.py)
    # and checked against Game move for move (tests/bots/test_fast_copies.py).
    ("solver/position.py", "Position"),
}


def stepping_classes(text: str, rel: str) -> set[tuple[str, str]]:
    found = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            methods = {f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if methods & STEPPING_METHODS or STEPPING_NAMES.match(node.name):
                found.add((rel, node.name))
    return found


def _modules(outside: str = "engine/") -> list[tuple[str, str]]:
    return [
        (path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(ROOT.rglob("*.py"))
        if not path.relative_to(ROOT).as_posix().startswith(outside)
    ]


def test_one_stepping_model() -> None:
    found = set().union(*(stepping_classes(text, rel) for rel, text in _modules()))
    assert found - KNOWN_STEPPERS == set(), "a second stepping model: step engine.Game instead"


def test_the_stepping_guard_sees_a_simulator() -> None:
    sim = "class Sim:\n    def apply(self, move):\n        self.hands[self.to_move] -= move.cards\n"
    assert stepping_classes(sim, "bots/rollout.py") == {("bots/rollout.py", "Sim")}
    assert stepping_classes("class Trick:\n    table = None\n", "lessons/moves.py")
    assert not stepping_classes("class Coach:\n    def hints(self, view):\n        pass\n", "coach/x.py")


# ------------------------------------------------------------------ hand-built views
VIEW_BUILDING = re.compile(r"(?<![\w.])PlayerView\(")
#: Where a PlayerView may be constructed: its module (the factory) and the game's own view.
VIEW_FACTORIES = {"engine/view.py", "engine/game.py"}


def hand_built_views(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if VIEW_BUILDING.search(line.split("#", 1)[0])]


def test_one_view_factory() -> None:
    found = [f"tutor/{rel}:{n}" for rel, text in _modules(outside="\0") if rel not in VIEW_FACTORIES
             for n in hand_built_views(text)]
    assert found == [], "build views with engine.view.view_from_public (or bidding_view), or Game.view"


def test_the_view_guard_sees_a_hand_built_view() -> None:
    assert hand_built_views("    seen = PlayerView(seat, Cards(hand), bids, None, None, (), counts, seat, None)\n")
    assert not hand_built_views("def f(view: PlayerView) -> PlayerView:\n    return view_from_public(0, h, None, (), c)\n")


# ------------------------------------------------------------------ STANDARD defaults
#: STANDARD defaults that remain outside engine/, by file (issue 31 counted 26; 21 after round 2, the solver's 4
#: after round 3, none now: Solver, NativeTwoPlayerSearch, HandTables and Position take their rules).
KNOWN_DEFAULTS: dict[str, int] = {}


def standard_defaults(text: str) -> list[int]:
    """Lines of ``= STANDARD`` defaults: of a parameter, or of a (data)class field (``field(default=STANDARD)`` too)."""

    def is_standard(value: ast.expr) -> bool:
        if isinstance(value, ast.Name):
            return value.id == "STANDARD"
        return isinstance(value, ast.Call) and any(k.arg == "default" and is_standard(k.value) for k in value.keywords)

    found = []
    for node in ast.walk(ast.parse(text)):
        values: list[ast.expr] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            values = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        elif isinstance(node, ast.ClassDef):
            values = [s.value for s in node.body if isinstance(s, ast.AnnAssign) and s.value is not None]
        found += [v.lineno for v in values if is_standard(v)]
    return found


def _over(counts: dict[str, int], known: dict[str, int]) -> dict[str, int]:
    """The files with more than ``known`` allows (a file not listed allows none)."""
    return {rel: n for rel, n in counts.items() if n > known.get(rel, 0)}


def test_no_new_standard_default_outside_the_engine() -> None:
    counts = {rel: len(standard_defaults(text)) for rel, text in _modules()}
    assert _over(counts, KNOWN_DEFAULTS) == {}, "pass the game's rules down instead of defaulting to STANDARD"
    assert sum(counts.values()) == 0  # issue 31 counted 26; 21 after round 2; 4 after round 3


#: A comparison with the standard rules picks a code path by identity, not by what the rules say
#: (``rules.native_play``, ``rules.native_coach``, ``rules.robs`` … are the readings).
STANDARD_COMPARISON = re.compile(r"(==|!=|\bis|\bis not)\s+STANDARD\b|plays_like\(STANDARD\)")


def standard_comparisons(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1)
            if STANDARD_COMPARISON.search(line.split("#", 1)[0])]


def test_no_comparison_with_the_standard_rules_outside_the_engine() -> None:
    found = [f"tutor/{rel}:{n}" for rel, text in _modules() for n in standard_comparisons(text)]
    assert found == [], "read the rules (rules.native_play, rules.native_coach, …), not a comparison with STANDARD"


def test_the_comparison_guard_sees_a_comparison() -> None:
    for line in ("    return rules == STANDARD and native.available()", "if view.rules is not STANDARD:",
                 "wants = rules.plays_like(STANDARD)"):
        assert standard_comparisons(line) == [1], line
    assert standard_comparisons("    return rules.native_coach and native.available()  # was: rules == STANDARD\n") == []


def test_the_default_guard_sees_a_default() -> None:
    assert standard_defaults("def f(x, rules: Rules = STANDARD) -> None: ...\n") == [1]
    assert standard_defaults("def f(*, rules=STANDARD): ...\n") == [1]
    assert standard_defaults("class A:\n    rules: Rules = STANDARD\n    other: Rules = field(default=STANDARD)\n") == [2, 3]
    assert standard_defaults("def f(rules: Rules) -> bool:\n    return rules == STANDARD\n") == []


# ------------------------------------------------------------------ three-seat constants
THREE_SEATS = re.compile(r"%\s*3\b|range\(3\)|players\s*==\s*3\b|\(0, 1, 2\)|\[0, 0, 0\]")
#: Three-seat constants that remain outside the rules, by file (the lists only shrink).
KNOWN_THREE_SEATS = {
    # not seat counts, but what the pattern cannot tell apart: a theme's three tallies (tried, solved, failed)
    # and a puzzle position's three live hands (Position.players: 2 or 3 hands left in the endgame)
    "puzzles/progress.py": 1,
    "puzzles/realism.py": 1,
    "puzzles/themes.py": 2,
}


def three_seat_lines(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if THREE_SEATS.search(line.split("#", 1)[0])]


def test_no_new_three_seat_constant_outside_the_rules() -> None:
    counts = {rel: len(three_seat_lines(text)) for rel, text in _modules(outside="engine/rules.py")}
    assert _over(counts, KNOWN_THREE_SEATS) == {}, "use rules.players (or view.players) instead of three seats"


def test_the_ratchet_refuses_more_and_a_new_file() -> None:
    assert _over({"a.py": 2, "b.py": 1}, {"a.py": 2}) == {"b.py": 1}
    assert _over({"a.py": 3}, {"a.py": 2}) == {"a.py": 3}
    assert _over({"a.py": 1}, {"a.py": 2}) == {}


def test_the_three_seat_guard_sees_three_seats() -> None:
    for line in ("nxt = (seat + 1) % 3", "for s in range(3):", "if view.players == 3:", "played_by = [0, 0, 0]"):
        assert three_seat_lines(line) == [1], line
    assert three_seat_lines("nxt = (seat + 1) % rules.players\nfor s in range(view.players):\n") == []
