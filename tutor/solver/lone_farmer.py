"""A shortcut for the three-player search: one farmer who beats the landlord alone.

The farmers win whenever *one* of them beats the landlord in the two-player
game while the other only ever passes: the passing farmer changes nothing
(after a play the turn still alternates between the two who play; after a
play and two passes its player leads, as in two players), and he never has to
lead as long as he never played the table.  So a two-player proof — the
compiled core, about twenty times faster than the Python team search — settles
such a position of the three-player game exactly: a win for the farmers'
side, a loss for the landlord's.  When neither farmer wins alone the position
is searched as before; the shortcut only ever answers what is true (see
``tests/solver/test_lone_farmer.py``, which checks it against the plain team
search).

Why: the personal puzzles of a learner's game (:mod:`tutor.puzzles.personal`)
need proofs of three-player positions of 35-40 cards, which the Python search
does not finish within a scan's budget; most of its nodes there are landlord
moves that a lone farmer refutes.

Budgets: each two-player proof may spend :data:`CALL_NODES` nodes of the
compiled core, and all of them together at most :data:`CORE_RATIO` times the
solver's own node budget (the compiled nodes are that much cheaper); a proof
that does not fit is "not settled", never guessed.  Counted in nodes, so the
same position gets the same answer and the same count on any machine.
"""

from __future__ import annotations

from tutor.solver.native import NativeTwoPlayerSearch

#: Most nodes of the compiled core for one lone-farmer proof.
CALL_NODES = 4_000
#: The compiled core's nodes, all lone-farmer proofs of one solve together, at most this many times
#: the solver's own node budget.
CORE_RATIO = 8


class LoneFarmer:
    """``(hands, turn, code, table_by) -> bool | None`` for :class:`tutor.solver.search.TeamSearch`:
    True/False when a farmer alone wins (for the side of ``turn``), None when not settled."""

    def __init__(self, two: NativeTwoPlayerSearch, sides: tuple[int, ...], max_nodes: int | None) -> None:
        if len(sides) != 3 or sorted(sides) != [0, 1, 1]:
            raise ValueError("a lone farmer needs one landlord and two farmers")
        self.two = two
        self.sides = sides
        self.landlord = sides.index(0)
        self.farmers = tuple(i for i, side in enumerate(sides) if side == 1)
        self.cap = None if max_nodes is None else max_nodes * CORE_RATIO
        #: Positions settled by the shortcut (for the benchmarks' figures).
        self.settled = 0

    def __call__(self, hands: tuple[int, ...], turn: int, code: int, table_by: int) -> bool | None:
        landlord = self.landlord
        for alone in self.farmers:
            idle = 3 - landlord - alone
            if code and table_by == idle:
                continue  # the idle farmer's play is on the table: if nobody beats it, he must lead
            mover, lead = turn, code == 0
            if turn == idle:
                if lead:
                    continue  # the idle farmer would have to lead
                mover = (idle + 1) % len(self.sides)  # he passes
                lead = mover == table_by
            other = alone if mover == landlord else landlord
            verdict = self.two.win_within(hands[mover], hands[other], 0 if lead else code, CALL_NODES, self.cap)
            if verdict is None:
                continue
            if verdict == (mover == alone):  # the farmer alone wins
                self.settled += 1
                return self.sides[turn] == 1
        return None
