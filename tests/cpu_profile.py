"""CPU per test file, the processes a test starts included: where the suite's budget goes.

A pytest plugin, off unless asked for::

    DDZ_CPU_PROFILE=/tmp/cpu.jsonl .venv/bin/python -m pytest -p tests.cpu_profile
    .venv/bin/python -m tests.cpu_profile /tmp/cpu.jsonl        # the top 30 files

Each process of the run (every xdist worker) adds, per test, the change of its own user+sys time
and of its waited-for children's (``resource.getrusage``: a ``ddz`` process, a busy loop, the
browser once it is closed) to the test's file, and appends one JSON line per file at its end.
A process that outlives its test (the session's Chromium) is counted where it is reaped.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Iterator

import pytest

_FILES: dict[str, list[float]] = {}


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    own, kids, wall = *_cpu(), time.monotonic()
    yield
    own2, kids2 = _cpu()
    row = _FILES.setdefault(item.nodeid.split("::")[0], [0.0, 0.0, 0.0, 0])
    row[0] += own2 - own
    row[1] += kids2 - kids
    row[2] += time.monotonic() - wall
    row[3] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get("DDZ_CPU_PROFILE")
    if not out:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(out, "a", encoding="utf-8") as sink:
        for name, (own, kids, wall, tests) in _FILES.items():
            sink.write(json.dumps({"file": name, "self": own, "children": kids, "wall": wall, "tests": tests,
                                   "worker": worker}) + "\n")


def table(path: str, top: int = 30) -> str:
    """A Markdown table of the ``top`` files by CPU (user+sys, children included)."""
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    rows.sort(key=lambda r: -(r["self"] + r["children"]))
    total = sum(r["self"] + r["children"] for r in rows)
    lines = [f"{len(rows)} files, {total:.0f} s CPU in the tests (collection and start-up not included)",
             "", "| file | tests | CPU s | of which children |", "|---|---|---|---|"]
    lines += [f"| {r['file']} | {r['tests']} | {r['self'] + r['children']:.1f} | {r['children']:.1f} |"
              for r in rows[:top]]
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30))
