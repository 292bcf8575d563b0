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


# --- bounded (issue 11) --------------------------------------------------------------------


def test_progress_line_waits_then_rewrites_one_line_and_wipes_it() -> None:
    import io

    from tutor.cli.solve import ProgressLine

    stream = io.StringIO()
    quiet = ProgressLine(stream, after=3600)
    quiet(1, 10, 5000)
    assert stream.getvalue() == ""  # a short search shows nothing
    line = ProgressLine(stream, after=0)
    line(3, 10, 123_456)
    assert "3/10" in stream.getvalue() and "123,456" in stream.getvalue() and "\n" not in stream.getvalue()
    line.close()
    assert stream.getvalue().endswith("\r")


def test_no_progress_when_piped() -> None:
    res = run("L:DAQQJJT999844 F:X22AAT886633")
    assert res.exit_code == 0 and res.stderr == ""


def test_default_time_limit_and_no_limit() -> None:
    from tutor.cli.solve import DEFAULT_SECONDS, solve

    option = next(p for p in solve.params if p.name == "max_seconds")
    assert option.default == DEFAULT_SECONDS == 60.0
    assert run("L:333449 F:7QQK2 F:66KK2", "--max-seconds", "0", "--json").exit_code == 0


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "-inf", "1e999"])
def test_max_seconds_refuses_what_is_not_a_limit(value: str) -> None:
    res = run("L:3 F:4", "--max-seconds", value)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "--max-seconds" in res.stderr


def test_a_win_proven_before_the_budget_ran_out_is_a_win_not_a_loss() -> None:
    """The budget ran out after some first moves were proven winning (mover_wins True, not complete, no line):
    the words say the side to move wins, with a proven first move, and that the list may be incomplete —
    never "loses whatever they play" (what `ddz solve two-10 --max-seconds 1` printed)."""
    from tutor.cli.solve import explain
    from tutor.engine.cards import Cards
    from tutor.engine.moves import lead_moves_packed
    from tutor.i18n import t
    from tutor.solver import Position
    from tutor.solver.solver import SolveResult

    pos = Position.parse("L:33456789TJQKKA22X F:445567789TJQQAA2D")
    straight = next(m for m in lead_moves_packed(pos.hands[0].packed) if m.cards == Cards.parse("3456789TJQKA").packed)
    res = SolveResult(mover_wins=True, winning_moves=[straight], complete=False, nodes=10, seconds=1.0)
    words = explain(pos, res)
    assert words[0].startswith("The landlord wins") and "3456789TJQKA" in words[0]
    assert not any("loses" in w for w in words)
    assert t("solve.partial") in words


def test_rule_12_3_solve_wild_reads_the_table_and_the_hands_with_stand_ins() -> None:
    # Nines wild: Left's 7779 is a soft bomb of sevens; 8899 is a soft bomb of eights and goes out, 6699 is not enough.
    won = json.loads(run("F:8899 L:3", "--beat", "7779", "--wild", "9", "--json").output)
    assert won["mover_wins"] is True and won["winning_moves"] == ["8899"]
    lost = json.loads(run("F:6699 L:3", "--beat", "7779", "--wild", "9", "--json").output)
    assert lost["mover_wins"] is False
    plain = json.loads(run("F:8899 L:3", "--beat", "7779", "--json").output)  # no wild rank: 7779 is a trio + 1
    assert plain["mover_wins"] is False  # and 8899 is no play at all


def test_the_count_of_positions_agrees_with_its_number() -> None:
    """«2 позиции», «1 position»: the solver's figures line took the plural form whatever the number."""
    from tutor.i18n import set_language, t

    try:
        set_language("ru")
        assert t("solve.stats", nodes=2, seconds=0.0, rate=2.0).startswith("2 позиции за")
        assert t("solve.stats", nodes=21, seconds=0.0, rate=2.0).startswith("21 позиция за")
        assert "после 1 позиции (" in t("solve.unknown", nodes=1, seconds=0.0)
        set_language("en")
        assert t("solve.stats", nodes=1, seconds=0.0, rate=1.0).startswith("1 position in")
    finally:
        set_language("en")
