"""Where a personal-puzzle scan spends its nodes (issue 30, eleventh pass): it gives a game up after turns in a
row whose side stays unproven, and a proven moment whose fastest line does not fit a proof's budget is tried
once more within the game's making budget."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.coach.positions import puzzle_game
from tutor.engine.record import GameRecord
from tutor.engine.rules import STANDARD
from tutor.puzzles import personal
from tutor.solver.position import Position
from tutor.store import Store
from tutor.store.games import GameStore


def _record(players: str, lead: str) -> GameRecord:
    """A finished game from ``players``: we lead ``lead``, then everyone plays their lowest play or passes."""
    game = puzzle_game(players)
    game.play(next(m for m in game.legal_moves() if m is not None and m.text == lead))
    while not game.is_over:
        game.play(game.legal_moves()[-1] if game.table is None else None)
    return game.record()


def _beginner_record(tmp_path: Path, deal: int) -> GameRecord:
    """A beginner's game (the easy bot in the learner's seat, medium bots around), played by
    benchmarks/personal_puzzles.py's own loop: the figures there and this test see the same game."""
    from benchmarks.personal_puzzles import play_beginner_games

    path = tmp_path / "ddz.sqlite"
    ((_, game_id),) = play_beginner_games(path, 1, deal)
    with Store.open(path) as store:
        stored = GameStore(store).get(game_id)
    assert stored is not None
    return GameRecord.from_dict(stored.record)


def _logged(record: GameRecord, monkeypatch: pytest.MonkeyPatch, run: int | None) -> list[dict[str, Any]]:
    """The scan's log lines of the turns looked at (no finds), with proofs of 40 nodes: most turns unproven."""
    monkeypatch.setattr(personal, "MAX_NODES", 40)
    monkeypatch.setattr(personal, "UNPROVEN_RUN", run)
    lines: list[dict[str, Any]] = []
    personal.missed_wins(record, personal.scan_factory, log=lines.append)
    return [line for line in lines if not line.get("find")]


def test_the_scan_gives_a_game_up_after_turns_in_a_row_with_the_side_unproven(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Going back from the end, the positions only grow: once the side is unproven at ``UNPROVEN_RUN`` turns in a
    row, the scan stops there instead of spending a proof's budget on every earlier turn."""
    record = _beginner_record(tmp_path, 4)
    every = _logged(record, monkeypatch, None)
    given_up = _logged(record, monkeypatch, 2)
    sides = [line["side"] for line in every]
    # where two unproven turns first come in a row (a proven turn between resets the count)
    stop = next(i for i in range(1, len(sides)) if sides[i - 1] == sides[i] == "unknown")
    assert stop + 1 < len(every)  # there were earlier turns to give up
    assert [line["index"] for line in given_up] == [line["index"] for line in every[:stop + 1]]
    assert [line["side"] for line in given_up][-2:] == ["unknown", "unknown"]


def test_a_fastest_line_beyond_a_proofs_budget_is_tried_again_within_the_making_budget() -> None:
    """Deal 37's 41-card moment (benchmarks/personal_puzzles.py) was proven by the scan, but its fastest line needed
    23 million nodes: no puzzle.  Here in small: a line needing more than a 100-node budget is made by the second
    try, the same puzzle as with a budget that fits at once; without a making budget, none."""
    pos = Position.parse("F:3689Q L:59Q F:6J", rules=STANDARD)
    missed = personal.Missed(1, pos, None, personal.MISSED, plays=5)

    def small() -> Any:
        solver = personal.default_factory()
        solver.max_nodes = 100
        return solver

    assert personal.make_within(missed, 1, small(), 0) == (None, 0)
    puzzle, again = personal.make_within(missed, 1, small(), 1000)
    whole = personal.make_puzzle(missed, 1, personal.default_factory())
    assert puzzle is not None and whole is not None and 0 < again
    assert (puzzle.id, puzzle.solution.main_line(), puzzle.rating) == (whole.id, whole.solution.main_line(),
                                                                      whole.rating)


def test_a_games_second_tries_share_its_making_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``puzzles_of_game`` gives the second tries what is left of ``MAKE_PROOFS`` proofs' budgets: our 3 lost (only
    the 9 wins), and with proofs of 100 nodes the puzzle is made only when the game's making budget allows the
    second try."""
    monkeypatch.setattr(personal, "OPPONENT_TURNS", False)
    record = _record("F:3689Q L:59Q F:6J", "3")

    def small() -> Any:
        solver = personal.default_factory()
        solver.max_nodes = 100
        return solver

    def first_turns() -> list[str]:  # the first plays of the puzzles made from our turn 1 (a later one is small)
        made = personal.puzzles_of_game(record, 1, small, scan_factory=personal.scan_factory)
        return [puzzle.solution.main_line()[0] for moment, puzzle in made if moment == 1]

    monkeypatch.setattr(personal, "MAKE_PROOFS", 0)
    assert first_turns() == []
    monkeypatch.setattr(personal, "MAKE_PROOFS", 1)
    assert first_turns() == ["9"]


def test_the_scans_move_order_proves_the_same_verdicts_with_other_node_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan's solver searches in :data:`personal.ORDER` (twelfth pass: every play by the plays left after it):
    wherever the plain order and it both settle a turn of a beginner's game, the same verdicts; the nodes differ
    (the order is really the scan's)."""
    from tutor.solver.team_native import ORDER_MERGED, available

    if not available():
        pytest.skip("the compiled three-player search is not built")
    assert personal.ORDER == ORDER_MERGED
    record = _beginner_record(tmp_path, 4)
    monkeypatch.setattr(personal, "MAX_NODES", 3_000)
    monkeypatch.setattr(personal, "UNPROVEN_RUN", None)
    solver = personal.scan_factory()
    roles = next(pos.roles for _, pos, _ in personal.play_turns(record) if pos is not None)
    assert solver._team_search(roles).order == ORDER_MERGED  # type: ignore[attr-defined]
    runs = []
    for order in (0, ORDER_MERGED):
        monkeypatch.setattr(personal, "ORDER", order)
        lines: list[dict[str, Any]] = []
        personal.missed_wins(record, personal.scan_factory, log=lines.append)
        runs.append({(line["index"], line.get("find", False)): line for line in lines
                     if "side" in line})  # the turns proven (not the fastest pass's lines, round 15)
    plain, merged = runs
    both = [key for key in plain if key in merged and "unknown" not in (plain[key]["side"], merged[key]["side"])]
    assert len(both) > 5
    assert all(plain[key]["side"] == merged[key]["side"] for key in both)
    assert [plain[key]["nodes"] for key in both] != [merged[key]["nodes"] for key in both]


def test_the_benchmarks_ten_games_can_be_ten_different_games(tmp_path: Path) -> None:
    """Deal 44 is redealt into 45 (nobody bids): deals 44 and 45 are one game. ``--distinct`` plays and stores the
    repeat, as a learner would, but counts the next deal number instead (issue 30's "ten games" are ten games)."""
    from benchmarks.personal_puzzles import play_beginner_games

    assert [deal for deal, _ in play_beginner_games(tmp_path / "a.sqlite", 2, 44)] == [44, 45]
    assert [deal for deal, _ in play_beginner_games(tmp_path / "b.sqlite", 2, 44, distinct=True)] == [44, 46]
    with Store.open(tmp_path / "b.sqlite") as store:
        assert len(GameStore(store).history()) == 3  # the repeat is stored all the same
