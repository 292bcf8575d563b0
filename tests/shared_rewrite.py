"""The xdist workers share the rewriting of the test files' asserts instead of each doing all of it.

pytest rewrites every test module's ``assert`` statements (so that a failure shows its values) and caches the
result as a pyc beside the source (``__pycache__/*.cpython-311-pytest-<version>.pyc``).  In a fresh clone — what
CI runs — that cache is empty, and every xdist worker collects the whole suite at the same moment: each one
parsed, rewrote and compiled all ~220 test files (~35 ms a file, ~8 s of CPU a worker on the slow 2-core
machine; docs/testing.md, rounds 11 and 12).  Here, before collecting, worker *i* of *n* rewrites the files from
position ``i·N/n`` on and stops at the first one already cached: the next worker's share starts there (or a
warm cache).  Collection then finds every pyc written and only loads it.  Each file is still rewritten by
pytest's own code with this run's configuration, and written the way pytest writes it (a complete pyc,
renamed into place); pytest's loader checks the source hash before using any pyc, so the worst a race or a
stale file can do is a file rewritten twice.

This uses pytest's private rewriting functions (``_pytest.assertion.rewrite``): if they move, :func:`share`
does nothing and the suite runs as before (each worker rewriting everything).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent


def rewritten_files(root: Path = TESTS) -> list[Path]:
    """The test modules pytest rewrites when it collects ``root``, in a fixed order.

    (The conftests are few and tests/conftest.py is loaded before any hook of it runs: left to pytest.)
    """
    return sorted(root.rglob("test_*.py"))


def share(config: Any, files: list[Path] | None = None, worker: str | None = None, count: int | None = None) -> int:
    """Rewrite this worker's share of ``files`` into pytest's cache; return how many files it rewrote.

    ``worker`` (``gw0``, ``gw1``…) and ``count`` default to xdist's environment; outside an xdist worker, with
    bytecode writing off or with assert rewriting off, nothing is done (0).
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "") if worker is None else worker
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0) if count is None else count
    if not worker.startswith("gw") or count < 2 or sys.dont_write_bytecode:
        return 0
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return 0
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )
    except ImportError:  # pragma: no cover - another pytest: every worker rewrites for itself, as before
        return 0
    files = rewritten_files() if files is None else files
    start = int(worker[2:]) * len(files) // count
    try:
        state = config.stash[assertstate_key]
    except (KeyError, AttributeError):  # pragma: no cover - rewriting not set up as this pytest did
        return 0
    done = 0
    for source in files[start:] + files[:start]:
        try:
            cache = get_cache_dir(source)
            pyc = cache / (source.name[:-3] + PYC_TAIL)
            if _read_pyc(source, pyc) is not None:
                break  # another worker's share (it started here), or a warm cache
            cache.mkdir(parents=True, exist_ok=True)
            source_hash, code = _rewrite_test(source, config)
            _write_pyc(state, code, source_hash, pyc)
        except (OSError, SyntaxError):
            break  # a read-only tree, a broken file: collection meets it and says so
        except (TypeError, ValueError, AttributeError):  # pragma: no cover - a pytest whose private helpers
            return done  # changed shape: collection rewrites the rest itself, as before
        done += 1
    return done
