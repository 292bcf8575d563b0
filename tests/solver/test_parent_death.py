"""Workers die with their parent, silently (issue 23): ``kill -9`` (or SIGHUP) of ``ddz`` leaves no
orphan behind and no traceback, for the forked solver workers, the arena's fork pool and the
puzzle generator's pool (forked on Linux; tutor.solver.parallel.die_with_parent, PR_SET_PDEATHSIG).

The check is not a race against a clock: once the parent is killed, reading its stderr to the
end returns only when every process holding that pipe (the workers) is exiting; then each must
be gone within a counted number of polls.  A generous timeout only keeps a regression from
hanging the run.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_interrupt import RUNAWAY, alive, children, start

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

#: Polls (a tenth of a second apart) for the workers to start: a counted bound, not a timing assertion.
POLLS = 1200


@pytest.mark.parametrize(
    ("args", "workers", "how"),
    [
        (["solve", RUNAWAY, "--max-seconds", "0"], 1, signal.SIGKILL),
        (["solve", RUNAWAY, "--max-seconds", "0"], 1, signal.SIGHUP),
        (["arena", "--landlord", "easy", "--farmers", "easy", "-n", "100000", "--workers", "2"], 2, signal.SIGKILL),
        (["puzzles", "generate", "-n", "5000", "--workers", "2", "--out", "{tmp}/out.yaml"], 2, signal.SIGKILL),
    ],
    ids=["solve-kill", "solve-hup", "arena-fork-pool", "generate-pool"],
)
def test_killing_the_parent_leaves_no_worker_and_no_traceback(
        tmp_path: Path, args: list[str], workers: int, how: signal.Signals) -> None:
    proc = start([a.replace("{tmp}", str(tmp_path)) for a in args], tmp_path)
    try:
        for _ in range(POLLS):
            if len(children(proc.pid)) >= workers or proc.poll() is not None:
                break
            time.sleep(0.1)
        kids = children(proc.pid)
        assert len(kids) >= workers and proc.poll() is None, "the workers did not start"
        proc.send_signal(how)
        _, err = proc.communicate(timeout=120)  # EOF: every worker has closed the pipe, i.e. died
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # A dying process closes its files a moment before it is a zombie: poll, a counted number of times.
    for _ in range(POLLS):
        orphans = [k for k in kids if alive(k)]
        if not orphans:
            break
        time.sleep(0.1)
    for orphan in orphans:  # do not leave them to the rest of the run
        os.kill(orphan, signal.SIGKILL)
    assert orphans == [], "workers outlived their parent"
    assert "Traceback" not in err and "BrokenPipe" not in err, err[-2000:]
