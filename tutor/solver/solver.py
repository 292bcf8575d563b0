"""The public solver: exact results, every winning root move, a principal line.

``Solver.solve(pos)`` answers three questions about an open-hand position:
does the side to move win with perfect play (``mover_wins``), which root moves
win (``winning_moves`` — all of them, pass included), and how might the game
go (``line``).  With ``objective="fastest"`` the winner also plays for the
fewest plays of its own and the loser for the most, and ``win_in`` is that
number.  A node or time budget turns an unfinished search into ``None``
("unknown") — never into a guess.

The transposition tables live as long as the :class:`Solver`, so a bot or the
puzzle generator asking about many positions of one deal reuses earlier work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from collections.abc import Callable, Iterator
from typing import Literal

from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import Rules, UnsupportedRulesError
from tutor.solver.position import Position, Role, sides
from tutor.solver.many_decks import ManyDeckSearch
from tutor.solver.native import NativeTwoPlayerSearch, available as native_available
from tutor.solver.team_native import NativeFastestSearch, NativeTeamSearch, available as team_native_available
from tutor.solver.lone_farmer import CALL_NODES, CORE_RATIO, LoneFarmer
from tutor.solver.parallel import (
    PARALLEL_AFTER_NODES,
    PROBE_NODES,
    PROBE_TOTAL,
    default_workers,
    parallel_available,
    solve_moves_in_parallel,
)
from tutor.solver.search import (
    MAX_ENTRIES,
    Budget,
    BudgetExceeded,
    FastestSearch,
    TeamSearch,
    TwoPlayerSearch,
    WildTwoPlayerSearch,
)
from tutor.solver.tables import HandTables, table_code

Objective = Literal["win", "fastest", "score"]
Move = Combo | None

#: Entries a thinned three-player table keeps (``Solver(thin=True)``): half of the most it holds
#: (search.MAX_ENTRIES), so its memory stays what it was.  On the 40-card turn of
#: benchmarks/personal_puzzles.py's deal 2, proving its six first moves took 8.9 million nodes instead of 21.6.
THIN_KEEP = MAX_ENTRIES // 2
#: Longest line reported (plays and passes); real endgames end well before.
MAX_LINE = 120
#: The score search's masks of a packed one-deck hand: a four of a kind (bit 2 of its rank's field), the rocket.
_FOURS = sum(4 << (4 * r) for r in range(13))
_ROCKET = (1 << 52) | (1 << 56)


@dataclass(slots=True)
class SolveResult:
    """What the solver found.

    Attributes:
        mover_wins: True / False, or None when the budget ran out first.
        winning_moves: every winning root move when asked for all (None = pass).
        line: a principal variation, (player index, move) pairs, to the end.
        win_in: with ``fastest``, the winner's own plays under best play.
        bombs: with ``score``, the bombs and rockets (both sides') still to be
            played when the winner, keeping the win, plays for the most and the
            loser for the fewest; the stake is multiplied by ``2 ** bombs``.
        best_moves: with ``score``, the mover's winning moves that reach
            ``bombs`` (empty when the mover loses).
        nodes: positions expanded (transposition hits not counted).
        seconds: wall time of the call.
        complete: False when the budget ran out before every root move was
            decided (``winning_moves`` then holds only the proven ones, and
            ``mover_wins`` is True if one was proven, else None).  When the
            budget runs out later, while building the line, the result stays
            exact and ``line`` is empty (``win_in`` None).
    """

    mover_wins: bool | None
    winning_moves: list[Move] = field(default_factory=list)
    line: list[tuple[int, Move]] = field(default_factory=list)
    win_in: int | None = None
    bombs: int | None = None
    best_moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    complete: bool = True

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class Solver:
    """Exact perfect-information endgame solver for two or three players.

    Args:
        max_nodes: stop (answer "unknown") after this many expanded positions.
        max_seconds: stop (answer "unknown") after this much wall time per call.
        max_mb: stop (answer "unknown") when a process of the search (this one or
            a worker) holds more than this much memory (resident MB); the
            compiled two-player table has its own fixed size (see native.py).
        native: run the two-player search compiled (True), in Python (False),
            or compiled when it was built (None, the default; see
            :mod:`tutor.solver.native`).  Same answers either way.
        workers: processes that may share the root moves of a big position
            when every winning move is wanted under a time budget (default:
            the machine's cores, at most 4; 1 = never).  Same answers.
        rules: the rule set of the positions it solves (a position with other
            rules is refused); the compiled core serves only the standard ones.
        lone_farmer: settle three-player positions where one farmer beats the
            landlord alone with the compiled two-player core
            (:mod:`tutor.solver.lone_farmer`; same answers, other node counts).
        thin: when the compiled three-player search's table is full, keep its half with the most
            cards instead of clearing it (:data:`THIN_KEEP`; same answers, far fewer nodes for one
            solver proving many big positions, as the scan of a game; other node counts).
        order: the compiled three-player search's move order (:data:`tutor.solver.team_native.ORDER_MERGED`
            and the others, OR-ed; 0: the Python search's).  The same answers, other node counts; the Python
            search (no compiled build) ignores it.
    """

    def __init__(
        self,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        native: bool | None = None,
        workers: int | None = None,
        max_mb: float | None = None,
        *,
        rules: Rules,
        lone_farmer: bool = False,
        thin: bool = False,
        order: int = 0,
    ) -> None:
        self.rules = rules
        self.lone_farmer = lone_farmer
        self.thin = thin
        self.order = order
        #: Search the fastest win in C where the three-player search is compiled (NativeFastestSearch: the
        #: same answers, lines and node counts as the Python FastestSearch); False: in Python (the tests'
        #: cross-check).
        self.fast_native = True
        #: The lean fastest search (issue 30, round 7): the line asks each move only the one question that
        #: decides it (does it keep the pace?) instead of its exact pace, and the compiled search cuts the
        #: positions the win proof's table shows lost for the winner.  Exact: the same line and win_in in
        #: far fewer nodes — but other node counts than the Python search, so it is off by default (a node
        #: budget then means the same work in either core: the library's generator and validate).
        self.lean_fastest = False
        self.max_nodes = max_nodes
        self.max_mb = max_mb
        self.workers = default_workers() if workers is None else max(1, workers)
        self.max_seconds = max_seconds
        self.tables = HandTables(rules=rules)
        self._two: TwoPlayerSearch | NativeTwoPlayerSearch
        # The compiled core serves only the standard rules: asked for it with
        # others, it refuses (UnsupportedRulesError); by default they get the Python search.
        wants_native = native_available() and rules.native_play if native is None else native
        if wants_native:
            self._two = NativeTwoPlayerSearch(self.tables, rules)
        elif rules.wild_rank >= 0:
            # The two-player search's shortcuts (rank dominance, rank-compressed keys, canonical tables)
            # assume every card is its own rank: the wildcard game (RULES §12.3) takes the plain team search.
            self._two = WildTwoPlayerSearch(self.tables)  # type: ignore[assignment]
        else:
            self._two = TwoPlayerSearch(self.tables)
        self._team: dict[tuple[int, ...], TeamSearch | ManyDeckSearch | NativeTeamSearch] = {}
        self._budget = Budget(None, None)
        self._extra_nodes = 0
        #: Told (first moves settled, first moves, positions so far) as the search goes:
        #: for a progress display.  It only watches; the answer never depends on it.
        self.progress: Callable[[int, int, int], None] | None = None
        self._settled = (0, 0)

    # ------------------------------------------------------------- internals
    def _report(self, nodes: int | None = None) -> None:
        if self.progress is not None:
            self.progress(*self._settled, self._nodes() if nodes is None else nodes)

    def _watch(self, budget: Budget) -> None:
        budget.on_check = None if self.progress is None else (lambda _nodes: self._report())

    def _start(self) -> None:
        self._budget = Budget(self.max_nodes, self.max_seconds, self.max_mb)
        self._watch(self._budget)
        self._settled = (0, 0)
        self._two.nodes = 0
        self._extra_nodes = 0
        self._two.budget = self._budget
        for team in self._team.values():
            team.nodes = 0
            team.budget = self._budget

    def _nodes(self) -> int:
        return self._extra_nodes + self._two.nodes + sum(t.nodes for t in self._team.values())

    def _team_search(self, roles: tuple[Role, ...]) -> TeamSearch | ManyDeckSearch | NativeTeamSearch:
        key = sides(roles)
        search = self._team.get(key)
        if search is None:
            search = self._new_team_search(key)
            search.budget = self._budget
            self._team[key] = search
        return search

    def _new_team_search(self, key: tuple[int, ...]) -> TeamSearch | ManyDeckSearch | NativeTeamSearch:
        """The search with sides for ``key``: compiled when the two-player core is (and three play one deck)."""
        # Two decks (RULES §12.4): bombs of several sizes, which the team search's codes do not tell apart.
        if self.rules.decks != 1:
            return ManyDeckSearch(self.tables, key)
        two = self._two if isinstance(self._two, NativeTwoPlayerSearch) and len(key) == 3 else None
        if two is not None and team_native_available():
            keep = THIN_KEEP if self.thin else 0
            if not self.lone_farmer:
                return NativeTeamSearch(key, keep=keep, order=self.order)
            # The shortcut in C too, with a two-player search of its own: the same questions as LoneFarmer's.
            cap = None if self.max_nodes is None else self.max_nodes * CORE_RATIO
            return NativeTeamSearch(key, CALL_NODES, cap, keep=keep, order=self.order)
        if two is not None and self.lone_farmer:
            return TeamSearch(self.tables, key, LoneFarmer(two, key, self.max_nodes))
        return TeamSearch(self.tables, key)

    def _mover_wins(self, pos: Position) -> bool:
        """Does the side to move win?  (Exact; may raise BudgetExceeded.)"""
        winner = pos.winner
        if winner is not None:
            return winner is pos.roles[pos.to_move]
        hands = pos.packed
        code = 0 if pos.table is None else table_code(pos.table)
        if pos.players == 2 and self.rules.decks == 1:
            me = hands[pos.to_move]
            opp = hands[1 - pos.to_move]
            return self._two.win(me, opp, code, pos.table)
        search = self._team_search(pos.roles)
        by = (pos.table_by or 0) if code else 0
        return search.win(hands, pos.to_move, code, pos.table, by)

    def _move_wins(self, pos: Position, move: Move) -> bool:
        child = pos.after(move)
        value = self._mover_wins(child)
        same = child.roles[child.to_move] is pos.roles[pos.to_move]
        return value if same else not value

    def _ordered_moves(self, pos: Position) -> list[Move]:
        """Root moves in the search's order: unanswerable plays, pass, the rest."""
        moves = pos.legal_moves()
        plays = [m for m in moves if m is not None]
        me = pos.roles[pos.to_move]
        opp_profiles = [
            self.tables.profile(h.packed) for h, r in zip(pos.hands, pos.roles) if r is not me
        ]

        def answered(m: Combo) -> bool:
            return any(
                m.main < best.get(m.kind | m.length << 4, -1) or (bomb and not m.is_bomb)
                for best, bomb in opp_profiles
            )

        plays.sort(key=lambda m: (m.cards != pos.hands[pos.to_move].packed, answered(m), -m.size))
        boss = [m for m in plays if not answered(m)]
        rest = [m for m in plays if answered(m)]
        return boss + ([None] if None in moves else []) + rest

    # ------------------------------------------------------------- public API
    def solve(
        self, pos: Position, objective: Objective = "win", all_moves: bool = True, line: bool = True
    ) -> SolveResult:
        """Solve ``pos`` for the side to move.

        Args:
            pos: the position.
            objective: ``"win"`` (win/loss), ``"fastest"`` (also the shortest
                forced win, ``win_in``) or ``"score"`` (also ``bombs``: the
                most bombs and rockets the winner can force into the rest of
                the game — each doubles the stake — and ``best_moves``).
            all_moves: list every winning root move (otherwise stop at the first).
            line: also build the principal line (with ``"win"``; callers that
                only need the verdicts — the coach, many times per decision —
                skip it: it can cost more than the verdicts themselves).
        """
        if objective not in ("win", "fastest", "score"):
            raise ValueError(f"unknown objective {objective!r} (win, fastest or score)")
        if objective != "win" and self.rules.decks != 1:
            raise UnsupportedRulesError(f"the {objective!r} search serves one deck; with two decks only 'win'")
        if pos.rules != self.rules:
            raise ValueError(f"the position follows the rules {pos.rules.name!r}, this solver {self.rules.name!r}")
        started = time.perf_counter()
        self._start()
        result = SolveResult(mover_wins=None)
        try:
            if pos.is_over:
                result.mover_wins = self._mover_wins(pos)
            else:
                moves = self._ordered_moves(pos)
                verdicts = self._root_verdicts(pos, moves, all_moves)
                result.winning_moves = [m for m, v in zip(moves, verdicts) if v]
                if result.winning_moves:
                    result.mover_wins = True
                if None in verdicts and (all_moves or not result.winning_moves):
                    raise BudgetExceeded
                if not result.winning_moves:
                    result.mover_wins = False
        except BudgetExceeded:
            # A proven winning move stays proven; otherwise the answer is unknown.
            result.complete = False
            if not result.winning_moves:
                result.mover_wins = None
        if result.complete and not pos.is_over:
            try:
                if objective == "fastest":
                    result.win_in, result.line = self._fastest(pos, bool(result.mover_wins))
                elif objective == "score":
                    result.bombs, result.best_moves, result.line = self._score(pos, result)
                elif line:
                    result.line = self._line(pos, result.winning_moves)
            except BudgetExceeded:
                # The result is exact; only the line (and win_in) ran out of budget.
                result.line = []
                result.win_in = None
                result.bombs = None
                result.best_moves = []
        result.nodes = self._nodes()
        result.seconds = time.perf_counter() - started
        return result

    def _score(self, pos: Position, result: SolveResult) -> tuple[int, list[Move], list[tuple[int, Move]]]:
        """(bombs, best first moves, line) for the ``score`` objective.

        The winner side W is known.  From a position W wins, the value is the
        number of bombs and rockets played until the game ends when W picks,
        among its moves that keep the win (asked of the win search, whose
        table is warm), the one with the most, and the loser — every move of
        which keeps W winning — the one with the fewest.  Exact.

        It is found by yes/no questions, "can W force at least k more?" for k = 1, 2, …
        (issue 30, ninth pass), rather than by valuing every branch: a question stops at
        W's first move that reaches k (its bombs tried first) and at the loser's first
        reply that denies it, and it needs no search at all when W's hands hold fewer
        than k bombs and rockets — the loser never has to play one (a pass or a single
        card is always there), so no more than W holds can be forced.  The same value,
        best moves and line as valuing every branch (tests/solver/test_score.py checks
        them against brute force) in far fewer nodes: the personal puzzles' scan asks it
        at 23-48 cards, where valuing every branch did not finish.
        """
        key_sides = sides(pos.roles)
        n = pos.players
        winner = key_sides[pos.to_move] if result.mover_wins else 1 - key_sides[pos.to_move]
        ours_seats = tuple(s for s in range(n) if key_sides[s] == winner)
        tables = self.tables
        team = self._team_search(pos.roles) if n > 2 else None
        # Per position: the most bombs proven forceable (at least), the fewest proven not (at most one less).
        proven: dict[tuple[object, ...], int] = {}
        denied: dict[tuple[object, ...], int] = {}
        budget = self._budget
        counted = [0]
        State = tuple[tuple[int, ...], int, int, "Combo | None", int]

        def w_wins(st: State) -> bool:
            hands, turn, code, table, table_by = st
            if team is None:
                v = self._two.win(hands[turn], hands[1 - turn], code, table)
            else:
                v = team.win(hands, turn, code, table, table_by)
            return v if key_sides[turn] == winner else not v

        def held(hands: tuple[int, ...]) -> int:
            """Bombs and rockets in W's hands: no more can be forced (one deck: a count of 4 sets bit 2)."""
            total = 0
            for s in ours_seats:
                h = hands[s]
                total += (h & _FOURS).bit_count() + (1 if h & _ROCKET == _ROCKET else 0)
            return total

        def options(st: State) -> list[tuple[Move, int, State | None]]:
            """(move, bombs it plays, next state or None when W goes out) for every move the side to
            move may pick (W: those keeping the win), in the order of valuing every branch."""
            hands, turn, code, table, table_by = st
            me = hands[turn]
            ours = key_sides[turn] == winner
            nxt = (turn + 1) % n
            out: list[tuple[Move, int, State | None]] = []
            plays = tables.lead_moves(me) if code == 0 else tables.follow_moves(me, code, table)  # type: ignore[arg-type]
            for m in plays:
                bomb = 1 if m.kind >= Kind.BOMB else 0
                left = me - m.cards
                if left == 0:
                    if ours:  # goes out: the game ends, W wins
                        out.append((m, bomb, None))
                    continue
                new = list(hands)
                new[turn] = left
                child: State = (tuple(new), nxt, table_code(m), m, turn)
                if ours and not w_wins(child):
                    continue
                out.append((m, bomb, child))
            if code:
                child = (hands, nxt, 0, None, 0) if nxt == table_by else (hands, nxt, code, table, table_by)
                if not ours or w_wins(child):
                    out.append((None, 0, child))
            return out

        def w_moves(st: State) -> Iterator[tuple[Move, int, State | None]]:
            """W's moves that keep the win, its bombs and rockets first, each asked of the win search only
            when reached (:func:`options` asks them all)."""
            hands, turn, code, table, table_by = st
            me = hands[turn]
            nxt = (turn + 1) % n
            plays = tables.lead_moves(me) if code == 0 else tables.follow_moves(me, code, table)  # type: ignore[arg-type]
            for m in sorted(plays, key=lambda m: m.kind < Kind.BOMB):
                bomb = 1 if m.kind >= Kind.BOMB else 0
                left = me - m.cards
                if left == 0:
                    yield m, bomb, None
                    continue
                new = list(hands)
                new[turn] = left
                child: State = (tuple(new), nxt, table_code(m), m, turn)
                if w_wins(child):
                    yield m, bomb, child
            if code:
                child = (hands, nxt, 0, None, 0) if nxt == table_by else (hands, nxt, code, table, table_by)
                if w_wins(child):
                    yield None, 0, child

        def forces(st: State | None, k: int) -> bool:
            """Can W force at least ``k`` more bombs and rockets from ``st`` (W winning there)?"""
            if k <= 0:
                return True
            if st is None:
                return False
            hands, turn, code, _table, table_by = st
            if k > held(hands):
                return False
            key = (hands, turn, code, table_by if code else 0)
            if proven.get(key, 0) >= k:
                return True
            if denied.get(key, k + 1) <= k:
                return False
            counted[0] += 1
            if counted[0] % 1024 == 0:
                budget.check(counted[0])
            if key_sides[turn] == winner:  # W: one move reaching k is enough; bombs first, the win asked lazily
                ok = any(forces(child, k - bomb) for _, bomb, child in w_moves(st))
            else:  # the loser: one reply denying k is enough
                ok = all(forces(child, k - bomb) for _, bomb, child in options(st))
            if ok:
                proven[key] = max(proven.get(key, 0), k)
            else:
                denied[key] = min(denied.get(key, k), k)
            return ok

        def value(st: State | None) -> int:
            if st is None:
                return 0
            k = 0
            while forces(st, k + 1):
                k += 1
            return k

        code = 0 if pos.table is None else table_code(pos.table)
        root: State = (pos.packed, pos.to_move, code, pos.table, (pos.table_by or 0) if code else 0)
        try:
            total = value(root)
            mover_is_winner = key_sides[pos.to_move] == winner
            best_moves = [m for m, bomb, child in options(root) if forces(child, total - bomb)] \
                if mover_is_winner else []
            # The line: at each turn the first move (in the order of valuing every branch) whose value is
            # the position's — W's most, the loser's fewest.
            line: list[tuple[int, Move]] = []
            st: State | None = root
            target = total
            while st is not None and len(line) < MAX_LINE:
                ours = key_sides[st[1]] == winner
                for move, bomb, child in options(st):
                    rest = target - bomb
                    if forces(child, rest) if ours else not forces(child, rest + 1):
                        break
                line.append((st[1], move))
                st, target = child, rest
            return total, best_moves, line
        finally:
            self._extra_nodes += counted[0]

    def _use_budget(self, budget: Budget) -> None:
        self._watch(budget)
        self._budget = budget
        self._two.budget = budget
        for team in self._team.values():
            team.budget = budget

    def _root_verdicts(self, pos: Position, moves: list[Move], all_moves: bool) -> list[bool | None]:
        """Does each root move win?  (None: not decided within the budget.)

        In order, one after the other, sharing one transposition table.  When
        every move is wanted, the budget is a time budget (a node budget keeps
        answers reproducible node for node) and the position turns out big —
        more than :data:`PARALLEL_AFTER_NODES` nodes — each move left gets a
        quick look (:data:`PROBE_NODES`) and the ones still open are shared
        out among :attr:`workers` processes (see :mod:`tutor.solver.parallel`);
        each starts from a copy of the table so far.  Raises BudgetExceeded
        only when nothing more can be decided.
        """
        verdicts: list[bool | None] = [None] * len(moves)
        overall = self._budget
        parallel = (
            all_moves and self.max_nodes is None and self.workers > 1 and len(moves) > 1 and parallel_available()
        )
        if parallel:
            remaining = None if overall.deadline is None else overall.deadline - time.perf_counter()
            self._use_budget(Budget(PARALLEL_AFTER_NODES, remaining, self.max_mb))
        i = 0
        try:
            for i, move in enumerate(moves):
                self._settled = (i, len(moves))
                verdicts[i] = self._move_wins(pos, move)
                if verdicts[i] and not all_moves:
                    break
            return verdicts
        except BudgetExceeded:
            out_of_time = overall.deadline is not None and time.perf_counter() >= overall.deadline
            if not parallel or out_of_time or self._budget.memory_hit:
                return verdicts
        finally:
            self._use_budget(overall)
        # A quick look at every move left first: the cheap ones are settled
        # here, on the one shared table, and only the expensive ones go to the
        # workers (on two-10: 10.5M positions in all instead of 11.3-12.6M).
        spent = 0
        for j in range(i, len(moves) if pos.players == 2 else i):
            if spent >= PROBE_TOTAL:
                break
            remaining = None if overall.deadline is None else overall.deadline - time.perf_counter()
            if remaining is not None and remaining <= 0:
                break
            before = self._nodes()
            self._use_budget(Budget(self._two.nodes + PROBE_NODES, remaining, self.max_mb))
            try:
                verdicts[j] = self._move_wins(pos, moves[j])
            except BudgetExceeded:
                pass
            finally:
                self._use_budget(overall)
            spent += self._nodes() - before
        rest = [j for j in range(i, len(moves)) if verdicts[j] is None]
        if not rest:
            return verdicts
        self._settled = (len(moves) - len(rest), len(moves))
        self._report()
        def judge(index: int, seconds: float | None) -> tuple[bool | None, int]:
            """In a forked worker: does ``moves[index]`` win (None: out of time), and the nodes it took."""
            self._use_budget(Budget(None, seconds, self.max_mb))
            before = self._nodes()
            try:
                return self._move_wins(pos, moves[index]), self._nodes() - before
            except BudgetExceeded:
                return None, self._nodes() - before

        def after_fork() -> None:
            """In a worker, first thing: the parent shows the progress; the compiled table gets its own copy."""
            self.progress = None
            rehome = getattr(self._two, "rehome", None)
            if rehome is not None:
                rehome()

        settled, total = self._settled
        progress = self.progress
        on_progress = (
            None if progress is None else (lambda done, spent: progress(settled + done, total, self._nodes() + spent))
        )
        # Without a progress display this process judges a share itself (issue 33: no fork, start nor
        # table copy on that share); with one, it only gathers the answers and keeps the display moving.
        try:
            found, nodes = solve_moves_in_parallel(
                judge, after_fork, self.workers, rest, overall.deadline, on_progress,
                parent_works=progress is None,
            )
        finally:
            self._use_budget(overall)
        self._extra_nodes += nodes
        for j, verdict in found.items():
            verdicts[j] = verdict
        return verdicts

    def is_winning_move(self, pos: Position, move: Move) -> bool | None:
        """Does ``move`` win for the side to move?  None when the budget ran out."""
        self._start()
        try:
            return self._move_wins(pos, move)
        except BudgetExceeded:
            return None

    def wins_within(self, roles: tuple[Role, ...], side: Role) -> Callable[[Position, int], tuple[bool | None, int]]:
        """Questions to the fastest search for ``side``, over positions of the seats ``roles``: can ``side`` force a
        win from a position within ``plays`` plays of its own, whoever is to move (None: not settled within the
        budget, :attr:`max_nodes` a question), and the nodes it took.  One search serves every question asked
        (its table keeps what earlier ones proved), until another search of this solver starts: ask in a row.
        :meth:`solve`'s ``"fastest"`` deepens until the answer turns true; a personal puzzle's "one play keeps the
        fastest pace" asks once a first move (issue 30, round 15)."""
        search = self._fastest_search(roles, 0 if side is Role.LANDLORD else 1)

        def ask(pos: Position, plays: int) -> tuple[bool | None, int]:
            if pos.is_over:
                return pos.winner is side, 0
            if plays < 0:
                return False, 0
            before = search.nodes  # the search counts on from its first question: the budget is this one's
            budget = Budget(None if self.max_nodes is None else before + self.max_nodes, self.max_seconds,
                            self.max_mb)
            budget.next_check = before + (budget.next_check if self.max_nodes is None
                                          else min(budget.CHECK_EVERY, self.max_nodes))
            search.budget = budget
            code = 0 if pos.table is None else table_code(pos.table)
            verdict: bool | None = None
            try:
                verdict = bool(search.within(pos.packed, pos.to_move, code, pos.table,
                                             (pos.table_by or 0) if code else 0, plays))
            except BudgetExceeded:
                pass
            return verdict, search.nodes - before

        return ask

    def prove(self, pos: Position, max_nodes: int) -> bool | None:
        """Does the side to move win, by the compiled proof-number search (``NativeTeamSearch.prove``, issue 30,
        round 13) within ``max_nodes`` expanded positions?  None when it is not settled within them, or when the
        position is not a one-deck three-player one the compiled search plays (nothing is guessed).

        Exact: it reads and writes the same table as :meth:`solve`'s three-player search, so a settled answer is
        the one :meth:`solve` would give.  Its nodes are its own count (:meth:`pns_nodes`), not :attr:`nodes`'s:
        the caller budgets them (the personal puzzles' scan gives it a budget of its own per game)."""
        winner = pos.winner
        if winner is not None:
            return winner is pos.roles[pos.to_move]
        if pos.players != 3 or self.rules.decks != 1:
            return None
        search = self._team_search(pos.roles)
        if not isinstance(search, NativeTeamSearch):
            return None
        code = 0 if pos.table is None else table_code(pos.table)
        by = (pos.table_by or 0) if code else 0
        return search.prove(pos.packed, pos.to_move, code, by, max_nodes)

    def pns_nodes(self) -> int:
        """Positions the proof-number search (:meth:`prove`) expanded in this solver's searches so far."""
        return sum(t.pns_nodes for t in self._team.values() if isinstance(t, NativeTeamSearch))

    def winning_moves(self, pos: Position) -> list[Move] | None:
        """Every winning move of the side to move; None when the budget ran out."""
        result = self.solve(pos, "win", all_moves=True)
        if not result.complete:
            return None
        return result.winning_moves

    # ------------------------------------------------------------- lines
    def _line(self, pos: Position, root_wins: list[Move]) -> list[tuple[int, Move]]:
        """A principal variation: the winner plays winning moves, the loser its
        most stubborn-looking move (first in the search order)."""
        line: list[tuple[int, Move]] = []
        first = True
        while not pos.is_over and len(line) < MAX_LINE:
            if first and root_wins:
                move = root_wins[0]
            else:
                ordered = self._ordered_moves(pos)
                move = next((m for m in ordered if self._move_wins(pos, m)), ordered[0])
            first = False
            line.append((pos.to_move, move))
            pos = pos.after(move)
        return line

    def _fastest_search(self, roles: tuple[Role, ...], winner: int) -> FastestSearch | NativeFastestSearch:
        """A new fastest search for side ``winner``: compiled where the three-player search is (issue 30,
        round 7: the same answers and node counts, many times faster), else the Python one."""
        key = sides(roles)
        team = self._team_search(roles) if len(key) == 3 and self.rules.decks == 1 else None
        if isinstance(team, NativeTeamSearch) and self.fast_native:
            return NativeFastestSearch(team, winner, prune=self.lean_fastest)
        return FastestSearch(self.tables, key, winner)

    def _lean_line(self, pos: Position, total: int, winner_role: Role,
                   reaches: Callable[[Position, int], bool]) -> list[tuple[int, Move]]:
        """The line of :meth:`_fastest`, move for move, in far fewer nodes (:attr:`lean_fastest`).

        The plain line computes every move's exact pace (``value``) and takes the winner's first move
        whose pace is the position's (``need``) and the loser's first longest defence, a play before a
        pass.  But a winner's move keeps the pace exactly when the winner can still win within
        ``need`` - its cost (no move does better than ``need``), and a loser's move is a longest defence
        exactly when the winner cannot win within ``need`` - 1 after it (none lasts longer): one question
        a move instead of a deepening search, which for a winner's poor move (pace 17 where 12 is
        needed) went on well past the pace that matters.  The same moves, so the same line.
        """
        line: list[tuple[int, Move]] = []
        need = total
        while not pos.is_over and len(line) < MAX_LINE:
            ours = pos.roles[pos.to_move] is winner_role
            chosen: Move = None
            found = False
            for move in self._ordered_moves(pos):
                cost = 1 if ours and move is not None else 0
                if ours and reaches(pos.after(move), need - cost):
                    chosen, found, need = move, True, need - cost
                    break
                if not ours and not reaches(pos.after(move), need - 1):
                    # The first longest defence; a pass only when no play lasts as long (as the plain line).
                    if move is not None:
                        chosen, found = move, True
                        break
                    found = True
            if not found:  # cannot happen with exact answers: the plain line would then take its last move
                raise AssertionError("the fastest line lost its pace")
            line.append((pos.to_move, chosen))
            pos = pos.after(chosen)
        return line

    def _fastest(self, pos: Position, mover_wins: bool) -> tuple[int, list[tuple[int, Move]]]:
        """(win_in, line) for the fastest objective; the winner side is known."""
        mover_side = pos.roles[pos.to_move]
        winner_role = mover_side if mover_wins else (Role.FARMER if mover_side is Role.LANDLORD else Role.LANDLORD)
        winner = 0 if winner_role is Role.LANDLORD else 1
        key = sides(pos.roles)
        search = self._fastest_search(pos.roles, winner)
        search.budget = self._budget

        def value(p: Position) -> int:
            """Exact number of the winner's plays still needed from ``p``."""
            w = p.winner
            if w is not None:
                return 0 if w is winner_role else 1 << 20
            hands = p.packed
            code = 0 if p.table is None else table_code(p.table)
            by = (p.table_by or 0) if code else 0
            d = min(self.tables.min_plays(hands[i]) for i in range(p.players) if key[i] == winner)
            while d <= 60:
                if search.within(hands, p.to_move, code, p.table, by, d):
                    return d
                d += 1
            return 1 << 20

        def reaches(p: Position, d: int) -> bool:
            """Can the winner win from ``p`` within ``d`` plays of its own (``value(p) <= d``)?"""
            w = p.winner
            if w is not None:
                return w is winner_role
            if d < 0:
                return False
            code = 0 if p.table is None else table_code(p.table)
            return search.within(p.packed, p.to_move, code, p.table, (p.table_by or 0) if code else 0, d)

        try:
            total = value(pos)
            if self.lean_fastest and total <= 60:  # (beyond: no win within the deepening's reach)
                return total, self._lean_line(pos, total, winner_role, reaches)
            line: list[tuple[int, Move]] = []
            while not pos.is_over and len(line) < MAX_LINE:
                ours = pos.roles[pos.to_move] is winner_role
                need = value(pos)
                best_move: Move = None
                best_value = -1
                for move in self._ordered_moves(pos):
                    child = value(pos.after(move)) + (1 if ours and move is not None else 0)
                    if ours and child == need:
                        best_move = move
                        break
                    # The loser resists longest; between equally long defences
                    # it plays cards rather than passing, as a person would.
                    if not ours and (child > best_value or (child == best_value and best_move is None)):
                        best_move, best_value = move, child
                line.append((pos.to_move, best_move))
                pos = pos.after(best_move)
            return total, line
        finally:
            self._extra_nodes += search.nodes
