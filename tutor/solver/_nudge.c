/* Nudging sampled deals towards the others' past plays, compiled (round 7, issue 33).

   Included by _native.c after the play-out policy (sim_choose), whose model
   of a player it asks; not a translation unit of its own.

   The hard bot's play-outs draw hidden deals that fit the view, then may
   nudge each one, card swap by card swap, towards a deal in which the other
   players' past plays are what a model player would have made
   (tutor/bots/sampling.py: `mismatches`, `likely_samples`).  In Python every
   trial swap rebuilds a view and asks the model once per past decision; here
   the same replay and the same swap rule run on packed hands, with the model
   any variant of the compiled play-out policy (quick, lowest, rule, agent, plan: the last also reads the
   cards still out to the seat, the other two hands then together).

   The replay: walking the history backwards, each seat's hand before each of
   its turns is its sampled hand plus what it played from then on; the model
   is asked, with that hand, the card counts then and the table faced, what it
   would have done; a different answer is a mismatch, remembered with the
   cards the model would have played (0 for a pass: the "blame").

   The swap rule (as likely_samples): pick a mismatch at random; the seat that
   made it gives one of the cards the model wanted it to play that it holds
   (any of its cards when none), the other hidden hand gives a random card
   back; the landlord's kitty cards it still holds (`known`) never move; the
   trial is kept when it explains at least as many plays.  The random draws
   come from a splitmix64 stream seeded by the caller: the same seed, the
   same deals, on any machine. */

typedef struct {
    int seat;
    int has_play;
    Move play;
    int has_table;
    Move table;
    int table_seat;
} PastTurn;

typedef struct {
    int seat;
    uint64_t wanted;
} Blame;

/* The replay's buffers, sized to the history once per call. */
typedef struct {
    const PastTurn *hist;
    int n;          /* turns in the history */
    int first;      /* the first turn checked (the last `recent` ones) */
    int viewer;
    int landlord;
    int variant;
    int counts_now[3];
    uint64_t *before; /* the hand of the turn's seat before each turn */
    int *counts;      /* 3 per turn: the card counts before it */
    uint64_t *rest;   /* the other two hands together before each turn: the cards still out to its seat (plan) */
} Replay;

static inline uint64_t nudge_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ULL;
    return mix64(*state);
}

static inline int nudge_below(uint64_t *state, int n) { return (int)(nudge_next(state) % (uint64_t)n); }

static inline int same_move(const Move *a, const Move *b) {
    return a->cards == b->cards && a->kind == b->kind && a->length == b->length && a->main == b->main;
}

/* How many checked decisions of the others the model makes differently with these hands (the viewer's
   slot holds its own hand); stops counting once above `cap` (cap < 0: never).  Each mismatch goes to
   `blame` (room for every turn).  -1 when out of memory. */
static int nudge_mismatches(Replay *r, const uint64_t *hands_now, int cap, Blame *blame, int *nblame) {
    uint64_t hands[3] = {hands_now[0], hands_now[1], hands_now[2]};
    int counts[3] = {r->counts_now[0], r->counts_now[1], r->counts_now[2]};
    for (int i = r->n - 1; i >= r->first; i--) {
        const PastTurn *t = &r->hist[i];
        if (t->has_play) {
            hands[t->seat] += t->play.cards;
            counts[t->seat] += cards_size(t->play.cards);
        }
        r->before[i] = hands[t->seat];
        r->rest[i] = hands[(t->seat + 1) % 3] + hands[(t->seat + 2) % 3];
        for (int s = 0; s < 3; s++) r->counts[3 * i + s] = counts[s];
    }
    int wrong = 0;
    *nblame = 0;
    for (int i = r->first; i < r->n; i++) {
        const PastTurn *t = &r->hist[i];
        if (t->seat == r->viewer || !r->before[i]) continue;
        Move m;
        int got = sim_choose_rest(r->before[i], r->rest[i], &r->counts[3 * i], r->landlord, t->seat,
                                  t->has_table ? &t->table : NULL, t->table_seat, r->variant, &m);
        if (got < 0) return -1;
        if (got == t->has_play && (!got || same_move(&m, &t->play))) continue;
        wrong++;
        blame[*nblame].seat = t->seat;
        blame[*nblame].wanted = got ? m.cards : 0;
        (*nblame)++;
        if (cap >= 0 && wrong > cap) return wrong;
    }
    return wrong;
}

/* The ranks of `cards`, each as often as held, into `out` (room for 54); how many. */
static int rank_list(uint64_t cards, int *out) {
    int n = 0;
    for (int r = 0; r < 15; r++)
        for (int k = RANK(cards, r); k > 0; k--) out[n++] = r;
    return n;
}

/* Nudge one deal in place by up to `steps` swaps between the two hidden hands `others`; its mismatches,
   -1 when out of memory.  `blame` and `trial_blame` have room for every turn. */
static int nudge_one(Replay *r, uint64_t *hands, const int *others, uint64_t known, int steps, uint64_t *state,
                     Blame *blame, Blame *trial_blame) {
    int nblame = 0, ntrial = 0;
    int wrong = nudge_mismatches(r, hands, -1, blame, &nblame);
    if (wrong < 0) return -1;
    int give_pool[64], take_pool[64];
    for (int step = 0; step < steps && wrong; step++) {
        const Blame *b = &blame[nudge_below(state, nblame)];
        int give = b->seat == others[0] || b->seat == others[1] ? b->seat : others[nudge_below(state, 2)];
        int take = give == others[1] ? others[0] : others[1];
        uint64_t free_give = hands[give] - (give == r->landlord ? known : 0);
        uint64_t free_take = hands[take] - (take == r->landlord ? known : 0);
        int ngive = 0;
        for (int rank = 0; rank < 15; rank++)
            if (RANK(free_give, rank))
                for (int k = RANK(b->wanted, rank); k > 0; k--) give_pool[ngive++] = rank;
        if (!ngive) ngive = rank_list(free_give, give_pool);
        int ntake = rank_list(free_take, take_pool);
        if (!ngive || !ntake) break;
        int ra = give_pool[nudge_below(state, ngive)], rb = take_pool[nudge_below(state, ntake)];
        if (ra == rb) continue;
        uint64_t trial[3] = {hands[0], hands[1], hands[2]};
        trial[give] += ONE(rb) - ONE(ra);
        trial[take] += ONE(ra) - ONE(rb);
        int w = nudge_mismatches(r, trial, wrong, trial_blame, &ntrial);
        if (w < 0) return -1;
        if (w <= wrong) {
            for (int s = 0; s < 3; s++) hands[s] = trial[s];
            wrong = w;
            Blame *swap = blame;
            blame = trial_blame;
            trial_blame = swap;
            nblame = ntrial;
        }
    }
    return wrong;
}

/* A move from Python, None or (cards, kind, length, main): 0 / 1, -1 with the error set. */
static int parse_move(PyObject *obj, Move *m) { return parse_table(obj, m); }

/* The history from Python: a sequence of (seat, play, table, table_seat), play and table None or a move,
   table_seat -1 with no table.  A new array (free it), NULL with the error set. */
static PastTurn *parse_history(PyObject *seq, Py_ssize_t *n) {
    PyObject *fast = PySequence_Fast(seq, "the history is a sequence of (seat, play, table, table_seat)");
    if (!fast) return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    PastTurn *h = calloc(*n ? (size_t)*n : 1, sizeof(PastTurn));
    if (!h) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *play, *table;
        PastTurn *t = &h[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iOOi", &t->seat, &play, &table, &t->table_seat))
            goto bad;
        if ((t->has_play = parse_move(play, &t->play)) < 0 || (t->has_table = parse_move(table, &t->table)) < 0)
            goto bad;
        if (t->seat < 0 || t->seat > 2 || (t->has_table && (t->table_seat < 0 || t->table_seat > 2))) {
            PyErr_SetString(PyExc_ValueError, "seats are 0, 1 or 2");
            goto bad;
        }
    }
    Py_DECREF(fast);
    return h;
bad:
    Py_DECREF(fast);
    free(h);
    return NULL;
}

/* The replay's buffers for `n` turns, and the two blame lists; 0, or -1 with the error set. */
static int replay_alloc(Replay *r, Py_ssize_t n, Blame **blame, Blame **trial) {
    size_t k = n ? (size_t)n : 1;
    r->before = malloc(k * sizeof(uint64_t));
    r->counts = malloc(3 * k * sizeof(int));
    r->rest = malloc(k * sizeof(uint64_t));
    *blame = malloc(k * sizeof(Blame));
    if (trial) *trial = malloc(k * sizeof(Blame));
    if (!r->before || !r->counts || !r->rest || !*blame || (trial && !*trial)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void replay_free(Replay *r, Blame *blame, Blame *trial) {
    free(r->before);
    free(r->counts);
    free(r->rest);
    free(blame);
    free(trial);
}

/* The common arguments: history, viewer, (counts), landlord, variant, first. */
static int replay_setup(Replay *r, PyObject *history, int viewer, int landlord, int variant, int first,
                        const int *counts, PastTurn **hist) {
    if (variant < SIM_QUICK || variant > SIM_FIT) {
        PyErr_SetString(PyExc_ValueError, "the variant is 0, 1, 2, 3, 4 or 5");
        return -1;
    }
    if (viewer < 0 || viewer > 2 || landlord < 0 || landlord > 2) {
        PyErr_SetString(PyExc_ValueError, "seats are 0, 1 or 2");
        return -1;
    }
    Py_ssize_t n;
    *hist = parse_history(history, &n);
    if (!*hist) return -1;
    r->hist = *hist;
    r->n = (int)n;
    r->first = first < 0 ? 0 : (first > r->n ? r->n : first);
    r->viewer = viewer;
    r->landlord = landlord;
    r->variant = variant;
    for (int s = 0; s < 3; s++) r->counts_now[s] = counts[s];
    r->before = NULL;
    r->counts = NULL;
    r->rest = NULL;
    return 0;
}

/* mismatches(history, viewer, counts, landlord, hands, variant, first[, cap]) -> (wrong, [(seat, wanted)]):
   the count of tutor.bots.sampling.mismatches with the variant as the model (the tests compare them). */
static PyObject *native_mismatches(PyObject *self, PyObject *args) {
    PyObject *history;
    int viewer, counts[3], landlord, variant, first, cap = -1;
    unsigned long long h0, h1, h2;
    if (!PyArg_ParseTuple(args, "Oi(iii)i(KKK)ii|i", &history, &viewer, &counts[0], &counts[1], &counts[2],
                          &landlord, &h0, &h1, &h2, &variant, &first, &cap))
        return NULL;
    Replay r;
    PastTurn *hist;
    if (replay_setup(&r, history, viewer, landlord, variant, first, counts, &hist) < 0) return NULL;
    Blame *blame = NULL;
    PyObject *out = NULL;
    if (replay_alloc(&r, r.n, &blame, NULL) == 0) {
        uint64_t hands[3] = {h0, h1, h2};
        int nblame = 0;
        int wrong = nudge_mismatches(&r, hands, cap, blame, &nblame);
        if (wrong < 0) {
            PyErr_NoMemory();
        } else {
            PyObject *list = PyList_New(nblame);
            for (int i = 0; list && i < nblame; i++) {
                PyObject *item = Py_BuildValue("(iK)", blame[i].seat, (unsigned long long)blame[i].wanted);
                if (!item) {
                    Py_CLEAR(list);
                    break;
                }
                PyList_SET_ITEM(list, i, item);
            }
            if (list) out = Py_BuildValue("(iN)", wrong, list);
        }
    }
    replay_free(&r, blame, NULL);
    free(hist);
    return out;
}

/* nudge(history, viewer, counts, landlord, known, deals, variant, steps, first, seed) -> [((h0, h1, h2), wrong)]:
   each deal (the viewer's slot holding its hand) nudged by up to `steps` swaps (likely_samples' rule), with
   the mismatches left.  The deals share one random stream seeded by `seed`. */
static PyObject *native_nudge(PyObject *self, PyObject *args) {
    PyObject *history, *deals;
    int viewer, counts[3], landlord, variant, steps, first;
    unsigned long long known, seed;
    if (!PyArg_ParseTuple(args, "Oi(iii)iKOiiiK", &history, &viewer, &counts[0], &counts[1], &counts[2], &landlord,
                          &known, &deals, &variant, &steps, &first, &seed))
        return NULL;
    Replay r;
    PastTurn *hist;
    if (replay_setup(&r, history, viewer, landlord, variant, first, counts, &hist) < 0) return NULL;
    Blame *blame = NULL, *trial = NULL;
    PyObject *fast = NULL, *out = NULL;
    if (replay_alloc(&r, r.n, &blame, &trial) < 0) goto done;
    fast = PySequence_Fast(deals, "the deals are a sequence of (h0, h1, h2)");
    if (!fast) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    out = PyList_New(count);
    if (!out) goto done;
    int others[2] = {viewer == 0 ? 1 : 0, viewer == 2 ? 1 : 2};
    uint64_t state = seed;
    for (Py_ssize_t d = 0; d < count; d++) {
        unsigned long long h[3];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, d), "KKK", &h[0], &h[1], &h[2])) goto fail;
        uint64_t hands[3] = {h[0], h[1], h[2]};
        int wrong = nudge_one(&r, hands, others, known, steps, &state, blame, trial);
        if (wrong < 0) {
            PyErr_NoMemory();
            goto fail;
        }
        PyObject *item = Py_BuildValue("((KKK)i)", (unsigned long long)hands[0], (unsigned long long)hands[1],
                                       (unsigned long long)hands[2], wrong);
        if (!item) goto fail;
        PyList_SET_ITEM(out, d, item);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(fast);
    replay_free(&r, blame, trial);
    free(hist);
    return out;
}
