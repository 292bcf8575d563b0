"""The compiled fastest search (tutor/solver/_team.c) against the Python FastestSearch it ports, and the lean line.

Issue 30, round 7: a personal puzzle's solution is the fastest win, which the Python search could not find
for the big positions of a learner's games.  The compiled search must give the same answers and node
counts as the Python one (so a node budget means the same work: the library's generator and
``ddz puzzles validate`` are unchanged), and the lean line (``Solver.lean_fastest``) the same line and
``win_in`` wherever the Python search finishes, on random positions and on the library's puzzles.
"""

from __future__ import annotations


import pytest

from test_team_native import _positions
from tutor.engine.rules import STANDARD
from tutor.puzzles.library import load_library
from tutor.solver import Position, Role, Solver
from tutor.solver.position import sides
from tutor.solver.search import Budget, BudgetExceeded, FastestSearch
from tutor.solver.tables import HandTables, table_code
from tutor.solver.team_native import NativeFastestSearch, NativeTeamSearch, available

pytestmark = pytest.mark.skipif(not available(), reason="the compiled three-player search is not built")


def _within_both(pos: Position, winner: int, depths: range, max_nodes: int | None = None,
                 max_entries: int | None = None) -> tuple[list[tuple[bool | None, int]], list[tuple[bool | None, int]]]:
    """(answer, nodes so far) for each d, asked in turn of one Python and one compiled search (as the
    deepening of ``Solver._fastest`` asks them; None: over the budget)."""
    key = sides(pos.roles)
    code = 0 if pos.table is None else table_code(pos.table)
    by = (pos.table_by or 0) if code else 0
    python = FastestSearch(HandTables(rules=STANDARD), key, winner)
    compiled = NativeFastestSearch(NativeTeamSearch(key), winner)
    out = []
    for search in (python, compiled):
        if max_entries is not None:
            if isinstance(search, FastestSearch):
                search.max_entries = max_entries
            else:
                search = NativeFastestSearch(NativeTeamSearch(key), winner, max_entries=max_entries)
        search.budget = Budget(max_nodes, None)
        answers: list[tuple[bool | None, int]] = []
        for d in depths:
            try:
                answer: bool | None = search.within(pos.packed, pos.to_move, code, pos.table, by, d)
            except BudgetExceeded:
                answer = None
            answers.append((answer, search.nodes))
        out.append(answers)
    return out[0], out[1]


def test_same_answers_and_node_counts_as_the_python_search() -> None:
    searched = 0
    for pos in _positions(70, 30, 8):
        for winner in (0, 1):
            python, compiled = _within_both(pos, winner, range(1, 8))
            assert compiled == python, pos.format()
            searched += python[-1][1]
    assert searched > 5_000  # real searches, not only cuts


def test_a_node_budget_stops_both_at_the_same_node() -> None:
    stopped = 0
    for pos in _positions(71, 30, 11):
        python, compiled = _within_both(pos, 1, range(2, 9), max_nodes=3_000)
        assert compiled == python, pos.format()
        stopped += any(answer is None for answer, _ in python)
    assert stopped > 3  # the budget did cut some searches short


def test_a_table_cleared_past_its_entries_at_the_same_checks() -> None:
    """Both clear their table past ``max_entries`` at their budget checks (every 2 048 nodes), and the results
    of the positions being searched then are lost in both (Python's entries are detached lists)."""
    cleared = 0
    for pos in _positions(72, 3, 9):
        python, compiled = _within_both(pos, 0, range(2, 8), max_entries=300)
        whole, _ = _within_both(pos, 0, range(2, 8))
        assert compiled == python, pos.format()
        assert [a for a, _ in python] == [a for a, _ in whole], pos.format()  # exact either way
        cleared += python[-1][1] > whole[-1][1]
    assert cleared > 0  # some table was cleared (more nodes than with the whole table)


def _solve(pos: Position, native: bool, lean: bool, max_nodes: int | None = 40_000) -> tuple[object, ...]:
    solver = Solver(max_nodes=max_nodes, workers=1, rules=STANDARD)
    solver.fast_native, solver.lean_fastest = native, lean
    result = solver.solve(pos, "fastest", all_moves=False)
    return result.mover_wins, result.win_in, result.line, result.nodes


def test_the_solver_gives_the_same_line_win_in_and_nodes_in_c() -> None:
    lines = 0
    for pos in _positions(73, 24, 8):
        python, compiled = _solve(pos, False, False), _solve(pos, True, False)
        assert compiled == python, pos.format()
        lines += bool(python[2])
    assert lines > 15


def test_the_lean_line_is_the_plain_line_in_fewer_nodes() -> None:
    """``lean_fastest``: one question a move instead of its exact pace, and (compiled) the positions the win
    proof's table shows lost cut: the same line and win_in, in Python and in C, and fewer nodes in all."""
    plain_nodes = lean_nodes = lines = 0
    for pos in _positions(74, 16, 9):
        plain = _solve(pos, False, False)
        if plain[1] is None:
            continue  # the plain search did not finish: nothing to compare
        for native in (False, True):
            lean = _solve(pos, native, True)
            assert lean[:3] == plain[:3], pos.format()
        plain_nodes += int(plain[3])  # type: ignore[call-overload]
        lean_nodes += int(lean[3])  # type: ignore[call-overload]
        lines += 1
    assert lines > 10 and lean_nodes < plain_nodes


def test_the_library_puzzles_get_the_same_fastest_lines() -> None:
    """A sample of the library's three-player puzzles (every 60th: the whole check costs CI half a minute a 20th): the Python search, the compiled one and
    the lean one give the same line and win_in (and the first two the same nodes)."""
    puzzles = [p for p in load_library() if p.position.players == 3 and p.position.rules == STANDARD][::60]
    assert len(puzzles) > 5
    for puzzle in puzzles:
        python = _solve(puzzle.position, False, False, max_nodes=3_000_000)
        assert python[1] is not None, puzzle.id
        assert _solve(puzzle.position, True, False, max_nodes=3_000_000) == python, puzzle.id
        assert _solve(puzzle.position, True, True, max_nodes=3_000_000)[:3] == python[:3], puzzle.id


def test_the_plain_search_stays_the_default_and_two_players_stay_in_python() -> None:
    assert not Solver(rules=STANDARD).lean_fastest  # a node budget means the same work in either core
    pos = Position.parse("L:3456 F:XD99 F:4")
    solver = Solver(workers=1, rules=STANDARD)
    assert isinstance(solver._fastest_search(pos.roles, 1), NativeFastestSearch)
    two = Position(pos.hands[:2], (Role.LANDLORD, Role.FARMER), 0, None, None, rules=STANDARD)
    assert isinstance(solver._fastest_search(two.roles, 1), FastestSearch)


def test_wins_within_answers_as_the_fastest_search_and_counts_each_questions_budget() -> None:
    """``Solver.wins_within`` (issue 30, round 15): one search asked in a row — true at the pace of
    ``solve(..., "fastest")``, false one play below it, for either side (the loser's questions are all false); each
    question has its own node budget (the search's counter runs on), and a spent one answers None."""
    for pos in _positions(15, 6, 10):
        solver = Solver(rules=STANDARD)
        result = solver.solve(pos, "fastest", all_moves=False)
        if not result.complete or result.win_in is None:
            continue
        mover = pos.roles[pos.to_move]
        winner = mover if result.mover_wins else (Role.FARMER if mover is Role.LANDLORD else Role.LANDLORD)
        loser = Role.FARMER if winner is Role.LANDLORD else Role.LANDLORD
        ask = solver.wins_within(pos.roles, winner)
        assert ask(pos, result.win_in)[0] is True and ask(pos, result.win_in - 1)[0] is False
        assert solver.wins_within(pos.roles, loser)(pos, result.win_in + 1)[0] is False
    pos = Position.parse("F:5779JQK L:7JQK F:33TAA")
    solver = Solver(rules=STANDARD)
    ask = solver.wins_within(pos.roles, Role.FARMER)
    first = ask(pos, 3)
    assert first[0] is False
    solver.max_nodes = 1  # read at each question: the second is cut at once, though the counter already ran on
    assert ask(pos, 4)[0] is None
    solver.max_nodes = None
    assert ask(pos, 4)[0] is True  # the pace of the personal puzzle test: a win in 4
