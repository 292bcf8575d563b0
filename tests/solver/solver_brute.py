"""A plain, independent minimax for open-hand Dou Di Zhu (test oracle).

It shares nothing with ``tutor.solver`` but the engine's move generator: its
own turn model (written from RULES §4, not copied), its own memo, no ordering,
no pruning beyond stopping at the first child that settles a node (plain
any/all).  Slow and obviously right is the point.
"""

from __future__ import annotations

from tutor.engine.combos import Combo
from tutor.engine.moves import follow_moves_packed, lead_moves_packed

INF = 10**6


class Brute:
    """Exact game values by exhaustive search.

    A state is (hands, to_move, table, last_player, passes) where ``passes``
    counts the passes in a row since ``last_player`` played ``table``.  When
    passes reach ``players - 1`` the lead is ``last_player``'s again.
    """

    def __init__(self, landlord: int, players: int) -> None:
        self.landlord = landlord
        self.players = players
        self.memo: dict[object, bool] = {}
        self.fast_memo: dict[object, int] = {}

    def team(self, player: int) -> int:
        return 0 if player == self.landlord else 1

    def children(self, hands, to_move, table, last, passes):
        """(move, child state or None if the game ended, winner team if ended)."""
        n = self.players
        me = hands[to_move]
        out = []
        if table is None:
            plays = lead_moves_packed(me)
        else:
            plays = follow_moves_packed(me, table)
        for m in plays:
            left = me - m.cards
            if left == 0:
                out.append((m, None, self.team(to_move)))
                continue
            new = list(hands)
            new[to_move] = left
            out.append((m, (tuple(new), (to_move + 1) % n, m, to_move, 0), None))
        if table is not None:
            nxt = (to_move + 1) % n
            if passes + 1 == n - 1:
                assert nxt == last
                out.append((None, (hands, nxt, None, nxt, 0), None))
            else:
                out.append((None, (hands, nxt, table, last, passes + 1), None))
        return out

    def landlord_wins(self, state) -> bool:
        got = self.memo.get(state)
        if got is not None:
            return got
        landlord_moves = self.team(state[1]) == 0
        # any() over the children for the landlord, all() for the farmers, stopping at the first
        # child that settles it (the value is the same; a state always has a move or a pass).
        value = not landlord_moves
        for _m, child, winner in self.children(*state):
            if (winner == 0 if child is None else self.landlord_wins(child)) == landlord_moves:
                value = landlord_moves
                break
        self.memo[state] = value
        return value

    def mover_wins(self, state) -> bool:
        lw = self.landlord_wins(state)
        return lw if self.team(state[1]) == 0 else not lw

    def winning_moves(self, state) -> set:
        me = self.team(state[1])
        wins = set()
        for m, child, winner in self.children(*state):
            if child is None:
                ok = winner == me
            else:
                lw = self.landlord_wins(child)
                ok = lw if me == 0 else not lw
            if ok:
                wins.add(m)
        return wins

    def plays_to_win(self, state, winner_team: int) -> int:
        """Winner's own plays to the end, winner minimising and loser maximising."""
        key = (state, winner_team)
        got = self.fast_memo.get(key)
        if got is not None:
            return got
        ours = self.team(state[1]) == winner_team
        values = []
        for m, child, winner in self.children(*state):
            cost = 1 if ours and m is not None else 0
            if child is None:
                values.append(cost if winner == winner_team else INF)
            else:
                values.append(min(INF, cost + self.plays_to_win(child, winner_team)))
        value = min(values) if ours else max(values)
        self.fast_memo[key] = value
        return value


def root_state(hands: tuple[int, ...], table: Combo | None, table_by: int):
    """Root state with player 0 to move; ``table`` played by ``table_by``."""
    n = len(hands)
    if table is None:
        return (hands, 0, None, 0, 0)
    passes = (0 - table_by) % n - 1  # players between table_by and the mover have passed
    return (hands, 0, table, table_by, passes)
