"""CPU per test file, the processes a test starts included: where the suite's budget goes.

A pytest plugin, off unless asked for::

    DDZ_CPU_PROFILE=/tmp/cpu.jsonl .venv/bin/python -m pytest -p tests.cpu_profile
    .venv/bin/python -m tests.cpu_profile /tmp/cpu.jsonl        # the top 30 files

Each process of the run (every xdist worker) adds, per test, the change of its own user+sys time
and of its waited-for children's (``resource.getrusage``: a ``ddz`` process, a busy loop, the
browser once it is closed) to the test's file, and appends one JSON line per file at its end.
A process that outlives its test (the session's Chromium) is counted where it is reaped.

So that the session's Chromium (~25 s a worker) is not all put on whichever file closes it, each file also
gets a third figure, ``live``: the CPU its tests' **live** descendants spent meanwhile (``/proc``: Chromium and
its renderers, a server process a module fixture keeps), each process's own user+sys time from the test's start
(or its own start) to the test's end.  It overlaps with ``children`` (a process is counted live while it works
and again where it is reaped) and misses what a process spent in the test it ended in: an attribution aid, not
part of the total.  ``DDZ_CPU_PROFILE_TESTS=N`` adds each process's N costliest tests (self + children + live).
Since round 11 the live figure is also split by the kind of process (:func:`_kind`: Chromium's renderers, its
browser and GPU processes, Playwright's driver, a ``ddz`` process…), per file and for the whole run.
Since round 12 it also records the **schedule**: when each process started collecting, when its collection ended
(and the CPU that took: a fresh clone rewrites every test file's asserts), when each file's first test started and
its last ended; the report prints each worker's collection, its last files and how far apart the workers ended
(an idle worker at the end is lost time: tests/conftest.py's ``LONGEST_FIRST``).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

_FILES: dict[str, list[float]] = {}
_KINDS: dict[str, dict[str, float]] = {}
_KIND_OF: dict[int, str] = {}
_TESTS: list[tuple[float, str]] = []
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: This process's schedule (wall clock, epoch seconds): its configure, its collection's end and CPU then.
_MARKS: dict[str, float] = {}
#: Each file's first test's start and last test's end (wall clock).
_SPANS: dict[str, list[float]] = {}


def _descendants() -> dict[int, float]:
    """Each live descendant's own user+sys seconds (empty without /proc)."""
    found: dict[int, float] = {}
    todo = [os.getpid()]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children", encoding="ascii") as listed:
                    kids = [int(kid) for kid in listed.read().split()]
            except OSError:
                continue
            for kid in kids:
                try:
                    with open(f"/proc/{kid}/stat", encoding="ascii", errors="replace") as stat:
                        text = stat.read()
                except OSError:
                    continue
                fields = text[text.rindex(")") + 2:].split()
                found[kid] = (int(fields[11]) + int(fields[12])) / _TICK
                todo.append(kid)
    return found


def _kind(pid: int) -> str:
    """What a descendant is, from its command line: ``chromium:renderer`` (``--type=…``), ``chromium`` (the browser
    process), ``playwright-driver``, ``ddz``, else the program's name; read once per process."""
    if pid not in _KIND_OF:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as listed:
                words = listed.read().replace(b"\0", b" ").decode("utf-8", "replace").split()
        except OSError:
            words = []
        kind = os.path.basename(words[0]) if words else "?"
        if "chromium" in kind or any("playwright_chromiumdev_profile" in word for word in words):
            kind = next((f"chromium:{word[7:]}" for word in words if word.startswith("--type=")), "chromium")
        elif any(word.endswith("run-driver") for word in words):
            kind = "playwright-driver"
        elif any("tutor.cli" in word or word.endswith("/ddz") for word in words):
            kind = "ddz"
        _KIND_OF[pid] = kind
    return _KIND_OF[pid]


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def pytest_configure(config: pytest.Config) -> None:
    _MARKS["configure"] = time.time()


def pytest_collection_finish(session: pytest.Session) -> None:
    _MARKS["collected"] = time.time()
    _MARKS["collection_cpu"] = _cpu()[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    own, kids, wall, before = *_cpu(), time.monotonic(), _descendants()
    span = _SPANS.setdefault(item.nodeid.split("::")[0], [time.time(), 0.0])
    yield
    span[1] = time.time()
    own2, kids2 = _cpu()
    spent = {pid: max(0.0, cpu - before.get(pid, 0.0)) for pid, cpu in _descendants().items()}
    live = sum(spent.values())
    kinds = _KINDS.setdefault(item.nodeid.split("::")[0], {})
    for pid, cpu in spent.items():
        if cpu > 0.0:
            kinds[_kind(pid)] = kinds.get(_kind(pid), 0.0) + cpu
    row = _FILES.setdefault(item.nodeid.split("::")[0], [0.0, 0.0, 0.0, 0, 0.0])
    row[0] += own2 - own
    row[1] += kids2 - kids
    row[2] += time.monotonic() - wall
    row[3] += 1
    row[4] += live
    _TESTS.append((own2 - own + kids2 - kids + live, item.nodeid))


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get("DDZ_CPU_PROFILE")
    if not out:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(out, "a", encoding="utf-8") as sink:
        for name, (own, kids, wall, tests, live) in _FILES.items():
            sink.write(json.dumps({"file": name, "self": own, "children": kids, "wall": wall, "tests": tests,
                                   "worker": worker, "live": live, "kinds": _KINDS.get(name, {}),
                                   "span": _SPANS.get(name)}) + "\n")
        sink.write(json.dumps({"process": worker, **_MARKS, "finish": time.time()}) + "\n")
        for cpu, nodeid in sorted(_TESTS, reverse=True)[:int(os.environ.get("DDZ_CPU_PROFILE_TESTS", "0"))]:
            sink.write(json.dumps({"test": nodeid, "cpu": cpu, "worker": worker}) + "\n")


def table(path: str, top: int = 30) -> str:
    """A Markdown table of the ``top`` files by CPU (user+sys, children included)."""
    every = [json.loads(line) for line in open(path, encoding="utf-8")]
    rows = [row for row in every if "file" in row]
    rows.sort(key=lambda r: -(r["self"] + r["children"]))
    total = sum(r["self"] + r["children"] for r in rows)
    live = sum(r.get("live", 0.0) for r in rows)
    lines = [f"{len(rows)} files, {total:.0f} s CPU in the tests (collection and start-up not included); "
             f"live descendants {live:.0f} s (overlapping: see the module doc)",
             "", "| file | tests | CPU s | of which children | live descendants |", "|---|---|---|---|---|"]
    lines += [f"| {r['file']} | {r['tests']} | {r['self'] + r['children']:.1f} | {r['children']:.1f} "
              f"| {r.get('live', 0.0):.1f} |" for r in rows[:top]]
    lives = sorted((r for r in rows if r.get("live", 0.0) >= 1.0), key=lambda r: -r["live"])
    if lives:
        lines += ["", "| file (by live descendants) | live s |", "|---|---|"]
        lines += [f"| {r['file']} | {r['live']:.1f} |" for r in lives[:top]]
        kinds: dict[str, float] = {}
        for r in rows:
            for kind, cpu in r.get("kinds", {}).items():
                kinds[kind] = kinds.get(kind, 0.0) + cpu
        if kinds:
            lines += ["", "| live descendants by kind (all files) | CPU s |", "|---|---|"]
            lines += [f"| {kind} | {cpu:.1f} |" for kind, cpu in sorted(kinds.items(), key=lambda kc: -kc[1])[:top]]
    tests = sorted((row for row in every if "test" in row), key=lambda r: -r["cpu"])
    if tests:
        lines += ["", "| test (self + children + live) | CPU s |", "|---|---|"]
        lines += [f"| {r['test']} | {r['cpu']:.1f} |" for r in tests[:top]]
    lines += schedule(every)
    return "\n".join(lines)


def schedule(every: list[dict[str, Any]], last: int = 3) -> list[str]:
    """Each worker's collection and last files, seconds from the first process's configure (empty before round 12)."""
    processes = [row for row in every if "process" in row and "configure" in row]
    workers = [row for row in processes if "collected" in row]
    if not workers:
        return []
    zero = min(row["configure"] for row in processes)
    lines = ["", "| worker | collected at s (CPU s) | its last files (start s, wall s) | last test ended at s |",
             "|---|---|---|---|"]
    ends = []
    for row in sorted(workers, key=lambda r: str(r["process"])):
        spans = sorted((r["span"][0], r["span"][1], r["file"]) for r in every
                       if r.get("worker") == row["process"] and r.get("span"))
        end = max((stop for _, stop, _ in spans), default=row["collected"])
        ends.append(end)
        tail = ", ".join(f"{name} ({start - zero:.0f}, {stop - start:.1f})" for start, stop, name in spans[-last:])
        lines.append(f"| {row['process']} | {row['collected'] - zero:.1f} ({row['collection_cpu']:.1f}) | {tail} "
                     f"| {end - zero:.1f} |")
    lines += ["", f"The workers' last tests ended {max(ends) - min(ends):.1f} s apart."]
    return lines


if __name__ == "__main__":
    print(table(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30))
