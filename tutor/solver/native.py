"""The compiled two-player search, when it was built; the pure-Python one otherwise.

``tutor/solver/_native.c`` is :class:`tutor.solver.search.TwoPlayerSearch`
written in C: the same move order, pruning and cutoffs, so the two
give the same answers (the tests run both on thousands of positions).  It is
built when the package is installed on a machine with a C compiler and the
Python headers; without them the package still installs and the solver runs
the Python search, only slower (about 140 thousand positions a second against
about two million on one core here).

Set ``DDZ_PURE_PYTHON=1`` (or pass ``Solver(native=False)``, as the tests do to
check the two against each other) to use the Python search even when the
compiled one is there.
"""

from __future__ import annotations

import os
import time
from types import ModuleType
from typing import Any

from tutor.engine.combos import Combo
from tutor.engine.rules import Rules, require_standard
from tutor.solver.search import Budget, BudgetExceeded
from tutor.solver.tables import HandTables

#: A compiled core to load instead of the package's own: ``ddz bench solver --baseline``
#: runs the benchmark on another build of ``_native.c`` (e.g. main's) side by side with this one.
LIBRARY_VARIABLE = "DDZ_NATIVE_LIBRARY"


def _load_library(path: str) -> ModuleType:
    """The extension module built at ``path`` (its init function is ``PyInit__native``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tutor.solver._native", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the solver core {path!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_native: ModuleType | None
if os.environ.get(LIBRARY_VARIABLE):
    _native = _load_library(os.environ[LIBRARY_VARIABLE])
else:
    try:  # pragma: no cover - depends on the build
        from tutor.solver import _native  # type: ignore[attr-defined,no-redef]
    except ImportError:  # pragma: no cover - depends on the build
        _native = None

#: The transposition table grows up to 2**MAX_TABLE_BITS buckets of 64 bytes
#: (64 MB); the hands the search has met are forgotten past MAX_HAND_MB.
MAX_TABLE_BITS = 20
MAX_HAND_MB = 160


def available() -> bool:
    """Is the compiled search built and not switched off (``DDZ_PURE_PYTHON=1``)?"""
    return _native is not None and os.environ.get("DDZ_PURE_PYTHON", "") not in ("1", "true", "yes")


class CompiledCore:
    """What a compiled search shares with its Python twin: the node counter, which lives in the C object
    (the solver reads and resets ``nodes`` as it does a Python search's attribute)."""

    _core: Any

    @property
    def nodes(self) -> int:
        return int(self._core.nodes)

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._core.nodes = value


class NativeTwoPlayerSearch(CompiledCore):
    """Drop-in for :class:`tutor.solver.search.TwoPlayerSearch` backed by C.

    ``win(me, opp, code, table)`` is True when the player holding ``me`` wins;
    the node and time budget of :attr:`budget` apply (``BudgetExceeded``).
    """

    def __init__(self, tables: HandTables, rules: Rules) -> None:
        require_standard(rules, "the compiled solver core (tutor/solver/_native.c)")
        if _native is None:
            raise RuntimeError("the compiled search (tutor.solver._native) is not built")
        self.tables = tables
        self.budget = Budget(None, None)
        self._core = _native.TwoSearch(BudgetExceeded, MAX_TABLE_BITS, MAX_HAND_MB)

    def win(self, me: int, opp: int, code: int, table: Combo | None) -> bool:
        budget = self.budget
        max_nodes = -1 if budget.max_nodes is None else budget.max_nodes
        seconds = -1.0 if budget.deadline is None else max(0.0, budget.deadline - time.perf_counter())
        return bool(self._core.win(me, opp, code, max_nodes, seconds))

    def win_within(self, me: int, opp: int, code: int, nodes: int, cap: int | None = None) -> bool | None:
        """:meth:`win` within ``nodes`` more nodes (and this search's count at most ``cap``), None when
        it does not fit: a side proof (:mod:`tutor.solver.lone_farmer`) that must not end the caller's
        search.  The solver's budget is not looked at."""
        core = self._core
        limit = core.nodes + nodes
        if cap is not None:
            limit = min(limit, cap)
            if core.nodes >= cap:
                return None
        try:
            return bool(core.win(me, opp, code, limit, -1.0))
        except BudgetExceeded:
            return None

    def rehome(self) -> None:
        """Give this process its own copy of the table (call after a fork: the
        shared copy-on-write pages would lose their huge pages on first write)."""
        self._core.rehome()

    def clear(self) -> None:
        """Forget every hand and transposition entry (frees the memory)."""
        self._core.clear()
