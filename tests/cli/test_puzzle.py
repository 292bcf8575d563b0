"""`ddz puzzle` and `ddz puzzles` through click's CliRunner."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tutor.cli.main import main
from tutor.i18n import set_language
from tutor.puzzles.daily import daily_puzzle_id
from tutor.puzzles.library import dump_file, load_library
from tutor.puzzles.model import Puzzle, find_move
from tutor.solver.position import Position


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    yield tmp_path
    set_language("en")


def run(*args: str, text: str = "") -> Result:
    return CliRunner().invoke(main, list(args), input=text, catch_exceptions=False)


def learner_moves(puzzle: Puzzle) -> list[str]:
    """The learner's moves along the main line, as typed."""
    side = puzzle.solver_side
    pos: Position = puzzle.position
    typed = []
    for text in puzzle.solution.main_line():
        if pos.roles[pos.to_move] is side and pos.legal_moves() != [None]:  # a forced pass is made for you
            typed.append(text)
        pos = pos.after(find_move(pos, text))
    return typed


def simple_puzzle(duel: bool = True) -> Puzzle:
    return next(p for p in load_library() if ("heads_up" in p.themes) == duel
                and all(":" not in m for m in p.solution.main_line()) and len(p.solution.main_line()) <= 9)


def test_daily_json_is_the_puzzle_of_the_date_without_solution(home: Path) -> None:
    result = run("puzzle", "--date", "2025-02-03", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["id"] == daily_puzzle_id(load_library(), date(2025, 2, 3))
    assert "solution" not in data
    assert {"id", "position", "goal", "rating"} <= set(data)
    assert "themes" not in data and "title" not in data  # no spoilers before solving (issue 14)
    assert run("puzzle", "--date", "2025-02-03", "--json").output == result.output


def test_puzzle_by_id_and_random_with_a_theme(home: Path) -> None:
    puzzle = simple_puzzle()
    data = json.loads(run("puzzle", puzzle.id, "--json").output)
    assert data["id"] == puzzle.id and "solution" not in data
    data = json.loads(run("puzzle", "random", "--theme", "bomb_finish", "--rating", "1500", "--json").output)
    assert "bomb_finish" in load_library().get(data["id"]).themes and "themes" not in data


def test_bad_input_is_one_line_and_exit_2(home: Path) -> None:
    for args in (["puzzle", "--date", "2025-13-40"], ["puzzle", "nosuch"], ["puzzle", "random", "--theme", "x"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and result.output.startswith("error:")


def test_unknown_puzzle_is_named_in_russian(home: Path) -> None:
    result = CliRunner().invoke(main, ["puzzle", "nosuch", "--lang", "ru"])
    assert result.exit_code == 2, result.output
    assert "задачи 'nosuch' нет" in result.output and "no puzzle" not in result.output


@pytest.mark.parametrize("duel", [True, False])
def test_solving_interactively_raises_the_rating(home: Path, duel: bool) -> None:
    puzzle = simple_puzzle(duel)
    result = run("puzzle", puzzle.id, text="\n".join(learner_moves(puzzle)) + "\n")
    assert result.exit_code == 0
    assert "Solved!" in result.output
    assert "Your puzzle rating: 1500 →" in result.output
    stats = json.loads(run("puzzle", "stats", "--json").output)
    assert stats["solved"] == 1 and stats["rating"] > 1500
    assert max(len(line) for line in result.output.splitlines()) <= 80
    if duel:  # the third hand is shown, and why it does not matter
        assert "can beat nothing the others can ever play" in " ".join(result.output.split())


def test_a_wrong_move_shows_the_refutation_then_retry_is_unrated_loss(home: Path) -> None:
    puzzle = simple_puzzle()
    pos = puzzle.position
    first = find_move(pos, puzzle.first_move)
    wrong = next(m for m in pos.legal_moves() if m != first)
    wrong_text = "pass" if wrong is None else wrong.text
    moves = learner_moves(puzzle)
    result = run("puzzle", puzzle.id, text="\n".join([wrong_text, *moves]) + "\n")
    assert "That loses. The refutation:" in result.output
    assert "Solved!" in result.output
    stats = json.loads(run("puzzle", "stats", "--json").output)
    assert stats["failed"] == 1 and stats["rating"] < 1500
    assert stats["to_replay"] == [puzzle.id]
    replay = run("puzzle", "replay", text="quit\n")
    assert puzzle.id in replay.output


def test_hint_names_the_kind_then_the_move_and_solution_plays_it_out(home: Path) -> None:
    puzzle = simple_puzzle()
    result = run("puzzle", puzzle.id, text="hint\nhint\nsolution\n")
    assert "Hint: the winning play is of this kind:" in result.output
    assert f"Hint: play {puzzle.first_move}" in result.output or "Hint: play pass" in result.output
    assert "The solution:" in result.output
    assert "Unrated attempt" in result.output
    assert json.loads(run("puzzle", "stats", "--json").output)["rating"] == 1500


def test_daily_puzzle_in_russian_counts_the_streak(home: Path) -> None:
    library = load_library()
    today = date.today()
    puzzle = library.get(daily_puzzle_id(library, today))
    result = run("puzzle", "--lang", "ru", text="\n".join(learner_moves(puzzle)) + "\n")
    assert "Задача дня" in result.output
    assert json.loads(run("puzzle", "stats", "--json").output)["streak"] == 1


def test_stats_on_a_fresh_store(home: Path) -> None:
    result = run("puzzle", "stats")
    assert result.exit_code == 0 and "Puzzle rating: 1500" in result.output


def test_validate_a_file_and_catch_a_false_claim(home: Path, tmp_path: Path) -> None:
    puzzle = simple_puzzle()
    good = tmp_path / "good.yaml"
    dump_file([puzzle], good)
    result = run("puzzles", "validate", str(good), "--json")
    assert result.exit_code == 0 and json.loads(result.output)["problems"] == {}
    bad = tmp_path / "bad.yaml"
    dump_file([Puzzle(**{**{f: getattr(puzzle, f) for f in puzzle.__slots__}, "themes": ("rocket",)})], bad)
    result = CliRunner().invoke(main, ["puzzles", "validate", str(bad)])
    assert result.exit_code == 1 and "themes" in result.output


def test_generate_writes_a_valid_file(home: Path, tmp_path: Path) -> None:
    out = tmp_path / "new.yaml"
    result = run("puzzles", "generate", "-n", "1", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert run("puzzles", "validate", str(out)).exit_code == 0


def test_generate_daily_finds_the_shipped_pool_again(home: Path, tmp_path: Path) -> None:
    """The daily pool is the output of ``generate --daily``: the same seed gives the same puzzles, the pool's
    own included (they were skipped as known ids, so seed 5 gave a year without any of the shipped ones)."""
    from tutor.puzzles.daily_pool import in_pool
    from tutor.puzzles.library import load_file

    out = tmp_path / "daily.yaml"
    result = run("puzzles", "generate", "--daily", "-n", "1", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    pool = [p for p in load_library() if in_pool(p) and p.source.seed == 5 and p.source.deal >= 500_000]
    first = min(pool, key=lambda p: p.source.deal)  # type: ignore[arg-type, return-value]
    assert [(p.id, p.rating, p.source) for p in load_file(out)] == [(first.id, first.rating, first.source)]


def test_title_and_themes_only_after_solving(home: Path) -> None:
    """Before and during solving: goal and position; the title and themes once it is over."""
    puzzle = next(p for p in load_library() if "bomb_finish" in p.themes and all(":" not in m for m in p.solution.main_line()))
    result = run("puzzle", puzzle.id, text="\n".join(learner_moves(puzzle)) + "\n")
    assert "Solved!" in result.output
    before, _, after = result.output.partition("Solved!")
    assert "bomb finish" not in before.lower() and "Themes:" not in before
    assert "Goal: win" in before
    assert "Themes:" in after and "bomb finish" in after.lower() and "This puzzle:" in after


def test_puzzles_from_your_own_games(home: Path) -> None:
    from tests.puzzles.test_personal import _finish
    from tutor.store import Store

    assert "No puzzles from your games yet" in run("puzzle", "mine").output
    with Store.open() as store:
        _finish(store, "5")  # the farmer led a single into the one-card landlord: a missed win
    listed = run("puzzle", "mine", "--list")
    assert "game 1, turn 1" in listed.output and "new" in listed.output
    data = json.loads(run("puzzle", "mine", "--json").output)
    assert len(data) == 1 and "solution" not in data[0] and data[0]["last"] is None
    # The id the list shows opens that puzzle (round 15: "no puzzle with id" — they live in the store).
    assert json.loads(run("puzzle", data[0]["id"], "--json").output)["position"] == data[0]["position"]
    assert "Solved!" in run("puzzle", data[0]["id"], text="5\n55\nK\n").output
    assert run("puzzle", "my-000000").exit_code == 2
    result = run("puzzle", "mine", text="5\n55\nK\n")
    assert "1 puzzle from your own games is waiting" in result.output
    assert "That loses" in result.output and "Solved!" in result.output
    assert "No puzzles" not in run("puzzle", "mine", "--lang", "ru").output


def test_a_bigger_win_let_go_in_the_list_and_the_json(home: Path) -> None:
    """Issue 30, eighth pass: a won game whose bomb stayed in hand lists as a stake, with its bombs."""
    from tests.puzzles.test_personal import _finish_game
    from tutor.store import Store

    with Store.open() as store:
        _finish_game(store, "F:3333K L:A F:2", "333K")
    assert "a bigger win you let go" in run("puzzle", "mine", "--list").output
    (data,) = json.loads(run("puzzle", "mine", "--json").output)
    assert (data["kind"], data["bombs"], data["winning_plays"], data["plays"]) == ("stake", 1, 1, 6)
    assert data["goal"] == {"type": "win_bombs", "bombs": 1}
    result = run("puzzle", "mine", text="333K\n3333\nK\n")
    assert "the stake ×2" in result.output and "That still wins, but the stake" in result.output
    assert "Solved!" in result.output


def test_a_narrow_terminal_shows_the_whole_goal_and_whole_hands() -> None:
    """At 40 columns the goal was cut mid-word in the panel's title and the cards got five columns
    ("[9…"); the narrow layout puts the goal inside and each hand under its player's name."""
    import io

    from rich.console import Console

    from tutor.cli.puzzle import goal_text, position_panel
    from tutor.puzzles.solving import Attempt
    from tutor.engine.rules import STANDARD
    from tutor.solver.solver import Solver

    set_language("ru")
    try:
        puzzle = load_library().get("0c0425")
        panel = position_panel(Attempt(puzzle, Solver(rules=STANDARD)))
        for width in (40, 80):
            out = io.StringIO()
            Console(file=out, width=width, no_color=True, color_system=None).print(panel)
            text = out.getvalue()
            assert " ".join(text.replace("│", " ").split()).count(goal_text(puzzle)) == 1, text
            assert "…" not in text and "[9][9] [J]" in text, text
    finally:
        set_language("en")


def test_the_goal_in_the_title_is_never_cut() -> None:
    """rich cuts a panel's title and never wraps it: at 60 columns «Goal: win as the farmers in 6 plays — only one
    first move wins» lost «ve wins» (round 15).  The longest goal, both languages, every width from 40 to 100."""
    import io

    from rich.console import Console

    from tutor.cli.puzzle import goal_text, position_panel
    from tutor.puzzles.solving import Attempt
    from tutor.engine.rules import STANDARD
    from tutor.solver.solver import Solver

    try:
        for lang in ("en", "ru"):
            set_language(lang)
            puzzle = max(load_library(), key=lambda p: len(goal_text(p)))
            panel = position_panel(Attempt(puzzle, Solver(rules=STANDARD)))
            for width in range(40, 101):
                out = io.StringIO()
                Console(file=out, width=width, no_color=True, color_system=None).print(panel)
                flat = " ".join(out.getvalue().replace("│", " ").replace("─", " ").replace("╭", " ").split())
                assert goal_text(puzzle) in flat, (lang, width, out.getvalue())
    finally:
        set_language("en")


@pytest.mark.parametrize(("lang", "cards", "expected"), [
    ("ru", "34567", "Подсказка: выигрывающий ход — стрит из 5 карт."),
    ("en", "333444", "Hint: the winning play is of this kind: airplane of 2."),  # was "is a Airplane of 2"
])
def test_the_kind_hint_names_the_combination_inside_its_sentence(lang: str, cards: str, expected: str) -> None:
    from rich.console import Console

    from tutor.cli.puzzle import render_puzzle_event
    from tutor.engine.cards import Cards
    from tutor.engine.combos import readings
    from tutor.i18n import speaking
    from tutor.sessions.puzzle import PuzzleHint

    console = Console(record=True, width=80, color_system=None)
    with speaking(lang):
        render_puzzle_event(console, PuzzleHint(1, readings(Cards.parse(cards))[0]))
    assert console.export_text().strip() == expected


@pytest.mark.parametrize(("lang", "quit_word", "expected"), [
    ("ru", "выход", "Нужно побить (сыграно: ваш напарник):"),
    ("en", "quit", "To beat, played by your partner:"),
])
def test_the_player_to_beat_is_named_in_lower_case_inside_the_sentence(home: Path, lang: str, quit_word: str,
                                                                        expected: str) -> None:
    """«Нужно побить (сыграно: Ваш напарник)»: a seat's label kept its capital inside the sentence."""
    result = run("puzzle", "245692", "--lang", lang, text=f"{quit_word}\n")
    assert expected in result.output, result.output
