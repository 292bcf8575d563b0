"""The puzzle format: round trips, move notation, positions with a table."""

from __future__ import annotations

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import Kind
from tutor.puzzles.model import (
    Goal,
    GoalType,
    MoveNotInPositionError,
    Node,
    Puzzle,
    find_move,
    move_text,
    position_from_data,
    position_to_data,
    puzzle_id,
)
from tutor.solver.position import Position

from .helpers import make_puzzle


def test_puzzle_round_trips_through_data() -> None:
    puzzle = make_puzzle("F:AA9 L:QQ2", ["pass", "QQ", "AA", "pass", "9"], beat="3", beat_by=1,
                         goal=Goal(GoalType.WIN_IN, 2), themes=("beat_or_pass",))
    again = Puzzle.from_data(puzzle.to_data())
    assert again == puzzle


def test_public_data_has_no_solution() -> None:
    data = make_puzzle("L:33 F:4", ["33"]).to_data(with_solution=False)
    assert "solution" not in data
    assert set(data) == {"id", "title", "themes", "position", "goal", "rating", "source"}


def test_position_with_table_round_trips_and_keeps_the_reading() -> None:
    pos = Position.parse("L:888TTT7 F:99", beat="333444555666", beat_by=1)
    assert position_from_data(position_to_data(pos)) == pos
    data = {"players": "L:88 F:99", "table": {"cards": "333444555666", "by": 1, "kind": "airplane_singles",
                                              "length": 3}}
    table = position_from_data(data).table
    assert table is not None and table.kind == Kind.AIRPLANE_SINGLES and table.main == 3  # 444555666 + 333


def test_move_text_names_the_reading_only_when_ambiguous() -> None:
    pos = Position.parse("L:333444555666 F:3")
    legal = pos.legal_moves()
    planes = [m for m in legal if m is not None and m.cards == Cards.parse("333444555666").packed]
    assert len(planes) > 1
    texts = {move_text(m, legal) for m in planes}
    assert "333444555666:airplane:4" in texts
    for text in texts:
        assert move_text(find_move(pos, text), legal) == text
    assert move_text(find_move(pos, "3"), legal) == "3"


def test_find_move_errors_name_the_input() -> None:
    pos = Position.parse("L:333444555666 F:3")
    with pytest.raises(MoveNotInPositionError, match="'333444555666'"):
        find_move(pos, "333444555666")
    with pytest.raises(MoveNotInPositionError, match="'77'"):
        find_move(pos, "77")
    with pytest.raises(MoveNotInPositionError, match="cannot pass"):
        find_move(pos, "pass")


def test_ids_are_stable_and_depend_on_the_whole_position() -> None:
    a = Position.parse("L:33 F:4")
    assert puzzle_id(a) == puzzle_id(Position.parse("L:33 F:4"))
    assert puzzle_id(a) != puzzle_id(Position.parse("L:33 F:4", beat="5"))
    assert len(puzzle_id(a)) == 6


def test_main_line_follows_the_first_reply() -> None:
    tree = Node("3", (Node("4", (Node("5"),)), Node("pass", (Node("A"),))))
    assert tree.main_line() == ["3", "4", "5"]
    assert tree.size() == 5


def test_goal_win_in_needs_plays() -> None:
    with pytest.raises(ValueError, match="plays"):
        Goal.from_data({"type": "win_in"})


def test_goal_win_bombs_needs_bombs_and_reads_back() -> None:
    """A personal puzzle's bigger win (issue 30, eighth pass): the bombs it must see played are kept."""
    goal = Goal(GoalType.WIN_BOMBS, bombs=2)
    assert goal.to_data() == {"type": "win_bombs", "bombs": 2} and Goal.from_data(goal.to_data()) == goal
    for bad in ({"type": "win_bombs"}, {"type": "win_bombs", "bombs": 0}):
        with pytest.raises(ValueError, match="bombs"):
            Goal.from_data(bad)
    assert Goal.from_data({"type": "win", "bombs": 3}) == Goal()  # only the bombs goal keeps them
