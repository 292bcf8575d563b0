/*
 * The two-player endgame search of tutor/solver/search.py (TwoPlayerSearch),
 * compiled.  Optional: when this extension is not built, the pure-Python
 * search runs the very same algorithm, only slower.
 *
 * Why it exists: CPython expands about 140 thousand positions a second, and
 * the exact proof of a 17-against-17-card endgame with every winning first
 * move listed needs millions of them.  The algorithm is the Python one (same
 * move order, same pruning, same cutoffs, and the rank-compressed keys of its
 * `compress` mode) plus two cuts of its own (immediate wins kept in the table;
 * plays and passes that let the other player go out with its whole hand
 * dropped unsearched), so the two agree on every answer and the C one expands
 * fewer positions; the tests check both.  Neither tries a per-hand killer move
 * first any more (issue 33): the static order (fewest plays left first) alone
 * expands 5-7 times fewer positions on the 15- and 17-card benchmarks (two-09
 * 2.50M -> 0.47M, two-10 9.0M -> 1.3M): the move that last won with a hand,
 * against another hand of the other player, is mostly a poor first guess and
 * costs a whole failed subtree.
 *
 * The rules come from the engine, ported: the lead moves of a hand are
 * tutor.engine.moves.lead_moves_packed move for move and in the same order,
 * and the least number of plays, the kicker-dominance pairs and the ordering
 * are those of tutor.solver.tables.HandTables; tests/solver/test_native.py
 * compares each with its Python original on thousands of hands.  Answers to
 * a table are the lead moves that beat it (the engine guarantees that; a test
 * checks it).  So the search never calls into Python.
 *
 * The transposition table is exact: a key holds both rank-compressed hands
 * (tutor/solver/canon.py) and the table's code, all of it, in two words;
 * entries are replaced (keeping those that cost the most to prove) when a
 * bucket is full, which costs time, never correctness.  The search is bound
 * by memory latency, which is what shapes the table (one cache line a bucket,
 * huge pages, lookups of all children started at once) and the hands (one
 * arena, the common masks in one cache line).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define KIND_BOMB 13
#define KIND_ROCKET 14
#define BOMB_CODE (13 | 1 << 4)
#define NCODES 256
/* Kinds and lengths packed densely, the one-length kinds first: the masks a
   search reads most (singles, pairs, trios, bombs) share one cache line. */
#define NDENSE (14 + 5 * 16)

static inline int dense(int kind, int length) {
    return length <= 1 ? kind - 1 : 14 + (kind - 6) * 16 + length;
}

static inline int dense_code(int code) { return dense(code & 15, (code >> 4) & 15); }
#define BIG_POSITION 24 /* cards in the two hands from which the table starts at full size */
#define MAX_HANDS (1 << 22)
/* A table entry is two words: the rank-compressed mover hand (54 bits) with
   the low 10 bits of the table code, and the other hand with the high 2 bits
   (56 key bits), the value, the work and an occupied bit.  Four entries make
   a bucket of one cache line. */
#define BUCKET 4
#define WORDS (2 * BUCKET)
#define KEYB_MASK ((1ULL << 56) - 1)
#define VALUE_SHIFT 56
#define WORK_SHIFT 57
#define OCCUPIED (1ULL << 62)
#define LOW_BITS 0x111111111111ULL
/* 7 in every chain-rank field: a count (0..8: two decks hold eight of a
   rank) plus 7 reaches bit 3 exactly when it is not 0, and never carries. */
#define SEVENS 0x777777777777ULL
/* The joker fields' bits that only a second joker of a kind sets (the key
   keeps one bit per joker: this search plays one deck). */
#define EXTRA_JOKERS (0xEULL << 52 | 0xEULL << 56)

/* Bit 4r set for every chain rank r the hand holds (tutor.solver.canon.presence). */
static inline uint64_t presence(uint64_t hand) { return ((hand + SEVENS) >> 3) & LOW_BITS; }

typedef struct {
    uint64_t cards;
    uint8_t kind, length, main, pad;
} Move;

typedef struct {
    int32_t y;
    int16_t low, high;
    int32_t code;
} Pair;

typedef struct {
    uint64_t hand;
    int32_t id;
    int32_t nmoves;
    Move *moves;
    int32_t *child; /* hand id after each move, -1 = not looked up yet */
    int32_t npairs;
    Pair *pairs;
    int8_t is_combo;
    Move whole; /* the hand as one play, when is_combo */
    int8_t min_plays;
    int8_t any_bomb;
    int8_t rocket;
    int8_t pairs_done; /* `pairs` worked out (hand_pairs: only for a hand that is to move at a node) */
    uint64_t pres; /* bit 4r set: holds chain rank r (tutor.solver.canon.presence) */
    uint16_t mains[NDENSE]; /* bit m set: the hand can play main m of that kind and length (dense()) */
} Hand;

/* A rank compression (tutor/solver/canon.py) for one pair of hands: the
   chain ranks kept (`keep`: those held, and one empty rank for a gap one
   player holds both sides of) are packed down, one segment of neighbouring
   kept ranks at a time; a kept rank r goes to the number of kept ranks below
   it (a table's main is lowered to a held rank first, so that is all the
   table needs).  The segments depend on `keep` alone, so they are worked out
   once for all 4,096 sets of kept ranks (fill_segments, at import): building
   them at every node was a sixth of the search's instructions (issue 33). */
typedef struct {
    uint64_t mask[6]; /* twelve ranks make at most six runs */
    uint8_t shift[6];
    uint8_t nseg;
} Segments;

static Segments g_segments[1 << 12];

typedef struct {
    uint32_t keep;
    const Segments *seg;
} Plan;


typedef struct {
    uint64_t a, b;
} Key;

/* Open addressing from a hand (never 0: an empty hand has gone out) to a
   small number; grows at half full. */
typedef struct {
    uint64_t *keys;
    int32_t *vals;
    uint64_t cap, n;
} HandMap;

typedef struct {
    PyObject_HEAD
    PyObject *exc;       /* exception class raised when the budget is spent */
    Hand **hands;
    int32_t nhands, cap_hands;
    HandMap ids;   /* hand -> its number in `hands` */
    HandMap plays; /* hand -> least number of plays (also hands never searched) */
    uint64_t *tt;
    uint64_t tt_mask; /* number of buckets - 1 */
    int tt_bits, tt_max_bits;
    long long nodes;
    long long next_check;
    long long max_nodes; /* -1: none */
    double deadline;     /* <0: none */
    int budget_hit;
    int32_t *scratch;
    size_t scratch_cap, scratch_top;
    struct Chunk *arena; /* the hands' memory: freed all at once */
    size_t hand_bytes, max_hand_bytes;
} TwoSearch;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------ hands */

/* Hands live in big zeroed chunks (huge pages where the system gives them):
   they are looked up at random and only ever freed all together. */
typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
} Chunk;

#define CHUNK_BYTES (16u << 20)

static uint64_t *table_alloc(uint64_t words);
static void table_free(uint64_t *p, uint64_t words);

static void *arena_alloc(TwoSearch *s, size_t n) {
    n = (n + 15) & ~(size_t)15;
    Chunk *c = s->arena;
    if (!c || c->used + n > c->cap) {
        size_t cap = n + 64 > CHUNK_BYTES ? n + 64 : CHUNK_BYTES;
        c = (Chunk *)table_alloc(cap / sizeof(uint64_t) + 1);
        if (!c) return NULL;
        c->next = s->arena;
        c->used = 64; /* the header, rounded to a cache line */
        c->cap = cap;
        s->arena = c;
    }
    void *p = (char *)c + c->used;
    c->used += n;
    return p;
}

static void arena_free(TwoSearch *s) {
    while (s->arena) {
        Chunk *next = s->arena->next;
        table_free((uint64_t *)s->arena, s->arena->cap / sizeof(uint64_t) + 1);
        s->arena = next;
    }
}

static int compute_pairs(Hand *h);
static void map_clear(HandMap *m);

static void free_hands(TwoSearch *s) {
    arena_free(s);
    s->nhands = 0;
    s->hand_bytes = 0;
    map_clear(&s->ids);
    map_clear(&s->plays);
}

static void clear_tt(TwoSearch *s) {
    if (s->tt) memset(s->tt, 0, (s->tt_mask + 1) * WORDS * sizeof(uint64_t));
}

static inline uint64_t key_hash(uint64_t a, uint64_t b) { return mix64(a ^ mix64(b)); }

static void tt_store(TwoSearch *s, Key key, int value, int w);

/* Zeroed memory for the table and the hands.  Big blocks come straight from
   the system (already zero, pages touched only when used, on 2 MB huge pages
   where it gives them, so that random lookups do not also miss the address
   translation cache); small ones are aligned on a cache line. */
#define BIG_BLOCK (2u << 20)

static uint64_t *table_alloc(uint64_t words) {
    size_t bytes = words * sizeof(uint64_t);
    if (bytes >= BIG_BLOCK) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
        return (uint64_t *)p;
    }
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0) return NULL;
    memset(p, 0, bytes);
    return (uint64_t *)p;
}

static void table_free(uint64_t *p, uint64_t words) {
    if (!p) return;
    size_t bytes = words * sizeof(uint64_t);
    if (bytes >= BIG_BLOCK)
        munmap(p, bytes);
    else
        free(p);
}

/* Grows the table to 2**bits buckets (at most 2**tt_max_bits) and re-inserts
   every entry: the keys are whole, so nothing is lost.  Small searches keep a
   small table; tt_grow doubles it. */
static void tt_resize(TwoSearch *s, int bits) {
    if (bits > s->tt_max_bits) bits = s->tt_max_bits;
    if (bits <= s->tt_bits) return;
    uint64_t old_words = (s->tt_mask + 1) * WORDS;
    uint64_t *old = s->tt;
    uint64_t *fresh = table_alloc(((uint64_t)1 << bits) * WORDS);
    if (!fresh) {
        s->tt_max_bits = s->tt_bits; /* no memory: stay at this size */
        return;
    }
    s->tt = fresh;
    s->tt_bits = bits;
    s->tt_mask = (1ULL << s->tt_bits) - 1;
    for (uint64_t i = 0; i < old_words; i += 2) {
        uint64_t e0 = old[i], e1 = old[i + 1];
        if (!(e1 & OCCUPIED)) continue;
        uint64_t *bucket = s->tt + (key_hash(e0, e1 & KEYB_MASK) & s->tt_mask) * WORDS;
        for (int j = 0; j < BUCKET; j++) {
            if (!(bucket[2 * j + 1] & OCCUPIED)) {
                bucket[2 * j] = e0;
                bucket[2 * j + 1] = e1;
                break;
            }
        }
    }
    table_free(old, old_words);
}

static void tt_grow(TwoSearch *s) { tt_resize(s, s->tt_bits + 1); }

static int map_grow(HandMap *m) {
    uint64_t ncap = m->cap ? m->cap * 2 : 4096;
    uint64_t *nk = calloc(ncap, sizeof(uint64_t));
    int32_t *nv = calloc(ncap, sizeof(int32_t));
    if (!nk || !nv) {
        free(nk);
        free(nv);
        return -1;
    }
    for (uint64_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        uint64_t j = mix64(m->keys[i]) & (ncap - 1);
        while (nk[j]) j = (j + 1) & (ncap - 1);
        nk[j] = m->keys[i];
        nv[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    return 0;
}

/* The value of `key`, or -1. */
static inline int32_t map_get(const HandMap *m, uint64_t key) {
    uint64_t mask = m->cap - 1;
    for (uint64_t j = mix64(key) & mask; m->keys[j]; j = (j + 1) & mask)
        if (m->keys[j] == key) return m->vals[j];
    return -1;
}

/* 0, or -1 when out of memory. */
static int map_put(HandMap *m, uint64_t key, int32_t value) {
    if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0) return -1;
    uint64_t mask = m->cap - 1;
    uint64_t j = mix64(key) & mask;
    while (m->keys[j] && m->keys[j] != key) j = (j + 1) & mask;
    if (!m->keys[j]) m->n++;
    m->keys[j] = key;
    m->vals[j] = value;
    return 0;
}

static void map_clear(HandMap *m) {
    if (m->keys) memset(m->keys, 0, m->cap * sizeof(uint64_t));
    m->n = 0;
}

static void map_free(HandMap *m) {
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}

/* ------------------------------------------------- dominance pairs */

#define RANK(cards, r) ((int)(((cards) >> (4 * (r))) & 15))
#define NIBBLE_HIGH 0x888888888888888ULL /* bit 3 of each of the 15 rank fields */

/* Ranks (jokers excluded) in no chain of the hand: HandTables.free_ranks. */
static uint32_t free_ranks(uint64_t hand) {
    static const int need[3] = {1, 2, 3}, shortest[3] = {5, 3, 2};
    uint32_t in_chain = 0;
    for (int t = 0; t < 3; t++) {
        int run = 0;
        for (int r = 0; r < 12; r++) {
            if (RANK(hand, r) >= need[t]) {
                run++;
                if (run >= shortest[t])
                    for (int q = r - run + 1; q <= r; q++) in_chain |= 1u << q;
            } else {
                run = 0;
            }
        }
    }
    uint32_t mask = 0;
    for (int r = 0; r < 13; r++)
        if (RANK(hand, r) && !((in_chain >> r) & 1)) mask |= 1u << r;
    return mask;
}

/* How many of the 15 fields have bit 3 set in `x` (only those bits set): the
   bits moved to the bottom of their fields and added by one multiplication
   into the top field (at most 15: no carry). */
static inline int nibbles_set(uint64_t x) { return (int)(((x >> 3) * 0x1111111111111111ULL) >> 60); }

/* HandTables.dominance_pairs, for the lead moves of `h`: move y is dominated
   by x (same kind and length, not a bomb or the rocket) when x keeps whole,
   higher, chain-free ranks in place of y's — see the Python docstring. */
static int compute_pairs(Hand *h) {
    int32_t n = h->nmoves, cap = 0;
    h->npairs = 0;
    h->pairs = NULL;
    if (n < 2) return 0;
    /* Group the moves by kind and length (a counting sort on the code), visiting
       only the codes the hand has (a bitmap of them): a walk over all 256 codes,
       four times, was a third of this function's instructions (issue 33). */
    uint64_t used[NCODES / 64] = {0};
    int32_t start[NCODES], count[NCODES], fill[NCODES];
    uint8_t codes[NCODES]; /* the codes present, ascending */
    int ncodes = 0;
    for (int32_t i = 0; i < n; i++) {
        int c = h->moves[i].kind | h->moves[i].length << 4;
        used[c >> 6] |= 1ULL << (c & 63);
    }
    for (int w = 0; w < NCODES / 64; w++)
        for (uint64_t b = used[w]; b; b &= b - 1) codes[ncodes++] = (uint8_t)(w << 6 | __builtin_ctzll(b));
    for (int k = 0; k < ncodes; k++) count[codes[k]] = 0;
    for (int32_t i = 0; i < n; i++) count[h->moves[i].kind | h->moves[i].length << 4]++;
    for (int k = 0, at = 0; k < ncodes; k++) {
        fill[codes[k]] = start[codes[k]] = at;
        at += count[codes[k]];
    }
    int32_t *order = malloc(n * sizeof(int32_t));
    if (!order) return -1;
    for (int32_t i = 0; i < n; i++) order[fill[h->moves[i].kind | h->moves[i].length << 4]++] = i;
    for (int k = 0; k < ncodes; k++) {
        int code = codes[k];
        int32_t g0 = start[code], g1 = start[code] + count[code];
        if (g1 - g0 < 2 || (code & 15) >= KIND_BOMB) continue;
        for (int32_t gy = g0; gy < g1; gy++) {
            int32_t yi = order[gy];
            const Move *y = &h->moves[yi];
            uint64_t left_y = h->hand - y->cards;
            uint32_t free_y = 0;
            int free_known = 0; /* free_ranks(left_y), worked out when a pair first needs it */
            for (int32_t gx = g0; gx < g1; gx++) {
                int32_t xi = order[gx];
                if (xi == yi) continue;
                const Move *x = &h->moves[xi];
                /* The ranks where the two differ, found for all 15 fields at
                   once (a count is at most 4, so bit 3 of a field of
                   (y | 8..8) - x is set exactly when y holds at least as
                   many): most pairs differ on unequal numbers of ranks and
                   are dropped here, before any rank is looked at alone. */
                uint64_t ge_y = ((y->cards | NIBBLE_HIGH) - x->cards) & NIBBLE_HIGH;
                uint64_t ge_x = ((x->cards | NIBBLE_HIGH) - y->cards) & NIBBLE_HIGH;
                uint64_t more_y = ~ge_x & NIBBLE_HIGH, more_x = ~ge_y & NIBBLE_HIGH;
                if (!more_y || nibbles_set(more_y) != nibbles_set(more_x)) continue;
                /* The lowest rank y keeps must lie below the lowest x keeps (a < b
                   below, for the first of them): half the pairs end here. */
                if (__builtin_ctzll(more_x) >= __builtin_ctzll(more_y)) continue;
                int ka[15], kna[15], kb[15], knb[15], na = 0, nb = 0;
                for (uint64_t m = more_y; m; m &= m - 1) {
                    int r = __builtin_ctzll(m) >> 2;
                    kb[nb] = r; /* kept by playing x instead of y */
                    knb[nb++] = RANK(y->cards, r) - RANK(x->cards, r);
                }
                for (uint64_t m = more_x; m; m &= m - 1) {
                    int r = __builtin_ctzll(m) >> 2;
                    ka[na] = r; /* kept by playing y instead of x */
                    kna[na++] = RANK(x->cards, r) - RANK(y->cards, r);
                }
                uint64_t left_x = h->hand - x->cards;
                int ok = 1;
                for (int i = 0; i < na && ok; i++) {
                    int a = ka[i], b = kb[i];
                    if (a >= b || kna[i] != knb[i] || b >= 13 || RANK(left_y, a) != kna[i] || RANK(left_x, b) != knb[i])
                        ok = 0;
                }
                if (!ok) continue;
                if (!free_known) { /* the chains of what y leaves: only for the pairs that get this far */
                    free_y = free_ranks(left_y);
                    free_known = 1;
                }
                for (int i = 0; i < na && ok; i++)
                    if (!((free_y >> ka[i]) & 1)) ok = 0;
                if (!ok) continue;
                if (h->npairs == cap) {
                    cap = cap ? cap * 2 : 16;
                    Pair *np = realloc(h->pairs, cap * sizeof(Pair));
                    if (!np) {
                        free(order);
                        return -1;
                    }
                    h->pairs = np;
                }
                Pair *p = &h->pairs[h->npairs++];
                p->y = yi;
                p->low = (int16_t)(x->main <= y->main ? x->main : y->main);
                p->high = (int16_t)(x->main <= y->main ? y->main : x->main);
                p->code = code;
            }
        }
    }
    free(order);
    return 0;
}

/* ------------------------------------------------- moves, in C as well */

/* tutor.engine.moves.lead_moves_packed for the standard rules, move for move
   and in the same order (tests/solver/test_native.py compares the two on
   thousands of hands): one move per card set and kind/length under its
   highest main.  It exists so that the search never has to call into Python
   for a new hand; the engine stays the reference. */
#define K_SINGLE 1
#define K_PAIR 2
#define K_TRIO 3
#define K_TRIO_SINGLE 4
#define K_TRIO_PAIR 5
#define K_STRAIGHT 6
#define K_PAIR_CHAIN 7
#define K_AIRPLANE 8
#define K_AIRPLANE_SINGLES 9
#define K_AIRPLANE_PAIRS 10
#define K_FOUR_TWO_SINGLES 11
#define K_FOUR_TWO_PAIRS 12
#define SMALL_JOKER 13
#define BIG_JOKER 14
#define ONE(r) (1ULL << (4 * (r)))

typedef struct {
    Move *m;
    int n, cap;
} MoveList;

static int ml_push(MoveList *l, uint64_t cards, int kind, int length, int main) {
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        Move *nm = realloc(l->m, cap * sizeof(Move));
        if (!nm) return -1;
        l->m = nm;
        l->cap = cap;
    }
    Move *m = &l->m[l->n++];
    m->cards = cards;
    m->kind = (uint8_t)kind;
    m->length = (uint8_t)length;
    m->main = (uint8_t)main;
    m->pad = 0;
    return 0;
}

/* Chains of `need` cards a rank over the chain ranks (3..A) held that often,
   of at least `shortest` ranks: in the engine's order, low end first, then
   the high end. */
static int push_chains(MoveList *l, const int *cnt, int need, int shortest, int kind) {
    for (int low = 0; low < 12; low++) {
        if (cnt[low] < need) continue;
        uint64_t body = 0;
        for (int high = low; high < 12 && cnt[high] >= need; high++) {
            body += (uint64_t)need * ONE(high);
            if (high - low + 1 >= shortest && ml_push(l, body, kind, high - low + 1, high) < 0) return -1;
        }
    }
    return 0;
}

/* _wing_singles: every multiset of `how_many` single wings from cnt, skipping
   the ranks in `excluded`, built rank by rank as the engine builds them (so
   in its order), never both jokers together. */
static int wing_singles(const int *cnt, uint32_t excluded, int how_many, uint64_t **out, int *nout) {
    int pcap = 64, pn = 1, dcap = 64, dn = 0;
    uint64_t *pv = malloc(pcap * sizeof(uint64_t));
    int *pl = malloc(pcap * sizeof(int));
    uint64_t *done = malloc(dcap * sizeof(uint64_t));
    if (!pv || !pl || !done) goto oom;
    pv[0] = 0;
    pl[0] = how_many;
    for (int r = 0; r < 15; r++) {
        int n = cnt[r];
        if (!n || ((excluded >> r) & 1)) continue;
        int gcap = pn * 5 + 1, gn = 0;
        uint64_t *gv = malloc(gcap * sizeof(uint64_t));
        int *gl = malloc(gcap * sizeof(int));
        if (!gv || !gl) {
            free(gv);
            free(gl);
            goto oom;
        }
        for (int i = 0; i < pn; i++) {
            gv[gn] = pv[i];
            gl[gn++] = pl[i];
            int top = n < pl[i] ? n : pl[i];
            for (int take = 1; take <= top; take++) {
                uint64_t v = pv[i] + (uint64_t)take * ONE(r);
                if (take == pl[i]) {
                    if (dn == dcap) {
                        dcap *= 2;
                        uint64_t *nd = realloc(done, dcap * sizeof(uint64_t));
                        if (!nd) {
                            free(gv);
                            free(gl);
                            goto oom;
                        }
                        done = nd;
                    }
                    done[dn++] = v;
                } else {
                    gv[gn] = v;
                    gl[gn++] = pl[i] - take;
                }
            }
        }
        free(pv);
        free(pl);
        pv = gv;
        pl = gl;
        pn = gn;
        pcap = gcap;
    }
    free(pv);
    free(pl);
    if (cnt[SMALL_JOKER] && cnt[BIG_JOKER] && !((excluded >> SMALL_JOKER) & 1)) {
        int k = 0;
        uint64_t both = ONE(SMALL_JOKER) + ONE(BIG_JOKER);
        for (int i = 0; i < dn; i++)
            if ((done[i] & both) != both) done[k++] = done[i];
        dn = k;
    }
    *out = done;
    *nout = dn;
    return 0;
oom:
    free(pv);
    free(pl);
    free(done);
    return -1;
}

/* Combinations of `k` items of pool (lexicographic, as itertools). */
static int push_pair_wings(MoveList *l, uint64_t body, const int *pool, int np, int k, int kind, int length, int main) {
    int idx[16];
    if (k > np || k > 16) return 0;
    for (int i = 0; i < k; i++) idx[i] = i;
    for (;;) {
        uint64_t wings = 0;
        for (int i = 0; i < k; i++) wings += 2 * ONE(pool[idx[i]]);
        if (ml_push(l, body + wings, kind, length, main) < 0) return -1;
        int i = k - 1;
        while (i >= 0 && idx[i] == np - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    return 0;
}

static int gen_lead_moves(uint64_t hand, MoveList *l) {
    int cnt[15];
    int r1[15], n1 = 0, r2[15], n2 = 0, r3[15], n3 = 0, r4[15], n4 = 0;
    l->n = 0;
    for (int r = 0; r < 15; r++) {
        cnt[r] = (int)((hand >> (4 * r)) & 15);
        if (cnt[r] >= 1) r1[n1++] = r;
        if (cnt[r] >= 2) r2[n2++] = r;
        if (cnt[r] >= 3) r3[n3++] = r;
        if (cnt[r] >= 4) r4[n4++] = r;
    }
    /* singles, straights, the rocket */
    for (int i = 0; i < n1; i++)
        if (ml_push(l, ONE(r1[i]), K_SINGLE, 1, r1[i]) < 0) return -1;
    if (push_chains(l, cnt, 1, 5, K_STRAIGHT) < 0) return -1;
    if (cnt[SMALL_JOKER] && cnt[BIG_JOKER] &&
        ml_push(l, ONE(SMALL_JOKER) + ONE(BIG_JOKER), KIND_ROCKET, 1, BIG_JOKER) < 0)
        return -1;
    if (!n2) return 0;
    for (int i = 0; i < n2; i++)
        if (ml_push(l, 2 * ONE(r2[i]), K_PAIR, 1, r2[i]) < 0) return -1;
    if (push_chains(l, cnt, 2, 3, K_PAIR_CHAIN) < 0) return -1;
    if (!n3) return 0;
    for (int i = 0; i < n3; i++)
        if (ml_push(l, 3 * ONE(r3[i]), K_TRIO, 1, r3[i]) < 0) return -1;
    if (push_chains(l, cnt, 3, 2, K_AIRPLANE) < 0) return -1;
    for (int i = 0; i < n3; i++) {
        int t = r3[i];
        for (int j = 0; j < n1; j++)
            if (r1[j] != t && ml_push(l, 3 * ONE(t) + ONE(r1[j]), K_TRIO_SINGLE, 1, t) < 0) return -1;
        for (int j = 0; j < n2; j++)
            if (r2[j] != t && ml_push(l, 3 * ONE(t) + 2 * ONE(r2[j]), K_TRIO_PAIR, 1, t) < 0) return -1;
    }
    /* airplanes with wings: per chain of trios (engine order), pair wings,
       then single wings (two: at once; three or more: kept per card set under
       the highest main, appended after every chain). */
    {
        MoveList longer = {0};
        int any_body = 0;
        for (int low = 0; low < 12; low++) {
            if (cnt[low] < 3) continue;
            uint64_t body = 0;
            uint32_t chain = 0;
            for (int high = low; high < 12 && cnt[high] >= 3; high++) {
                body += 3 * ONE(high);
                chain |= 1u << high;
                int n = high - low + 1;
                if (n < 2) continue;
                any_body = 1;
                int pool[15], np = 0;
                for (int j = 0; j < n2; j++)
                    if (!((chain >> r2[j]) & 1)) pool[np++] = r2[j];
                if (np >= n && push_pair_wings(l, body, pool, np, n, K_AIRPLANE_PAIRS, n, high) < 0) goto fail_longer;
                if (n == 2) {
                    int others[15], no = 0;
                    for (int j = 0; j < n1; j++)
                        if (!((chain >> r1[j]) & 1)) others[no++] = r1[j];
                    for (int a = 0; a < no; a++)
                        for (int b = a + 1; b < no; b++)
                            if (!(others[a] == SMALL_JOKER && others[b] == BIG_JOKER) &&
                                ml_push(l, body + ONE(others[a]) + ONE(others[b]), K_AIRPLANE_SINGLES, 2, high) < 0)
                                goto fail_longer;
                    for (int a = 0; a < np; a++)
                        if (ml_push(l, body + 2 * ONE(pool[a]), K_AIRPLANE_SINGLES, 2, high) < 0) goto fail_longer;
                } else {
                    uint64_t *wings = NULL;
                    int nw = 0;
                    if (wing_singles(cnt, chain, n, &wings, &nw) < 0) goto fail_longer;
                    for (int w = 0; w < nw; w++) {
                        uint64_t cards = body + wings[w];
                        int found = -1;
                        for (int q = 0; q < longer.n; q++)
                            if (longer.m[q].cards == cards) {
                                found = q;
                                break;
                            }
                        if (found >= 0) { /* a later chain has a higher top: overwrite in place */
                            longer.m[found].length = (uint8_t)n;
                            longer.m[found].main = (uint8_t)high;
                        } else if (ml_push(&longer, cards, K_AIRPLANE_SINGLES, n, high) < 0) {
                            free(wings);
                            goto fail_longer;
                        }
                    }
                    free(wings);
                }
            }
        }
        (void)any_body;
        for (int q = 0; q < longer.n; q++)
            if (ml_push(l, longer.m[q].cards, longer.m[q].kind, longer.m[q].length, longer.m[q].main) < 0)
                goto fail_longer;
        free(longer.m);
        goto bombs;
    fail_longer:
        free(longer.m);
        return -1;
    }
bombs:
    for (int i = 0; i < n4; i++) {
        int f = r4[i];
        if (ml_push(l, 4 * ONE(f), KIND_BOMB, 1, f) < 0) return -1;
        int others[15], no = 0, jokers = cnt[SMALL_JOKER] && cnt[BIG_JOKER];
        for (int j = 0; j < n1; j++)
            if (r1[j] != f) others[no++] = r1[j];
        int last = no - 1 - jokers;
        for (int a = 0; a < last; a++)
            for (int b = a + 1; b < no; b++)
                if (ml_push(l, 4 * ONE(f) + ONE(others[a]) + ONE(others[b]), K_FOUR_TWO_SINGLES, 1, f) < 0) return -1;
        int pairs[15], npairs = 0;
        for (int j = 0; j < n2; j++)
            if (r2[j] != f) pairs[npairs++] = r2[j];
        for (int a = 0; a < npairs; a++)
            if (ml_push(l, 4 * ONE(f) + 2 * ONE(pairs[a]), K_FOUR_TWO_SINGLES, 1, f) < 0) return -1;
        for (int a = 0; a + 1 < npairs; a++)
            for (int b = a + 1; b < npairs; b++)
                if (ml_push(l, 4 * ONE(f) + 2 * ONE(pairs[a]) + 2 * ONE(pairs[b]), K_FOUR_TWO_PAIRS, 1, f) < 0) return -1;
    }
    return 0;
}

/* Number of cards in a packed set: the 4-bit counts added into bytes, then
   the bytes added by one multiplication (at most 15 * 15 = 225: no carry
   leaves a byte).  No popcount instruction is assumed (without one,
   __builtin_popcountll is a library call: 9 % of the search's instructions
   when this used four of them). */
static inline int cards_size(uint64_t c) {
    const uint64_t low = 0x0F0F0F0F0F0F0F0FULL;
    return (int)((((c & low) + ((c >> 4) & low)) * 0x0101010101010101ULL) >> 56);
}

/* ----------------------------------------------- least number of plays */

/* HandTables.min_plays: the least number of plays that empty a hand (exact).
   Every partition has a play holding the lowest card, so only those plays
   are tried; memoised per hand. */
/* -1: out of memory. */
static int min_plays(TwoSearch *s, uint64_t hand, const MoveList *known) {
    if (!hand) return 0;
    int32_t known_plays = map_get(&s->plays, hand);
    if (known_plays >= 0) return known_plays;
    MoveList own = {0};
    const MoveList *l = known;
    if (!l) {
        if (gen_lead_moves(hand, &own) < 0) {
            free(own.m);
            return -1;
        }
        l = &own;
    }
    int best = 99;
    for (int i = 0; i < l->n; i++)
        if (l->m[i].cards == hand) best = 1;
    if (best > 1) {
        uint64_t low = hand & (~hand + 1);
        int shift = (63 - __builtin_clzll(low)) & ~3;
        uint64_t low_rank = 0xFULL << shift;
        for (int i = 0; i < l->n && best > 2; i++) {
            if (!(l->m[i].cards & low_rank)) continue;
            int n = min_plays(s, hand - l->m[i].cards, NULL);
            if (n < 0) {
                free(own.m);
                return -1;
            }
            if (n + 1 < best) best = n + 1;
        }
    }
    free(own.m);
    return map_put(&s->plays, hand, best) < 0 ? -1 : best;
}

/* Builds a Hand: its lead moves (the engine's, ordered as
   HandTables.lead_moves: most cards first, ties in the engine's order), the
   masks of what it can play, its dominance pairs, whether it is one play and
   its least number of plays.  Sets a Python error and returns NULL when out
   of memory. */
static Hand *make_hand(TwoSearch *s, uint64_t hand) {
    MoveList l = {0};
    if (gen_lead_moves(hand, &l) < 0) goto oom;
    int n = l.n;
    Hand *h = arena_alloc(s, sizeof(Hand));
    if (!h) goto oom;
    h->hand = hand;
    h->pres = presence(hand);
    h->nmoves = n;
    h->moves = arena_alloc(s, (n ? n : 1) * sizeof(Move));
    h->child = arena_alloc(s, (n ? n : 1) * sizeof(int32_t));
    if (!h->moves || !h->child) goto oom;
    {
        /* A stable placement by size, largest first. */
        int32_t count[64] = {0}, start[64];
        for (int i = 0; i < n; i++) count[cards_size(l.m[i].cards)]++;
        int32_t at = 0;
        for (int size = 63; size >= 0; size--) {
            start[size] = at;
            at += count[size];
        }
        for (int i = 0; i < n; i++) h->moves[start[cards_size(l.m[i].cards)]++] = l.m[i];
    }
    for (int i = 0; i < n; i++) {
        const Move *m = &h->moves[i];
        h->child[i] = -1;
        h->mains[dense(m->kind, m->length)] |= (uint16_t)(1u << m->main);
        if (m->kind == KIND_BOMB) h->any_bomb = 1;
        if (m->kind == KIND_ROCKET) {
            h->any_bomb = 1;
            h->rocket = 1;
        }
        if (m->cards == hand) {
            h->is_combo = 1; /* one play empties it */
            h->whole = *m;
        }
    }
    h->npairs = 0; /* the dominance pairs wait until the hand is to move (hand_pairs) */
    h->pairs = NULL;
    h->pairs_done = 0;
    int mp = min_plays(s, hand, &l);
    if (mp < 0) goto oom;
    h->min_plays = (int8_t)mp;
    free(l.m);
    return h;
oom:
    /* The hand's arena memory is given back with the rest at the next reset. */
    free(l.m);
    PyErr_NoMemory();
    return NULL;
}

/* The hand's dominance pairs, worked out the first time it is to move at a
   node: many hands are only ever looked at as a child (for the order, the
   look-ahead) or as the other player, and the pairs were a sixth of the
   search's instructions when every hand got them (issue 33).  -1: out of
   memory (a Python error set). */
static int hand_pairs(TwoSearch *s, Hand *h) {
    if (compute_pairs(h) < 0) goto oom;
    if (h->npairs) {
        Pair *kept = arena_alloc(s, h->npairs * sizeof(Pair));
        if (!kept) goto oom;
        memcpy(kept, h->pairs, h->npairs * sizeof(Pair));
        free(h->pairs);
        h->pairs = kept;
    } else {
        free(h->pairs);
        h->pairs = NULL;
    }
    h->pairs_done = 1;
    s->hand_bytes += (size_t)h->npairs * sizeof(Pair);
    return 0;
oom:
    free(h->pairs);
    h->pairs = NULL;
    h->npairs = 0;
    PyErr_NoMemory();
    return -1;
}

static Hand *get_hand(TwoSearch *s, uint64_t hand) {
    int32_t id = map_get(&s->ids, hand);
    if (id >= 0) return s->hands[id];
    if (s->nhands >= MAX_HANDS) {
        /* Too many hands to number: the caller starts again (exactly). */
        PyErr_SetString(PyExc_MemoryError, "native search: too many distinct hands");
        return NULL;
    }
    Hand *h = make_hand(s, hand);
    if (!h) return NULL;
    if (s->nhands == s->cap_hands) {
        int32_t ncap = s->cap_hands ? s->cap_hands * 2 : 4096;
        Hand **nh = realloc(s->hands, ncap * sizeof(Hand *));
        if (!nh) {
            PyErr_NoMemory();
            return NULL;
        }
        s->hands = nh;
        s->cap_hands = ncap;
    }
    h->id = s->nhands;
    s->hands[s->nhands++] = h;
    s->hand_bytes += sizeof(Hand) + (size_t)h->nmoves * (sizeof(Move) + sizeof(int32_t)); /* pairs: hand_pairs */
    if (map_put(&s->ids, hand, h->id) < 0) {
        PyErr_NoMemory();
        return NULL;
    }
    return h;
}

static inline Hand *child_of(TwoSearch *s, Hand *h, int32_t i) {
    int32_t c = h->child[i];
    if (c >= 0) return s->hands[c];
    Hand *ch = get_hand(s, h->hand - h->moves[i].cards);
    if (ch) h->child[i] = ch->id;
    return ch;
}

/* --------------------------------------------------------- the table */


/* ------------------------------------------------------- the keys */

/* Bit r set for every chain rank r whose field bit 4r is set. */
static inline uint32_t compact12(uint64_t x) {
    x = (x | x >> 3) & 0x0303030303030303ULL;
    x = (x | x >> 6) & 0x000F000F000F000FULL;
    x = (x | x >> 12) & 0x000000FF000000FFULL;
    x = (x | x >> 24) & 0xFFFFULL;
    return (uint32_t)x;
}

/* The compression of tutor/solver/canon.py (build_plan) for chain-rank
   presences pa and pb: held chain ranks keep their order; real neighbours
   stay neighbours; a gap becomes one rank when one player holds both sides
   (a chain of theirs must not grow across it), none otherwise; the lowest
   held rank becomes 3.  The 2 and the jokers never move.  The kept ranks are
   worked out afresh each time (a few steps on 12-bit masks); their segments
   come from g_segments. */
static inline void build_plan(Plan *p, uint64_t pa, uint64_t pb) {
    uint32_t A = compact12(pa), B = compact12(pb), held = A | B;
    /* A gap of empty ranks keeps one (its top one: all are empty) when one
       player holds the ranks on both sides.  One addition finds them all: a
       one added just above a player's rank at the bottom of a gap carries
       through the gap's empty ranks to the held rank at its top. */
    uint32_t gaps = ~held & 0xFFFu, bottoms = held & ~(held >> 1);
    uint32_t tops = (((gaps + ((A & bottoms) << 1)) & A) | ((gaps + ((B & bottoms) << 1)) & B)) & held;
    uint32_t keep = held | tops >> 1;
    p->keep = keep;
    p->seg = &g_segments[keep];
}

static void fill_segments(void) {
    for (uint32_t all = 0; all < (1u << 12); all++) {
        Segments *g = &g_segments[all];
        uint32_t keep = all;
        int placed = 0;
        g->nseg = 0;
        while (keep) {
            int low = __builtin_ctz(keep);
            int len = __builtin_ctz(~(keep >> low));
            g->mask[g->nseg] = ((1ULL << (4 * len)) - 1) << (4 * low);
            g->shift[g->nseg++] = (uint8_t)(4 * (low - placed));
            placed += len;
            keep &= ~(((1u << len) - 1) << low);
        }
    }
}

/* A hand under a compression, in 54 bits: the chain ranks moved down, the 2
   in place, the small joker at bit 52 and the big one at bit 53. */
static inline uint64_t squeeze(const Plan *p, uint64_t h) {
    uint64_t out = (h & 0x1FULL << 48) | ((h >> 56) & 1) << 53;
    const Segments *g = p->seg;
    for (int i = 0; i < g->nseg; i++) out |= (h & g->mask[i]) >> g->shift[i];
    return out;
}

/* The transposition key of (player to move holding `a`, other player `b`,
   canonical table code): both hands rank-compressed, and the table's main
   rank moved with them (it is a rank the follower holds, or -1). */
/* The plan of a child whose mover holds `c` after a move: the parent's plan `plan` while the
   chain ranks present are those of `pres` (most moves), else one built into `scratch`. */
static inline const Plan *child_plan(const Plan *plan, Plan *scratch, uint64_t c, uint64_t pres, uint64_t opp_pres) {
    uint64_t pc_bits = presence(c);
    if (pc_bits == pres) return plan;
    build_plan(scratch, pc_bits, opp_pres);
    return scratch;
}

/* Bits set in a 12-bit mask (no popcount instruction is assumed). */
static inline int count12(uint32_t x) {
    x = x - ((x >> 1) & 0x555u);
    x = (x & 0x333u) + ((x >> 2) & 0x333u);
    x = (x + (x >> 4)) & 0xF0Fu;
    return (int)((x + (x >> 8)) & 0x1Fu);
}

/* The key from the two hands already squeezed under `p`. */
static inline Key make_key_squeezed(const Plan *p, uint64_t sa, uint64_t sb, int code) {
    if (code && code != 15) {
        int below = (code >> 8) - 1; /* a chain rank the follower holds, -1, or 12 and up */
        if (below >= 0 && below < 12) code = (code & 0xFF) | (count12(p->keep & ((1u << below) - 1)) + 1) << 8;
    }
    Key k;
    k.a = sa | (uint64_t)(code & 0x3FF) << 54;
    k.b = sb | (uint64_t)(code >> 10) << 54;
    return k;
}

static inline Key make_key(const Plan *p, uint64_t a, uint64_t b, int code) {
    return make_key_squeezed(p, squeeze(p, a), squeeze(p, b), code);
}

/* --------------------------------------------------------- the table */

/* -1 unknown, 0 lost, 1 won for the player to move. */
static inline int tt_probe_at(TwoSearch *s, Key k, uint64_t h) {
    uint64_t *bucket = s->tt + (h & s->tt_mask) * WORDS;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t e1 = bucket[2 * i + 1];
        if (!(e1 & OCCUPIED)) return -1;
        if (bucket[2 * i] == k.a && (e1 & KEYB_MASK) == k.b) return (int)((e1 >> VALUE_SHIFT) & 1);
    }
    return -1;
}

static inline int tt_probe(TwoSearch *s, Key k) { return tt_probe_at(s, k, key_hash(k.a, k.b)); }

static inline int work_bits(long long work) {
    int w = 0;
    while (work > 1 && w < 31) {
        work >>= 1;
        w++;
    }
    return w;
}

static void tt_store(TwoSearch *s, Key key, int value, int w) {
    uint64_t *bucket = s->tt + (key_hash(key.a, key.b) & s->tt_mask) * WORDS;
    uint64_t e1 = OCCUPIED | (uint64_t)w << WORK_SHIFT | (uint64_t)(value & 1) << VALUE_SHIFT | key.b;
    int victim = 0;
    int least = 64;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t old1 = bucket[2 * i + 1];
        if (!(old1 & OCCUPIED)) {
            bucket[2 * i] = key.a;
            bucket[2 * i + 1] = e1;
            return;
        }
        if (bucket[2 * i] == key.a && (old1 & KEYB_MASK) == key.b) {
            bucket[2 * i + 1] = e1;
            return;
        }
        int ew = (int)((old1 >> WORK_SHIFT) & 31);
        if (ew < least) {
            least = ew;
            victim = i;
        }
    }
    if (s->tt_bits < s->tt_max_bits) {
        /* A full bucket before the table reached its largest size: grow. */
        tt_grow(s);
        tt_store(s, key, value, w);
        return;
    }
    /* Full bucket: drop the entry that was cheapest to prove. */
    bucket[2 * victim] = key.a;
    bucket[2 * victim + 1] = e1;
}

/* ------------------------------------------------------------ search */

static inline int best_main(Hand *h, int code) {
    if (code == BOMB_CODE && h->rocket) return 99;
    uint16_t m = h->mains[dense_code(code)];
    return m ? 31 - __builtin_clz((unsigned)m) : -1;
}

static inline int answerable(Hand *opp, const Move *m) {
    return (int)m->main < best_main(opp, m->kind | m->length << 4) || (opp->any_bomb && m->kind < KIND_BOMB);
}

/* The canonical code of `table` for a follower holding `h` (HandTables.facing_table). */
static inline int canonical_code(Hand *h, int code) {
    int kind = code & 15, length = (code >> 4) & 15, main = code >> 8;
    if (kind == KIND_ROCKET) return code;
    uint16_t mask = h->mains[dense(kind, length)];
    uint16_t low = (uint16_t)(mask & ((2u << main) - 1));
    int below = low ? 31 - __builtin_clz((unsigned)low) : -1;
    int above = (mask >> (main + 1)) != 0;
    if (!above && kind != KIND_BOMB) return 15;
    return kind | length << 4 | (below + 1) << 8;
}

static inline int beats_table(const Move *m, int code) {
    int kind = code & 15, length = (code >> 4) & 15, main = code >> 8;
    if (kind == KIND_ROCKET) return 0;
    if (m->kind == KIND_ROCKET) return 1;
    if (kind == KIND_BOMB) return m->kind == KIND_BOMB && m->main > main;
    if (m->kind == KIND_BOMB) return 1;
    return m->kind == kind && m->length == length && m->main > main;
}

/* Does the play `m` beat the play `t` (a table of one lead)? */
static inline int move_beats(const Move *m, const Move *t) {
    if (t->kind == KIND_ROCKET) return 0;
    if (m->kind == KIND_ROCKET) return 1;
    if (t->kind == KIND_BOMB) return m->kind == KIND_BOMB && m->main > t->main;
    if (m->kind == KIND_BOMB) return 1;
    return m->kind == t->kind && m->length == t->length && m->main > t->main;
}

static int32_t *scratch_alloc(TwoSearch *s, size_t n) {
    if (s->scratch_top + n > s->scratch_cap) {
        /* Grow only between searches would be safer; grow here by copying is
           unsafe for live frames, so the scratch is sized generously and a
           shortage is reported as an error. */
        PyErr_SetString(PyExc_MemoryError, "native search: scratch space exhausted");
        return NULL;
    }
    int32_t *p = s->scratch + s->scratch_top;
    s->scratch_top += n;
    return p;
}

static int budget_check(TwoSearch *s) {
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) return -1;
    if (s->deadline >= 0 && now_seconds() > s->deadline) return -1;
    long long step = 2048;
    if (s->max_nodes >= 0 && s->max_nodes - s->nodes < step) step = s->max_nodes - s->nodes;
    if (step < 1) step = 1;
    s->next_check = s->nodes + step;
    return 0;
}

/* The search order of a play leaving the hand `c` (smallest first): the
   fewest plays left to finish; then bombs and the rocket after the rest; then
   the plays that shed more cards; then the lower main.  Measured (issue 33)
   against the order by plays left and main alone: two-09 474k -> 316k
   positions, two-10 1.34M -> 0.83M; putting the plays nobody can answer first
   among equals cost 4-6 times more. */
static inline int32_t order_key(const Move *m, const Hand *c) {
    int bomb = m->kind == KIND_BOMB || m->kind == KIND_ROCKET;
    return ((c->min_plays * 2 + bomb) * 32 + (31 - cards_size(m->cards))) * 32 + m->main;
}

/* 1: the player to move (holding `me`) wins; 0: loses; -1: error / budget. */
static int win(TwoSearch *s, Hand *me, Hand *opp, int code) {
    int canonical = code ? canonical_code(me, code) : 0;
    Plan plan;
    build_plan(&plan, me->pres, opp->pres);
    /* The two hands under the node's compression, kept: most children's keys reuse them. */
    uint64_t sq_me = squeeze(&plan, me->hand), sq_opp = squeeze(&plan, opp->hand);
    Key key = make_key_squeezed(&plan, sq_me, sq_opp, canonical);
    int known = tt_probe(s, key);
    if (known >= 0) return known;
    long long start = s->nodes;
    s->nodes++;
    if (s->nodes >= s->next_check) {
        if (budget_check(s) < 0) {
            s->budget_hit = 1;
            return -1;
        }
        /* Ctrl-C: let Python raise KeyboardInterrupt now, not after the search. */
        if (PyErr_CheckSignals() < 0) return -1;
    }
    if (code == 0 && me->is_combo) return 1;
    if (!me->pairs_done && hand_pairs(s, me) < 0) return -1;
    int tmain = code >> 8;
    int group = code & 0xFF;
    size_t mark = s->scratch_top;
    int32_t n = me->nmoves;
    /* flags[i]: 1 = a candidate move at this node (beats the table, not dominated) */
    int32_t *flags = scratch_alloc(s, (size_t)n * 3 + 2);
    if (!flags) return -1;
    int32_t *boss = flags + n;
    int32_t *other = boss + n + 1;
    int nb = 0, no = 0, result = -1;
    for (int32_t i = 0; i < n; i++) flags[i] = code ? beats_table(&me->moves[i], code) : 1;
    /* Dominance pruning (never at the root: the root lists every move). */
    /* The pairs come by code, ascending (compute_pairs): a follower looks at
       the table's code alone. */
    int32_t p0 = 0;
    if (code)
        while (p0 < me->npairs && me->pairs[p0].code < group) p0++;
    for (int32_t p = p0; p < me->npairs; p++) {
        Pair *pr = &me->pairs[p];
        if (code && pr->code != group) break;
        if (code && pr->low <= tmain) continue;
        if (!flags[pr->y]) continue;
        if (pr->low != pr->high) {
            uint16_t om = opp->mains[dense_code(pr->code)];
            uint32_t window = ((1u << (pr->high - pr->low)) - 1u) << (pr->low + 1);
            if (om & window) continue;
        }
        flags[pr->y] = 0;
    }
    for (int32_t i = 0; i < n; i++) {
        if (!flags[i]) continue;
        const Move *m = &me->moves[i];
        if (me->hand == m->cards) {
            result = 1; /* goes out: not worth a table entry */
            goto done_nostore;
        }
        if (answerable(opp, m)) {
            /* The other player goes out over it with the whole hand: lost. */
            if (opp->is_combo && move_beats(&opp->whole, m)) {
                flags[i] = -1;
                continue;
            }
            other[no++] = i;
        } else {
            Hand *c = child_of(s, me, i);
            if (!c) goto error;
            if (c->is_combo) {
                result = 1; /* boss then out */
                goto done_nostore;
            }
            boss[nb++] = i;
        }
    }
    /* Passing when the other player is one play from out loses. */
    int can_pass = code && !opp->is_combo;
    /* Enhanced transposition cutoff: a child already known to be won for us
       (or lost for the other player) settles this node at once.  The lookups
       go in chunks whose memory fetches are all started first, so that they
       overlap instead of waiting for one another. */
    {
        Key keys[64];
        uint64_t hashes[64];
        int want[64];
        int total = nb + no + can_pass;
        for (int base = 0; base < total; base += 64) {
            int end = base + 64 < total ? base + 64 : total;
            for (int j = base; j < end; j++) {
                Key k;
                /* The child's hand and presence are worked out here rather
                   than read from its record: that would cost a cache miss. */
                Plan other_plan;
                if (j < nb) {
                    uint64_t c = me->hand - me->moves[boss[j]].cards;
                    const Plan *cp = child_plan(&plan, &other_plan, c, me->pres, opp->pres);
                    k = make_key_squeezed(cp, squeeze(cp, c), cp == &plan ? sq_opp : squeeze(cp, opp->hand), 0);
                    want[j - base] = 1;
                } else if (j < nb + no) {
                    const Move *m = &me->moves[other[j - nb]];
                    uint64_t c = me->hand - m->cards;
                    const Plan *cp = child_plan(&plan, &other_plan, c, me->pres, opp->pres);
                    k = make_key_squeezed(cp, cp == &plan ? sq_opp : squeeze(cp, opp->hand), squeeze(cp, c),
                                          canonical_code(opp, m->kind | m->length << 4 | m->main << 8));
                    want[j - base] = 0;
                } else {
                    k = make_key_squeezed(&plan, sq_opp, sq_me, 0); /* we pass */
                    want[j - base] = 0;
                }
                keys[j - base] = k;
                uint64_t h = key_hash(k.a, k.b);
                hashes[j - base] = h;
                __builtin_prefetch(s->tt + (h & s->tt_mask) * WORDS);
            }
            for (int j = base; j < end; j++)
                if (tt_probe_at(s, keys[j - base], hashes[j - base]) == want[j - base]) goto won;
        }
    }
    for (int k = 0; k < no; k++)
        if (!child_of(s, me, other[k])) goto error;
    {
        /* Search order: entries (move index, or -1 for pass) with a sort key. */
        int total = nb + no + can_pass;
        int32_t *ent = scratch_alloc(s, (size_t)total * 2 + 2);
        if (!ent) goto error;
        int32_t *keyv = ent + total + 1;
        int t = 0;
        /* Plays in order_key's order (ties: unanswerable ones before
           answerable ones), then pass. */
        for (int k = 0; k < nb; k++) {
            Hand *c = s->hands[me->child[boss[k]]];
            ent[t] = boss[k];
            keyv[t++] = order_key(&me->moves[boss[k]], c);
        }
        for (int k = 0; k < no; k++) {
            Hand *c = s->hands[me->child[other[k]]];
            ent[t] = other[k];
            keyv[t++] = order_key(&me->moves[other[k]], c);
        }
        if (can_pass) {
            ent[t] = -1;
            keyv[t++] = 1 << 20;
        }
        for (int i = 1; i < total; i++) { /* stable insertion sort */
            int32_t e = ent[i], kv = keyv[i];
            int j = i - 1;
            while (j >= 0 && keyv[j] > kv) {
                ent[j + 1] = ent[j];
                keyv[j + 1] = keyv[j];
                j--;
            }
            ent[j + 1] = e;
            keyv[j + 1] = kv;
        }
        for (int k = 0; k < total; k++) {
            int32_t i = ent[k];
            int r;
            if (i < 0) {
                r = win(s, opp, me, 0);
                if (r < 0) goto error;
                if (!r) goto won;
                continue;
            }
            const Move *m = &me->moves[i];
            Hand *c = s->hands[me->child[i]];
            if (answerable(opp, m)) {
                r = win(s, opp, c, m->kind | m->length << 4 | m->main << 8);
                if (r < 0) goto error;
                r = !r;
            } else {
                r = win(s, c, opp, 0);
                if (r < 0) goto error;
            }
            if (r) goto won;
        }
    }
    tt_store(s, key, 0, work_bits(s->nodes - start));
    s->scratch_top = mark;
    return 0;
won:
    tt_store(s, key, 1, work_bits(s->nodes - start));
    s->scratch_top = mark;
    return 1;
done_nostore:
    tt_store(s, key, result, 0);
    s->scratch_top = mark;
    return result;
error:
    s->scratch_top = mark;
    return -1;
}

/* ------------------------------------------------------------ the type */

static void TwoSearch_dealloc(TwoSearch *s) {
    free_hands(s);
    free(s->hands);
    map_free(&s->ids);
    table_free(s->tt, (s->tt_mask + 1) * WORDS);
    free(s->scratch);
    map_free(&s->plays);
    Py_XDECREF(s->exc);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int TwoSearch_init(TwoSearch *s, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"exc", "max_table_bits", "max_hand_mb", NULL};
    PyObject *exc;
    int bits = 21;
    int hand_mb = 160;
    if (s->exc) {
        PyErr_SetString(PyExc_RuntimeError, "TwoSearch is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|ii", kwlist, &exc, &bits, &hand_mb)) return -1;
    s->max_hand_bytes = (size_t)hand_mb << 20;
    if (bits < 10 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be between 10 and 28");
        return -1;
    }
    Py_INCREF(exc);
    s->exc = exc;
    s->tt_max_bits = bits;
    s->tt_bits = 10;
    s->tt_mask = (1ULL << s->tt_bits) - 1;
    s->tt = table_alloc((s->tt_mask + 1) * WORDS);
    s->scratch_cap = 1 << 22; /* 16 MB of address space; pages are touched only when used */
    s->scratch = malloc(s->scratch_cap * sizeof(int32_t));
    if (!s->tt || !s->scratch) {
        PyErr_NoMemory();
        return -1;
    }
    if (map_grow(&s->ids) < 0 || map_grow(&s->plays) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->max_nodes = -1;
    s->deadline = -1;
    return 0;
}

static PyObject *TwoSearch_win(TwoSearch *s, PyObject *args) {
    unsigned long long me, opp;
    int code;
    long long max_nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "KKiLd", &me, &opp, &code, &max_nodes, &seconds)) return NULL;
    if ((me | opp) & EXTRA_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays one deck: one joker of each kind at most");
        return NULL;
    }
    s->max_nodes = max_nodes;
    s->deadline = seconds < 0 ? -1 : now_seconds() + seconds;
    s->budget_hit = 0;
    s->next_check = s->nodes;
    if (budget_check(s) < 0) {
        PyErr_SetNone(s->exc);
        return NULL;
    }
    if (s->nhands > MAX_HANDS - 100000 || s->hand_bytes > s->max_hand_bytes) {
        /* Numbering nearly used up: start afresh (exact either way). */
        free_hands(s);
        clear_tt(s);
    }
    /* A big position will fill the table: give it its full size at once
       rather than doubling it (and re-inserting everything) ten times. */
    if (cards_size(me) + cards_size(opp) >= BIG_POSITION) tt_resize(s, s->tt_max_bits);
    Hand *a = get_hand(s, me);
    Hand *b = a ? get_hand(s, opp) : NULL;
    if (!a || !b) return NULL;
    s->scratch_top = 0;
    int r = win(s, a, b, code);
    if (r < 0) {
        if (s->budget_hit && !PyErr_Occurred()) PyErr_SetNone(s->exc);
        return NULL;
    }
    return PyBool_FromLong(r);
}

/* After a fork the table is shared copy-on-write with the parent, and the
   first write into each of its huge pages splits it into small ones: the
   lookups would miss the address-translation cache again.  A fresh copy is
   the worker's own, on huge pages (a few milliseconds for 64 MB). */
static PyObject *TwoSearch_rehome(TwoSearch *s, PyObject *Py_UNUSED(ignored)) {
    uint64_t words = (s->tt_mask + 1) * WORDS;
    uint64_t *fresh = table_alloc(words);
    if (!fresh) return PyErr_NoMemory();
    memcpy(fresh, s->tt, words * sizeof(uint64_t));
    table_free(s->tt, words);
    s->tt = fresh;
    Py_RETURN_NONE;
}

static PyObject *TwoSearch_clear(TwoSearch *s, PyObject *Py_UNUSED(ignored)) {
    free_hands(s);
    clear_tt(s);
    Py_RETURN_NONE;
}

static PyObject *TwoSearch_get_nodes(TwoSearch *s, void *closure) { return PyLong_FromLongLong(s->nodes); }

static int TwoSearch_set_nodes(TwoSearch *s, PyObject *value, void *closure) {
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    s->nodes = v;
    return 0;
}

static PyObject *TwoSearch_get_hands(TwoSearch *s, void *closure) { return PyLong_FromLong(s->nhands); }


static PyMethodDef TwoSearch_methods[] = {
    {"win", (PyCFunction)TwoSearch_win, METH_VARARGS,
     "win(me, opp, code, max_nodes, seconds) -> bool: does the player holding `me` win?"},
    {"rehome", (PyCFunction)TwoSearch_rehome, METH_NOARGS, "Copy the table into fresh memory (after a fork)."},
    {"clear", (PyCFunction)TwoSearch_clear, METH_NOARGS, "Forget every hand and table entry."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef TwoSearch_getset[] = {
    {"nodes", (getter)TwoSearch_get_nodes, (setter)TwoSearch_set_nodes, "positions expanded", NULL},
    {"hands", (getter)TwoSearch_get_hands, NULL, "distinct hands numbered so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TwoSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tutor.solver._native.TwoSearch",
    .tp_basicsize = sizeof(TwoSearch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Compiled two-player endgame search (see tutor/solver/search.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)TwoSearch_init,
    .tp_dealloc = (destructor)TwoSearch_dealloc,
    .tp_methods = TwoSearch_methods,
    .tp_getset = TwoSearch_getset,
};

/* dominance_pairs(hand, moves) -> [(y, low, high, code)]: the pairs the
   search prunes with, for the tests to compare with the Python ones. */
static PyObject *native_dominance_pairs(PyObject *self, PyObject *args) {
    unsigned long long hand;
    PyObject *moves;
    if (!PyArg_ParseTuple(args, "KO", &hand, &moves)) return NULL;
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence");
    if (!seq) return NULL;
    Hand h;
    memset(&h, 0, sizeof(h));
    h.hand = hand;
    h.nmoves = (int32_t)PySequence_Fast_GET_SIZE(seq);
    h.moves = calloc(h.nmoves ? h.nmoves : 1, sizeof(Move));
    if (!h.moves) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (int32_t i = 0; i < h.nmoves; i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) < 4) {
            PyErr_SetString(PyExc_TypeError, "a move must be (cards, kind, length, main)");
            break;
        }
        h.moves[i].cards = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(m, 0));
        h.moves[i].kind = (uint8_t)PyLong_AsLong(PyTuple_GET_ITEM(m, 1));
        h.moves[i].length = (uint8_t)(PyLong_AsLong(PyTuple_GET_ITEM(m, 2)) & 15);
        h.moves[i].main = (uint8_t)(PyLong_AsLong(PyTuple_GET_ITEM(m, 3)) & 15);
    }
    Py_DECREF(seq);
    if (PyErr_Occurred() || compute_pairs(&h) < 0) {
        free(h.moves);
        free(h.pairs);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    PyObject *out = PyList_New(h.npairs);
    for (int32_t i = 0; out && i < h.npairs; i++) {
        Pair *p = &h.pairs[i];
        PyList_SET_ITEM(out, i, Py_BuildValue("(iiii)", p->y, p->low, p->high, p->code));
    }
    free(h.moves);
    free(h.pairs);
    return out;
}

/* lead_moves(hand) -> [(cards, kind, length, main)] in the engine's order:
   the C generator, for the tests to compare with the engine's. */
static PyObject *native_lead_moves(PyObject *self, PyObject *args) {
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "K", &hand)) return NULL;
    MoveList l = {0};
    if (gen_lead_moves(hand, &l) < 0) {
        free(l.m);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(l.n);
    for (int i = 0; out && i < l.n; i++)
        PyList_SET_ITEM(out, i, Py_BuildValue("(Kiii)", (unsigned long long)l.m[i].cards, l.m[i].kind, l.m[i].length, l.m[i].main));
    free(l.m);
    return out;
}

/* compress(a, b) -> (a', b'): the two hands under their rank compression, as
   the table's keys hold them (chain ranks and the 2 in place; jokers at bits
   52 and 53), for the tests to compare with tutor.solver.canon. */
static PyObject *native_compress(PyObject *self, PyObject *args) {
    unsigned long long a, b;
    if (!PyArg_ParseTuple(args, "KK", &a, &b)) return NULL;
    Plan plan;
    build_plan(&plan, presence(a), presence(b));
    return Py_BuildValue("(KK)", (unsigned long long)squeeze(&plan, a), (unsigned long long)squeeze(&plan, b));
}

/* min_plays(hand) -> the least number of plays that empty the hand. */
static PyObject *native_min_plays(PyObject *self, PyObject *args) {
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "K", &hand)) return NULL;
    TwoSearch tmp;
    memset(&tmp, 0, sizeof(tmp));
    if (map_grow(&tmp.plays) < 0) return PyErr_NoMemory();
    int n = min_plays(&tmp, hand, NULL);
    map_free(&tmp.plays);
    if (n < 0) return PyErr_NoMemory();
    return PyLong_FromLong(n);
}

/* ------------------------------------------------------- the coach's play-out */

/* A quick play-out policy for the coach's sampled games (tutor/bots/rollout.py,
   `playout`): every seat plays from its own hand and the card counts only
   (no peeking: the hidden hands are the sample's), by one measure of a hand —
   its least number of plays (min_plays above, exact and memoised).  It is not
   the hard bot: it is a cheaper policy, about a hundred times faster a game,
   and ``ddz bench coach --quality`` measures how its verdicts agree with the
   hard policy's.  Rules: the standard ones (the caller checks).

   Leading: go out if the hand is one play; a farmer whose partner holds one
   card (and no opponent does) leads its lowest single; otherwise the play that
   leaves the fewest plays, then spends the fewest high cards (A, 2, jokers),
   then sheds the most cards, then is the lowest — no single into an opponent
   holding one card while anything else is left (then the highest single), no
   bomb unless the rest is one play.
   Following the partner: pass, unless an answer leaves at most one play.
   Following an opponent: the answer that leaves the fewest plays (the highest
   one against an opponent on one or two cards playing a single or a pair),
   played when it takes a play off the hand, costs no high card, or the
   opponent is on two cards or fewer; else a bomb when the opponent is on three
   or fewer cards or the bomb leaves one play; else pass. */

static TwoSearch g_play; /* only its `plays` memo is used */

static int play_mp(uint64_t hand) {
    if (!g_play.plays.cap && map_grow(&g_play.plays) < 0) return -1;
    if (g_play.plays.n > (1u << 21)) map_clear(&g_play.plays);
    return min_plays(&g_play, hand, NULL);
}

static inline int high_cards(uint64_t cards) {
    return RANK(cards, 11) + RANK(cards, 12) + RANK(cards, 13) + RANK(cards, 14);
}

static inline int is_bomb_kind(int kind) { return kind == KIND_BOMB || kind == KIND_ROCKET; }

static inline int beats(const Move *m, const Move *t) {
    if (m->kind == KIND_ROCKET) return 1;
    if (t->kind == KIND_ROCKET) return 0;
    if (m->kind == KIND_BOMB) return t->kind != KIND_BOMB || m->main > t->main;
    return m->kind == t->kind && m->length == t->length && m->main > t->main;
}

/* Lexicographic key of a candidate: smaller is better. */
static inline long long play_key(int plays, const Move *m) {
    return ((long long)plays << 24) | ((long long)high_cards(m->cards) << 16) |
           ((long long)(63 - cards_size(m->cards)) << 8) | m->main;
}

/* The lead the play-out policies choose by play_key (the hand's least plays left, then the high cards spent, the
   cards shed, the rank): no bomb unless the rest is one play, no single into an opponent on one card while
   anything else is left (then the highest single), and with `avoid_pairs` (the plan policy) no pair into an
   opponent on two cards while anything else is left; only bombs left: the lowest.  The index, -2 out of memory. */
static int lead_by_key(const MoveList *l, uint64_t h, int opp_min, int avoid_pairs) {
    int others = 0, non_pairs = 0, chosen = -1;
    for (int i = 0; i < l->n; i++) {
        if (!is_bomb_kind(l->m[i].kind) && l->m[i].kind != K_SINGLE) others = 1;
        if (!is_bomb_kind(l->m[i].kind) && l->m[i].kind != K_PAIR) non_pairs = 1;
    }
    long long best = -1;
    for (int i = 0; i < l->n; i++) {
        const Move *m = &l->m[i];
        int plays = play_mp(h - m->cards);
        if (plays < 0) return -2;
        if (is_bomb_kind(m->kind) && plays > 1) continue;
        if (opp_min == 1 && m->kind == K_SINGLE && others) continue;
        if (avoid_pairs && opp_min == 2 && m->kind == K_PAIR && non_pairs) continue;
        long long key = play_key(plays, m);
        if (opp_min == 1 && m->kind == K_SINGLE) key = ((long long)plays << 24) | (15 - m->main);
        if (best < 0 || key < best) { best = key; chosen = i; }
    }
    if (chosen < 0) /* only bombs that leave more than one play */
        for (int i = 0; i < l->n; i++)
            if (chosen < 0 || l->m[i].main < l->m[chosen].main) chosen = i;
    return chosen;
}

/* The policy's move for `seat`: 1 and *out set to play, 0 to pass, -1 out of memory. */
static int play_choose(uint64_t h, const int *counts, int landlord, int seat, const Move *table, int table_seat,
                       Move *out) {
    MoveList l = {0};
    if (gen_lead_moves(h, &l) < 0) goto oom;
    int opp_min = 99, partner_cards = 99;
    for (int s = 0; s < 3; s++) {
        if (s == seat) continue;
        int c = counts[s];
        if ((s == landlord) != (seat == landlord)) {
            if (c < opp_min) opp_min = c;
        } else {
            partner_cards = c;
        }
    }
    int chosen = -1;
    if (!table) {
        for (int i = 0; i < l.n; i++)
            if (l.m[i].cards == h) { chosen = i; break; }
        if (chosen < 0 && seat != landlord && partner_cards == 1 && opp_min > 1)
            chosen = 0; /* singles come first, lowest rank first */
        if (chosen < 0) {
            chosen = lead_by_key(&l, h, opp_min, 0);
            if (chosen == -2) goto oom;
        }
    } else {
        int is_partner = table_seat != landlord && seat != landlord;
        int tcount = counts[table_seat];
        int base = play_mp(h);
        if (base < 0) goto oom;
        long long best = -1;
        int best_plays = 99;
        int bomb = -1;
        for (int i = 0; i < l.n; i++) {
            Move *m = &l.m[i];
            if (!beats(m, table)) continue;
            if (m->cards == h) { chosen = i; best = -2; break; }
            int plays = play_mp(h - m->cards);
            if (plays < 0) goto oom;
            if (is_bomb_kind(m->kind)) {
                if (!is_partner && (tcount <= 3 || plays <= 1) &&
                    (bomb < 0 || (l.m[bomb].kind == KIND_ROCKET) > (m->kind == KIND_ROCKET) ||
                     ((l.m[bomb].kind == KIND_ROCKET) == (m->kind == KIND_ROCKET) && m->main < l.m[bomb].main)))
                    bomb = i;
                continue;
            }
            if (is_partner) {
                if (plays <= 1 && chosen < 0) chosen = i;
                continue;
            }
            long long key = play_key(plays, m);
            if (tcount <= 2 && (table->kind == K_SINGLE || table->kind == K_PAIR))
                key = (long long)(15 - m->main);
            if (best < 0 || key < best) { best = key; chosen = i; best_plays = plays; }
        }
        if (best != -2 && !is_partner && chosen >= 0) {
            int worth = best_plays < base || tcount <= 2 || high_cards(l.m[chosen].cards) == 0;
            if (!worth) chosen = -1;
        }
        if (chosen < 0 && bomb >= 0) chosen = bomb;
    }
    if (chosen >= 0) *out = l.m[chosen];
    free(l.m);
    return chosen >= 0 ? 1 : 0;
oom:
    free(l.m);
    return -1;
}

/* ------------------------------------------- the play-out's other players */

/* Variants of the play-out policy for chosen seats (tutor/solver/playout.py,
   `playout(..., variant, seats)`; HardBot's `*_playout_opponents`): the hard
   bot's play-outs assume every seat plays the quick policy above, but the
   opponents it meets may play otherwise, and a play-out that misjudges them
   misjudges the move it scores.  The seats in the `seats` mask play the
   variant; every other seat, and every seat with variant 0, plays
   play_choose unchanged (the coach, the puzzles and the daily pool call it
   with variant 0 and get the same games bit for bit).

   SIM_LOWEST: following, the lowest answer of the table's kind and length
   (never a bomb unless the table is one) whenever there is one, the partner's
   play included — as RLCard's rule agent follows; with none, the quick
   policy decides (a bomb or a pass).
   SIM_RULE: SIM_LOWEST, and leading a play that holds the hand's lowest card
   (the rule agent leads the group of its lowest card), the one the quick
   policy's key likes best among those; the hand in one play goes out.
   SIM_AGENT: RLCard's DouDizhuRuleAgentV1 as its code plays (rlcard 1.2.0,
   rlcard/models/doudizhu_rule_models.py), as near as a seat's view allows:
   leading, the group that holds its lowest card in the agent's split of the
   hand (rocket, bombs, bare trios and their chains, straights of what is
   left, then pairs and singles: a bomb or a bare trio when the lowest card
   is in one); following, the lowest answer of the table's type; with none,
   a pass when the last turn was the partner's and it is a farmer, else one
   of the pass and the bombs drawn by a hash of the position (the agent
   draws at random; the hash keeps a play-out a function of its position). */
#define SIM_QUICK 0
#define SIM_LOWEST 1
#define SIM_RULE 2
#define SIM_AGENT 3

static inline int lowest_rank(uint64_t h) {
    for (int r = 0; r < 15; r++)
        if (RANK(h, r)) return r;
    return -1;
}

/* The agent's lead: the cards and kind of the group of its split that holds the lowest card. */
static void agent_group(uint64_t h, uint64_t *cards, int *kind) {
    int cnt[15];
    for (int r = 0; r < 15; r++) cnt[r] = RANK(h, r);
    int low = lowest_rank(h);
    if (low >= SMALL_JOKER) {
        int rocket = cnt[SMALL_JOKER] && cnt[BIG_JOKER];
        *cards = rocket ? ONE(SMALL_JOKER) + ONE(BIG_JOKER) : ONE(low);
        *kind = rocket ? KIND_ROCKET : K_SINGLE;
        return;
    }
    if (cnt[low] == 4) { *cards = 4 * ONE(low); *kind = KIND_BOMB; return; }
    if (cnt[low] == 3) {
        int high = low;
        while (high + 1 < 12 && cnt[high + 1] == 3) high++;
        *cards = 0;
        for (int r = low; r <= high; r++) *cards += 3 * ONE(r);
        *kind = high > low ? K_AIRPLANE : K_TRIO;
        return;
    }
    int top = low; /* the run of ranks below the 2 left after the bombs and trios */
    while (top + 1 < 12 && cnt[top + 1] > 0 && cnt[top + 1] < 3) top++;
    if (top - low + 1 >= 5) {
        *cards = 0;
        for (int r = low; r <= top; r++) *cards += ONE(r);
        *kind = K_STRAIGHT;
        return;
    }
    *cards = cnt[low] * ONE(low);
    *kind = cnt[low] == 2 ? K_PAIR : K_SINGLE;
}

/* The variant's move: 1 and *out set to play, 0 to pass, -1 out of memory. */
static int sim_choose(uint64_t h, const int *counts, int landlord, int seat, const Move *table, int table_seat,
                      int variant, Move *out) {
    if (variant == SIM_QUICK) return play_choose(h, counts, landlord, seat, table, table_seat, out);
    MoveList l = {0};
    if (gen_lead_moves(h, &l) < 0) goto oom;
    int chosen = -1;
    if (table) {
        for (int i = 0; i < l.n; i++) {
            Move *m = &l.m[i];
            if (m->kind != table->kind || m->length != table->length || m->main <= table->main) continue;
            if (is_bomb_kind(m->kind) && !is_bomb_kind(table->kind)) continue;
            if (chosen < 0 || m->main < l.m[chosen].main) chosen = i;
        }
        if (chosen < 0 && variant == SIM_AGENT) {
            int prev = (seat + 2) % 3;
            int bombs = 0;
            if (prev == landlord || seat == landlord) {
                for (int i = 0; i < l.n; i++)
                    if (is_bomb_kind(l.m[i].kind) && beats(&l.m[i], table)) bombs++;
            }
            int pick = bombs ? (int)(mix64(h ^ mix64(table->cards ^ (uint64_t)seat)) % (uint64_t)(bombs + 1)) : 0;
            for (int i = 0; i < l.n && pick > 0; i++)
                if (is_bomb_kind(l.m[i].kind) && beats(&l.m[i], table) && --pick == 0) chosen = i;
            if (chosen < 0) { free(l.m); return 0; } /* the pass */
        }
    } else if (variant == SIM_AGENT) {
        uint64_t cards;
        int kind;
        agent_group(h, &cards, &kind);
        for (int i = 0; i < l.n; i++)
            if (l.m[i].cards == cards && l.m[i].kind == kind) { chosen = i; break; }
    } else if (variant == SIM_RULE) {
        int low = lowest_rank(h);
        long long best = -1;
        for (int i = 0; i < l.n; i++) {
            Move *m = &l.m[i];
            if (m->cards == h) { chosen = i; break; }
            if (!RANK(m->cards, low) || is_bomb_kind(m->kind)) continue;
            int plays = play_mp(h - m->cards);
            if (plays < 0) goto oom;
            long long key = play_key(plays, m);
            if (best < 0 || key < best) { best = key; chosen = i; }
        }
    }
    if (chosen >= 0) *out = l.m[chosen];
    free(l.m);
    if (chosen >= 0) return 1;
    return play_choose(h, counts, landlord, seat, table, table_seat, out);
oom:
    free(l.m);
    return -1;
}

/* ------------------------------------------- the plan policy (round 12) */

/* SIM_PLAN (round 12, issue 33): the quick policy with a sense of control,
   for EVERY seat of the hard bot's play-outs (HardBot.playout_policy), not a
   model of any one opponent.  Besides its own hand and the counts, a seat
   reads the cards still out (`rest`: the other two hands together, which a
   real player knows from the cards played; never which of them holds what).
   A play is a *boss* when nothing of its kind in `rest` beats it (bombs
   aside: a bomb may beat anything, and the policy cannot know who holds it).
   Where quick measures a hand only by its least number of plays, plan adds:
   - leading: a boss play after which the rest is one play is led first (the
     lead comes back and the last play goes out); otherwise quick's choice,
     except that a pair is not led into an opponent on two cards while
     anything else is left;
   - following an opponent: an answer that is a boss and leaves one play is
     played (it wins); otherwise the answer quick likes best (fewest plays
     left, then fewest high cards) is always played when there is one that
     is not a bomb (quick passes when it neither takes a play off the hand
     nor spares the high cards, unless the opponent is on two cards or
     fewer); bombs as quick;
   - following the partner: a boss play of the partner, or one the landlord
     has already passed, stands; one the landlord has still to answer (the
     partner played just before this seat) and could beat is overtaken by an
     answer that takes a play off the hand and costs no high card (A, 2,
     jokers), or by one that then goes out in one play.
   Everything else is play_choose's.  Measured choices (benchmarks/
   playout_policies.py, plan against quick on 10,000 random deals): ordering
   the lead's candidates with the bosses last lost 0.004 (landlord), and
   answering an opponent only when on four cards or fewer (between quick's
   rule and always) cost 0.02-0.03 on each side: quick's reluctance to spend
   high cards is its largest fault as a player. */
#define SIM_PLAN 4

/* Can some play of `m`'s kind made of `rest` beat it (bombs aside; kickers assumed)? */
static int rest_beats(uint64_t rest, const Move *m) {
    int need, len = m->length, top;
    switch (m->kind) {
    case K_SINGLE: need = 1; len = 1; break;
    case K_PAIR: need = 2; len = 1; break;
    case K_TRIO: case K_TRIO_SINGLE: case K_TRIO_PAIR: need = 3; len = 1; break;
    case K_STRAIGHT: need = 1; break;
    case K_PAIR_CHAIN: need = 2; break;
    case K_AIRPLANE: case K_AIRPLANE_SINGLES: case K_AIRPLANE_PAIRS: need = 3; break;
    case K_FOUR_TWO_SINGLES: case K_FOUR_TWO_PAIRS: need = 4; len = 1; break;
    case KIND_BOMB:
        for (int r = m->main + 1; r < 13; r++)
            if (RANK(rest, r) >= 4) return 1;
        return RANK(rest, SMALL_JOKER) && RANK(rest, BIG_JOKER);
    default: return 0; /* the rocket */
    }
    if (len <= 1) {
        top = m->kind == K_SINGLE ? 15 : 13;
        for (int r = m->main + 1; r < top; r++)
            if (RANK(rest, r) >= need) return 1;
        return 0;
    }
    int run = 0; /* chains end at the ace (rank 11) */
    for (int r = 0; r < 12; r++) {
        run = RANK(rest, r) >= need ? run + 1 : 0;
        if (run >= len && r > m->main) return 1;
    }
    return 0;
}

/* The fewest cards an opponent of ``seat`` holds, and its partner's (99: none), from the three seats' counts. */
static void seat_counts(const int *counts, int landlord, int seat, int *opp_min, int *partner_cards) {
    *opp_min = 99;
    *partner_cards = 99;
    for (int s = 0; s < 3; s++) {
        if (s == seat) continue;
        if ((s == landlord) != (seat == landlord)) {
            if (counts[s] < *opp_min) *opp_min = counts[s];
        } else {
            *partner_cards = counts[s];
        }
    }
}

static int plan_choose(uint64_t h, uint64_t rest, const int *counts, int landlord, int seat, const Move *table,
                       int table_seat, Move *out) {
    MoveList l = {0};
    if (gen_lead_moves(h, &l) < 0) goto oom;
    int opp_min, partner_cards;
    seat_counts(counts, landlord, seat, &opp_min, &partner_cards);
    int chosen = -1;
    if (!table) {
        for (int i = 0; i < l.n; i++)
            if (l.m[i].cards == h) { chosen = i; break; }
        if (chosen < 0 && seat != landlord && partner_cards == 1 && opp_min > 1) chosen = 0;
        if (chosen < 0) { /* a boss, then out */
            for (int i = 0; i < l.n && chosen < 0; i++) {
                Move *m = &l.m[i];
                if (is_bomb_kind(m->kind) || rest_beats(rest, m)) continue;
                int plays = play_mp(h - m->cards);
                if (plays < 0) goto oom;
                if (plays == 1) chosen = i;
            }
        }
        if (chosen < 0) {
            chosen = lead_by_key(&l, h, opp_min, 1);
            if (chosen == -2) goto oom;
        }
    } else {
        int is_partner = table_seat != landlord && seat != landlord;
        int base = play_mp(h);
        if (base < 0) goto oom;
        if (is_partner) {
            int landlord_next = (seat + 1) % 3 == landlord; /* the partner played just before this seat */
            int overtake = landlord_next && rest_beats(rest, table) && partner_cards > 1;
            long long best = -1;
            for (int i = 0; i < l.n; i++) {
                Move *m = &l.m[i];
                if (!beats(m, table)) continue;
                if (m->cards == h) { chosen = i; break; } /* out, a bomb too (as quick) */
                if (is_bomb_kind(m->kind)) continue;
                int plays = play_mp(h - m->cards);
                if (plays < 0) goto oom;
                if (plays <= 1) { chosen = i; break; }
                if (!overtake || plays >= base || high_cards(m->cards)) continue;
                long long key = play_key(plays, m);
                if (best < 0 || key < best) { best = key; chosen = i; }
            }
        } else {
            int tcount = counts[table_seat];
            long long best = -1;
            int bomb = -1;
            for (int i = 0; i < l.n; i++) {
                Move *m = &l.m[i];
                if (!beats(m, table)) continue;
                if (m->cards == h) { chosen = i; break; }
                int plays = play_mp(h - m->cards);
                if (plays < 0) goto oom;
                if (is_bomb_kind(m->kind)) {
                    if ((tcount <= 3 || plays <= 1) &&
                        (bomb < 0 || (l.m[bomb].kind == KIND_ROCKET) > (m->kind == KIND_ROCKET) ||
                         ((l.m[bomb].kind == KIND_ROCKET) == (m->kind == KIND_ROCKET) && m->main < l.m[bomb].main)))
                        bomb = i;
                    continue;
                }
                if (plays <= 1 && !rest_beats(rest, m)) { chosen = i; break; }
                long long key = play_key(plays, m);
                if (tcount <= 2 && (table->kind == K_SINGLE || table->kind == K_PAIR)) key = (long long)(15 - m->main);
                if (best < 0 || key < best) { best = key; chosen = i; }
            }
            if (chosen < 0 && bomb >= 0) chosen = bomb;
        }
    }
    if (chosen >= 0) *out = l.m[chosen];
    free(l.m);
    return chosen >= 0 ? 1 : 0;
oom:
    free(l.m);
    return -1;
}

/* The fitted model (round 13): its own file, after the plan policy. */
#include "_fit.c"

/* sim_choose with the cards still out (`rest`: the other two hands together), which SIM_PLAN and SIM_FIT read. */
static int sim_choose_rest(uint64_t h, uint64_t rest, const int *counts, int landlord, int seat, const Move *table,
                           int table_seat, int variant, Move *out) {
    if (variant == SIM_PLAN) return plan_choose(h, rest, counts, landlord, seat, table, table_seat, out);
    if (variant == SIM_FIT) return fit_choose(h, rest, counts, landlord, seat, table, table_seat, out);
    return sim_choose(h, counts, landlord, seat, table, table_seat, variant, out);
}

/* The play on the table from Python: None (no table: 0) or (cards, kind, length, main) (1);
   -1 with the Python error set when it is neither. */
static int parse_table(PyObject *obj, Move *table) {
    unsigned long long cards;
    int kind, length, main;
    if (obj == Py_None) return 0;
    if (!PyArg_ParseTuple(obj, "Kiii", &cards, &kind, &length, &main)) return -1;
    table->cards = cards;
    table->kind = (uint8_t)kind;
    table->length = (uint8_t)length;
    table->main = (uint8_t)main;
    return 1;
}

/* A move as Python sees it: (cards, kind, length, main). */
static PyObject *move_tuple(const Move *m) {
    return Py_BuildValue("(Kiii)", (unsigned long long)m->cards, m->kind, m->length, m->main);
}

/* playout(hands, landlord, to_move, table, table_seat, trace[, variant, seats, base]) -> winner seat
   (-1 when the turn limit is hit), or (winner, moves) with trace: each move
   (cards, kind, length, main) or None for a pass.  `table` is None or
   (cards, kind, length, main); `table_seat` is -1 with no table.  The seats
   in the bit mask `seats` play `variant` (sim_choose_rest; 0: the quick policy),
   the others `base` (0, the quick policy, unless given: round 12's plan). */
static PyObject *native_playout(PyObject *self, PyObject *args) {
    unsigned long long h0, h1, h2;
    int landlord, to_move, table_seat, trace, variant = SIM_QUICK, sim_seats = 0, base = SIM_QUICK;
    PyObject *table_obj;
    if (!PyArg_ParseTuple(args, "(KKK)iiOip|iii", &h0, &h1, &h2, &landlord, &to_move, &table_obj, &table_seat, &trace,
                          &variant, &sim_seats, &base))
        return NULL;
    if (variant < SIM_QUICK || variant > SIM_FIT || base < SIM_QUICK || base > SIM_FIT) {
        PyErr_SetString(PyExc_ValueError, "the variant is 0, 1, 2, 3, 4 or 5");
        return NULL;
    }
    uint64_t hands[3] = {h0, h1, h2};
    Move table;
    int has_table = parse_table(table_obj, &table);
    if (has_table < 0) return NULL;
    if (landlord < 0 || landlord > 2 || to_move < 0 || to_move > 2 || (has_table && (table_seat < 0 || table_seat > 2))) {
        PyErr_SetString(PyExc_ValueError, "seats are 0, 1 or 2");
        return NULL;
    }
    PyObject *moves = trace ? PyList_New(0) : NULL;
    if (trace && !moves) return NULL;
    int winner = -1;
    int seat = to_move;
    for (int turn = 0; turn < 400; turn++) {
        if (has_table && table_seat == seat) has_table = 0; /* both others passed */
        Move m;
        int counts[3] = {cards_size(hands[0]), cards_size(hands[1]), cards_size(hands[2])};
        int r = sim_choose_rest(hands[seat], hands[(seat + 1) % 3] + hands[(seat + 2) % 3], counts, landlord, seat,
                                has_table ? &table : NULL, table_seat, (sim_seats >> seat) & 1 ? variant : base, &m);
        if (r < 0) {
            Py_XDECREF(moves);
            return PyErr_NoMemory();
        }
        if (trace) {
            PyObject *item = r ? move_tuple(&m) : (Py_INCREF(Py_None), Py_None);
            if (!item || PyList_Append(moves, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(moves);
                return NULL;
            }
            Py_DECREF(item);
        }
        if (r) {
            hands[seat] -= m.cards;
            if (!hands[seat]) { winner = seat; break; }
            table = m;
            table_seat = seat;
            has_table = 1;
        }
        seat = (seat + 1) % 3;
    }
    if (!trace) return PyLong_FromLong(winner);
    PyObject *out = Py_BuildValue("(iN)", winner, moves);
    return out;
}

/* choose(hand, counts, landlord, seat, table, table_seat[, variant, rest]) -> (cards, kind, length, main) or None:
   the play-out policy's move for one seat that holds `hand`, from its own
   view (its hand, the card counts, the table; `rest`, the cards still out,
   for the plan variant) — the model of the others' past plays when the
   coach's samples are nudged towards them. */
static PyObject *native_choose(PyObject *self, PyObject *args) {
    unsigned long long hand, rest = 0;
    int counts[3], landlord, seat, table_seat, variant = SIM_QUICK;
    PyObject *table_obj;
    if (!PyArg_ParseTuple(args, "K(iii)iiOi|iK", &hand, &counts[0], &counts[1], &counts[2], &landlord, &seat,
                          &table_obj, &table_seat, &variant, &rest))
        return NULL;
    if (variant < SIM_QUICK || variant > SIM_FIT) {
        PyErr_SetString(PyExc_ValueError, "the variant is 0, 1, 2, 3, 4 or 5");
        return NULL;
    }
    Move table, m;
    if (parse_table(table_obj, &table) < 0) return NULL;
    if (landlord < 0 || landlord > 2 || seat < 0 || seat > 2 || (table_obj != Py_None && (table_seat < 0 || table_seat > 2)) || !hand) {
        PyErr_SetString(PyExc_ValueError, "seats are 0, 1 or 2 and the hand holds cards");
        return NULL;
    }
    int r = sim_choose_rest(hand, rest, counts, landlord, seat, table_obj != Py_None ? &table : NULL, table_seat, variant,
                            &m);
    if (r < 0) return PyErr_NoMemory();
    if (!r) Py_RETURN_NONE;
    return move_tuple(&m);
}

/* Nudging sampled deals towards the others' past plays (round 7): its own file, after sim_choose. */
#include "_nudge.c"

static PyMethodDef native_functions[] = {
    {"fit_weights", native_fit_weights, METH_NOARGS, "fit_weights() -> the fitted play-out model's weights (round 13)."},
    {"fit_features", native_fit_features, METH_VARARGS,
     "fit_features(hand, counts, landlord, seat, table, table_seat, rest) -> [(move or None, features)]: "
     "the fitted play-out model's candidates (round 13)."},
    {"nudge", native_nudge, METH_VARARGS,
     "nudge(history, viewer, counts, landlord, known, deals, variant, steps, first, seed) -> [((h0, h1, h2), wrong)]: "
     "sampled deals nudged towards the others' past plays (_nudge.c)."},
    {"mismatches", native_mismatches, METH_VARARGS,
     "mismatches(history, viewer, counts, landlord, hands, variant, first[, cap]) -> (wrong, [(seat, wanted)])."},
    {"choose", native_choose, METH_VARARGS,
     "choose(hand, counts, landlord, seat, table, table_seat[, variant]) -> move or None: the play-out policy's move."},
    {"playout", native_playout, METH_VARARGS,
     "playout((h0, h1, h2), landlord, to_move, table, table_seat, trace[, variant, seats]) -> winner [, moves]: "
     "the coach's play-out (the seats of the mask `seats` play `variant`)."},
    {"min_plays", native_min_plays, METH_VARARGS, "min_plays(hand) -> the least number of plays (C)."},
    {"compress", native_compress, METH_VARARGS, "compress(a, b) -> the two hands rank-compressed, as the keys hold them."},
    {"lead_moves", native_lead_moves, METH_VARARGS, "lead_moves(hand) -> the C generator's moves, in order."},
    {"dominance_pairs", native_dominance_pairs, METH_VARARGS,
     "dominance_pairs(hand, moves) -> [(y, low, high, code)] as the search computes them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "_native", "Compiled core of the two-player endgame search.", -1, native_functions,
    NULL, NULL, NULL, NULL,
};

/* What every module built on this core does once at import, before any search
   (_native here, _team, which includes this file): the compression's segment
   table.  One function, so that a new import-time table is never missed by one
   of them (a _team without the table answered wrong: the merge of 2026-12-02). */
static void core_init(void) {
    fill_segments();
}

PyMODINIT_FUNC PyInit__native(void) {
    core_init();
    if (PyType_Ready(&TwoSearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (!m) return NULL;
    Py_INCREF(&TwoSearchType);
    if (PyModule_AddObject(m, "TwoSearch", (PyObject *)&TwoSearchType) < 0) {
        Py_DECREF(&TwoSearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
