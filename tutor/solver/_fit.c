/* The fitted play-out model (round 13, issue 33): SIM_FIT.

   Included by _native.c after the plan policy (it uses play_mp, high_cards,
   beats, rest_beats and lowest_rank).  Every earlier model of the opponents
   was written by hand, after one opponent (the rule agent: "lowest", "rule",
   "agent"), and a model of one opponent gained against it and lost against
   the others (docs/bots.md, rounds 9-12).  This one is a conditional logit:
   each legal move of a seat (the pass too, when following) gets a score, a
   weighted sum of cheap features of the move in its position as the seat sees
   it (its hand, the card counts, the table and who played it, the cards still
   out: never a hidden hand), and the play-out plays the best-scored move.  The
   weights are FITTED by maximum likelihood to the recorded decisions of
   several rule-based players at once (RLCard's rule agent and our medium
   level, both roles: benchmarks/fit_model.py, which rewrites the table below)
   — a generic "how rule bots play", judged by how well it predicts a player it
   was never fitted on (RHCP-v2).

   Features and weights are integers and the score is an integer sum, so the
   same position gives the same move on any machine and compiler (no
   floating-point contraction can reorder it); a tie goes to the first
   candidate in move-generation order, the pass last. */
#define SIM_FIT 5

static int parse_table(PyObject *obj, Move *table);
static PyObject *move_tuple(const Move *m);

/* The features of one candidate (fit_features' order; benchmarks/fit_model.py names them). */
enum {
    F_PASS, F_PASS_PARTNER, F_PASS_SHORT, F_PASS_NEAR, F_DPLAYS, F_OUT, F_ONE_LEFT, F_MAIN, F_MAIN_LEAD,
    F_SIZE_LEAD, F_HIGH, F_TWOS, F_JOKERS, F_BOMB, F_BOMB_NEAR, F_BOSS, F_BOSS_LEAD, F_BREAKS, F_BREAKS_BOMB,
    F_LOWEST_LEAD, F_LOWEST_ANSWER, F_LOWEST_ANSWER_PARTNER, F_ABOVE, F_LEAD_SINGLE, F_LEAD_PAIR, F_LEAD_TRIO,
    F_LEAD_STRAIGHT, F_LEAD_PAIR_CHAIN, F_LEAD_AIRPLANE, F_LEAD_FOUR, F_LEAD_SINGLE_OPP1, F_LEAD_PAIR_OPP2,
    F_LEAD_SINGLE_PARTNER1, F_MAIN_SHORT, F_HIGH_PARTNER, F_HIGH_LEAD_SINGLE, F_HIGH_FOLLOW_CALM, F_LANDLORD_NEXT,
    F_QUICK, F_PLAN, FIT_NF
};

/* --- FITTED WEIGHTS (benchmarks/fit_model.py writes this block; [0] a farmer deciding, [1] the landlord) --- */
static const int32_t FIT_WEIGHTS[2][FIT_NF] = {
    {697, 1093, -865, 382, -573, 1282, 414, -17, -136, -345, 22, -38, -424, -428, 394, -147, 364, -161, 885, 1811, 2655, 2514, -82, -36, 19, -484, 974, -1068, 589, -712, -2018, -369, 109, 76, -275, 206, 199, -966, 1981, -125},
    {386, 0, -1772, 747, -1428, 1351, -277, 56, -255, -223, -313, -203, -1026, -1890, 820, 420, -329, -39, -2687, 1834, 2170, 0, -153, 306, 681, 72, 848, 391, 1137, -2626, -14, 262, 0, -23, 0, -808, -59, 0, 496, 869},
};
/* --- END FITTED WEIGHTS --- */

/* The candidates of a seat (the legal moves; the pass last when following) and each one's FIT_NF features.
   *cands and *feats are malloc'd (the caller frees both); the number of candidates, -1 out of memory. */
static int fit_features(uint64_t h, uint64_t rest, const int *counts, int landlord, int seat, const Move *table,
                        int table_seat, Move **cands, int32_t **feats) {
    MoveList l = {0};
    *cands = NULL;
    *feats = NULL;
    if (gen_lead_moves(h, &l) < 0) goto oom;
    int opp_min, partner_cards;
    seat_counts(counts, landlord, seat, &opp_min, &partner_cards);
    int lead = table == NULL;
    int partner_table = !lead && table_seat != landlord && seat != landlord;
    int tcount = lead ? 99 : counts[table_seat];
    int landlord_next = seat != landlord && (seat + 1) % 3 == landlord;
    int base = play_mp(h);
    if (base < 0) goto oom;
    int low = lowest_rank(h);
    int n = 0, lowest_answer = 99;
    for (int i = 0; i < l.n; i++) { /* the legal moves, kept in order at the front */
        if (!lead && !beats(&l.m[i], table)) continue;
        if (!lead && !is_bomb_kind(l.m[i].kind) && l.m[i].main < lowest_answer) lowest_answer = l.m[i].main;
        l.m[n++] = l.m[i];
    }
    int total = n + !lead;
    *cands = malloc(sizeof(Move) * (size_t)(total ? total : 1));
    *feats = calloc((size_t)(total ? total : 1) * FIT_NF, sizeof(int32_t));
    if (!*cands || !*feats) goto oom;
    for (int i = 0; i < n; i++) {
        const Move *m = &l.m[i];
        int32_t *f = *feats + (size_t)i * FIT_NF;
        (*cands)[i] = *m;
        int plays = play_mp(h - m->cards);
        if (plays < 0) goto oom;
        int bomb = is_bomb_kind(m->kind), size = cards_size(m->cards), high = high_cards(m->cards);
        int single = m->kind == K_SINGLE, pair = m->kind == K_PAIR;
        f[F_DPLAYS] = plays - base;
        f[F_OUT] = m->cards == h;
        f[F_ONE_LEFT] = plays == 1;
        f[F_MAIN] = m->main;
        f[F_MAIN_LEAD] = lead ? m->main : 0;
        f[F_SIZE_LEAD] = lead ? size : 0;
        f[F_HIGH] = high;
        f[F_TWOS] = RANK(m->cards, 12);
        f[F_JOKERS] = m->kind == KIND_ROCKET ? 0 : RANK(m->cards, SMALL_JOKER) + RANK(m->cards, BIG_JOKER);
        f[F_BOMB] = bomb;
        f[F_BOMB_NEAR] = bomb && opp_min <= 3;
        f[F_BOSS] = !bomb && !rest_beats(rest, m);
        f[F_BOSS_LEAD] = lead && f[F_BOSS];
        int breaks = 0, breaks_bomb = 0;
        for (int r = 0; r < 15; r++) {
            int used = (int)RANK(m->cards, r), held = (int)RANK(h, r);
            if (!used || used == held) continue;
            breaks++;
            if (held == 4 && !bomb) breaks_bomb = 1;
        }
        f[F_BREAKS] = breaks;
        f[F_BREAKS_BOMB] = breaks_bomb;
        f[F_LOWEST_LEAD] = lead && low >= 0 && RANK(m->cards, low) > 0;
        f[F_LOWEST_ANSWER] = !lead && !bomb && m->main == lowest_answer;
        f[F_LOWEST_ANSWER_PARTNER] = partner_table && f[F_LOWEST_ANSWER];
        f[F_ABOVE] = !lead && !bomb ? m->main - table->main : 0;
        f[F_LEAD_SINGLE] = lead && single;
        f[F_LEAD_PAIR] = lead && pair;
        f[F_LEAD_TRIO] = lead && (m->kind == K_TRIO || m->kind == K_TRIO_SINGLE || m->kind == K_TRIO_PAIR);
        f[F_LEAD_STRAIGHT] = lead && m->kind == K_STRAIGHT;
        f[F_LEAD_PAIR_CHAIN] = lead && m->kind == K_PAIR_CHAIN;
        f[F_LEAD_AIRPLANE] = lead && (m->kind == K_AIRPLANE || m->kind == K_AIRPLANE_SINGLES ||
                                      m->kind == K_AIRPLANE_PAIRS);
        f[F_LEAD_FOUR] = lead && (m->kind == K_FOUR_TWO_SINGLES || m->kind == K_FOUR_TWO_PAIRS);
        f[F_LEAD_SINGLE_OPP1] = lead && single && opp_min == 1;
        f[F_LEAD_PAIR_OPP2] = lead && pair && opp_min == 2;
        f[F_LEAD_SINGLE_PARTNER1] = lead && single && partner_cards == 1 ? 15 - m->main : 0;
        f[F_MAIN_SHORT] = !lead && !partner_table && tcount <= 2 ? m->main : 0;
        f[F_HIGH_PARTNER] = partner_table ? high : 0;
        f[F_HIGH_LEAD_SINGLE] = lead && single && m->main >= 11;
        f[F_HIGH_FOLLOW_CALM] = !lead && !partner_table && tcount > 5 ? high : 0;
        f[F_LANDLORD_NEXT] = partner_table && landlord_next;
    }
    if (!lead) { /* the pass */
        int32_t *f = *feats + (size_t)n * FIT_NF;
        (*cands)[n] = (Move){0};
        f[F_PASS] = 1;
        f[F_PASS_PARTNER] = partner_table;
        f[F_PASS_SHORT] = !partner_table && tcount <= 2;
        f[F_PASS_NEAR] = !partner_table && tcount <= 5;
    }
    /* Our two hand-written policies' moves as features (neither is a model of an opponent: quick is the
       play-outs' own player, plan round 12's stronger one); the fit weighs them against the rest. */
    Move q, p;
    int rq = play_choose(h, counts, landlord, seat, table, table_seat, &q);
    int rp = plan_choose(h, rest, counts, landlord, seat, table, table_seat, &p);
    if (rq < 0 || rp < 0) goto oom;
    for (int i = 0; i < total; i++) {
        int is_pass = !lead && i == n;
        int32_t *f = *feats + (size_t)i * FIT_NF;
        f[F_QUICK] = rq ? !is_pass && (*cands)[i].cards == q.cards : is_pass;
        f[F_PLAN] = rp ? !is_pass && (*cands)[i].cards == p.cards : is_pass;
    }
    free(l.m);
    return total;
oom:
    free(l.m);
    free(*cands);
    free(*feats);
    *cands = NULL;
    *feats = NULL;
    return -1;
}

/* The fitted model's move: the candidate of the highest score (the first on a tie).  1 and *out set to play,
   0 to pass, -1 out of memory. */
static int fit_choose(uint64_t h, uint64_t rest, const int *counts, int landlord, int seat, const Move *table,
                      int table_seat, Move *out) {
    Move *cands;
    int32_t *feats;
    int n = fit_features(h, rest, counts, landlord, seat, table, table_seat, &cands, &feats);
    if (n < 0) return -1;
    const int32_t *w = FIT_WEIGHTS[seat == landlord];
    int best = -1;
    long long best_score = 0;
    for (int i = 0; i < n; i++) {
        long long score = 0;
        for (int k = 0; k < FIT_NF; k++) score += (long long)w[k] * feats[(size_t)i * FIT_NF + k];
        if (best < 0 || score > best_score) { best = i; best_score = score; }
    }
    int played = best >= 0 && !(table && best == n - 1);
    if (played) *out = cands[best];
    free(cands);
    free(feats);
    return played;
}

/* fit_features(hand, counts, landlord, seat, table, table_seat, rest) -> [(move or None, (f0, f1, ...))]:
   the fitted model's candidates and their features (benchmarks/fit_model.py fits the weights on them). */
static PyObject *native_fit_features(PyObject *self, PyObject *args) {
    unsigned long long hand, rest;
    int counts[3], landlord, seat, table_seat;
    PyObject *table_obj;
    if (!PyArg_ParseTuple(args, "K(iii)iiOiK", &hand, &counts[0], &counts[1], &counts[2], &landlord, &seat,
                          &table_obj, &table_seat, &rest))
        return NULL;
    Move table;
    int has_table = parse_table(table_obj, &table);
    if (has_table < 0) return NULL;
    if (landlord < 0 || landlord > 2 || seat < 0 || seat > 2 || (has_table && (table_seat < 0 || table_seat > 2)) ||
        !hand) {
        PyErr_SetString(PyExc_ValueError, "seats are 0, 1 or 2 and the hand holds cards");
        return NULL;
    }
    Move *cands;
    int32_t *feats;
    int n = fit_features(hand, rest, counts, landlord, seat, has_table ? &table : NULL, table_seat, &cands, &feats);
    if (n < 0) return PyErr_NoMemory();
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *move = has_table && i == n - 1 ? (Py_INCREF(Py_None), Py_None) : move_tuple(&cands[i]);
        PyObject *f = PyTuple_New(FIT_NF);
        for (int k = 0; f && k < FIT_NF; k++) PyTuple_SET_ITEM(f, k, PyLong_FromLong(feats[(size_t)i * FIT_NF + k]));
        PyObject *item = move && f ? PyTuple_Pack(2, move, f) : NULL;
        Py_XDECREF(move);
        Py_XDECREF(f);
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, item);
    }
    free(cands);
    free(feats);
    return out;
}

/* fit_weights() -> ((farmer's weights), (landlord's weights)): the fitted table as compiled (the tests check that
   the play-out's choice is the argmax of these weights over fit_features, and that the table is the fitted one). */
static PyObject *native_fit_weights(PyObject *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *out = PyTuple_New(2);
    for (int r = 0; out && r < 2; r++) {
        PyObject *row = PyTuple_New(FIT_NF);
        for (int k = 0; row && k < FIT_NF; k++) PyTuple_SET_ITEM(row, k, PyLong_FromLong(FIT_WEIGHTS[r][k]));
        if (!row) { Py_CLEAR(out); break; }
        PyTuple_SET_ITEM(out, r, row);
    }
    return out;
}
