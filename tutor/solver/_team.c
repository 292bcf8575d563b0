/*
 * The three-player endgame search of tutor/solver/search.py (TeamSearch:
 * the landlord against the two farmers as a team), compiled.  Optional: when
 * this extension is not built, the pure-Python TeamSearch runs instead.
 *
 * Why it exists (issue 30): the personal puzzles of a learner's game need
 * exact proofs of three-player positions of 30-40 cards, mostly landlord wins
 * where every farmer defence must be searched; CPython expands about 100
 * thousand such positions a second, this about twenty times more.
 *
 * It is the Python TeamSearch node for node: the same moves in the same
 * order (the lead moves of tutor/solver/_native.c's generator, which its tests
 * hold equal to tutor.engine.moves and HandTables.lead_moves; answers to a
 * table are the lead moves that beat it, in that order, as
 * HandTables.follow_moves), the same immediate wins, the same "nobody can
 * answer" shortcut, the same order of the answered plays (fewest plays left
 * first, a stable sort) and the same transposition table (exact keys: the
 * three whole hands, who moves, who played the table and its code; every
 * result stored, immediate ones too; cleared past the same number of entries
 * at the same budget checks).  So it gives the same answers and, as long as
 * the table is not cleared, the same node counts: the node budgets of the
 * Python solver mean the same thing with either core, and
 * tests/solver/test_team_native.py checks both on random positions.
 *
 * The hand machinery (moves, least number of plays, what a hand can answer)
 * is _native.c's, included below rather than copied: one move generator.
 */
#include "_native.c"

/* One entry: the three hands, then who moves, who played the table and its
   code (META_BITS), the value and an occupied bit. */
#define META_BITS 20
#define T_VALUE (1ULL << 62)
#define T_OCCUPIED (1ULL << 63)
#define T_MIN_BITS 12

typedef struct {
    uint64_t h[3];
    uint64_t meta;
} TEntry;

typedef struct {
    PyObject_HEAD
    PyObject *exc;   /* raised when the budget is spent */
    TwoSearch hands; /* only its hand cache: moves, answers, least plays (never its table) */
    int sides[3];    /* 0: the landlord, 1: a farmer */
    TEntry *tt;
    uint64_t tt_mask;  /* slots - 1 */
    uint64_t tt_used;
    int tt_max_bits;
    long long max_entries; /* cleared (exactly) past this many, as TeamSearch.max_entries */
    long long keep;        /* > 0: thinned to at most this many (the most cards) instead of cleared */
    long long nodes, next_check, max_nodes;
    double deadline;
    int budget_hit;
    PyObject *check; /* during a call: the Python budget's check(nodes), or NULL */
    int32_t *scratch;
    size_t scratch_cap, scratch_top;
    /* The lone-farmer shortcut (tutor/solver/lone_farmer.py), when asked for: a two-player search of
       its own, the nodes of one question, the cap of all of one solve's, positions settled. */
    TwoSearch *two;
    long long lone_call, lone_cap, settled;
    int landlord, farmers[2];
    struct Fast *fast; /* the fastest search's table and counts (made at its first use) */
    int order;         /* the move order of team_win (ORDER_* bits; 0: the Python search's, node for node) */
    struct Pns *pns;   /* the proof-number search's table and counts (made at its first use) */
} Team;

/* Other move orders of team_win (issue 30, round 12), asked for by the scan of a game: the same verdicts
   (an AND/OR search with an exact table proves the same values in any order), other node counts. */
#define ORDER_BOSS_PLAYS 1  /* the plays nobody answers, fewest plays left first too (stable) */
#define ORDER_MERGED 2      /* every play by the plays left after it, the unanswered first on ties */
#define ORDER_PASS_FIRST 4  /* against an opponent's play, the pass before the plays */
#define ORDER_ETC 8         /* first look up every child in the table: one known won settles the node */

static inline uint64_t team_hash(const uint64_t *h, uint64_t meta) {
    return mix64(h[0] ^ mix64(h[1] ^ mix64(h[2] ^ mix64(meta))));
}

/* 1 / 0: the stored value; -1: not there. */
static inline int team_probe(Team *t, const uint64_t *h, uint64_t meta) {
    uint64_t mask = t->tt_mask;
    for (uint64_t j = team_hash(h, meta) & mask;; j = (j + 1) & mask) {
        TEntry *e = &t->tt[j];
        if (!(e->meta & T_OCCUPIED)) return -1;
        if ((e->meta & ((1ULL << META_BITS) - 1)) == meta && e->h[0] == h[0] && e->h[1] == h[1] && e->h[2] == h[2])
            return (e->meta & T_VALUE) ? 1 : 0;
    }
}

static void team_insert(TEntry *tt, uint64_t mask, const TEntry *src) {
    uint64_t j = team_hash(src->h, src->meta & ((1ULL << META_BITS) - 1)) & mask;
    while (tt[j].meta & T_OCCUPIED) j = (j + 1) & mask;
    tt[j] = *src;
}

static void team_clear_tt(Team *t) {
    Py_BEGIN_ALLOW_THREADS /* up to 128 MB to clear: as team_grow */
    memset(t->tt, 0, (t->tt_mask + 1) * sizeof(TEntry));
    Py_END_ALLOW_THREADS
    t->tt_used = 0;
}

/* Cards in the three hands of an entry. */
static inline int team_cards(const TEntry *e) { return cards_size(e->h[0]) + cards_size(e->h[1]) + cards_size(e->h[2]); }

/* Instead of clearing a full table (t->keep > 0, asked for by a caller that proves big positions one
   after the other, as the scan of a game): keep at most t->keep entries, those of the most cards — the
   dearest to prove again, a proof growing with the cards in play — and forget the rest.  Exact either
   way (every entry kept is a proven value); only the work saved differs.  Without the GIL. */
static void team_thin_locked(Team *t) {
    uint64_t slots = t->tt_mask + 1;
    long long count[64] = {0};
    for (uint64_t i = 0; i < slots; i++)
        if (t->tt[i].meta & T_OCCUPIED) count[team_cards(&t->tt[i]) & 63]++;
    long long kept = 0;
    int least = 63;
    while (least >= 0 && kept + count[least] <= t->keep) kept += count[least--];
    least++; /* entries of `least` cards or more are kept */
    TEntry *held = kept ? (TEntry *)malloc((size_t)kept * sizeof(TEntry)) : NULL;
    long long n = 0;
    if (held)
        for (uint64_t i = 0; i < slots; i++)
            if ((t->tt[i].meta & T_OCCUPIED) && team_cards(&t->tt[i]) >= least) held[n++] = t->tt[i];
    memset(t->tt, 0, slots * sizeof(TEntry));
    for (long long k = 0; k < n; k++) team_insert(t->tt, t->tt_mask, &held[k]);
    free(held);
    t->tt_used = (uint64_t)n;
}

static void team_thin(Team *t) {
    Py_BEGIN_ALLOW_THREADS
    team_thin_locked(t);
    Py_END_ALLOW_THREADS
}

/* The exact table over its bound (a search's periodic check): thinned when the search keeps its small proofs,
   else cleared — work lost, never a verdict. */
static void team_bound_tt(Team *t) {
    if (t->tt_used > (uint64_t)t->max_entries) {
        if (t->keep > 0)
            team_thin(t);
        else
            team_clear_tt(t);
    }
}

/* Doubles the table (re-inserting every entry: the keys are whole); at the
   largest size it is cleared (or thinned) instead, which costs time, never correctness. */
static void team_grow_locked(Team *t);

/* The growth touches up to 128 MB of fresh pages (a second and more on a busy machine): the process's
   other threads run meanwhile (it reads and writes only this search's own memory). */
static void team_grow(Team *t) {
    Py_BEGIN_ALLOW_THREADS
    team_grow_locked(t);
    Py_END_ALLOW_THREADS
}

static void team_grow_locked(Team *t) {
    uint64_t slots = t->tt_mask + 1;
    int bits = 63 - __builtin_clzll(slots);
    TEntry *fresh = bits < t->tt_max_bits ? (TEntry *)table_alloc(slots * 2 * sizeof(TEntry) / sizeof(uint64_t)) : NULL;
    if (!fresh) {
        if (t->keep > 0) {
            team_thin_locked(t);
            return;
        }
        memset(t->tt, 0, slots * sizeof(TEntry)); /* team_clear_tt without the GIL (we do not hold it) */
        t->tt_used = 0;
        return;
    }
    for (uint64_t i = 0; i < slots; i++)
        if (t->tt[i].meta & T_OCCUPIED) team_insert(fresh, slots * 2 - 1, &t->tt[i]);
    table_free((uint64_t *)t->tt, slots * sizeof(TEntry) / sizeof(uint64_t));
    t->tt = fresh;
    t->tt_mask = slots * 2 - 1;
}

static inline int team_store(Team *t, const uint64_t *h, uint64_t meta, int value) {
    if ((t->tt_used + 1) * 2 > t->tt_mask + 1) team_grow(t);
    TEntry e = {{h[0], h[1], h[2]}, meta | T_OCCUPIED | (value ? T_VALUE : 0)};
    team_insert(t->tt, t->tt_mask, &e);
    t->tt_used++;
    return value;
}

static int team_budget(Team *t) {
    if (t->max_nodes >= 0 && t->nodes >= t->max_nodes) return -1;
    if (t->deadline >= 0 && now_seconds() > t->deadline) return -1;
    long long step = 2048;
    if (t->max_nodes >= 0 && t->max_nodes - t->nodes < step) step = t->max_nodes - t->nodes;
    if (step < 1) step = 1;
    t->next_check = t->nodes + step;
    return 0;
}

static int32_t *team_scratch(Team *t, size_t n) {
    if (t->scratch_top + n > t->scratch_cap) {
        PyErr_SetString(PyExc_MemoryError, "team search: scratch space exhausted");
        return NULL;
    }
    int32_t *p = t->scratch + t->scratch_top;
    t->scratch_top += n;
    return p;
}

static int team_win(Team *t, const uint64_t *hands, int turn, int code, int table_by);

/* LoneFarmer.two.win_within: does the player holding `me` win the two-player game, within `nodes`
   more nodes of the two-player search (its count at most `cap`)?  1 / 0; -1: does not fit; -2: error. */
static int two_within(TwoSearch *s, uint64_t me, uint64_t opp, int code, long long nodes, long long cap) {
    long long limit = s->nodes + nodes;
    if (cap >= 0) {
        if (limit > cap) limit = cap;
        if (s->nodes >= cap) return -1;
    }
    s->max_nodes = limit;
    s->deadline = -1;
    s->budget_hit = 0;
    s->next_check = s->nodes;
    if (budget_check(s) < 0) return -1;
    if (s->nhands > MAX_HANDS - 100000 || s->hand_bytes > s->max_hand_bytes) {
        free_hands(s);
        clear_tt(s);
    }
    if (cards_size(me) + cards_size(opp) >= BIG_POSITION) tt_resize(s, s->tt_max_bits);
    Hand *a = get_hand(s, me);
    Hand *b = a ? get_hand(s, opp) : NULL;
    if (!a || !b) return -2;
    s->scratch_top = 0;
    int r = win(s, a, b, code);
    if (r < 0) return s->budget_hit && !PyErr_Occurred() ? -1 : -2;
    return r;
}

/* LoneFarmer.__call__: 1 / 0 when a farmer alone beats the landlord (for the side of `turn`), -1 when
   not settled, -2 on error.  The same questions in the same order as the Python shortcut. */
static int lone_farmer(Team *t, const uint64_t *hands, int turn, int code, int table_by) {
    int landlord = t->landlord;
    for (int f = 0; f < 2; f++) {
        int alone = t->farmers[f];
        int idle = 3 - landlord - alone;
        if (code && table_by == idle) continue; /* the idle farmer's play is on the table */
        int mover = turn, lead = code == 0;
        if (turn == idle) {
            if (lead) continue; /* the idle farmer would have to lead */
            mover = (idle + 1) % 3; /* he passes */
            lead = mover == table_by;
        }
        int other = mover == landlord ? alone : landlord;
        int verdict = two_within(t->two, hands[mover], hands[other], lead ? 0 : code, t->lone_call, t->lone_cap);
        if (verdict == -2) return -2;
        if (verdict < 0) continue;
        if (verdict == (mover == alone)) {
            t->settled++;
            return t->sides[turn] == 1;
        }
    }
    return -1;
}

/* Does the side of `turn` win after `turn` plays move i of `me` (whose child hand is `left`)? */
static inline int team_play(Team *t, const uint64_t *hands, int turn, const Move *m, uint64_t left) {
    uint64_t nh[3] = {hands[0], hands[1], hands[2]};
    nh[turn] = left;
    int nxt = (turn + 1) % 3;
    int r = team_win(t, nh, nxt, m->kind | m->length << 4 | m->main << 8, turn);
    if (r < 0) return r;
    return t->sides[nxt] == t->sides[turn] ? r : !r;
}

static inline int team_pass(Team *t, const uint64_t *hands, int turn, int code, int table_by) {
    int nxt = (turn + 1) % 3;
    int r = nxt == table_by ? team_win(t, hands, nxt, 0, 0) : team_win(t, hands, nxt, code, table_by);
    if (r < 0) return r;
    return t->sides[nxt] == t->sides[turn] ? r : !r;
}

/* Does the side of `turn` win after `turn` plays the entry `e` of `me`'s plays (~i: play i, which nobody at
   all can answer, so `turn` leads again; else play i to the next seat)?  1 / 0 / -1 as team_win. */
/* The two other seats' hands of ``turn``'s player, opponents and partners apart (-1: out of memory). */
static int team_others(Team *t, const uint64_t *hands, int turn, Hand **opps, int *nopp, Hand **partners,
                       int *npart) {
    int side = t->sides[turn];
    for (int k = 1; k < 3; k++) {
        int j = (turn + k) % 3;
        Hand *o = get_hand(&t->hands, hands[j]);
        if (!o) return -1;
        if (t->sides[j] != side)
            opps[(*nopp)++] = o;
        else
            partners[(*npart)++] = o;
    }
    return 0;
}

static inline int team_entry(Team *t, const uint64_t *hands, int turn, const Hand *me, int32_t e) {
    int nobody = e < 0;
    const Move *m = &me->moves[nobody ? ~e : e];
    uint64_t left = me->hand - m->cards;
    if (!nobody) return team_play(t, hands, turn, m, left);
    uint64_t nh[3] = {hands[0], hands[1], hands[2]};
    nh[turn] = left;
    return team_win(t, nh, turn, 0, 0);
}

/* team_win's plays and pass in the order t->order asks for (ORDER_*): 1 / 0 / -1 as team_win.  `boss`
   holds the plays no opponent answers (~i: nobody at all), `other` the rest, both in the generator's order. */
static int team_ordered(Team *t, const uint64_t *hands, int turn, int code, int table_by, Hand *me, int32_t *boss,
                        int nboss, int32_t *other, int nother, int partner_table) {
    int pass_first = code && (partner_table || (t->order & ORDER_PASS_FIRST));
    if (pass_first) {
        int r = team_pass(t, hands, turn, code, table_by);
        if (r != 0) return r;
    }
    int total = nboss + nother;
    int32_t *all = team_scratch(t, 2 * (size_t)total + 1);
    if (!all) return -1;
    int32_t *key = all + total;
    /* Sort keys: (plays left) * 2 + answered, or for the first nboss: answered = 0 group first. */
    for (int b = 0; b < nboss; b++) {
        int i = boss[b] < 0 ? ~boss[b] : boss[b];
        Hand *c = child_of(&t->hands, me, i);
        if (!c) return -1;
        all[b] = boss[b];
        if (t->order & ORDER_MERGED)
            key[b] = (c->min_plays & 31) * 2;
        else
            key[b] = (t->order & ORDER_BOSS_PLAYS) ? (c->min_plays & 31) : 0;
    }
    for (int k = 0; k < nother; k++) {
        Hand *c = child_of(&t->hands, me, other[k]);
        if (!c) return -1;
        all[nboss + k] = other[k];
        key[nboss + k] = (t->order & ORDER_MERGED) ? (c->min_plays & 31) * 2 + 1 : 64 + (c->min_plays & 31);
    }
    /* A stable insertion sort (a hand has a few dozen plays at most). */
    for (int a = 1; a < total; a++) {
        int32_t v = all[a], kv = key[a];
        int b = a - 1;
        while (b >= 0 && key[b] > kv) {
            all[b + 1] = all[b];
            key[b + 1] = key[b];
            b--;
        }
        all[b + 1] = v;
        key[b + 1] = kv;
    }
    if (t->order & ORDER_ETC) {
        /* Enhanced transposition cutoff: a child the table already holds as won for this side (a proof
           made for another first move or turn of the same scan) settles the node without a search. */
        for (int a = 0; a < total; a++) {
            int nobody = all[a] < 0;
            const Move *m = &me->moves[nobody ? ~all[a] : all[a]];
            uint64_t nh[3] = {hands[0], hands[1], hands[2]};
            nh[turn] = me->hand - m->cards;
            int nxt = nobody ? turn : (turn + 1) % 3;
            uint64_t meta = nobody ? (uint64_t)turn
                                   : (uint64_t)nxt | (uint64_t)turn << 2 | (uint64_t)(m->kind | m->length << 4 | m->main << 8) << 4;
            int known = team_probe(t, nh, meta);
            if (known >= 0 && (t->sides[nxt] == t->sides[turn] ? known : !known)) return 1;
        }
    }
    for (int a = 0; a < total; a++) {
        int r = team_entry(t, hands, turn, me, all[a]);
        if (r != 0) return r;
    }
    if (code && !pass_first) return team_pass(t, hands, turn, code, table_by);
    return 0;
}

/* 1: the side of `turn` wins; 0: loses; -1: error or budget (budget_hit). */
static int team_win(Team *t, const uint64_t *hands, int turn, int code, int table_by) {
    uint64_t meta = (uint64_t)turn | (uint64_t)table_by << 2 | (uint64_t)code << 4;
    int known = team_probe(t, hands, meta);
    if (known >= 0) return known;
    t->nodes++;
    if (t->nodes >= t->next_check) {
        if (team_budget(t) < 0) {
            t->budget_hit = 1;
            return -1;
        }
        if (t->check) {
            /* The Python budget's own check (Budget.check): its memory cap and progress display, at the
               same node counts as the Python search calls it; it raises BudgetExceeded when spent. */
            PyObject *next = PyObject_CallFunction(t->check, "L", t->nodes);
            if (!next) return -1;
            Py_DECREF(next);
        }
        team_bound_tt(t);
        if (PyErr_CheckSignals() < 0) return -1;
        /* Let the process's other threads run (a proof of millions of positions runs in the
           background of a session: the learner's own thread must not wait for it), as the
           interpreter lets them between the Python search's steps. */
        PyEval_RestoreThread(PyEval_SaveThread());
    }
    if (t->two) {
        int settled = lone_farmer(t, hands, turn, code, table_by);
        if (settled == -2) return -1;
        if (settled >= 0) return team_store(t, hands, meta, settled);
    }
    Hand *me = get_hand(&t->hands, hands[turn]);
    if (!me) return -1;
    int side = t->sides[turn];
    Hand *opps[2], *partners[2];
    int nopp = 0, npart = 0;
    if (team_others(t, hands, turn, opps, &nopp, partners, &npart) < 0) return -1;
    if (code == 0 && me->is_combo) return team_store(t, hands, meta, 1);
    int n = me->nmoves;
    size_t top = t->scratch_top;
    int32_t *boss = team_scratch(t, 2 * (size_t)n + 1);
    if (!boss) return -1;
    int32_t *other = boss + n;
    int nboss = 0, nother = 0;
    int result = -1;
    for (int i = 0; i < n; i++) {
        const Move *m = &me->moves[i];
        if (code && !beats_table(m, code)) continue;
        if (m->cards == me->hand) {
            result = 1;
            goto done;
        }
        int answered = 0;
        for (int k = 0; k < nopp && !answered; k++) answered = answerable(opps[k], m);
        if (answered) {
            other[nother++] = i;
            continue;
        }
        Hand *c = child_of(&t->hands, me, i);
        if (!c) goto fail;
        if (c->is_combo) {
            result = 1;
            goto done;
        }
        int nobody = 1;
        for (int k = 0; k < npart && nobody; k++) nobody = !answerable(partners[k], m);
        boss[nboss++] = nobody ? ~i : i; /* ~i: nobody at all can answer it */
    }
    int partner_table = code != 0 && t->sides[table_by] == side;
    if (t->order) {
        int r = team_ordered(t, hands, turn, code, table_by, me, boss, nboss, other, nother, partner_table);
        if (r < 0) goto fail;
        result = r;
        goto done;
    }
    if (partner_table) {
        int r = team_pass(t, hands, turn, code, table_by);
        if (r < 0) goto fail;
        if (r) {
            result = 1;
            goto done;
        }
    }
    for (int b = 0; b < nboss; b++) {
        int r = team_entry(t, hands, turn, me, boss[b]);
        if (r < 0) goto fail;
        if (r) {
            result = 1;
            goto done;
        }
    }
    if (nother > 1) {
        /* Fewest plays left first; a stable sort (list.sort in Python): ties keep the move order. */
        int32_t *sorted = team_scratch(t, (size_t)nother);
        if (!sorted) goto fail;
        int count[32] = {0};
        for (int k = 0; k < nother; k++) {
            Hand *c = child_of(&t->hands, me, other[k]);
            if (!c) goto fail;
            count[c->min_plays & 31]++;
        }
        int at = 0;
        for (int p = 0; p < 32; p++) {
            int c = count[p];
            count[p] = at;
            at += c;
        }
        for (int k = 0; k < nother; k++) sorted[count[child_of(&t->hands, me, other[k])->min_plays & 31]++] = other[k];
        other = sorted;
    }
    for (int k = 0; k < nother; k++) {
        const Move *m = &me->moves[other[k]];
        int r = team_play(t, hands, turn, m, me->hand - m->cards);
        if (r < 0) goto fail;
        if (r) {
            result = 1;
            goto done;
        }
    }
    if (code && !partner_table) {
        int r = team_pass(t, hands, turn, code, table_by);
        if (r < 0) goto fail;
        if (r) {
            result = 1;
            goto done;
        }
    }
    result = 0;
done:
    t->scratch_top = top;
    return team_store(t, hands, meta, result);
fail:
    t->scratch_top = top;
    return -1;
}

/* ------------------------------------------------- the fastest search */

/* FastestSearch of tutor/solver/search.py (three players), compiled (issue 30, round 7): "can side
   `winner` win using at most d plays of its own?", the question Solver._fastest asks again and again
   (iterative deepening, then every move along the line).  Node for node the Python search: the same
   table (an entry per position reached, made before the position is looked at, holding the largest d
   known to fail and the smallest known to succeed), the same cut (every hand of the winning side
   needs more than d plays), the same moves in the same order (plays nobody else can answer, then the
   rest, in the lead order; pass last), the same node counts and budget checks, and the table cleared
   at the same checks past the same number of entries — with what Python's dict.clear() does to the
   entries still held by the positions being searched (their results are lost: `fgen`).  So the same
   answers, lines and win_in, and the same node budget means the same work, only in C.  It uses the
   team search's hand cache (moves, least plays, what a hand answers); its table is its own. */

#define F_LO_SHIFT META_BITS          /* largest d known to fail, + 1 (0: none) */
#define F_HI_SHIFT (META_BITS + 8)    /* smallest d known to succeed (255: none) */
#define F_NEVER 255
#define F_MAX_D 250

struct Fast {
    TEntry *tt;
    uint64_t mask, used;
    int max_bits;
    long long max_entries;
    long long nodes, next_check, max_nodes;
    double deadline;
    int budget_hit;
    unsigned long long gen; /* bumped at each clear: an entry made before it is no longer in the table */
    int winner;             /* the side that is to win: 0 the landlord, 1 the farmers */
    int prune;              /* cut the positions the team search's table proves lost for the winner */
    PyObject *check;
};
typedef struct Fast Fast;

static inline int fast_meta_lo(uint64_t meta) { return (int)((meta >> F_LO_SHIFT) & 255) - 1; }
static inline int fast_meta_hi(uint64_t meta) { return (int)((meta >> F_HI_SHIFT) & 255); }

static TEntry *fast_find(Fast *f, const uint64_t *h, uint64_t key) {
    uint64_t mask = f->mask;
    for (uint64_t j = team_hash(h, key) & mask;; j = (j + 1) & mask) {
        TEntry *e = &f->tt[j];
        if (!(e->meta & T_OCCUPIED)) return NULL;
        if ((e->meta & ((1ULL << META_BITS) - 1)) == key && e->h[0] == h[0] && e->h[1] == h[1] && e->h[2] == h[2])
            return e;
    }
}

/* Makes room for one more entry: doubles the table at half load (while it may grow), else lets it
   fill to 15/16 (the clears at the budget checks keep it below), else clears it. */
static int fast_room(Fast *f) {
    uint64_t slots = f->mask + 1;
    if ((f->used + 1) * 2 <= slots) return 0;
    int bits = 63 - __builtin_clzll(slots);
    if (bits < f->max_bits) {
        TEntry *fresh = (TEntry *)table_alloc(slots * 2 * sizeof(TEntry) / sizeof(uint64_t));
        if (fresh) {
            for (uint64_t i = 0; i < slots; i++)
                if (f->tt[i].meta & T_OCCUPIED) team_insert(fresh, slots * 2 - 1, &f->tt[i]);
            table_free((uint64_t *)f->tt, slots * sizeof(TEntry) / sizeof(uint64_t));
            f->tt = fresh;
            f->mask = slots * 2 - 1;
            return 0;
        }
    }
    if ((f->used + 1) * 16 <= slots * 15) return 0;
    /* Fuller than the Python search's table ever gets between two checks in practice (2 048 nodes, each
       making an entry per child): cleared here too — exact, only the node counts then part from Python's. */
    memset(f->tt, 0, slots * sizeof(TEntry));
    f->used = 0;
    f->gen++;
    return 0;
}

static void fast_clear(Fast *f) {
    memset(f->tt, 0, (f->mask + 1) * sizeof(TEntry));
    f->used = 0;
    f->gen++;
}

/* Stores what a position proved, when its entry is still in the table (not cleared since it was made). */
static inline void fast_store(Fast *f, const uint64_t *h, uint64_t key, unsigned long long gen, int d, int result) {
    if (gen != f->gen) return;
    TEntry *e = fast_find(f, h, key);
    if (!e) return;
    int lo = fast_meta_lo(e->meta), hi = fast_meta_hi(e->meta);
    if (result) {
        if (d < hi) hi = d;
    } else if (d > lo) {
        lo = d;
    }
    e->meta = (e->meta & ((1ULL << META_BITS) - 1)) | T_OCCUPIED | (uint64_t)(lo + 1) << F_LO_SHIFT
              | (uint64_t)hi << F_HI_SHIFT;
}

/* Budget.check at a check point: -1 (budget_hit) when spent, -2 on a Python error; else 0. */
static int fast_budget(Fast *f) {
    if (f->check) {
        PyObject *next = PyObject_CallFunction(f->check, "L", f->nodes);
        if (!next) return -2; /* BudgetExceeded raised by the Python budget, or another error */
        long long v = PyLong_AsLongLong(next);
        Py_DECREF(next);
        if (v == -1 && PyErr_Occurred()) return -2;
        f->next_check = v;
        return 0;
    }
    if (f->max_nodes >= 0 && f->nodes >= f->max_nodes) return -1;
    if (f->deadline >= 0 && now_seconds() > f->deadline) return -1;
    long long step = 2048;
    if (f->max_nodes >= 0 && f->max_nodes - f->nodes < step) step = f->max_nodes - f->nodes;
    if (step < 1) step = 1;
    f->next_check = f->nodes + step;
    return 0;
}

/* 1 / 0: can the winning side win from here within d of its own plays; -1: budget or error. */
static int fast_within(Team *t, Fast *f, const uint64_t *hands, int turn, int code, int table_by, int d) {
    uint64_t key = (uint64_t)turn | (uint64_t)table_by << 2 | (uint64_t)code << 4;
    TEntry *e = fast_find(f, hands, key);
    if (e) {
        if (d <= fast_meta_lo(e->meta)) return 0;
        if (d >= fast_meta_hi(e->meta)) return 1;
    } else {
        if (fast_room(f) < 0) return -1;
        TEntry fresh = {{hands[0], hands[1], hands[2]}, key | T_OCCUPIED | (uint64_t)F_NEVER << F_HI_SHIFT};
        team_insert(f->tt, f->mask, &fresh);
        f->used++;
    }
    unsigned long long gen = f->gen;
    if (f->prune) {
        /* The team search's table (the win proof just made, in the same solver) knows this position is
           lost for the winning side: it cannot win here in any number of plays.  Exact, so the same
           answers; not the Python search's node counts (it searches such a position to the end). */
        int known = team_probe(t, hands, key);
        if (known >= 0 && known == (t->sides[turn] != f->winner)) {
            fast_store(f, hands, key, gen, F_MAX_D, 0);
            return 0;
        }
    }
    Hand *hs[3];
    for (int i = 0; i < 3; i++) {
        hs[i] = get_hand(&t->hands, hands[i]);
        if (!hs[i]) return -1;
    }
    int need = 99;
    for (int i = 0; i < 3; i++)
        if (t->sides[i] == f->winner && hs[i]->min_plays < need) need = hs[i]->min_plays;
    if (need > d) {
        fast_store(f, hands, key, gen, d, 0);
        return 0;
    }
    f->nodes++;
    if (f->nodes >= f->next_check) {
        int b = fast_budget(f);
        if (b < 0) {
            if (b == -1) f->budget_hit = 1;
            return -1;
        }
        if (f->used > (uint64_t)f->max_entries) fast_clear(f);
        if (PyErr_CheckSignals() < 0) return -1;
        PyEval_RestoreThread(PyEval_SaveThread()); /* the process's other threads run (as team_win) */
    }
    Hand *me = hs[turn];
    int ours = t->sides[turn] == f->winner;
    int nxt = (turn + 1) % 3;
    int cost = ours ? 1 : 0;
    int n = me->nmoves;
    size_t top = t->scratch_top;
    int32_t *boss = team_scratch(t, 2 * (size_t)n + 1);
    if (!boss) return -1;
    int32_t *rest = boss + n;
    int nboss = 0, nrest = 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &me->moves[i];
        if (code && !beats_table(m, code)) continue;
        int beaten = 0;
        for (int k = 1; k < 3 && !beaten; k++) beaten = answerable(hs[(turn + k) % 3], m);
        if (beaten)
            rest[nrest++] = i;
        else
            boss[nboss++] = i;
    }
    int result = !ours;
    int total = nboss + nrest + (code ? 1 : 0);
    for (int c = 0; c < total; c++) {
        int child;
        if (c == nboss + nrest) { /* pass */
            child = nxt == table_by ? fast_within(t, f, hands, nxt, 0, 0, d)
                                    : fast_within(t, f, hands, nxt, code, table_by, d);
        } else {
            const Move *m = &me->moves[c < nboss ? boss[c] : rest[c - nboss]];
            uint64_t left = me->hand - m->cards;
            if (left == 0) {
                child = ours;
            } else if (ours && d - 1 < 1) {
                child = 0;
            } else {
                uint64_t nh[3] = {hands[0], hands[1], hands[2]};
                nh[turn] = left;
                child = fast_within(t, f, nh, nxt, m->kind | m->length << 4 | m->main << 8, turn, d - cost);
            }
        }
        if (child < 0) {
            t->scratch_top = top;
            return -1;
        }
        if (ours && child) {
            result = 1;
            break;
        }
        if (!ours && !child) {
            result = 0;
            break;
        }
    }
    t->scratch_top = top;
    fast_store(f, hands, key, gen, d, result);
    return result;
}

/* The fastest search's state, made at its first use (NULL with a Python error when out of memory). */
static Fast *team_fast(Team *t) {
    if (t->fast) return t->fast;
    Fast *f = (Fast *)calloc(1, sizeof(Fast));
    if (!f) {
        PyErr_NoMemory();
        return NULL;
    }
    f->max_bits = t->tt_max_bits;
    f->max_entries = t->max_entries;
    f->mask = (1ULL << T_MIN_BITS) - 1;
    f->tt = (TEntry *)table_alloc((f->mask + 1) * sizeof(TEntry) / sizeof(uint64_t));
    if (!f->tt) {
        free(f);
        PyErr_NoMemory();
        return NULL;
    }
    f->max_nodes = -1;
    f->deadline = -1;
    t->fast = f;
    return f;
}

static void team_fast_free(Team *t) {
    if (!t->fast) return;
    table_free((uint64_t *)t->fast->tt, (t->fast->mask + 1) * sizeof(TEntry) / sizeof(uint64_t));
    free(t->fast);
    t->fast = NULL;
}

/* fast_start(winner, max_entries): a new fastest search (FastestSearch(tables, sides, winner)): an empty
   table, no nodes.  The table's memory is given back (it is allocated again as it grows). */
static PyObject *Team_fast_start(Team *t, PyObject *args) {
    int winner, prune = 0;
    long long max_entries;
    if (!PyArg_ParseTuple(args, "iL|p", &winner, &max_entries, &prune)) return NULL;
    if (winner != 0 && winner != 1) {
        PyErr_SetString(PyExc_ValueError, "winner: 0 (the landlord) or 1 (the farmers)");
        return NULL;
    }
    team_fast_free(t);
    Fast *f = team_fast(t);
    if (!f) return NULL;
    f->winner = winner;
    f->prune = prune;
    f->max_entries = max_entries;
    Py_RETURN_NONE;
}

/* within((h0, h1, h2), turn, code, table_by, d, max_nodes, seconds, next_check[, check]) -> (bool, next_check) */
static PyObject *Team_within(Team *t, PyObject *args) {
    unsigned long long h0, h1, h2;
    int turn, code, table_by, d;
    long long max_nodes, next_check;
    double seconds;
    PyObject *check = Py_None;
    if (!PyArg_ParseTuple(args, "(KKK)iiiiLdL|O", &h0, &h1, &h2, &turn, &code, &table_by, &d, &max_nodes, &seconds,
                          &next_check, &check))
        return NULL;
    Fast *f = t->fast;
    if (!f) {
        PyErr_SetString(PyExc_RuntimeError, "fast_start first");
        return NULL;
    }
    if ((h0 | h1 | h2) & EXTRA_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays one deck: one joker of each kind at most");
        return NULL;
    }
    if (turn < 0 || turn > 2 || table_by < 0 || table_by > 2 || code < 0 || code >= (1 << 16) || d < 0 ||
        d > F_MAX_D) {
        PyErr_SetString(PyExc_ValueError, "turn and table_by are seats 0-2; code a table code; d 0-250");
        return NULL;
    }
    if (!code) table_by = 0;
    uint64_t hands[3] = {h0, h1, h2};
    f->max_nodes = max_nodes;
    f->deadline = seconds < 0 ? -1 : now_seconds() + seconds;
    f->budget_hit = 0;
    f->next_check = next_check;
    if (t->hands.nhands > MAX_HANDS - 100000 || t->hands.hand_bytes > t->hands.max_hand_bytes)
        free_hands(&t->hands); /* the hands only: both tables' keys are the hands themselves */
    t->scratch_top = 0;
    f->check = check == Py_None ? NULL : check;
    int r = fast_within(t, f, hands, turn, code, table_by, d);
    f->check = NULL;
    if (r < 0) {
        if (f->budget_hit && !PyErr_Occurred()) PyErr_SetNone(t->exc);
        return NULL;
    }
    return Py_BuildValue("(OL)", r ? Py_True : Py_False, f->next_check);
}

static PyObject *Team_get_fast_nodes(Team *t, void *closure) {
    return PyLong_FromLongLong(t->fast ? t->fast->nodes : 0);
}

static int Team_set_fast_nodes(Team *t, PyObject *value, void *closure) {
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (t->fast) t->fast->nodes = v;
    return 0;
}

static PyObject *Team_get_fast_entries(Team *t, void *closure) {
    return PyLong_FromUnsignedLongLong(t->fast ? t->fast->used : 0);
}

/* ------------------------------------------------- the proof-number search */

/* A depth-first proof-number search (df-pn, Nagai 2002) over the same three-player game as team_win (issue 30,
   round 13): the same moves, immediate wins and "nobody can answer" shortcut, and the same exact table, which it
   reads (a position team_win proved is settled) and writes (every position it proves goes there too).

   Why: the scan of a learner's game must prove that EVERY other first move loses before a move is an "only
   move"; that is an OR-search for the other side at each of its turns, and the depth-first search tries the
   other side's replies in a fixed order, spending its budget on the first reply's whole subtree even when a
   later one refutes at once.  A proof-number search always expands the most-proving position: the one whose
   proof (or disproof) needs the fewest positions still unsettled, seeded here by the hand-count bound (a side
   whose best hand needs k plays starts with proof number k), so it goes to the cheapest refutation first.

   Exact: a position is "won" only when one child is proven won for its mover's side, "lost" only when every
   child is proven lost; the proof and disproof numbers only choose what to expand next.  Its own table (the
   numbers of positions in progress, and the proven ones) is a hint: an entry replaced or lost costs work, never
   correctness.  The numbers are in the mover's side's terms (phi: to prove its win, delta: to disprove it); a
   child whose mover is on the other side swaps them.  Budget: expanded positions, counted; no clock. */

#define PN_INF 0x3fffffffu
#define PN_WINDOW 8 /* slots probed from a key's home slot: a full window replaces its entry of the fewest cards */

typedef struct {
    uint64_t h[3];
    uint64_t meta; /* the team table's key, | T_OCCUPIED */
    uint32_t phi, delta;
} PEntry;

struct Pns {
    PEntry *tt;
    uint64_t mask, used;
    int max_bits;
    long long nodes, max_nodes, next_check;
    int budget_hit;
    int weak; /* the disproof number: the largest child's + 1 for each other open child (Ueda et al. 2008's weak
                 proof-number search: transpositions make the sum count the same positions again) */
    long long proved; /* positions proven (stored in the team table) by this search */
};
typedef struct Pns Pns;

#define P_WORDS (sizeof(PEntry) / sizeof(uint64_t))

static PEntry *pns_find(Pns *p, const uint64_t *h, uint64_t meta) {
    uint64_t j = team_hash(h, meta) & p->mask;
    for (int k = 0; k < PN_WINDOW; k++, j = (j + 1) & p->mask) {
        PEntry *e = &p->tt[j];
        if (!(e->meta & T_OCCUPIED)) return NULL;
        if ((e->meta & ~T_OCCUPIED) == meta && e->h[0] == h[0] && e->h[1] == h[1] && e->h[2] == h[2]) return e;
    }
    return NULL;
}

/* The slot for a new entry: an empty one in the window, else the one of the fewest cards (the cheapest to find
   again: deterministic, the first of the fewest). */
static PEntry *pns_slot(PEntry *tt, uint64_t mask, const uint64_t *h, uint64_t meta, int *fresh) {
    uint64_t j = team_hash(h, meta) & mask;
    PEntry *least = NULL;
    int fewest = 1 << 30;
    for (int k = 0; k < PN_WINDOW; k++, j = (j + 1) & mask) {
        PEntry *e = &tt[j];
        if (!(e->meta & T_OCCUPIED)) {
            *fresh = 1;
            return e;
        }
        int c = cards_size(e->h[0]) + cards_size(e->h[1]) + cards_size(e->h[2]);
        if (c < fewest) {
            fewest = c;
            least = e;
        }
    }
    *fresh = 0;
    return least;
}

static void pns_grow(Pns *p) {
    uint64_t slots = p->mask + 1;
    int bits = 63 - __builtin_clzll(slots);
    if (bits >= p->max_bits) return;
    PEntry *fresh = (PEntry *)table_alloc(slots * 2 * P_WORDS);
    if (!fresh) return; /* stays at this size: entries are replaced instead */
    for (uint64_t i = 0; i < slots; i++)
        if (p->tt[i].meta & T_OCCUPIED) {
            int f;
            PEntry *e = pns_slot(fresh, slots * 2 - 1, p->tt[i].h, p->tt[i].meta & ~T_OCCUPIED, &f);
            *e = p->tt[i];
        }
    table_free((uint64_t *)p->tt, slots * P_WORDS);
    p->tt = fresh;
    p->mask = slots * 2 - 1;
}

static void pns_put(Pns *p, const uint64_t *h, uint64_t meta, uint32_t phi, uint32_t delta) {
    PEntry *e = pns_find(p, h, meta);
    if (!e) {
        if ((p->used + 1) * 2 > p->mask + 1) pns_grow(p);
        int fresh;
        e = pns_slot(p->tt, p->mask, h, meta, &fresh);
        if (fresh) p->used++;
        e->h[0] = h[0];
        e->h[1] = h[1];
        e->h[2] = h[2];
        e->meta = meta | T_OCCUPIED;
    }
    e->phi = phi;
    e->delta = delta;
}

static void pns_free(Team *t) {
    if (!t->pns) return;
    table_free((uint64_t *)t->pns->tt, (t->pns->mask + 1) * P_WORDS);
    free(t->pns);
    t->pns = NULL;
}

static Pns *pns_state(Team *t, int max_bits) {
    if (t->pns) {
        t->pns->max_bits = max_bits;
        return t->pns;
    }
    Pns *p = (Pns *)calloc(1, sizeof(Pns));
    if (!p) return NULL;
    p->mask = (1ULL << 16) - 1;
    p->tt = (PEntry *)table_alloc((p->mask + 1) * P_WORDS);
    if (!p->tt) {
        free(p);
        return NULL;
    }
    p->max_bits = max_bits;
    t->pns = p;
    return p;
}

static inline uint32_t pn_add(uint32_t a, uint32_t b) {
    uint64_t s = (uint64_t)a + b;
    return s >= PN_INF ? PN_INF - 1 : (uint32_t)s;
}

#define PN_PASS INT32_MAX /* the pass, among a position's children */

/* The child `e` of a position (a play i to the next seat, ~i a play nobody at all answers: `turn` leads again,
   PN_PASS the pass): its hands, mover, table code and who played it. */
static inline void pns_child(const uint64_t *hands, int turn, int code, int table_by, const Hand *me, int32_t e,
                             uint64_t *nh, int *nturn, int *ncode, int *nby) {
    nh[0] = hands[0];
    nh[1] = hands[1];
    nh[2] = hands[2];
    if (e == PN_PASS) {
        int nxt = (turn + 1) % 3;
        *nturn = nxt;
        if (nxt == table_by) {
            *ncode = 0;
            *nby = 0;
        } else {
            *ncode = code;
            *nby = table_by;
        }
        return;
    }
    int nobody = e < 0;
    const Move *m = &me->moves[nobody ? ~e : e];
    nh[turn] = me->hand - m->cards;
    if (nobody) {
        *nturn = turn;
        *ncode = 0;
        *nby = 0;
    } else {
        *nturn = (turn + 1) % 3;
        *ncode = m->kind | m->length << 4 | m->main << 8;
        *nby = turn;
    }
}

/* The fewest plays any hand of `side` needs (the hand-count bound: the side needs at least that many plays). */
static inline int pns_need(Team *t, Hand *const *hs, int side) {
    int need = 99;
    for (int i = 0; i < 3; i++)
        if (t->sides[i] == side && hs[i]->min_plays < need) need = hs[i]->min_plays;
    return need;
}

/* A child's numbers in its own mover's terms: its entry, its exact value, or the hand-count seed. */
static int pns_look(Team *t, Pns *p, const uint64_t *nh, int nturn, int ncode, int nby, const Hand *me_child,
                    uint32_t *phi, uint32_t *delta) {
    uint64_t meta = (uint64_t)nturn | (uint64_t)nby << 2 | (uint64_t)ncode << 4;
    PEntry *e = pns_find(p, nh, meta);
    if (e) {
        *phi = e->phi;
        *delta = e->delta;
        return 0;
    }
    int known = team_probe(t, nh, meta);
    if (known >= 0) {
        *phi = known ? 0 : PN_INF;
        *delta = known ? PN_INF : 0;
        return 0;
    }
    Hand *hs[3];
    for (int i = 0; i < 3; i++) {
        hs[i] = get_hand(&t->hands, nh[i]);
        if (!hs[i]) return -1;
    }
    (void)me_child;
    int side = t->sides[nturn];
    *phi = (uint32_t)pns_need(t, hs, side);
    *delta = (uint32_t)pns_need(t, hs, 1 - side);
    return 0;
}

/* Searches the position until its numbers reach a threshold (phi >= thphi or delta >= thdelta) or it is proven;
   its numbers in *ophi, *odelta.  0, or -1: error or budget (budget_hit). */
static int pns_mid(Team *t, Pns *p, const uint64_t *hands, int turn, int code, int table_by, uint32_t thphi,
                   uint32_t thdelta, uint32_t *ophi, uint32_t *odelta) {
    uint64_t meta = (uint64_t)turn | (uint64_t)table_by << 2 | (uint64_t)code << 4;
    int known = team_probe(t, hands, meta);
    if (known >= 0) {
        *ophi = known ? 0 : PN_INF;
        *odelta = known ? PN_INF : 0;
        return 0;
    }
    PEntry *found = pns_find(p, hands, meta);
    if (found && (found->phi >= thphi || found->delta >= thdelta)) {
        *ophi = found->phi;
        *odelta = found->delta;
        return 0;
    }
    p->nodes++;
    if (p->nodes >= p->next_check) {
        if (p->max_nodes >= 0 && p->nodes > p->max_nodes) {
            p->budget_hit = 1;
            return -1;
        }
        long long step = 2048;
        if (p->max_nodes >= 0 && p->max_nodes + 1 - p->nodes < step) step = p->max_nodes + 1 - p->nodes;
        p->next_check = p->nodes + (step < 1 ? 1 : step);
        team_bound_tt(t);
        if (PyErr_CheckSignals() < 0) return -1;
        PyEval_RestoreThread(PyEval_SaveThread());
    }
    Hand *me = get_hand(&t->hands, hands[turn]);
    if (!me) return -1;
    int side = t->sides[turn];
    Hand *opps[2], *partners[2];
    int nopp = 0, npart = 0;
    if (team_others(t, hands, turn, opps, &nopp, partners, &npart) < 0) return -1;
    Hand *partner = npart ? partners[0] : NULL;
    int won = code == 0 && me->is_combo;
    int n = me->nmoves;
    size_t top = t->scratch_top;
    /* children, then their numbers in this position's terms (cp: towards its proof, cd: its disproof) */
    int32_t *kids = team_scratch(t, 3 * (size_t)n + 3);
    if (!kids) return -1;
    uint32_t *cp = (uint32_t *)(kids + n + 1), *cd = cp + n + 1;
    int nk = 0;
    int partner_table = code != 0 && t->sides[table_by] == side;
    if (partner_table) kids[nk++] = PN_PASS;
    int nboss = 0;
    for (int i = 0; i < n && !won; i++) {
        const Move *m = &me->moves[i];
        if (code && !beats_table(m, code)) continue;
        if (m->cards == me->hand) {
            won = 1;
            break;
        }
        int answered = 0;
        for (int k = 0; k < nopp && !answered; k++) answered = answerable(opps[k], m);
        if (answered) continue;
        Hand *c = child_of(&t->hands, me, i);
        if (!c) {
            t->scratch_top = top;
            return -1;
        }
        if (c->is_combo) {
            won = 1;
            break;
        }
        int nobody = !partner || !answerable(partner, m);
        kids[nk++] = nobody ? ~i : i;
        nboss++;
    }
    if (!won) {
        for (int i = 0; i < n; i++) {
            const Move *m = &me->moves[i];
            if (code && !beats_table(m, code)) continue;
            int answered = 0;
            for (int k = 0; k < nopp && !answered; k++) answered = answerable(opps[k], m);
            if (answered) kids[nk++] = i;
        }
        if (code && !partner_table) kids[nk++] = PN_PASS;
    }
    if (won || nk == 0) { /* nk == 0: no play and no pass (never: a lead has a play); lost, to be safe */
        t->scratch_top = top;
        team_store(t, hands, meta, won);
        p->proved++;
        pns_put(p, hands, meta, won ? 0 : PN_INF, won ? PN_INF : 0);
        *ophi = won ? 0 : PN_INF;
        *odelta = won ? PN_INF : 0;
        return 0;
    }
    for (int k = 0; k < nk; k++) {
        uint64_t nh[3];
        int nturn, ncode, nby;
        pns_child(hands, turn, code, table_by, me, kids[k], nh, &nturn, &ncode, &nby);
        uint32_t a, b;
        if (pns_look(t, p, nh, nturn, ncode, nby, NULL, &a, &b) < 0) {
            t->scratch_top = top;
            return -1;
        }
        int same = t->sides[nturn] == side;
        cp[k] = same ? a : b;
        cd[k] = same ? b : a;
    }
    uint32_t phi, delta;
    for (;;) {
        uint32_t best = PN_INF, second = PN_INF, most = 0;
        int bi = -1, open = 0;
        delta = 0;
        for (int k = 0; k < nk; k++) {
            if (cp[k] < best) {
                second = best;
                best = cp[k];
                bi = k;
            } else if (cp[k] < second) {
                second = cp[k];
            }
            delta = cd[k] >= PN_INF ? PN_INF : (delta >= PN_INF ? PN_INF : pn_add(delta, cd[k]));
            if (cd[k] > most) most = cd[k];
            open += cd[k] != 0;
        }
        if (p->weak && delta < PN_INF && open > 0)
            delta = pn_add(most, (uint32_t)(open - 1)); /* weak PNS: the largest, +1 for each other open child */
        phi = best;
        if (phi == 0) delta = PN_INF;
        else if (delta == 0) phi = PN_INF;
        pns_put(p, hands, meta, phi, delta);
        if (phi >= thphi || delta >= thdelta || phi == 0 || delta == 0) break;
        /* the most-proving child, until it is no longer the cheapest (1 + 1/4: fewer switches) or the
           disproof outgrows what is left */
        uint64_t tp = (uint64_t)second + 1 + second / 4;
        if (tp > thphi) tp = thphi;
        uint64_t td = (uint64_t)thdelta - delta + cd[bi];
        if (td > PN_INF) td = PN_INF;
        uint64_t nh[3];
        int nturn, ncode, nby;
        pns_child(hands, turn, code, table_by, me, kids[bi], nh, &nturn, &ncode, &nby);
        int same = t->sides[nturn] == side;
        uint32_t a, b;
        int r = same ? pns_mid(t, p, nh, nturn, ncode, nby, (uint32_t)tp, (uint32_t)td, &a, &b)
                     : pns_mid(t, p, nh, nturn, ncode, nby, (uint32_t)td, (uint32_t)tp, &a, &b);
        if (r < 0) {
            t->scratch_top = top;
            return -1;
        }
        cp[bi] = same ? a : b;
        cd[bi] = same ? b : a;
    }
    t->scratch_top = top;
    if (phi == 0 || delta == 0) {
        team_store(t, hands, meta, phi == 0);
        p->proved++;
    }
    *ophi = phi;
    *odelta = delta;
    return 0;
}

/* prove((h0, h1, h2), turn, code, table_by, max_nodes[, max_bits]) -> True / False / None: does the side of `turn`
   win, by the proof-number search within max_nodes more expanded positions (None: not settled within them)?
   Its table is kept from call to call (the work of an unsettled call is not lost); `clear` forgets it. */
static PyObject *Team_prove(Team *t, PyObject *args) {
    unsigned long long h0, h1, h2;
    int turn, code, table_by, max_bits = 21, weak = 0;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "(KKK)iiiL|ip", &h0, &h1, &h2, &turn, &code, &table_by, &max_nodes, &max_bits, &weak))
        return NULL;
    if ((h0 | h1 | h2) & EXTRA_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays one deck: one joker of each kind at most");
        return NULL;
    }
    if (turn < 0 || turn > 2 || table_by < 0 || table_by > 2 || code < 0 || code >= (1 << 16) || max_bits < 16 ||
        max_bits > 26) {
        PyErr_SetString(PyExc_ValueError, "turn and table_by are seats 0-2; code a table code; max_bits 16-26");
        return NULL;
    }
    if (!code) table_by = 0;
    Pns *p = pns_state(t, max_bits);
    if (!p) return PyErr_NoMemory();
    uint64_t hands[3] = {h0, h1, h2};
    if (t->hands.nhands > MAX_HANDS - 100000 || t->hands.hand_bytes > t->hands.max_hand_bytes)
        free_hands(&t->hands);
    t->scratch_top = 0;
    p->max_nodes = max_nodes < 0 ? -1 : p->nodes + max_nodes;
    p->next_check = p->nodes + 1;
    p->budget_hit = 0;
    p->weak = weak;
    uint32_t phi, delta;
    int r = pns_mid(t, p, hands, turn, code, table_by, PN_INF, PN_INF, &phi, &delta);
    if (r < 0) {
        if (p->budget_hit && !PyErr_Occurred()) Py_RETURN_NONE;
        return NULL;
    }
    if (phi == 0) Py_RETURN_TRUE;
    if (delta == 0) Py_RETURN_FALSE;
    Py_RETURN_NONE; /* never: with infinite thresholds it returns settled or out of budget */
}

static PyObject *Team_get_pns_nodes(Team *t, void *closure) { return PyLong_FromLongLong(t->pns ? t->pns->nodes : 0); }

static PyObject *Team_get_pns_proved(Team *t, void *closure) {
    return PyLong_FromLongLong(t->pns ? t->pns->proved : 0);
}

/* ------------------------------------------------------------ the type */

static void Team_dealloc(Team *t) {
    free_hands(&t->hands);
    free(t->hands.hands);
    map_free(&t->hands.ids);
    map_free(&t->hands.plays);
    table_free((uint64_t *)t->tt, (t->tt_mask + 1) * sizeof(TEntry) / sizeof(uint64_t));
    team_fast_free(t);
    pns_free(t);
    free(t->scratch);
    Py_XDECREF((PyObject *)t->two);
    Py_XDECREF(t->exc);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static int Team_init(Team *t, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"exc", "sides", "max_table_bits", "max_entries", "lone_call", "lone_cap", "keep", NULL};
    PyObject *exc;
    int s0, s1, s2;
    int bits = 22; /* 4M slots of 32 bytes: 2M entries (max_entries) at half load */
    long long max_entries = 2000000, lone_call = 0, lone_cap = -1, keep = 0;
    if (t->exc) {
        PyErr_SetString(PyExc_RuntimeError, "TeamSearch is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O(iii)|iLLLL", kwlist, &exc, &s0, &s1, &s2, &bits, &max_entries,
                                     &lone_call, &lone_cap, &keep))
        return -1;
    if (s0 + s1 + s2 != 2 || (s0 | s1 | s2) > 1 || s0 < 0 || s1 < 0 || s2 < 0) {
        PyErr_SetString(PyExc_ValueError, "sides: one landlord (0) and two farmers (1)");
        return -1;
    }
    if (bits < T_MIN_BITS || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "max_table_bits must be between 12 and 28");
        return -1;
    }
    t->sides[0] = s0;
    t->sides[1] = s1;
    t->sides[2] = s2;
    Py_INCREF(exc);
    t->exc = exc;
    t->tt_max_bits = bits;
    t->max_entries = max_entries;
    t->keep = keep;
    t->tt_mask = (1ULL << T_MIN_BITS) - 1;
    t->tt = (TEntry *)table_alloc((t->tt_mask + 1) * sizeof(TEntry) / sizeof(uint64_t));
    t->scratch_cap = 1 << 22;
    t->scratch = malloc(t->scratch_cap * sizeof(int32_t));
    t->hands.max_hand_bytes = (size_t)160 << 20;
    if (!t->tt || !t->scratch || map_grow(&t->hands.ids) < 0 || map_grow(&t->hands.plays) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    t->max_nodes = -1;
    t->deadline = -1;
    t->landlord = s0 == 0 ? 0 : s1 == 0 ? 1 : 2;
    for (int i = 0, f = 0; i < 3; i++)
        if (t->sides[i] == 1) t->farmers[f++] = i;
    t->lone_call = lone_call;
    t->lone_cap = lone_cap;
    if (lone_call > 0) {
        /* The two-player search of the shortcut, as tutor.solver.native makes the solver's. */
        t->two = (TwoSearch *)PyObject_CallFunction((PyObject *)&TwoSearchType, "Oii", exc, 20, 160);
        if (!t->two) return -1;
    }
    return 0;
}

static PyObject *Team_win(Team *t, PyObject *args) {
    unsigned long long h0, h1, h2;
    int turn, code, table_by;
    long long max_nodes;
    double seconds;
    PyObject *check = Py_None;
    if (!PyArg_ParseTuple(args, "(KKK)iiiLd|O", &h0, &h1, &h2, &turn, &code, &table_by, &max_nodes, &seconds,
                          &check))
        return NULL;
    if ((h0 | h1 | h2) & EXTRA_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays one deck: one joker of each kind at most");
        return NULL;
    }
    if (turn < 0 || turn > 2 || table_by < 0 || table_by > 2 || code < 0 || code >= (1 << 16)) {
        PyErr_SetString(PyExc_ValueError, "turn and table_by are seats 0-2; code a table code");
        return NULL;
    }
    if (!code) table_by = 0;
    uint64_t hands[3] = {h0, h1, h2};
    t->max_nodes = max_nodes;
    t->deadline = seconds < 0 ? -1 : now_seconds() + seconds;
    t->budget_hit = 0;
    t->next_check = t->nodes;
    if (team_budget(t) < 0) {
        PyErr_SetNone(t->exc);
        return NULL;
    }
    if (t->hands.nhands > MAX_HANDS - 100000 || t->hands.hand_bytes > t->hands.max_hand_bytes)
        free_hands(&t->hands); /* the hands only: the table's keys are the hands themselves */
    t->scratch_top = 0;
    t->check = check == Py_None ? NULL : check; /* borrowed: the caller holds it for the call */
    int r = team_win(t, hands, turn, code, table_by);
    t->check = NULL;
    if (r < 0) {
        if (t->budget_hit && !PyErr_Occurred()) PyErr_SetNone(t->exc);
        return NULL;
    }
    return PyBool_FromLong(r);
}

static PyObject *Team_clear(Team *t, PyObject *Py_UNUSED(ignored)) {
    if (t->two) {
        free_hands(t->two);
        clear_tt(t->two);
    }
    free_hands(&t->hands);
    team_clear_tt(t);
    team_fast_free(t);
    pns_free(t);
    Py_RETURN_NONE;
}

/* The positions this search expanded, the shortcut's two-player ones included (as the Python solver
   counts its two-player core's nodes beside its team search's). */
static PyObject *Team_get_nodes(Team *t, void *closure) {
    return PyLong_FromLongLong(t->nodes + (t->two ? t->two->nodes : 0));
}

/* Sets the team search's own count; the shortcut's starts again from 0 (the solver sets 0 at every
   solve, as it does for its two-player core). */
static int Team_set_nodes(Team *t, PyObject *value, void *closure) {
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    t->nodes = v;
    if (t->two) t->two->nodes = 0;
    return 0;
}

static PyObject *Team_get_settled(Team *t, void *closure) { return PyLong_FromLongLong(t->settled); }

static PyObject *Team_get_order(Team *t, void *closure) { return PyLong_FromLong(t->order); }

/* The move order of the search from now on (ORDER_* bits; 0: the Python search's): the table's values stay
   exact in any order, so it may change between calls. */
static int Team_set_order(Team *t, PyObject *value, void *closure) {
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > 15) {
        PyErr_SetString(PyExc_ValueError, "order: ORDER_* bits, 0-15");
        return -1;
    }
    t->order = (int)v;
    return 0;
}

static PyObject *Team_get_entries(Team *t, void *closure) { return PyLong_FromUnsignedLongLong(t->tt_used); }

/* playout((h0, h1, h2), to_move, table, table_seat, variant, seats, tail, nodes[, base]) -> winner seat (-1: the
   turn limit): the quick play-out of _native.c's `playout` (sim_choose_rest; the seats in the bit mask `seats`
   play `variant`, the others `base`: the quick policy unless given), except that once at most `tail` cards are in play the rest is solved with open hands by this
   search, with at most `nodes` nodes (the hard bot's play-outs, round 8: the quick policy plays the endgame
   far worse than the bots' exact search does, so the play-outs misjudge the moves whose games are decided
   there).  The solve is tried once; when its budget is spent the quick policy plays on.  The winner of a solved
   end is the landlord, or the first farmer for the farmers' side.  No clock: counted nodes only, and the
   table kept between calls, so the caller makes a fresh search for each decision (the same calls in the same
   order give the same answers). */
static PyObject *Team_playout(Team *t, PyObject *args) {
    unsigned long long h0, h1, h2;
    int to_move, table_seat, variant, sim_seats, tail, base = SIM_QUICK;
    long long nodes;
    PyObject *table_obj;
    if (!PyArg_ParseTuple(args, "(KKK)iOiiiiL|i", &h0, &h1, &h2, &to_move, &table_obj, &table_seat, &variant,
                          &sim_seats, &tail, &nodes, &base))
        return NULL;
    if (variant < SIM_QUICK || variant > SIM_FIT || base < SIM_QUICK || base > SIM_FIT) {
        PyErr_SetString(PyExc_ValueError, "the variant is 0, 1, 2, 3, 4 or 5");
        return NULL;
    }
    if ((h0 | h1 | h2) & EXTRA_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays one deck: one joker of each kind at most");
        return NULL;
    }
    uint64_t hands[3] = {h0, h1, h2};
    Move table;
    int has_table = parse_table(table_obj, &table);
    if (has_table < 0) return NULL;
    if (to_move < 0 || to_move > 2 || (has_table && (table_seat < 0 || table_seat > 2))) {
        PyErr_SetString(PyExc_ValueError, "seats are 0, 1 or 2");
        return NULL;
    }
    int landlord = t->landlord, winner = -1, tried = 0, seat = to_move;
    for (int turn = 0; turn < 400; turn++) {
        if (has_table && table_seat == seat) has_table = 0; /* both others passed */
        int counts[3] = {cards_size(hands[0]), cards_size(hands[1]), cards_size(hands[2])};
        if (!tried && counts[0] + counts[1] + counts[2] <= tail) {
            tried = 1;
            int code = has_table ? table.kind | table.length << 4 | table.main << 8 : 0;
            t->max_nodes = t->nodes + nodes;
            t->deadline = -1;
            t->budget_hit = 0;
            t->next_check = t->nodes;
            if (team_budget(t) == 0) {
                if (t->hands.nhands > MAX_HANDS - 100000 || t->hands.hand_bytes > t->hands.max_hand_bytes)
                    free_hands(&t->hands);
                t->scratch_top = 0;
                t->check = NULL;
                int r = team_win(t, hands, seat, code, has_table ? table_seat : 0);
                if (r >= 0) {
                    winner = (t->sides[seat] == 0) == (r == 1) ? landlord : t->farmers[0];
                    break;
                }
                if (!t->budget_hit || PyErr_Occurred()) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
            }
        }
        Move m;
        int r = sim_choose_rest(hands[seat], hands[(seat + 1) % 3] + hands[(seat + 2) % 3], counts, landlord, seat,
                                has_table ? &table : NULL, table_seat, (sim_seats >> seat) & 1 ? variant : base, &m);
        if (r < 0) return PyErr_NoMemory();
        if (r) {
            hands[seat] -= m.cards;
            if (!hands[seat]) { winner = seat; break; }
            table = m;
            table_seat = seat;
            has_table = 1;
        }
        seat = (seat + 1) % 3;
    }
    return PyLong_FromLong(winner);
}

static PyMethodDef Team_methods[] = {
    {"win", (PyCFunction)Team_win, METH_VARARGS,
     "win((h0, h1, h2), turn, code, table_by, max_nodes, seconds[, check]) -> bool: does the side of `turn` win?"},
    {"clear", (PyCFunction)Team_clear, METH_NOARGS, "Forget every hand and table entry."},
    {"playout", (PyCFunction)Team_playout, METH_VARARGS,
     "playout((h0, h1, h2), to_move, table, table_seat, variant, seats, tail, nodes) -> winner seat: the quick"
     " play-out with its end (at most `tail` cards in play) solved by this search in at most `nodes` nodes."},
    {"fast_start", (PyCFunction)Team_fast_start, METH_VARARGS,
     "fast_start(winner, max_entries[, prune]): a new fastest search for side `winner` (0 landlord, 1 farmers);"
     " prune: cut the positions the team table proves lost for it."},
    {"within", (PyCFunction)Team_within, METH_VARARGS,
     "within((h0, h1, h2), turn, code, table_by, d, max_nodes, seconds, next_check[, check]) -> (bool, next_check):"
     " can the winning side win within d of its own plays?"},
    {"prove", (PyCFunction)Team_prove, METH_VARARGS,
     "prove((h0, h1, h2), turn, code, table_by, max_nodes[, max_bits]) -> True / False / None: does the side of"
     " `turn` win, by the proof-number search within max_nodes expanded positions (None: not settled)?"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Team_getset[] = {
    {"nodes", (getter)Team_get_nodes, (setter)Team_set_nodes, "positions expanded", NULL},
    {"entries", (getter)Team_get_entries, NULL, "transposition entries held", NULL},
    {"settled", (getter)Team_get_settled, NULL, "positions the lone-farmer shortcut settled", NULL},
    {"order", (getter)Team_get_order, (setter)Team_set_order, "the move order (ORDER_* bits; 0: the Python search's)",
     NULL},
    {"fast_nodes", (getter)Team_get_fast_nodes, (setter)Team_set_fast_nodes, "positions the fastest search expanded",
     NULL},
    {"fast_entries", (getter)Team_get_fast_entries, NULL, "entries of the fastest search's table", NULL},
    {"pns_nodes", (getter)Team_get_pns_nodes, NULL, "positions the proof-number search expanded", NULL},
    {"pns_proved", (getter)Team_get_pns_proved, NULL, "positions the proof-number search proved", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TeamType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tutor.solver._team.TeamSearch",
    .tp_basicsize = sizeof(Team),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Compiled three-player endgame search (see tutor/solver/search.py TeamSearch).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Team_init,
    .tp_dealloc = (destructor)Team_dealloc,
    .tp_methods = Team_methods,
    .tp_getset = Team_getset,
};

static struct PyModuleDef team_module = {
    PyModuleDef_HEAD_INIT, "_team", "Compiled three-player endgame search.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__team(void) {
    core_init();  /* the included core's import-time tables (_native.c) */
    if (PyType_Ready(&TeamType) < 0 || PyType_Ready(&TwoSearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&team_module);
    if (!m) return NULL;
    Py_INCREF(&TeamType);
    if (PyModule_AddObject(m, "TeamSearch", (PyObject *)&TeamType) < 0) {
        Py_DECREF(&TeamType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
