"""The proof-number search of the compiled three-player search (``NativeTeamSearch.prove``, issue 30, round 13).

Exactness is the whole point: every answer it settles must be the plain search's (itself checked against brute
force by test_solver_vs_brute.py and against the Python search by test_team_native.py), on random positions with
and without a play on the table, under a budget too; an unsettled answer is None, never a guess.
"""

from __future__ import annotations

import pytest
import yaml  # type: ignore[import-untyped]

from test_team_native import _positions as drawn_positions
from tutor.paths import benchmarks_dir
from tutor.solver import Position
from tutor.solver.position import sides
from tutor.solver.search import Budget
from tutor.solver.tables import table_code
from tutor.solver.team_native import NativeTeamSearch, available

pytestmark = pytest.mark.skipif(not available(), reason="the compiled three-player search is not built")


def _args(pos: Position) -> tuple[tuple[int, ...], int, int, int]:
    code = 0 if pos.table is None else table_code(pos.table)
    return pos.packed, pos.to_move, code, (pos.table_by or 0) if code else 0


def _plain(pos: Position) -> tuple[bool, int]:
    """The plain depth-first search's verdict and nodes (no budget)."""
    search = NativeTeamSearch(sides(pos.roles))
    search.budget = Budget(None, None)
    hands, turn, code, by = _args(pos)
    return search.win(hands, turn, code, pos.table, by), search.nodes


def _positions(seed: int, count: int, max_cards: int) -> list[Position]:
    """test_team_native's random three-player positions (the same draw), those still being played."""
    return [pos for pos in drawn_positions(seed, count, max_cards) if not pos.is_over]


def test_every_settled_answer_is_the_plain_searchs() -> None:
    searched = 0
    for pos in _positions(130, 150, 9):
        verdict, nodes = _plain(pos)
        pns = NativeTeamSearch(sides(pos.roles))
        assert pns.prove(*_args(pos), max_nodes=10**7) is verdict, pos.format()
        searched += nodes
    assert searched > 20_000  # real searches, not only immediate wins


def test_both_verdicts_on_larger_positions() -> None:
    """Wins and losses of both sides, 14-card hands: a search that settled one kind only would fail here."""
    seen = set()
    for pos in _positions(131, 25, 14):
        verdict, _ = _plain(pos)
        assert NativeTeamSearch(sides(pos.roles)).prove(*_args(pos), max_nodes=10**7) is verdict, pos.format()
        seen.add((sides(pos.roles)[pos.to_move], verdict))
    assert len(seen) == 4


def test_a_budget_gives_none_and_the_next_call_goes_on() -> None:
    """Out of its node budget it answers None (not a guess); its table is kept, so calls of a small budget
    each settle the position in the end, with the plain search's answer."""
    cut = 0
    for pos in _positions(132, 30, 12):
        verdict, nodes = _plain(pos)
        pns = NativeTeamSearch(sides(pos.roles))
        answer = pns.prove(*_args(pos), max_nodes=50)
        calls = 1
        while answer is None:
            assert pns.pns_nodes <= 51 * calls + 1  # counted: a call stops within its budget
            answer = pns.prove(*_args(pos), max_nodes=50)
            calls += 1
        assert answer is verdict, pos.format()
        cut += calls > 1
    assert cut > 5


def test_its_proofs_go_to_the_exact_table() -> None:
    """What it proves is stored where the plain search reads it: the same position then costs no node."""
    pos = Position.parse("L:567889TQ F:345799QK F:38JJQKAA")  # shared/bench three-06
    search = NativeTeamSearch(sides(pos.roles))
    search.budget = Budget(None, None)
    hands, turn, code, by = _args(pos)
    verdict = search.prove(hands, turn, code, by, max_nodes=10**7)
    assert verdict is _plain(pos)[0]
    search.nodes = 0
    assert search.win(hands, turn, code, None, by) is verdict and search.nodes == 0


def test_the_shared_three_player_benchmarks() -> None:
    data = yaml.safe_load((benchmarks_dir() / "endgames.yaml").read_text(encoding="utf-8"))
    checked = 0
    for entry in data["positions"]:
        pos = Position.parse(entry["players"], beat=entry.get("beat"))
        if pos.players != 3 or pos.is_over:
            continue
        verdict, _ = _plain(pos)
        assert NativeTeamSearch(sides(pos.roles)).prove(*_args(pos), max_nodes=10**7) is verdict, entry["id"]
        checked += 1
    assert checked >= 5


def test_the_weak_form_is_exact_too() -> None:
    """The weak disproof numbers (an option, off by default) choose other positions, never other answers."""
    for pos in _positions(133, 25, 10):  # an option, off: 25 positions (60 cost the suite 3.4 s)
        verdict, _ = _plain(pos)
        hands, turn, code, by = _args(pos)
        core = NativeTeamSearch(sides(pos.roles))._core
        assert core.prove(hands, turn, code, by, 10**7, 21, True) is verdict, pos.format()


def test_the_solver_asks_it_for_three_players_only() -> None:
    """``Solver.prove``: the side to move's verdict as ``solve`` gives it (three players, one deck); None where the
    compiled three-player search does not play (two players), never a guess."""
    from tutor.engine.rules import STANDARD
    from tutor.solver import Solver

    for pos in _positions(134, 20, 8):
        assert Solver(rules=STANDARD).prove(pos, 10**7) is Solver(rules=STANDARD).solve(pos, line=False).mover_wins
    duel = Position.parse("L:3456789 F:TTJJ")
    assert Solver(rules=STANDARD).prove(duel, 10**7) is None
