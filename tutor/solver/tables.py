"""Per-hand facts the search asks for again and again, memoised on the packed hand.

The search visits each position once (the transposition table sees to that),
but the same *hand* turns up in thousands of positions: facing different
tables, against different opponent hands.  So everything that depends on one
hand alone is computed once and kept in a plain dict keyed by the packed
integer (exact: the key is the hand itself):

* the lead moves, biggest first (ordering: shed the most cards);
* the follow moves for a table (kind, length, main — the table's cards do not
  matter, only what it takes to beat it);
* the *beat profile*: for every (kind, length) the highest main the hand can
  play, and whether it holds a bomb or the rocket — so "can this hand answer
  that play?" is one dict lookup instead of a move generation;
* whether the hand is a single combination (it can go out in one play);
* the least number of plays the hand needs to go out (exact minimum partition
  into combinations), the lower bound of the *fastest* search.

The dicts are capped: when one grows past ``limit`` entries it is cleared.
Clearing loses only speed, never correctness.
"""

from __future__ import annotations

from tutor.engine.cards import FIELD, SMALL_JOKER, packed_size, unpack
from tutor.engine.combos import Combo, Kind, beats
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import Rules

BOMB = int(Kind.BOMB)
TRIO_SINGLE = int(Kind.TRIO_SINGLE)
FOUR_TWO_SINGLES = int(Kind.FOUR_TWO_SINGLES)
AIRPLANE_SINGLES = int(Kind.AIRPLANE_SINGLES)
ROCKET = int(Kind.ROCKET)
#: Profile key of bombs: kind | length << 4 with length 1.
BOMB_CODE = BOMB | 1 << 4


#: Set in a table code for a soft bomb (RULES §12.3): a hard bomb of its rank beats it, not another soft one.
SOFT_BIT = 1 << 12


def table_code(move: Combo) -> int:
    """What a follower must beat, as a small non-zero integer: kind, length, main (and soft, RULES §12.3)."""
    return move.kind | move.length << 4 | move.main << 8 | (SOFT_BIT if move.soft else 0)


#: Number of cards in a packed set.
move_size = packed_size


def _fields(cards: int) -> dict[int, int]:
    """{rank: count} of the ranks present in a packed set."""
    out: dict[int, int] = {}
    r = 0
    while cards:
        f = cards & FIELD
        if f:
            out[r] = f
        cards >>= 4
        r += 1
    return out


class HandTables:
    """Memoised per-hand move lists and facts (see the module docstring)."""

    def __init__(self, limit: int = 250_000, *, rules: Rules) -> None:
        self.limit = limit
        self.rules = rules
        self.raw: dict[int, list[Combo]] = {}
        self.lead: dict[int, list[Combo]] = {}
        self.follow: dict[int, list[Combo]] = {}
        self.profiles: dict[int, tuple[dict[int, int], bool]] = {}
        self.combo: dict[int, bool] = {}
        self.plays: dict[int, int] = {}
        self.facing: dict[int, tuple[list[Combo], int, list[tuple[Combo, int, int, int]]]] = {}
        self.lone: dict[int, int] = {}
        self.lead_pairs: dict[int, list[tuple[Combo, int, int, int]]] = {}
        self.mains: dict[int, dict[int, tuple[int, ...]]] = {}
        self.canon_codes: dict[int, int] = {}

    def raw_moves(self, hand: int) -> list[Combo]:
        """Lead moves of ``hand`` in the engine's order (memoised, unsorted)."""
        moves = self.raw.get(hand)
        if moves is None:
            if len(self.raw) > self.limit:
                self.raw.clear()
            moves = lead_moves_packed(hand, self.rules)
            self.raw[hand] = moves
        return moves

    def lead_moves(self, hand: int) -> list[Combo]:
        """Lead moves of ``hand``, the ones that shed the most cards first
        (a stable sort of :meth:`raw_moves`: ties keep the engine's order)."""
        moves = self.lead.get(hand)
        if moves is None:
            if len(self.lead) > self.limit:
                self.lead.clear()
            moves = sorted(self.raw_moves(hand), key=lambda m: -move_size(m.cards))
            self.lead[hand] = moves
        return moves

    def follow_moves(self, hand: int, code: int, table: Combo) -> list[Combo]:
        """Moves of ``hand`` that beat ``table`` (whose :func:`table_code` is ``code``).

        They are the lead moves that beat the table, in the lead order: the
        engine's follow generator gives the same set (one move per card set
        under its highest beating reading; a test checks it), and taking them
        from the memoised lead list keeps one move order for every search.
        """
        if self.rules.decks != 1:  # bombs of several sizes share a code (RULES §12.4): no cache
            return [m for m in self.lead_moves(hand) if beats(m, table, self.rules)]
        key = hand | code << 60
        moves = self.follow.get(key)
        if moves is None:
            if len(self.follow) > self.limit:
                self.follow.clear()
            moves = [m for m in self.lead_moves(hand) if beats(m, table, self.rules)]
            self.follow[key] = moves
        return moves

    def canonical_code(self, hand: int, code: int) -> int:
        """The table code that leaves ``hand`` the same answers as ``code`` does.

        The table's main is lowered to the highest main the follower holds at
        or below it (-1 if none), and every non-bomb table the follower cannot
        answer in kind maps to one code, 15 (only bombs and the rocket answer
        it).  Two tables with one canonical code are the same position for the
        search: after a pass the table is forgotten, after an answer the
        answer is the new table.
        """
        key = hand | code << 60
        canonical = self.canon_codes.get(key)
        if canonical is None:
            if len(self.canon_codes) > self.limit:
                self.canon_codes.clear()
            kind = code & 15
            if kind == ROCKET:
                canonical = code
            else:
                length = (code >> 4) & 15
                main = code >> 8
                mains = self.mains_of(hand).get(kind | length << 4, ())
                below = max((x for x in mains if x <= main), default=-1)
                if kind != BOMB and not any(x > main for x in mains):
                    canonical = 15
                else:
                    canonical = kind | length << 4 | (below + 1) << 8
            self.canon_codes[key] = canonical
        return canonical

    def facing_table(
        self, hand: int, code: int, table: Combo
    ) -> tuple[list[Combo], int, list[tuple[Combo, int, int, int]]]:
        """(follow moves, canonical table code — :meth:`canonical_code` —,
        dominance pairs — see :meth:`dominance_pairs`) for ``hand`` facing ``table``."""
        key = hand | code << 60
        entry = self.facing.get(key)
        if entry is None:
            if len(self.facing) > self.limit:
                self.facing.clear()
            moves = self.follow_moves(hand, code, table)
            canonical = self.canonical_code(hand, code)
            # The dominance pairs among the answers are the lead pairs whose
            # two moves both beat the table (same kind and length, both mains
            # above the table's): the relation depends on the hand alone.
            group = code & 0xFF
            main = code >> 8
            pairs = [p for p in self.lead_dominance(hand) if p[3] == group and p[1] > main]
            entry = (moves, canonical, pairs)
            self.facing[key] = entry
        return entry

    def free_ranks(self, hand: int) -> int:
        """Bit mask of the ranks (jokers excluded) that are in no chain of the hand.

        A rank in no straight, pair chain or airplane can only be played as
        singles, a pair, a trio, a bomb or wings; a higher rank held the same
        number of times can do all of that (see :meth:`dominance_pairs`).
        """
        mask = self.lone.get(hand)
        if mask is None:
            counts = unpack(hand)
            in_chain = 0
            for need, shortest in ((1, 5), (2, 3), (3, 2)):
                run = 0
                for r in range(12):  # chain ranks 3..A
                    if counts[r] >= need:
                        run += 1
                        if run >= shortest:
                            for q in range(r - run + 1, r + 1):
                                in_chain |= 1 << q
                    else:
                        run = 0
            mask = 0
            for r in range(13):  # jokers excluded
                if counts[r] and not (in_chain >> r) & 1:
                    mask |= 1 << r
            self.lone[hand] = mask
        return mask

    def dominance_pairs(self, hand: int, moves: list[Combo]) -> list[tuple[Combo, int, int, int]]:
        """Moves that another move of the same kind and length makes redundant.

        Returns ``(y, low, high, code)``: move ``y`` is dominated by a move
        ``x`` of the same kind and length (``code``) as long as the opponents
        hold no move of that code with a main in ``(low, high]`` — then they
        have exactly the same answers to ``x`` as to ``y``.  The condition on
        the hand: ``x`` and ``y`` differ by single cards only, and after ``x``
        the player keeps whole ranks ``b1 < …`` where after ``y`` they would
        keep whole ranks ``a1 < …``, the same number of cards each, every
        ``ai < bi``, every ``ai`` in no chain of the hand left by ``y`` (see
        :meth:`free_ranks`) and no ``bi`` a joker.  Holding ``bi`` instead of
        ``ai`` is never worse for a player without a partner: whatever they
        would do with the ``ai`` cards (singles, a pair, a trio, a bomb,
        wings — never a chain) they can do with the ``bi`` cards, and higher
        cards leave the opponents a subset of the answers.  So ``x``
        is at least as good as ``y`` and the search may skip ``y`` — never at
        the root, where every winning move is listed.  The relation strictly
        raises the ranks kept, so it has no cycles and the best moves remain.
        """
        groups: dict[int, list[Combo]] = {}
        for m in moves:
            kind = m.kind
            if kind >= BOMB:
                continue
            groups.setdefault(kind | m.length << 4, []).append(m)
        pairs: list[tuple[Combo, int, int, int]] = []
        for code, group in groups.items():
            if len(group) < 2:
                continue
            counts = [_fields(m.cards) for m in group]
            for yi, y in enumerate(group):
                cy = counts[yi]
                free_after_y = self.free_ranks(hand - y.cards)
                for xi, x in enumerate(group):
                    if xi == yi:
                        continue
                    cx = counts[xi]
                    kept_x: list[tuple[int, int]] = []  # (rank, n) kept by playing x instead of y: the b's
                    kept_y: list[tuple[int, int]] = []  # (rank, n) kept by playing y instead of x: the a's
                    for r in sorted(cy.keys() | cx.keys()):
                        d = cy.get(r, 0) - cx.get(r, 0)
                        if d > 0:
                            kept_x.append((r, d))
                        elif d < 0:
                            kept_y.append((r, -d))
                    if not kept_x or len(kept_x) != len(kept_y):
                        continue
                    left_x = hand - x.cards
                    left_y = hand - y.cards
                    ok = True
                    for (a, na), (b, nb) in zip(kept_y, kept_x):
                        if (
                            a >= b
                            or na != nb
                            or b >= SMALL_JOKER  # jokers are not wings to swap
                            or not (free_after_y >> a) & 1
                            or (left_y >> (4 * a)) & FIELD != na
                            or (left_x >> (4 * b)) & FIELD != nb
                        ):
                            ok = False
                            break
                    if ok:
                        low, high = (x.main, y.main) if x.main <= y.main else (y.main, x.main)
                        pairs.append((y, low, high, code))
        return pairs

    def lead_dominance(self, hand: int) -> list[tuple[Combo, int, int, int]]:
        """:meth:`dominance_pairs` of the lead moves (memoised)."""
        pairs = self.lead_pairs.get(hand)
        if pairs is None:
            if len(self.lead_pairs) > self.limit:
                self.lead_pairs.clear()
            pairs = self.dominance_pairs(hand, self.lead_moves(hand))
            self.lead_pairs[hand] = pairs
        return pairs

    def mains_of(self, hand: int) -> dict[int, tuple[int, ...]]:
        """Every main the hand can play, per kind | length << 4."""
        got = self.mains.get(hand)
        if got is None:
            if len(self.mains) > self.limit:
                self.mains.clear()
            acc: dict[int, set[int]] = {}
            for m in self.lead_moves(hand):
                acc.setdefault(m.kind | m.length << 4, set()).add(m.main)
            got = {code: tuple(sorted(v)) for code, v in acc.items()}
            self.mains[hand] = got
        return got

    def undominated(
        self, moves: list[Combo], pairs: list[tuple[Combo, int, int, int]], opponents: list[int]
    ) -> list[Combo]:
        """``moves`` without those that :meth:`dominance_pairs` proves redundant
        against these opponent hands."""
        if not pairs:
            return moves
        dominated = set()
        opp_mains = [self.mains_of(h) for h in opponents]
        for y, low, high, code in pairs:
            if y in dominated:
                continue
            if low != high:
                clash = False
                for om in opp_mains:
                    for main in om.get(code, ()):
                        if low < main <= high:
                            clash = True
                            break
                    if clash:
                        break
                if clash:
                    continue
            dominated.add(y)
        if not dominated:
            return moves
        return [m for m in moves if m not in dominated]

    def profile(self, hand: int) -> tuple[dict[int, int], bool]:
        """(highest main per kind | length << 4, holds a bomb or the rocket).

        A play ``m`` can be answered by this hand exactly when
        ``m.main < best.get(m.kind | m.length << 4, -1)`` or, for a play that is
        not a bomb or the rocket, when the hand holds a bomb or the rocket.  The
        rocket counts as a bomb of main 99 so that it answers every bomb.
        """
        prof = self.profiles.get(hand)
        if prof is None:
            if len(self.profiles) > self.limit:
                self.profiles.clear()
            best: dict[int, int] = {}
            any_bomb = False
            for m in self.lead_moves(hand):
                kind = m.kind
                if kind == ROCKET:
                    best[BOMB_CODE] = 99
                    any_bomb = True
                    continue
                if kind == BOMB:
                    any_bomb = True
                    if self.rules.decks != 1:  # a longer bomb of a lower rank beats: count every bomb as answering
                        best[BOMB_CODE] = 99
                        continue
                code = kind | m.length << 4
                if best.get(code, -1) < m.main:
                    best[code] = m.main
            if self.rules.wild_rank >= 0 and BOMB_CODE in best:
                # RULES §12.3: a hard bomb beats a soft one of its own rank, so a bomb of this hand may
                # answer one of its main: claim it can (the searches only prune on "cannot answer").
                best[BOMB_CODE] += 1
            prof = (best, any_bomb)
            self.profiles[hand] = prof
        return prof

    def is_combo(self, hand: int) -> bool:
        """Can ``hand`` be played out in one move?"""
        result = self.combo.get(hand)
        if result is None:
            if len(self.combo) > self.limit:
                self.combo.clear()
            # The lead moves hold every card set that has a reading (one move
            # per set and kind), so the hand is one play exactly when it is
            # one of them; the list is memoised and needed anyway.
            result = bool(hand) and any(m.cards == hand for m in self.raw_moves(hand))
            self.combo[hand] = result
        return result

    def min_plays(self, hand: int) -> int:
        """The least number of plays that empty ``hand`` (exact).

        Every partition of the hand has a combination holding its lowest card,
        so it is enough to branch on the moves that contain that card.
        """
        if hand == 0:
            return 0
        result = self.plays.get(hand)
        if result is not None:
            return result
        if self.is_combo(hand):
            self.plays[hand] = 1
            return 1
        low = hand & -hand
        shift = (low.bit_length() - 1) & ~3
        low_rank_bits = FIELD << shift
        best = 99
        for m in self.raw_moves(hand):
            if m.cards & low_rank_bits:
                n = 1 + self.min_plays(hand - m.cards)
                if n < best:
                    best = n
                    if best == 2:
                        break
        self.plays[hand] = best
        return best

