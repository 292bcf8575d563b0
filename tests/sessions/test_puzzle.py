"""A whole puzzle through PuzzleSession: moves, a wrong move, the choice of readings, recording."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tutor.engine.rules import STANDARD
from tutor.puzzles.model import Goal, Puzzle, Source
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.solving import Outcome
from tutor.sessions.events import StatusLine
from tutor.sessions.puzzle import Correct, PuzzleOver, PuzzleSession, Unclear, Wrong
from tutor.solver.position import Position
from tutor.solver.solver import Solver
from tutor.store import Store

from tests.puzzles.helpers import chain


def heads_up() -> Puzzle:
    # Only 77 wins: the pair is a boss, then Q; any single lets the farmer take over.
    pos = Position.parse("L:77Q F:6TQA")
    return Puzzle("t00001", "test", (), pos, Goal(), chain(["77", "pass", "Q"]), 1200, Source())


def test_a_whole_puzzle_typed_is_solved_and_recorded(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        progress = PuzzleProgress(store)
        session = PuzzleSession(heads_up(), Solver(rules=STANDARD), progress, day=date(2026, 1, 1))
        session.start()
        events = session.select("77")
        assert isinstance(events[0], StatusLine) and events[0].ok and isinstance(events[1], Correct)
        events = session.select("q")
        over = events[-1]
        assert isinstance(over, PuzzleOver) and over.solved and over.record is not None
        assert over.record.outcome is Outcome.SOLVED and session.finished


def test_a_wrong_move_is_refuted_not_played_and_the_attempt_is_failed() -> None:
    session = PuzzleSession(heads_up(), Solver(rules=STANDARD))
    session.start()
    events = session.select("7")
    assert isinstance(events[-1], Wrong) and events[-1].refutation
    assert not session.finished and session.attempt.outcome is Outcome.FAILED


def test_leaving_before_trying_records_nothing(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        session = PuzzleSession(heads_up(), Solver(rules=STANDARD), PuzzleProgress(store))
        session.start()
        over = session.stop()[-1]
        assert isinstance(over, PuzzleOver) and over.record is None and not over.solved


# ------------------------------------------------------------------ lines stepped through, the replay queue
from tutor.puzzles.library import Library  # noqa: E402
from tutor.sessions.puzzle import SolutionShown, display_title, line_steps, replay_queue  # noqa: E402


def test_a_refutation_comes_with_the_positions_along_it() -> None:
    session = PuzzleSession(heads_up(), Solver(rules=STANDARD))
    session.start()
    start = session.attempt.position
    wrong = session.select("q")[-1]
    assert isinstance(wrong, Wrong) and wrong.start == start
    steps = wrong.steps
    assert [step.played for step in steps] == list(wrong.refutation)
    assert steps[0].before == start and steps[0].played.move is not None and steps[0].played.move.text == "Q"
    for earlier, later in zip(steps, steps[1:]):
        assert later.before == earlier.after
    assert steps[-1].after.is_over  # the other side is out of cards: that is how it wins
    assert session.attempt.position == start  # the wrong move was not made


def test_the_solution_line_steps_from_where_it_was_asked_and_tricks_reset_at_each_lead() -> None:
    session = PuzzleSession(heads_up(), Solver(rules=STANDARD))
    session.start()
    shown = next(e for e in session.solution() if isinstance(e, SolutionShown))
    steps = shown.steps
    assert [s.played.text for s in steps] == ["77", "pass", "Q"]
    assert [len(s.trick) for s in steps] == [1, 2, 1]  # 77, the pass on it; then Q leads anew
    assert steps[1].trick[0] is steps[0].played
    assert steps[-1].after.is_over
    assert line_steps(shown.start, ()) == () and SolutionShown(()).steps == ()  # type: ignore[arg-type]


def test_the_replay_queue_holds_failed_puzzles_still_in_the_library(tmp_path: Path) -> None:
    puzzle = heads_up()
    with Store.open(tmp_path / "s.sqlite3") as store:
        progress = PuzzleProgress(store)
        session = PuzzleSession(puzzle, Solver(rules=STANDARD), progress, day=date(2026, 1, 1))
        session.start()
        session.select("q")  # wrong: the attempt is failed
        session.solution()
        library = Library([puzzle])
        assert replay_queue(library, progress) == [puzzle.id]
        assert replay_queue(Library([]), progress) == []  # no longer shipped: not offered
        solved = PuzzleSession(puzzle, Solver(rules=STANDARD), progress, day=date(2026, 1, 2))
        solved.start()
        solved.select("77")
        solved.select("q")
        assert replay_queue(library, progress) == []  # solved cleanly last time: done


def test_a_title_naming_the_idea_is_rebuilt_in_the_learners_language() -> None:
    from dataclasses import replace

    from tutor.i18n import speaking

    assert display_title(heads_up()) == "test"  # a composed puzzle keeps its author's title
    generated = replace(heads_up(), themes=("bomb_finish",), source=Source(kind="generated"))
    with speaking("en"):
        assert display_title(generated) == "Landlord to move: bomb finish"
    with speaking("ru"):
        assert display_title(generated) == "Ход помещика: добивание бомбой"


def test_the_interactive_solver_counts_nodes_and_has_no_clock() -> None:
    """A refutation line or a verdict never comes out shorter or "unknown" because the machine is busy."""
    from tutor.sessions.puzzle import INTERACTIVE_NODES, default_solver

    solver = default_solver()
    assert isinstance(solver, Solver)
    assert solver.max_nodes == INTERACTIVE_NODES and solver.max_seconds is None


def test_a_look_at_raised_cards_gives_the_status_line_and_plays_nothing() -> None:
    session = PuzzleSession(heads_up(), Solver(rules=STANDARD))
    session.start()
    [line] = session.look("77")
    assert isinstance(line, StatusLine) and line.ok
    [line] = session.look("7Q")
    assert not line.ok
    assert session.look(" ") == [] and not session.attempt.history and session.attempt.mistakes == 0


def test_an_unsettled_move_is_an_unclear_event_said_in_both_languages_not_a_wrong_one() -> None:
    """The solver's budget cannot settle the move: the session says so (Unclear), the terminal and the web table
    render it as neither right nor wrong, and the move is not made."""
    from io import StringIO

    from rich.console import Console

    from tutor.cli.puzzle import render_puzzle_event
    from tutor.i18n import speaking
    from tutor.web.puzzles import event

    session = PuzzleSession(heads_up(), Solver(rules=STANDARD, max_nodes=1))
    session.start()
    start = session.attempt.position
    (unclear,) = session.play(next(m for m in start.legal_moves() if m is not None and m.text == "Q"))
    assert isinstance(unclear, Unclear) and session.attempt.position == start and session.attempt.mistakes == 0
    for lang, words in (("en", "cannot settle"), ("ru", "не может проверить")):
        with speaking(lang):
            out = StringIO()
            render_puzzle_event(Console(file=out, width=80, no_color=True), unclear)
            assert out.getvalue().startswith("? ") and words in out.getvalue()
            said = event(session, unclear)
            assert said is not None and said["type"] == "unclear" and words in said["text"]
