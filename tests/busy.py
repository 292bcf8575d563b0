"""Busy loops that load every core, for tests that must give the same answers on a loaded machine."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: A busy loop gives up after this many seconds (a bound in case the test run dies with it alive).
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
