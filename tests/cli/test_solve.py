"""``ddz solve``: JSON fields, words, and one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tutor.cli.main import main


def run(*args: str):
    return CliRunner().invoke(main, ["solve", *args])


def test_json_fields() -> None:
    res = run("F:AA9 L:2QQTT7755", "--beat", "3", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["mover_wins"] is True
    assert data["winning_moves"] == ["pass"]
    assert data["line"][0] == {"player": 0, "role": "F", "move": "pass"}
    assert {"nodes", "seconds"} <= set(data)
    assert "win_in" not in data


def test_json_fastest_has_win_in() -> None:
    data = json.loads(run("L:333449 F:7QQK2 F:66KK2", "--fastest", "--json").output)
    assert data["win_in"] == 2 and sorted(data["winning_moves"]) == ["33344", "3339"]


def test_human_output_explains_in_words() -> None:
    res = run("L:333449 F:7QQK2 F:66KK2")
    assert res.exit_code == 0
    assert res.output.startswith("The landlord wins: play 33344 first")
    assert "Winning moves (2): 33344, 3339" in res.output


def test_losing_side_is_explained() -> None:
    res = run("L:458TQ F:7JQ2 F:458Q")
    assert "The landlord loses" in res.output


def test_budget_unknown_json_null() -> None:
    res = run("L:33456789TJQKKA22X F:445567789TJQQAA2D", "--max-seconds", "0.05", "--json")
    data = json.loads(res.output)
    assert data["mover_wins"] in (None, True)
    assert data["complete"] is False


def test_json_score_has_bombs_multiplier_and_best_moves() -> None:
    data = json.loads(run("L:3333XD F:KK", "--score", "--json").output)
    assert data["bombs"] == 2 and data["multiplier"] == 4
    assert sorted(data["best_moves"]) == ["3333", "XD"]
    assert [step["move"] for step in data["line"]] == ["3333", "pass", "XD"]


def test_score_in_words() -> None:
    res = run("L:33334 F:5", "--score")
    assert res.exit_code == 0, res.output
    assert "Most bombs and rockets the landlord can force from here: 1 (the stake ×2)." in res.output
    assert "Moves that keep the win and reach it: 3333" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ["L:33 F:44", "--score", "--fastest"],
        ["L:33Z F:44"],
        ["L:3333 F:3"],
        ["Q:33 F:44"],
        ["L:33 F:44", "--beat", "345"],
        ["L:33 F:44", "--beat", "3y"],
        ["L:33 F:44", "--beat", "7", "--beat-by", "0"],
        ["L:33 F:44", "--beat", "7", "--beat-by", "5"],
        ["L:33 F:44", "--beat", "333"],
    ],
)
def test_bad_input_one_line_exit_2(args: list[str]) -> None:
    res = run(*args)
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), res.output
