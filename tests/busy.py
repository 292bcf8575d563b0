"""Load for tests that must give the same answers on a loaded machine: busy loops, or stalls that cost no CPU."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

#: A busy loop (or a staller) gives up after this many seconds (a bound in case the test run dies with it alive).
BUSY_SECONDS = 300

_BUSY_LOOP = f"""
import time
end = time.monotonic() + {BUSY_SECONDS}
while time.monotonic() < end:
    pass
"""


@contextmanager
def busy_cores() -> Iterator[int]:
    """One busy process per core (at least two) while the block runs; yields how many.

    The processes are killed and reaped on the way out, whatever happens in the block.
    """
    count = max(2, os.cpu_count() or 2)
    loops = [subprocess.Popen([sys.executable, "-c", _BUSY_LOOP]) for _ in range(count)]
    try:
        yield count
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()


#: The staller: stops its parent (SIGSTOP) for ``stop`` seconds after every ``run`` seconds, counts the stops and
#: prints the count when told to end (SIGTERM), when its parent is gone, or after BUSY_SECONDS.  Whatever ends it,
#: its last act is a SIGCONT: the parent is never left stopped.
_STALLER = f"""
import os, signal, sys, time
parent, run, stop = os.getppid(), float(sys.argv[1]), float(sys.argv[2])
stops = 0
def leave(*_):
    try:
        os.kill(parent, signal.SIGCONT)
    except OSError:
        pass
    print(stops, flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, leave)
end = time.monotonic() + {BUSY_SECONDS}
sys.stdout.write("ready\\n"); sys.stdout.flush()
while time.monotonic() < end and os.getppid() == parent:
    time.sleep(run)
    os.kill(parent, signal.SIGSTOP)
    stops += 1
    time.sleep(stop)
    os.kill(parent, signal.SIGCONT)
leave()
"""


@dataclass
class Stalls:
    """How often the block was stopped (known once it has ended)."""

    count: int = 0


@contextmanager
def stalled(run: float = 0.02, stop: float = 0.04) -> Iterator[Stalls]:
    """This process stopped for ``stop`` seconds after every ``run`` seconds while the block runs: what a busy
    machine does to a process (its wall clock runs on while it gets no CPU; 0.02/0.04: a third of a core, as
    two busy loops beside it on one core), without burning the CPU that busy loops would take from the other
    tests.  A decision that reads the clock sees three times the wall time for the same work.

    Only this process is stopped, not processes it starts (the arena's games run in-process).  Yields a
    :class:`Stalls` whose ``count`` is set on the way out, so that a test can check the block really was stopped.
    """
    staller = subprocess.Popen([sys.executable, "-c", _STALLER, str(run), str(stop)], stdout=subprocess.PIPE,
                               text=True)
    assert staller.stdout is not None
    assert staller.stdout.readline().strip() == "ready"
    stalls = Stalls()
    try:
        yield stalls
    finally:
        staller.terminate()
        out, _ = staller.communicate(timeout=60)
        stalls.count = int(out.split()[-1]) if out.split() else 0
