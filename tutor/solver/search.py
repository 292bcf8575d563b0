"""The exact AND/OR search behind :class:`tutor.solver.Solver`.

Win/loss only (a boolean per position), depth-first, with:

* a transposition table keyed on the *full* position packed into one Python
  integer — every hand (60 bits each), the player to move, who played the
  table and what it takes to beat it (kind, length, main: the table's cards do
  not change what may follow).  Python integers are exact and unbounded, so
  there is no lossy hashing: two positions share an entry only if they are
  the same position.  In two players the table is also *canonicalised*: its
  main is lowered to the highest main the follower holds at or below it, so
  tables that leave the follower the same answers share one entry
  (:meth:`HandTables.facing_table`).  Optionally (``compress_from``) the
  two-player key is *rank-compressed* (:mod:`tutor.solver.canon`): ranks
  nobody holds are squeezed out, keeping only the chain breaks that matter,
  so positions that differ only in where the held ranks lie share one entry.
  Positions settled by an immediate win are not stored (they cost less to
  recompute than to keep);
* immediate wins: a leader whose whole hand is one combination goes out; any
  move that empties the hand wins;
* "boss move then out": a play no opponent can answer whose remainder is one
  combination wins at once;
* move ordering: the plays that leave the fewest plays to finish
  (:meth:`HandTables.min_plays`; ties: bombs and the rocket last, then the
  plays that shed more cards, then the lower main, then plays nobody can
  answer first), and pass last — except that a farmer facing their partner's
  play passes first.  (The team search tries boss plays first instead.)  In two players an
  enhanced transposition cutoff looks every child up in the table before
  searching any.  (A per-hand killer — the move that last won with this same
  hand — was tried first until issue 33: dropping it expands 2-7 times fewer
  positions, the killer having won against another hand of the other player);
* dominance pruning (two players, and only below the root): of two plays of
  the same kind and length that leave the opponent the same answers and
  differ only in which whole, chain-free ranks are kept, the one keeping the
  higher cards is at least as good (:meth:`HandTables.dominance_pairs`) —
  this covers wing (kicker) choices and equivalent singles, pairs, trios;
* a shortcut for plays that *nobody* can answer: the passes are forced, so the
  search goes straight to the player's next lead.

Two cores share those ideas.  :class:`TwoPlayerSearch` is a negamax over
``(mover hand, other hand, table)``: in two players the roles do not matter
(whoever goes out first wins) and a table was always played by the other
player.  :class:`TeamSearch` handles two or three players with sides (the
landlord against the farmers); it also serves the tests as a cross-check of
the two-player core (it prunes nothing, so it checks the pruning too).

:class:`FastestSearch` answers "can side W win using at most d of its own
plays?", for the *fastest* objective (iterative deepening on d), pruned by
the exact least number of plays each hand of W needs.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import cast

from tutor.engine.combos import Combo, Kind
from tutor.solver.canon import LOW_BITS, SEVENS, Canon
from tutor.solver.tables import SOFT_BIT, HandTables, move_size, table_code


#: A rank-compression plan (:func:`tutor.solver.canon.build_plan`).
Plan = tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None

#: Kinds below this one are answered by any bomb or the rocket.
_BOMB_KIND = int(Kind.BOMB)


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class BudgetExceeded(Exception):
    """Raised inside the search when the node or time budget is spent."""


def resident_mb() -> float:
    """This process's resident memory in MB (Linux: now; elsewhere: its peak so far)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE / 2**20
    except (OSError, IndexError, ValueError):  # pragma: no cover - not Linux
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


class Budget:
    """Counts nodes and watches the clock; raises :class:`BudgetExceeded` when spent."""

    CHECK_EVERY = 2048

    #: The memory is looked at every this many checks (reading it costs a few microseconds).
    MEMORY_EVERY = 16

    def __init__(self, max_nodes: int | None, max_seconds: float | None, max_mb: float | None = None) -> None:
        self.max_nodes = max_nodes
        #: Stop (BudgetExceeded: the answer is "unknown") when this process holds more (resident MB).
        self.max_mb = max_mb
        self.memory_hit = False
        self._checks = 0
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.nodes = 0
        self.next_check = self.CHECK_EVERY if max_nodes is None else min(self.CHECK_EVERY, max_nodes)
        #: Told the node count at every check (a progress display); never changes the search.
        self.on_check: Callable[[int], None] | None = None

    def check(self, nodes: int) -> int:
        """Called every few thousand nodes; returns the node count of the next check."""
        self.nodes = nodes
        if self.on_check is not None:
            self.on_check(nodes)
        if self.max_nodes is not None and nodes >= self.max_nodes:
            raise BudgetExceeded
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded
        if self.max_mb is not None:
            self._checks += 1
            if self._checks % self.MEMORY_EVERY == 0 and resident_mb() > self.max_mb:
                self.memory_hit = True
                raise BudgetExceeded
        step = self.CHECK_EVERY
        if self.max_nodes is not None:
            step = max(1, min(step, self.max_nodes - nodes))
        return nodes + step


def _beatable(prof: tuple[dict[int, int], bool], m: Combo) -> bool:
    return m.main < prof[0].get(m.kind | m.length << 4, -1) or (prof[1] and m.kind < _BOMB_KIND)


#: Transposition entries kept before the table is cleared (≈ 100 bytes each
#: with the per-hand caches: the peak stays under 500 MB).
MAX_ENTRIES = 2_000_000
#: Positions with at least this many cards (both hands) key the table on the
#: rank-compressed position, smaller ones on the real hands.  Measured on
#: benchmarks two-07..two-09 (CPython): the compressed key merges enough
#: transpositions to save 35-65 % of the nodes, but costs about as much per
#: node as it saves, so it is off by default (no position has 99 cards);
#: pass ``compress_from`` to use it.
COMPRESS_FROM = 99


class TwoPlayerSearch:
    """Negamax over (mover hand, other hand, table code) for two players.

    ``win(me, opp, code, table)`` is True when the player to move (holding
    ``me``) wins against ``opp``; ``code`` is :func:`table_code` of ``table``
    or 0 when the mover leads.  A table is always the other player's play.
    The search runs on the real hands (so the per-hand tables are shared by
    every position holding that hand) but keys the transposition table on
    the rank-compressed position (:mod:`tutor.solver.canon`), so isomorphic
    positions share one entry.  ``compress=False`` keys on the real hands (a
    cross-check for the tests).  Compression is used from ``compress_from``
    cards in the two hands at the top-level call (default
    :data:`COMPRESS_FROM`): below, the plain key is cheaper than what the
    merged transpositions save.
    """

    def __init__(self, tables: HandTables, compress: bool = True, compress_from: int | None = None) -> None:
        self.tables = tables
        self.compress = compress
        self.compress_from = COMPRESS_FROM if compress_from is None else compress_from
        self.canon = Canon()
        self.tt: dict[int, bool] = {}
        self.max_entries = MAX_ENTRIES
        self.nodes = 0
        self.win = self._build()

    def _build(self) -> Callable[[int, int, int, Combo | None], bool]:
        tables = self.tables
        tt = self.tt
        tt_get = tt.get
        lead_moves = tables.lead_moves
        profile = tables.profile
        is_combo = tables.is_combo
        min_plays = tables.min_plays
        facing_table = tables.facing_table
        lead_dominance = tables.lead_dominance
        undominated = tables.undominated
        canonical_code = tables.canonical_code
        plan_of = self.canon.plan if self.compress else (lambda a, b: None)
        plans_get = self.canon.plans.get
        # Presence bits of the chain ranks (canon.presence, inlined); with the
        # compression off they are always 0, so no child is ever re-mapped.
        mode = [0]
        sevens = SEVENS
        missing = object()
        owner = self

        def ckey(x: int, y: int, canonical: int) -> int:
            """Transposition key of the position (mover ``x``, other ``y``,
            canonical table code): the rank-compressed hands and table."""
            low = mode[0]
            if not low:
                return x | y << 60 | canonical << 120
            # canon.presence of both hands, inline (hot): a count plus 7 reaches bit 3 when it is not 0.
            found = plans_get((((x + sevens) >> 3) & low) | (((y + sevens) >> 3) & low) << 48, missing)
            plan: Plan = plan_of(x, y) if found is missing else cast(Plan, found)
            if plan is None:
                return x | y << 60 | canonical << 120
            segs, rank_map = plan
            a = 0
            b = 0
            for mask, shift in segs:
                a |= (x & mask) >> shift
                b |= (y & mask) >> shift
            if canonical and canonical != 15:
                # The table's threshold is a rank the follower holds (or -1).
                canonical = (canonical & 0xFF) | (rank_map[canonical >> 8] + 1) << 8
            return a | b << 60 | canonical << 120

        def win(me: int, opp: int, code: int, table: Combo | None) -> bool:
            if code:
                moves, canonical, pairs = facing_table(me, code, table)  # type: ignore[arg-type]
                key = ckey(me, opp, canonical)
            else:
                key = ckey(me, opp, 0)
            known = tt_get(key)
            if known is not None:
                return known
            owner.nodes += 1
            if owner.nodes >= owner.budget.next_check:
                owner.budget.next_check = owner.budget.check(owner.nodes)
                if len(tt) > owner.max_entries:
                    # Memory cap: entries are exact, so forgetting them costs
                    # only time, never correctness.
                    tt.clear()
            best, any_bomb = profile(opp)
            if code == 0:
                if is_combo(me):
                    return True  # immediate: not worth a table entry
                moves = lead_moves(me)
                pairs = lead_dominance(me)
            if pairs:
                moves = undominated(moves, pairs, [opp])
            boss = []
            other = []
            for m in moves:
                left = me - m.cards
                if left == 0:
                    return True  # immediate: not worth a table entry
                if m.main < best.get(m.kind | m.length << 4, -1) or (any_bomb and m.kind < _BOMB_KIND):
                    other.append(m)
                elif is_combo(left):
                    return True  # boss then out: not worth a table entry
                else:
                    boss.append(m)
            # Enhanced transposition cutoff: a child already known to be won
            # for us (or lost for the other player) settles this node at once.
            for m in boss:
                if tt_get(ckey(me - m.cards, opp, 0)) is True:
                    tt[key] = True
                    return True
            if code and tt_get(ckey(opp, me, 0)) is False:
                tt[key] = True
                return True
            for m in other:
                if tt_get(ckey(opp, me - m.cards, canonical_code(opp, m.kind | m.length << 4 | m.main << 8))) is False:
                    tt[key] = True
                    return True
            # The plays that leave the fewest plays to finish first; ties: bombs
            # and the rocket last, then the plays that shed more cards, then the
            # lower main, then unanswerable before answerable.  Pass last.
            ordered = boss + other
            if len(ordered) > 1:
                ordered.sort(key=lambda m: (min_plays(me - m.cards), m.kind >= _BOMB_KIND, -move_size(m.cards), m.main))
            for m in ordered:
                left = me - m.cards
                if m.main < best.get(m.kind | m.length << 4, -1) or (any_bomb and m.kind < _BOMB_KIND):
                    if not win(opp, left, m.kind | m.length << 4 | m.main << 8, m):
                        tt[key] = True
                        return True
                elif win(left, opp, 0, None):
                    # Nobody can answer: the other player passes, we lead again.
                    tt[key] = True
                    return True
            if code and not win(opp, me, 0, None):
                tt[key] = True
                return True
            tt[key] = False
            return False

        def root(me: int, opp: int, code: int, table: Combo | None) -> bool:
            # Compressed keys cost time per node and pay off in big
            # positions only.  Mixing the two kinds of key in one table is
            # safe: a real key equals a compressed one only when the position
            # is already canonical, and then the two keys are the same key.
            big = move_size(me) + move_size(opp) >= self.compress_from
            mode[0] = LOW_BITS if self.compress and big else 0
            return win(me, opp, code, table)

        return root

    budget: Budget


#: A sound verdict for some team-search positions (``(hands, turn, code, table_by)`` -> does the side of
#: ``turn`` win, or None: not settled); see :class:`TeamSearch`.
Shortcut = Callable[[tuple[int, ...], int, int, int], "bool | None"]


class TeamSearch:
    """Search with sides, for two or three players (landlord against farmers).

    ``win(hands, turn, code, table, table_by)`` is True when the side of
    ``turn`` wins.  ``sides[i]`` is 0 for the landlord, 1 for a farmer.
    """

    def __init__(self, tables: HandTables, sides: tuple[int, ...], shortcut: Shortcut | None = None) -> None:
        self.tables = tables
        self.sides = sides
        self.tt: dict[int, bool] = {}
        self.max_entries = MAX_ENTRIES
        self.nodes = 0
        #: A sound verdict for some positions, asked before the position is searched
        #: (``(hands, turn, code, table_by) -> win of turn's side or None``): :mod:`tutor.solver.lone_farmer`.
        self.shortcut = shortcut
        self.win = self._build()

    budget: Budget

    def _build(self) -> Callable[[tuple[int, ...], int, int, Combo | None, int], bool]:
        tables = self.tables
        tt = self.tt
        tt_get = tt.get
        lead_moves = tables.lead_moves
        follow_moves = tables.follow_moves
        profile = tables.profile
        is_combo = tables.is_combo
        min_plays = tables.min_plays
        sides = self.sides
        n = len(sides)
        owner = self
        soft = tables.rules.wild_rank >= 0  # soft bombs in the table codes (RULES §12.3)
        shortcut = self.shortcut

        def win(hands: tuple[int, ...], turn: int, code: int, table: Combo | None, table_by: int) -> bool:
            key = turn | table_by << 2 | code << 4
            for h in hands:
                key = key << 60 | h
            known = tt_get(key)
            if known is not None:
                return known
            owner.nodes += 1
            if owner.nodes >= owner.budget.next_check:
                owner.budget.next_check = owner.budget.check(owner.nodes)
                if len(tt) > owner.max_entries:
                    tt.clear()
            if shortcut is not None:
                settled = shortcut(hands, turn, code, table_by)
                if settled is not None:
                    tt[key] = settled
                    return settled
            me = hands[turn]
            side = sides[turn]
            others = [(turn + k) % n for k in range(1, n)]
            opp_profiles = [profile(hands[j]) for j in others if sides[j] != side]
            partner_profiles = [profile(hands[j]) for j in others if sides[j] == side]
            if code == 0:
                if is_combo(me):
                    tt[key] = True
                    return True
                moves = lead_moves(me)
            else:
                moves = follow_moves(me, code, table)  # type: ignore[arg-type]
            boss = []
            other = []
            for m in moves:
                left = me - m.cards
                if left == 0:
                    tt[key] = True
                    return True
                answered = False
                for prof in opp_profiles:
                    if m.main < prof[0].get(m.kind | m.length << 4, -1) or (prof[1] and m.kind < _BOMB_KIND):
                        answered = True
                        break
                if answered:
                    other.append(m)
                    continue
                if is_combo(left):
                    tt[key] = True
                    return True
                nobody = True
                for prof in partner_profiles:
                    if m.main < prof[0].get(m.kind | m.length << 4, -1) or (prof[1] and m.kind < _BOMB_KIND):
                        nobody = False
                        break
                boss.append((m, nobody))
            nxt = (turn + 1) % n

            def play(m: Combo) -> bool:
                new = list(hands)
                new[turn] = me - m.cards
                played = m.kind | m.length << 4 | m.main << 8
                child = win(tuple(new), nxt, played | SOFT_BIT if soft and m.soft else played, m, turn)
                return child if sides[nxt] == side else not child

            def pass_() -> bool:
                if nxt == table_by:
                    child = win(hands, nxt, 0, None, 0)
                else:
                    child = win(hands, nxt, code, table, table_by)
                return child if sides[nxt] == side else not child

            partner_table = code != 0 and sides[table_by] == side
            if partner_table and pass_():
                tt[key] = True
                return True
            for m, nobody in boss:
                if nobody:
                    new = list(hands)
                    new[turn] = me - m.cards
                    if win(tuple(new), turn, 0, None, 0):
                        tt[key] = True
                        return True
                elif play(m):
                    tt[key] = True
                    return True
            if len(other) > 1:
                other.sort(key=lambda m: min_plays(me - m.cards))
            for m in other:
                if play(m):
                    tt[key] = True
                    return True
            if code and not partner_table and pass_():
                tt[key] = True
                return True
            tt[key] = False
            return False

        return win


class WildTwoPlayerSearch(TeamSearch):
    """Two players under a wild rank (RULES §12.3): :class:`TeamSearch` with two sides, called as
    :class:`TwoPlayerSearch` is (``win(me, opp, code, table)``; the table is always the other's play)."""

    def __init__(self, tables: HandTables) -> None:
        super().__init__(tables, (0, 1))
        team_win = self.win
        self.win = lambda me, opp, code, table: team_win((me, opp), 0, code, table, 1 if code else 0)  # type: ignore[assignment,misc]


class FastestSearch:
    """Can side ``winner`` win using at most ``d`` plays of its own?

    Positions are as in :class:`TeamSearch`.  The table stores, per position,
    the largest ``d`` known to fail and the smallest known to succeed, so the
    iterative deepening of the caller reuses every earlier iteration.  A
    position is cut when every hand of the winning side needs more plays than
    ``d`` (:meth:`HandTables.min_plays`).
    """

    def __init__(self, tables: HandTables, sides: tuple[int, ...], winner: int) -> None:
        self.tables = tables
        self.sides = sides
        self.winner = winner
        self.tt: dict[int, list[int]] = {}
        self.max_entries = MAX_ENTRIES
        self.nodes = 0
        self.within = self._build()

    budget: Budget

    def _build(self) -> Callable[[tuple[int, ...], int, int, Combo | None, int, int], bool]:
        tables = self.tables
        tt = self.tt
        lead_moves = tables.lead_moves
        follow_moves = tables.follow_moves
        profile = tables.profile
        min_plays = tables.min_plays
        sides = self.sides
        winner = self.winner
        n = len(sides)
        mine = [i for i in range(n) if sides[i] == winner]
        owner = self
        never = 1 << 20
        soft = tables.rules.wild_rank >= 0  # soft bombs in the table codes (RULES §12.3)

        def within(hands: tuple[int, ...], turn: int, code: int, table: Combo | None, table_by: int, d: int) -> bool:
            key = turn | table_by << 2 | code << 4
            for h in hands:
                key = key << 60 | h
            entry = tt.get(key)
            if entry is None:
                entry = [-1, never]
                tt[key] = entry
            if d <= entry[0]:
                return False
            if d >= entry[1]:
                return True
            need = min(min_plays(hands[i]) for i in mine)
            if need > d:
                if d > entry[0]:
                    entry[0] = d
                return False
            owner.nodes += 1
            if owner.nodes >= owner.budget.next_check:
                owner.budget.next_check = owner.budget.check(owner.nodes)
                if len(tt) > owner.max_entries:
                    tt.clear()
            me = hands[turn]
            ours = sides[turn] == winner
            nxt = (turn + 1) % n
            cost = 1 if ours else 0
            if code == 0:
                moves = lead_moves(me)
            else:
                moves = follow_moves(me, code, table)  # type: ignore[arg-type]
            others = [profile(hands[(turn + k) % n]) for k in range(1, n)]
            boss = []
            rest = []
            for m in moves:
                if any(_beatable(p, m) for p in others):
                    rest.append(m)
                else:
                    boss.append(m)
            result = not ours
            tried: list[Combo | None] = [*boss, *rest]
            if code:
                tried.append(None)
            for choice in tried:
                if choice is None:
                    if nxt == table_by:
                        child = within(hands, nxt, 0, None, 0, d)
                    else:
                        child = within(hands, nxt, code, table, table_by, d)
                else:
                    left = me - choice.cards
                    if left == 0:
                        child = ours
                    elif ours and d - 1 < 1:
                        child = False
                    else:
                        new = list(hands)
                        new[turn] = left
                        played = choice.kind | choice.length << 4 | choice.main << 8
                        if soft and choice.soft:
                            played |= SOFT_BIT
                        child = within(tuple(new), nxt, played, choice, turn, d - cost)
                if ours and child:
                    result = True
                    break
                if not ours and not child:
                    result = False
                    break
            if result:
                entry[1] = min(entry[1], d)
            else:
                entry[0] = max(entry[0], d)
            return result

        return within


__all__ = [
    "Budget",
    "BudgetExceeded",
    "FastestSearch",
    "HandTables",
    "TeamSearch",
    "TwoPlayerSearch",
    "table_code",
]
