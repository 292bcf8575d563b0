"""The exact search for rule sets with more than one deck: four players, two decks (RULES §12.4).

:class:`tutor.solver.search.TeamSearch` keys its table and its move caches by a
table code of kind, length and main — which does not tell a bomb of five sevens
from one of six — and prunes with per-hand profiles that assume every bomb has
four cards.  This search keeps none of those shortcuts: the table itself is part
of the key, the answers come from the engine's move generator and ``beats``
under the rules, and the only shortcut is "the hand goes out in one play".  It
serves any number of seats (the landlord against the farmers); the C core and
the two-player search serve one deck only.  Slower than the team search, so its
callers give it node budgets (the coach, the bots), never a clock.
"""

from __future__ import annotations

from tutor.engine.combos import Combo, beats
from tutor.solver.search import Budget
from tutor.solver.tables import HandTables

#: Clear the transposition table past this many entries (memory stays bounded).
MAX_ENTRIES = 2_000_000


class ManyDeckSearch:
    """``win(hands, turn, code, table, table_by)``: does the side of ``turn`` win?  (As ``TeamSearch``.)"""

    budget: Budget

    def __init__(self, tables: HandTables, sides: tuple[int, ...]) -> None:
        self.tables = tables
        self.rules = tables.rules
        self.sides = sides
        self.tt: dict[tuple[object, ...], bool] = {}
        self.nodes = 0

    def _answers(self, hand: int, table: Combo) -> list[Combo]:
        return [m for m in self.tables.lead_moves(hand) if beats(m, table, self.rules)]

    def win(self, hands: tuple[int, ...], turn: int, code: int, table: Combo | None, table_by: int) -> bool:
        if not code:
            table, table_by = None, 0
        key = (hands, turn, table, table_by)
        known = self.tt.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes >= self.budget.next_check:
            self.budget.next_check = self.budget.check(self.nodes)
            if len(self.tt) > MAX_ENTRIES:
                self.tt.clear()
        me, side, n = hands[turn], self.sides[turn], len(hands)
        nxt = (turn + 1) % n
        result = False
        if table is None and self.tables.is_combo(me):
            result = True
        else:
            moves = self.tables.lead_moves(me) if table is None else self._answers(me, table)
            for m in moves:
                left = me - m[0]
                if not left:
                    result = True
                    break
                new = hands[:turn] + (left,) + hands[turn + 1 :]
                child = self.win(new, nxt, 1, m, turn)
                if child if self.sides[nxt] == side else not child:
                    result = True
                    break
            if not result and table is not None:
                child = self.win(hands, nxt, 0, None, 0) if nxt == table_by else self.win(hands, nxt, 1, table, table_by)
                result = child if self.sides[nxt] == side else not child
        self.tt[key] = result
        return result
