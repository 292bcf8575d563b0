"""Cached verdicts of the suite's costliest proofs: re-proven only when something they depend on changed.

Proving every shipped puzzle (only move, stated result, solution tree) and validating the whole
course with the coach's weighing cost about a minute of CPU together, the same minute on every
run while neither the puzzles, the lessons nor the code that proves them changed.  A verdict file
(``tests/verdicts/<check>.json``, committed) remembers the inputs proven good:

* **sources**: the sha256 of every ``tutor`` module the check imported when the file was written
  (and the C core and schemas beside them).  One of them changed: the whole
  file is stale and every input is proven again.  A new dependency cannot slip past: it is imported
  by a file that changed.
* **verdicts**: for each input proven good, the sha256 of its content (with the check's settings,
  such as the solver budget) and what the proof found (counts the tests assert on).  A changed
  puzzle or lesson has another key: it is proven again, and the test fails when it is wrong.

Only good verdicts are written; a failing proof is never stored.  The tests never write the file
(nothing is written into the checkout): after changing a puzzle, a lesson, the solver or the
coach, refresh it with ``.venv/bin/python -m tests.verdicts`` (a fresh process: it records exactly
what the checks import) and commit it.  A stale file costs time, never a result.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FOLDER = Path(__file__).resolve().parent / "verdicts"


def digest(data: Any) -> str:
    """The content hash of JSON-able data (keys sorted: the same data, the same hash)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def loaded_sources() -> dict[str, str]:
    """Every ``tutor`` module this process has imported, and the C sources and schemas beside them.

    Modules only: a module the checks never imported cannot have taken part in their (deterministic)
    proofs, and a change that makes them import it changes a module that is recorded.
    """
    files: set[Path] = set()
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if (name == "tutor" or name.startswith("tutor.")) and where and where.endswith(".py"):
            path = Path(where).resolve()
            files.add(path)
            files.update(p for p in path.parent.iterdir() if p.suffix in {".c", ".json"})
    return {p.relative_to(ROOT).as_posix(): _file_hash(p) for p in sorted(files)}


class Verdicts:
    """The good verdicts of one check, valid while every recorded source is unchanged."""

    def __init__(self, check: str) -> None:
        self.path = FOLDER / f"{check}.json"
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        self.sources: dict[str, str] = data.get("sources", {})
        self.fresh = bool(self.sources) and all(_file_hash(ROOT / p) == h for p, h in self.sources.items())
        self.stale = [p for p, h in self.sources.items() if _file_hash(ROOT / p) != h][:5]
        self._found: dict[str, Any] = data.get("verdicts", {}) if self.fresh else {}

    def get(self, key: str) -> Any | None:
        """What the proof of this input found, or None: not proven with these sources (prove it)."""
        return self._found.get(key)

    def note(self) -> str:
        """One line for the test's output: used, or why not."""
        if self.fresh:
            return f"{self.path.name}: {len(self._found)} cached verdicts"
        why = f"changed: {', '.join(self.stale)}" if self.stale else "no verdict file"
        return f"{self.path.name} is stale ({why}): everything proven again; refresh: python -m tests.verdicts"


def write(check: str, verdicts: dict[str, Any]) -> Path:
    """Write a check's good verdicts with the sources this process imported (run in a fresh process)."""
    FOLDER.mkdir(exist_ok=True)
    path = FOLDER / f"{check}.json"
    body = {"about": "cached good verdicts: tests/verdicts.py", "sources": loaded_sources(),
            "verdicts": dict(sorted(verdicts.items()))}
    path.write_text(json.dumps(body, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _puzzles() -> dict[str, Any]:
    from tests.puzzles.test_library_verified import puzzle_verdicts

    return puzzle_verdicts()


def _lessons() -> dict[str, Any]:
    from tests.lessons.test_validate import course_verdicts

    return course_verdicts()


#: The checks whose verdicts are cached, and how to prove all their inputs.
CHECKS: dict[str, Callable[[], dict[str, Any]]] = {"puzzles": _puzzles, "lessons": _lessons}


def main(names: list[str]) -> int:
    """Prove every input of the named checks (all by default) and write their verdict files."""
    for name in names or list(CHECKS):
        if name not in CHECKS:
            print(f"unknown check {name!r}: {', '.join(CHECKS)}")
            return 2
        found = CHECKS[name]()
        print(f"{write(name, found).relative_to(ROOT)}: {len(found)} good verdicts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
