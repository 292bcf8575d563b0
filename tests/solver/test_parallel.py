"""Root moves shared out among forked workers give the same answers."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from tutor.engine.cards import Cards
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver, parallel

pytestmark = pytest.mark.skipif(not parallel.parallel_available(), reason="no fork on this platform")


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the workers forked during the test, in order (a spy on :func:`parallel._fork_worker`)."""
    pids: list[int] = []
    original = parallel._fork_worker

    def spy(*args: object) -> tuple[int, int]:
        pid, end = original(*args)  # type: ignore[arg-type]
        pids.append(pid)
        return pid, end

    monkeypatch.setattr(parallel, "_fork_worker", spy)
    return pids


def test_parallel_root_moves_match_sequential(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutor.solver.solver.PARALLEL_AFTER_NODES", 50)
    monkeypatch.setattr("tutor.solver.solver.PROBE_NODES", 20)  # leave work for the workers
    for text in ("L:DAQQJJT999844 F:X22AAT886633", "L:3335688JQK22 F:445567TTKAAA", "L:XDKTT78866 F:22AAA9976633"):
        pos = Position.parse(text)
        one = Solver(workers=1, rules=STANDARD).solve(pos)
        two = Solver(workers=2, max_seconds=60, rules=STANDARD).solve(pos)
        assert two.complete and one.complete
        assert two.mover_wins is one.mover_wins
        assert two.winning_moves == one.winning_moves  # same moves, same (root) order
        assert two.line and two.line[0] == one.line[0]


def test_parallel_random_positions_match_sequential(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutor.solver.solver.PARALLEL_AFTER_NODES", 20)
    monkeypatch.setattr("tutor.solver.solver.PROBE_NODES", 10)
    rng = random.Random(3)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    for _ in range(6):
        rng.shuffle(deck)
        a, b = Cards.from_ranks(deck[:9]), Cards.from_ranks(deck[9:18])
        pos = Position((a, b), Position.parse("L:3 F:4").roles, 0, None, None, rules=STANDARD)
        one = Solver(workers=1, rules=STANDARD).solve(pos)
        two = Solver(workers=2, max_seconds=60, rules=STANDARD).solve(pos)
        assert (two.mover_wins, two.winning_moves) == (one.mover_wins, one.winning_moves), pos


def test_quick_look_can_settle_every_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the first phase, a look of PROBE_NODES at each move may decide them
    all: then no worker is started, and the answer is the same."""
    monkeypatch.setattr("tutor.solver.solver.PARALLEL_AFTER_NODES", 20)
    started: list[int] = []
    original = parallel.solve_moves_in_parallel

    def spy(*args: object, **kwargs: object) -> object:
        started.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("tutor.solver.solver.solve_moves_in_parallel", spy)
    pos = Position.parse("L:3335688JQK22 F:445567TTKAAA")
    two = Solver(workers=2, max_seconds=60, rules=STANDARD).solve(pos)
    assert two.winning_moves == Solver(workers=1, rules=STANDARD).solve(pos).winning_moves
    assert not started


def test_node_budget_never_forks() -> None:
    """A node budget keeps the answer reproducible: no workers."""
    pos = Position.parse("L:33456789TJQKKA22X F:445567789TJQQAA2D")
    result = Solver(max_nodes=2_000, workers=2, rules=STANDARD).solve(pos)
    assert not result.complete and result.nodes <= 2_000


def test_time_budget_in_workers_answers_unknown(monkeypatch: pytest.MonkeyPatch, forked: list[int]) -> None:
    monkeypatch.setattr("tutor.solver.solver.PARALLEL_AFTER_NODES", 1_000)
    # two-10 takes about 0.9M nodes, 0.4-0.5 s of two idle cores since the solver got faster (issue 33): a budget of
    # 0.5 s was met on an idle machine and the test failed.  A twentieth of that is far below any machine's time
    # for this position, so the answer is "unknown" wherever it runs; the workers still start (after 1,000 nodes).
    pos = Position.parse("L:33456789TJQKKA22X F:445567789TJQQAA2D")
    result = Solver(max_seconds=0.025, workers=2, rules=STANDARD).solve(pos)
    assert not result.complete
    for pid in forked:  # the workers that started were stopped and reaped with the answer (no timing asserted)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_the_parent_takes_a_share_unless_it_shows_progress(
        monkeypatch: pytest.MonkeyPatch, forked: list[int]) -> None:
    """Issue 33: without a progress display the solving process judges moves itself and forks one
    worker fewer; with one it forks them all and only gathers.  The answers are the same either way."""
    monkeypatch.setattr("tutor.solver.solver.PARALLEL_AFTER_NODES", 50)
    monkeypatch.setattr("tutor.solver.solver.PROBE_NODES", 20)
    pos = Position.parse("L:DAQQJJT999844 F:X22AAT886633")
    one = Solver(workers=1, rules=STANDARD).solve(pos)
    quiet = Solver(workers=3, max_seconds=60, rules=STANDARD).solve(pos)
    assert len(forked) == 2
    told: list[tuple[int, int, int]] = []
    watched = Solver(workers=3, max_seconds=60, rules=STANDARD)
    watched.progress = lambda settled, total, nodes: told.append((settled, total, nodes))
    shown = watched.solve(pos)
    assert len(forked) == 5
    for res in (quiet, shown):
        assert (res.mover_wins, res.winning_moves, res.line) == (one.mover_wins, one.winning_moves, one.line)
    assert told and told[-1][0] == told[-1][1]  # the display saw every first move settled


def test_a_worker_whose_parent_stopped_reading_leaves_without_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent killed between the fork and the worker's first line leaves a pipe nobody reads: the
    worker's write fails (EPIPE) and it must leave silently (issue 23: no traceback when ``ddz`` is killed).
    Deterministic: the worker's after-fork hook waits until the test has closed the reading end."""
    gate_read, gate_write = os.pipe()

    def after_fork() -> None:
        os.read(gate_read, 1)  # the reading end is closed before this returns

    monkeypatch.setattr(parallel, "_JOB", (lambda index, remaining: (True, 1), after_fork, None))
    cursors = parallel._Cursors([0, 1])
    log = tmp_path / "stderr"
    with open(log, "w", encoding="utf-8") as err:
        monkeypatch.setattr(sys, "stderr", err)  # the child inherits it: its traceback, if any, lands there
        pid, read_end = parallel._fork_worker(0, os.getpid(), cursors, [0])
        monkeypatch.undo()
    os.close(read_end)
    os.write(gate_write, b"g")
    _, status = os.waitpid(pid, 0)
    os.close(gate_read)
    os.close(gate_write)
    cursors.close()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "BrokenPipe" not in text, text
    assert os.WIFEXITED(status)
