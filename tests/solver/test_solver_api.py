"""The library API: budgets, is_winning_move, winning_moves, objectives, known endgames."""

from __future__ import annotations

import pytest
import yaml

from tutor.engine.rules import STANDARD
from tutor.paths import benchmarks_dir
from tutor.solver import Position, Role, Solver

#: Benchmark positions with an independently known result that solve in well
#: under a second (the CI subset).  Results we measured ourselves
#: (``result_source: ddz-tutor``) are not evidence and are left out.
QUICK = ["two-01", "two-02", "two-03", "two-04", "two-05", "two-06", "two-11",
         "three-01", "three-02", "three-03", "three-05"]  # fmt: skip


def _entries() -> dict[str, dict]:
    data = yaml.safe_load((benchmarks_dir() / "endgames.yaml").read_text(encoding="utf-8"))
    return {str(e["id"]): e for e in data["positions"]}


@pytest.mark.parametrize("ident", QUICK)
def test_known_benchmark_results(ident: str) -> None:
    entry = _entries()[ident]
    pos = Position.parse(entry["players"], beat=entry.get("beat"), beat_by=entry.get("beat_by"))
    assert entry.get("result_source") is None, "only independently known results are evidence"
    res = Solver(rules=STANDARD).solve(pos)
    assert ("mover_wins" if res.mover_wins else "mover_loses") == entry["result"]
    moves = entry.get("winning_moves")
    if moves is not None:
        assert sorted("pass" if m is None else m.text for m in res.winning_moves) == sorted(moves)


def test_budget_gives_unknown_never_a_guess() -> None:
    pos = Position.parse("L:345667899TJQQA2 F:33457788TJKKA2D")
    res = Solver(max_nodes=50, rules=STANDARD).solve(pos)
    assert res.mover_wins is None or not res.complete
    assert Solver(max_nodes=50, rules=STANDARD).winning_moves(pos) is None
    assert Solver(max_nodes=50, rules=STANDARD).is_winning_move(pos, pos.legal_moves()[-1]) is None
    timed = Solver(max_seconds=0.01, rules=STANDARD).solve(Position.parse("L:33456789TJQKKA22X F:445567789TJQQAA2D"))
    assert not timed.complete


def test_is_winning_move_and_winning_moves_agree() -> None:
    pos = Position.parse("L:333449 F:7QQK2 F:66KK2")
    solver = Solver(rules=STANDARD)
    wins = solver.winning_moves(pos)
    assert wins is not None and sorted(m.text for m in wins) == ["33344", "3339"]
    for move in pos.legal_moves():
        assert solver.is_winning_move(pos, move) == (move in wins)


def test_pass_is_listed_when_it_wins() -> None:
    pos = Position.parse("F:AA9 L:2QQTT7755", beat="3")
    res = Solver(rules=STANDARD).solve(pos)
    assert res.mover_wins is True and res.winning_moves == [None]


def test_all_moves_false_stops_at_first_win() -> None:
    pos = Position.parse("L:AAAA3366 F:2QQT33")
    res = Solver(rules=STANDARD).solve(pos, all_moves=False)
    assert res.mover_wins is True and len(res.winning_moves) == 1


def test_losing_mover_has_no_winning_moves_and_a_full_line() -> None:
    pos = Position.parse("L:458TQ F:7JQ2 F:458Q")
    res = Solver(rules=STANDARD).solve(pos)
    assert res.mover_wins is False and res.winning_moves == []
    p = pos
    for _player, move in res.line:
        p = p.after(move)
    assert p.winner is not None and p.winner is not pos.roles[0]


def test_fastest_reports_win_in() -> None:
    pos = Position.parse("L:333449 F:7QQK2 F:66KK2")
    res = Solver(rules=STANDARD).solve(pos, objective="fastest")
    assert res.win_in == 2
    assert Solver(rules=STANDARD).solve(pos).win_in is None


def test_unknown_objective_is_an_error() -> None:
    with pytest.raises(ValueError):
        Solver(rules=STANDARD).solve(Position.parse("L:3 F:4"), objective="longest")  # type: ignore[arg-type]


def test_finished_position() -> None:
    pos = Position.parse("L:3 F:44")
    over = pos.after(pos.legal_moves()[0])
    res = Solver(rules=STANDARD).solve(over)
    assert res.mover_wins is True and res.winning_moves == []


def test_fastest_line_has_the_loser_play_cards_rather_than_pass_when_it_costs_nothing() -> None:
    """Refutations teach: the loser resists as a person would (puzzles show these lines)."""
    pos = Position.parse("F:346TQ L:36", beat="T")  # the farmer wins whatever the landlord does
    result = Solver(rules=STANDARD).solve(pos, objective="fastest")
    assert result.mover_wins is True
    landlord_moves = [move for who, move in result.line if pos.roles[who] is Role.LANDLORD]
    assert any(move is not None for move in landlord_moves), result.line
