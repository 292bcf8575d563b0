"""The compiled three-player search, when it was built; the Python :class:`TeamSearch` otherwise.

``tutor/solver/_team.c`` is :class:`tutor.solver.search.TeamSearch` written in
C for three players (the landlord against two farmers) under the standard
play rules: the same moves in the same order, the same shortcuts and the same
exact transposition table, so the two give the same answers and — until the
table is cleared past :data:`tutor.solver.search.MAX_ENTRIES` entries — the
same node counts: a node budget means the same work with either core, only
about twenty times faster in C (``tests/solver/test_team_native.py`` checks
both on random positions and the shared three-player benchmarks).

Why (issue 30): the personal puzzles of a learner's games need exact proofs of
three-player positions of 30-40 cards, mostly landlord wins where every farmer
defence must be searched, far beyond what the Python search does in a game's
scan.

It is built with ``_native.c`` (hatch_build.py; it includes that file for the
one move generator).  ``DDZ_PURE_PYTHON=1`` switches it off with the two-player
core; ``Solver(native=False)`` too.
"""

from __future__ import annotations

import os
import time
from types import ModuleType

from tutor.engine.combos import Combo
from tutor.solver.native import CompiledCore
from tutor.solver.search import MAX_ENTRIES, Budget, BudgetExceeded

_team: ModuleType | None
try:  # pragma: no cover - depends on the build
    from tutor.solver import _team  # type: ignore[attr-defined,no-redef]
except ImportError:  # pragma: no cover - depends on the build
    _team = None

#: The table grows up to 2**MAX_TABLE_BITS slots of 32 bytes (128 MB), twice MAX_ENTRIES.
MAX_TABLE_BITS = 22
#: The proof-number search's own table grows up to 2**PNS_TABLE_BITS slots of 40 bytes (80 MB); then its entries
#: of the fewest cards are replaced (a hint lost, never a verdict: the verdicts also go to the exact table).
PNS_TABLE_BITS = 21

# Move orders of the compiled search (issue 30, round 12; ``NativeTeamSearch(order=...)``, bits OR-ed).  Any
# order proves the same verdicts — an AND/OR search with an exact table — in other numbers of nodes; 0 is the
# Python search's order, node for node.
#: The plays no opponent can answer, those leaving the fewest plays first (the plain order keeps the generator's).
ORDER_BOSS_PLAYS = 1
#: Every play by the plays its hand needs after it, the unanswered first on ties (the plain order tries every
#: unanswered play before any answered one).
ORDER_MERGED = 2
#: Against an opponent's play, the pass before the plays (the plain order: last).
ORDER_PASS_FIRST = 4
#: Before searching a position, look up each of its children in the table: one already proven won for the
#: side to move settles it (an enhanced transposition cutoff: the scan's table holds the other turns' proofs).
ORDER_ETC = 8


def available() -> bool:
    """Is the compiled three-player search built and not switched off (``DDZ_PURE_PYTHON=1``)?"""
    return _team is not None and os.environ.get("DDZ_PURE_PYTHON", "") not in ("1", "true", "yes")


class NativeTeamSearch(CompiledCore):
    """Drop-in for :class:`tutor.solver.search.TeamSearch` (three players, one deck, standard play).

    ``win(hands, turn, code, table, table_by)`` is True when the side of ``turn``
    wins; the node and time budget of :attr:`budget` apply (``BudgetExceeded``).
    """

    def __init__(self, sides: tuple[int, ...], lone_call: int = 0, lone_cap: int | None = None,
                 max_entries: int = MAX_ENTRIES, keep: int = 0, order: int = 0) -> None:
        """``lone_call`` > 0: with the lone-farmer shortcut (:mod:`tutor.solver.lone_farmer`), that many
        two-player nodes a question, all of them (:attr:`nodes` counts them too) at most ``lone_cap``.
        ``max_entries``: the table is cleared past that many (as ``TeamSearch.max_entries``); ``keep`` > 0:
        thinned instead to at most that many, the entries of the most cards kept (the dearest to prove
        again: a game's scan proves its turns one after the other; the node counts then differ from the
        Python search's, the verdicts never).  ``order``: another move order (:data:`ORDER_BOSS_PLAYS`,
        :data:`ORDER_MERGED`, :data:`ORDER_PASS_FIRST`, :data:`ORDER_ETC`, OR-ed; 0: the Python search's) —
        the same verdicts, other node counts (issue 30, round 12: the scan of a game)."""
        if _team is None:
            raise RuntimeError("the compiled three-player search (tutor.solver._team) is not built")
        if len(sides) != 3 or sorted(sides) != [0, 1, 1]:
            raise ValueError("the compiled team search plays one landlord (0) against two farmers (1)")
        self.sides = sides
        self.budget = Budget(None, None)
        cap = -1 if lone_cap is None else lone_cap
        self._core = _team.TeamSearch(BudgetExceeded, tuple(sides), MAX_TABLE_BITS, max_entries, lone_call, cap,
                                      keep)
        self._core.order = order

    @property
    def order(self) -> int:
        """The move order (ORDER_* bits; 0: the Python search's, node for node)."""
        return int(self._core.order)

    @property
    def settled(self) -> int:
        """Positions the lone-farmer shortcut settled (0 without it)."""
        return int(self._core.settled)

    @property
    def entries(self) -> int:
        """Transposition entries held (the Python search's ``len(tt)``)."""
        return int(self._core.entries)

    def win(self, hands: tuple[int, ...], turn: int, code: int, table: Combo | None, table_by: int) -> bool:
        budget = self.budget
        max_nodes = -1 if budget.max_nodes is None else budget.max_nodes
        seconds = -1.0 if budget.deadline is None else max(0.0, budget.deadline - time.perf_counter())
        # The budget's own check at each check point only when it watches more than nodes and time
        # (a memory cap, a progress display): the C search counts those itself.
        check = budget.check if budget.max_mb is not None or budget.on_check is not None else None
        return bool(self._core.win(hands, turn, code, table_by if code else 0, max_nodes, seconds, check))

    def clear(self) -> None:
        """Forget every hand and transposition entry (frees the memory of the hands)."""
        self._core.clear()

    def prove(self, hands: tuple[int, ...], turn: int, code: int, table_by: int, max_nodes: int,
              max_bits: int = PNS_TABLE_BITS) -> bool | None:
        """Does the side of ``turn`` win, by the proof-number search (``_team.c``'s df-pn, issue 30, round 13)?

        None when it is not settled within ``max_nodes`` more expanded positions (counted, no clock).  Exact as
        :meth:`win`: it proves over the same moves and reads and writes the same exact table, so a settled answer
        is the plain search's.  Why a second search: to prove "this first move loses" is the other side's search
        for one refutation at each of its turns; the proof-number search expands the position whose proof needs
        the fewest positions still open (seeded by the hands' least numbers of plays), where the depth-first search
        spends its budget on its first reply's subtree in a fixed order.  Its own table (2**``max_bits`` slots of
        40 bytes at most) is kept between calls: a call that does not settle leaves its work to the next.
        """
        verdict = self._core.prove(hands, turn, code, table_by if code else 0, max_nodes, max_bits)
        return None if verdict is None else bool(verdict)

    @property
    def pns_nodes(self) -> int:
        """Positions the proof-number search expanded since this search was made (or cleared)."""
        return int(self._core.pns_nodes)

    def playout(self, hands: tuple[int, ...], to_move: int, table: Combo | None, table_seat: int | None,
                variant: int, seats: int, tail: int, nodes: int, base: int = 0) -> int:
        """The winner's seat of the compiled quick play-out from here (the seats of the bit mask ``seats``
        playing the variant numbered ``variant``, :data:`tutor.solver.playout.VARIANTS`), its end solved with
        open hands by this search once at most ``tail`` cards are in play, in at most ``nodes`` nodes (the
        quick policy plays on where they do not suffice); the farmers' win is told by the first farmer's seat,
        -1 when 400 turns pass.  Counted nodes, no clock, and the table kept from call to call: a fresh search
        per decision gives the same answers on any machine (:func:`tutor.solver.playout.solved_playout`).  The
        other seats play the variant numbered ``base`` (0: the quick policy; round 12: "plan" for every seat)."""
        raw = None if table is None else (table.cards, int(table.kind), table.length, table.main)
        seat = -1 if table_seat is None else table_seat
        extra = (base,) if base else ()
        return int(self._core.playout(hands, to_move, raw, seat, variant, seats, tail, nodes, *extra))


class NativeFastestSearch:
    """Drop-in for :class:`tutor.solver.search.FastestSearch` (three players, one deck, standard play), in C.

    Why (issue 30, round 7): a personal puzzle's solution is the fastest win, and on the big positions of a
    learner's game the Python search gave no line in 20 million nodes (deal 1's partner moment, 33 cards).
    This is that search node for node (``_team.c``: the same table, cut, move order and budget checks), so
    the same answers, lines, ``win_in`` and node counts — only faster; it shares the hand cache of the
    team search ``team`` (its table is its own, started afresh as a new Python search would be).
    """

    def __init__(self, team: NativeTeamSearch, winner: int, max_entries: int = MAX_ENTRIES,
                 prune: bool = False) -> None:
        """``prune``: cut the positions that ``team``'s table (the win proof the solver has just made)
        proves lost for ``winner`` — exact, so the same answers, lines and ``win_in``, in fewer nodes, but
        not the Python search's node counts (a node budget then means less work than in Python)."""
        self.sides = team.sides
        self.winner = winner
        self.budget = Budget(None, None)
        self._core = team._core
        self._core.fast_start(winner, max_entries, prune)
        self._core.fast_nodes = 0

    @property
    def nodes(self) -> int:
        """Positions expanded since this search began (as ``FastestSearch.nodes``)."""
        return int(self._core.fast_nodes)

    @property
    def entries(self) -> int:
        """Entries of its table (the Python search's ``len(tt)``)."""
        return int(self._core.fast_entries)

    def within(self, hands: tuple[int, ...], turn: int, code: int, table: Combo | None, table_by: int,
               d: int) -> bool:
        """Can the side :attr:`winner` win from here using at most ``d`` plays of its own?"""
        budget = self.budget
        max_nodes = -1 if budget.max_nodes is None else budget.max_nodes
        seconds = -1.0 if budget.deadline is None else max(0.0, budget.deadline - time.perf_counter())
        check = budget.check if budget.max_mb is not None or budget.on_check is not None else None
        # The budget's next check point goes in and comes back: the Python search shares it with its budget.
        wins, budget.next_check = self._core.within(hands, turn, code, table_by if code else 0, d, max_nodes, seconds,
                                                    budget.next_check, check)
        return bool(wins)
