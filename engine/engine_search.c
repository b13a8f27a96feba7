/*
 * engine_search.c: the search bot, one for every game. Information-set Monte Carlo tree
 * search (single observer, "SO-ISMCTS"): each iteration plays out one copy of the match
 * in which everything the searching seat cannot see has been dealt again at random.
 *
 * An iteration:
 *   1. copy: the match rebuilt from its last snapshot and the answers since
 *      (engine_match_restore: a match lives partly in a suspended Lua coroutine, which
 *      cannot be copied, so the copy replays the turn so far);
 *   2. determinize: for each player, the cards of that player's zones the seat cannot see
 *      (engine_zone_vis, the rule Views follow) swap names at random among themselves,
 *      and the cards of each hidden shared zone among themselves; the copy's generator
 *      gets a fresh seed. So the copy agrees with everything the seat sees (its hand, the
 *      piles, counts of every zone, each player's card totals) and with nothing it does
 *      not: no real deck order, no real opponent hand, no real future shuffle;
 *   3. select: the root's answer by UCB1 (the play-out bot's own tried in every world any
 *      other is); then down the tree, but only below nodes of SEARCH_EXPAND visits or more
 *      (a tree grown from a few visits chose the seat's later answers almost at random,
 *      and played worse than the bot: 56% against 69-71% of flat searches against
 *      big_money, docs/BENCHMARKS.md), each decision's candidate answers (below) being
 *      the actions; a node's children are keyed by what the answer says (option labels
 *      and card names), so equal answers in different deals are one action; the bot's
 *      answer is expanded first, then the other untried ones, then the child with the
 *      best UCB1 score over the iterations in which it was available;
 *   4. play out: every seat handed to its strategy (the game's "default" bot for searched
 *      or human seats) and the copy run inline, like `deckhand sim`, to the end, or, when
 *      the game has an evaluation hint (`evaluate`, docs/SCRIPTING.md), for `depth` more
 *      turns and scored by the hint;
 *   5. back up: each node on the path gains the result of the seat that chose it (1 for a
 *      win, shared wins split), or the hint's value for it.
 * The answer is the play-out bot's own unless another beat it in the same worlds
 * (search_final).
 *
 * Candidate answers (progressive widening): the play-out bot's own answer, the answers of
 * the game's other bots (a few plausible answers, whatever the game); once the budget
 * affords SEARCH_WIDEN play-outs per option, also the empty answer and each single option
 * where allowed, and all options where allowed. A decision with one candidate is answered
 * without play-outs.
 *
 * Results: mostly the share of the win, partly the score margin (search_rewards).
 *
 * Determinism and hidden information: without a time budget the answer depends only on
 * what the seat can see (the generator is seeded from the match id, the decision and the
 * seat; each hidden group is sorted by name before it is dealt), so two matches that look
 * the same to the seat get the same answer, whatever their hidden cards, and a replayed
 * match gets the same answers. The searched match itself is only read.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_grow.h"
#include "engine_internal.h"

#define SEARCH_CANDIDATES    48  /* answers looked at per decision */
#define SEARCH_EXPLORE       0.7 /* UCB1's exploration constant (rewards are 0..1) */
#define SEARCH_PLAYOUT       "default"
#define SEARCH_MAX_SEATS     16
#define SEARCH_MARGIN_WEIGHT 0.3   /* of a result: the score margin's part (the rest: winning) */
#define SEARCH_MARGIN_SCALE  20.0  /* a margin this large counts fully */
#define SEARCH_PAIRED_MIN    6     /* worlds two root answers share before they are compared */
#define SEARCH_PAIRED_P      0.067 /* a no-better answer's chance to be chosen: search_final */
#define SEARCH_PRIOR_SHARE   8     /* the play-out bot's own answer starts with 1/8 of the */
#define SEARCH_PRIOR_REWARD  0.6   /* iterations as visits, at this mean result */
#define SEARCH_WIDEN         8     /* every option is a candidate from this many play-outs each */
#define SEARCH_EXPAND        40    /* visits a node needs before the tree grows below it */

typedef struct {
    uint64_t key;
    uint32_t child, sibling; /* first child, next sibling: node indices, 0 = none */
    uint32_t visits, avail;
    uint32_t tries; /* play-outs through it (visits without the bot's head start) */
    int mover;      /* the seat whose answer led here */
    double reward;
    uint32_t ids_off, nids; /* children of the root: the answer's option ids in s->ids */
    uint32_t slot;          /* children of the root: their row in s->world_r */
} search_node;

typedef struct {
    uint64_t key;
    uint32_t off, n; /* option ids in cand_ids */
} search_cand;

typedef struct {
    const engine_match *m;
    int seat;
    uint64_t rng;
    engine_match_config cfg;
    const char *bots[SEARCH_MAX_SEATS];
    char *options; /* "k=v;k=v", or NULL */
    engine_answer *log;
    search_node *nodes;
    size_t nnodes, nodes_cap;
    uint32_t *ids; /* root answers */
    size_t nids, ids_cap;
    search_cand cand[SEARCH_CANDIDATES];
    uint32_t cand_ids[SEARCH_CANDIDATES * 8];
    size_t ncand, ncand_ids;
    uint64_t bot_key;  /* the play-out bot's answer to the decision: its key, or 0 */
    uint32_t prior;    /* visits the bot's answer starts with */
    uint64_t worlds;   /* seeds the deals: the n-th try of every root answer gets world n */
    double *world_r;   /* root answer slot x world: the seat's result there, NaN if none */
    uint32_t nworlds;  /* columns of world_r (the iterations) */
    uint32_t root_bot; /* the root child of the play-out bot's own answer, 0 if none */
    uint32_t *shuffle; /* scratch: entity ids of one hidden group */
    size_t shuffle_cap;
    uint32_t *names; /* scratch: their names */
    size_t names_cap;
    uint32_t path[1024];
    uint32_t depth;      /* turns a play-out runs before the game's hint scores it; 0: to the end */
    uint32_t iterations; /* the budget */
    engine_search_stats *stats;
} search;

static uint64_t search_rand(search *s)
{
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t search_below(search *s, uint64_t n)
{
    return n ? search_rand(s) % n : 0;
}

/* ---- copies ---------------------------------------------------------------------------- */

/* The config a copy of s->m is restored with: its players, bots and options. */
static int search_config(search *s)
{
    const engine_match *m = s->m;
    if (m->np > SEARCH_MAX_SEATS)
        return -1;
    for (int i = 0; i < m->np; i++)
        s->bots[i] = m->bot_ref[i] != LUA_NOREF ? m->bot_name[i] : NULL;
    if (m->nopts) {
        size_t len = 0;
        const char *p = m->opts;
        for (size_t i = 0; i < 2 * m->nopts; i++) {
            len += strlen(p) + 1;
            p += strlen(p) + 1;
        }
        s->options = malloc(len + 1);
        if (!s->options)
            return -1;
        char *o = s->options;
        p = m->opts;
        for (size_t i = 0; i < m->nopts; i++) {
            size_t k = strlen(p), v = strlen(p + k + 1);
            if (i)
                *o++ = ';';
            memcpy(o, p, k);
            o[k] = '=';
            memcpy(o + k + 1, p + k + 1, v);
            o += k + 1 + v;
            p += k + v + 2;
        }
        *o = '\0';
    }
    s->log = calloc(m->log.n ? m->log.n : 1, sizeof *s->log);
    if (!s->log)
        return -1;
    for (size_t i = 0; i < m->log.n; i++)
        s->log[i] = engine_match_log_at(m, i);
    s->cfg = (engine_match_config){.match_id = m->match_id,
                                   .game = m->game->name,
                                   .nplayers = m->np,
                                   .names = (const char *const *)m->names,
                                   .bots = s->bots,
                                   .options = s->options};
    return 0;
}

/* Sorts names by their text (not their intern ids, which differ between processes). */
static int search_name_cmp(const void *a, const void *b, void *ud)
{
    const engine_intern *in = ud;
    return strcmp(in->v[*(const uint32_t *)a].s, in->v[*(const uint32_t *)b].s);
}

/* Deal the entities of ids[0..n) again: their names sorted, then shuffled among them, so
 * the deal depends only on which names the group holds, never on where the real ones are. */
static int search_redeal(search *s, engine_match *c, const uint32_t *ids, size_t n)
{
    engine_state *st = &c->st;
    if (n < 2) /* nothing to deal (and no scratch to sort: it may not exist yet) */
        return 0;
    if (dh_grow(&s->names, &s->names_cap, n, sizeof *s->names, 256) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        s->names[i] = st->ents[ids[i] - 1].name;
    qsort_r(s->names, n, sizeof *s->names, search_name_cmp, &c->b->names);
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)search_below(s, i);
        uint32_t a = s->names[i - 1];
        s->names[i - 1] = s->names[j];
        s->names[j] = a;
    }
    for (size_t i = 0; i < n; i++)
        st->ents[ids[i] - 1].name = s->names[i];
    return 0;
}

/* Appends the entities of zone z that s->seat cannot see to the shuffle scratch. */
static int search_hidden(search *s, const engine_match *c, const engine_zone *z, size_t *n)
{
    engine_vis vis = engine_zone_vis(c->game, c->b->names.v[z->name].s);
    if (vis == ENGINE_VIS_PUBLIC || (vis == ENGINE_VIS_OWNER && z->owner == s->seat + 1))
        return 0;
    size_t k = vis == ENGINE_VIS_TOP && z->n ? z->n - 1 : z->n; /* the top is last */
    if (!k)
        return 0;
    if (dh_grow(&s->shuffle, &s->shuffle_cap, *n + k, sizeof *s->shuffle, 256) < 0)
        return -1;
    memcpy(s->shuffle + *n, z->ids, k * sizeof *z->ids);
    *n += k;
    return 0;
}

/* Everything the seat cannot see dealt again (see the top of the file), and a fresh
 * generator: what the copy holds from here on is one world the seat cannot tell from the
 * real one. */
static int search_determinize(search *s, engine_match *c)
{
    engine_state *st = &c->st;
    for (int p = 1; p <= c->np; p++) {
        size_t n = 0;
        for (uint32_t zi = 0; zi < st->nzones; zi++)
            if (st->zones[zi].owner == p && search_hidden(s, c, &st->zones[zi], &n) < 0)
                return -1;
        if (search_redeal(s, c, s->shuffle, n) < 0)
            return -1;
    }
    for (uint32_t zi = 0; zi < st->nzones; zi++) {
        size_t n = 0;
        if (st->zones[zi].owner > 0)
            continue;
        if (search_hidden(s, c, &st->zones[zi], &n) < 0 || search_redeal(s, c, s->shuffle, n) < 0)
            return -1;
    }
    for (int i = 0; i < 4; i++)
        st->rng[i] = search_rand(s) | (i == 0);
    return 0;
}

/* A copy of the match in world number w: the same w deals the hidden cards the same way
 * and seeds the copy's generator the same, so the n-th tries of two answers are played in
 * the same world and their difference is the answers' (common random numbers). */
static engine_match *search_copy(search *s, uint32_t w, engine_error *err)
{
    engine_match *c = engine_match_restore(s->m->b, &s->cfg, s->m->snap.p, s->m->snap.len, s->log,
                                           s->m->log.n, err);
    if (!c)
        return NULL;
    c->replaying = 1; /* a copy's events go nowhere: do not record them */
    uint64_t own = s->rng;
    s->rng = s->worlds + (uint64_t)w * 0x2545f4914f6cdd1dULL;
    int rc = search_determinize(s, c);
    s->rng = own;
    if (rc < 0) {
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
        engine_match_free(c);
        return NULL;
    }
    return c;
}

/* ---- candidates ------------------------------------------------------------------------ */

/* What an answer says, independent of option order and entity ids. */
static uint64_t search_key(const engine_decision *d, const uint32_t *ids, size_t n)
{
    uint64_t key = 0x5bd1e995ULL + n;
    for (size_t i = 0; i < n; i++) {
        const engine_option *o = &d->options[ids[i] - 1];
        uint64_t h = dh_fnv1a(DH_FNV_START, (const uint8_t *)o->label, strlen(o->label) + 1);
        if (o->card)
            h = dh_fnv1a(h, (const uint8_t *)o->card, strlen(o->card));
        key += h * 0x9e3779b97f4a7c15ULL; /* a sum: the order of ids does not matter */
    }
    return key;
}

static void search_add(search *s, const engine_decision *d, const uint32_t *ids, size_t n)
{
    if (s->ncand == SEARCH_CANDIDATES || s->ncand_ids + n > sizeof s->cand_ids / sizeof *ids)
        return;
    uint64_t key = search_key(d, ids, n);
    for (size_t i = 0; i < s->ncand; i++)
        if (s->cand[i].key == key)
            return;
    search_cand *c = &s->cand[s->ncand++];
    c->key = key;
    c->off = (uint32_t)s->ncand_ids;
    c->n = (uint32_t)n;
    memcpy(s->cand_ids + s->ncand_ids, ids, n * sizeof *ids);
    s->ncand_ids += n;
}

/* The candidates: the play-out bot's answer, then the answers of the game's other bots
 * (not `random`): a few plausible answers, whatever the game; then, when the budget
 * affords SEARCH_WIDEN play-outs per option, every single option, none and all too. */
static void search_candidates(search *s, engine_match *c, const engine_decision *d)
{
    s->ncand = s->ncand_ids = 0;
    s->bot_key = 0;
    uint32_t ids[SEARCH_CANDIDATES * 8];
    size_t n = sizeof ids / sizeof *ids;
    const char *bot = c->bot_name[d->seat] ? c->bot_name[d->seat] : SEARCH_PLAYOUT;
    if (engine_match_bot_answer(c, bot, ids, &n, NULL) == ENGINE_OK) {
        s->bot_key = search_key(d, ids, n);
        search_add(s, d, ids, n);
    }
    for (size_t j = 0; j < c->game->nbots; j++) {
        const char *other = c->game->bots[j].name;
        n = sizeof ids / sizeof *ids;
        if (strcmp(other, bot) && strcmp(other, ENGINE_RANDOM_BOT) &&
            engine_match_bot_answer(c, other, ids, &n, NULL) == ENGINE_OK)
            search_add(s, d, ids, n);
    }
    if (s->iterations < (uint64_t)SEARCH_WIDEN * d->noptions)
        return;
    if (d->min == 0)
        search_add(s, d, ids, 0);
    for (uint32_t i = 1; d->min <= 1 && i <= d->noptions; i++)
        search_add(s, d, &i, 1);
    if (d->max > 1 && d->noptions <= d->max && d->noptions >= d->min &&
        d->noptions <= sizeof ids / sizeof *ids) {
        for (uint32_t i = 0; i < d->noptions; i++)
            ids[i] = i + 1;
        search_add(s, d, ids, d->noptions);
    }
}

/* ---- the tree ---------------------------------------------------------------------------- */

static uint32_t search_child(const search *s, uint32_t node, uint64_t key)
{
    for (uint32_t k = s->nodes[node].child; k; k = s->nodes[k].sibling)
        if (s->nodes[k].key == key)
            return k;
    return 0;
}

static int search_new_child(search *s, uint32_t parent, const search_cand *cd, int mover)
{
    if (dh_grow(&s->nodes, &s->nodes_cap, s->nnodes + 1, sizeof *s->nodes, 256) < 0)
        return -1;
    uint32_t k = (uint32_t)s->nnodes++;
    search_node *nd = &s->nodes[k];
    memset(nd, 0, sizeof *nd);
    nd->key = cd->key;
    nd->mover = mover;
    nd->sibling = s->nodes[parent].child;
    s->nodes[parent].child = k;
    if (parent == 0) {
        if (dh_grow(&s->ids, &s->ids_cap, s->nids + cd->n + 1, sizeof *s->ids, 64) < 0)
            return -1;
        nd->ids_off = (uint32_t)s->nids;
        nd->nids = cd->n;
        memcpy(s->ids + s->nids, s->cand_ids + cd->off, cd->n * sizeof *s->ids);
        s->nids += cd->n;
    }
    return (int)k;
}

static double search_ucb(const search_node *nd)
{
    if (!nd->visits) /* tried, but its play-outs failed: not known to be worse */
        return INFINITY;
    double mean = nd->reward / nd->visits;
    return mean + SEARCH_EXPLORE * sqrt(log((double)nd->avail) / nd->visits);
}

/* One step down from node in copy c: the candidate to play (index into s->cand) and the
 * child it leads to (created when new; *expanded then). -1 on allocation failure. */
static int search_select(search *s, uint32_t node, const engine_decision *d, uint32_t *child,
                         int *expanded)
{
    size_t untried[SEARCH_CANDIDATES], nu = 0;
    int best = -1;
    double best_score = -1;
    for (size_t i = 0; i < s->ncand; i++) {
        uint32_t k = search_child(s, node, s->cand[i].key);
        if (!k) {
            untried[nu++] = i;
            continue;
        }
        s->nodes[k].avail++;
        double score = search_ucb(&s->nodes[k]);
        if (score > best_score) {
            best_score = score;
            best = (int)i;
            *child = k;
        }
    }
    *expanded = nu > 0;
    if (nu) {
        /* the play-out bot's answer first (the others are measured against it) */
        best = s->cand[untried[0]].key == s->bot_key ? (int)untried[0]
                                                     : (int)untried[search_below(s, nu)];
        int k = search_new_child(s, node, &s->cand[best], d->seat);
        if (k < 0)
            return -1;
        search_node *nd = &s->nodes[k];
        nd->avail = 1;
        if (nd->key == s->bot_key) { /* what the play-out bot would do: a head start */
            nd->visits = nd->avail = s->prior;
            nd->reward = s->prior * SEARCH_PRIOR_REWARD;
        }
        *child = (uint32_t)k;
    }
    return best;
}

/* ---- play-outs ------------------------------------------------------------------------- */

/* The game's evaluation hint on copy c (at a turn boundary): each seat's value, 0..1, into
 * r. It runs like a bot asked for an answer: g refuses changes, the generator is put back. */
static int search_evaluate(engine_match *c, double *r)
{
    double v[SEARCH_MAX_SEATS];
    uint64_t rng[4];
    memcpy(rng, c->st.rng, sizeof rng);
    c->asking_bot = 1;
    engine_code code = engine_turns_exec(c, ENGINE_OP_EVAL, v, 0);
    c->asking_bot = 0;
    memcpy(c->st.rng, rng, sizeof rng);
    if (code != ENGINE_OK)
        return -1;
    for (int i = 0; i < c->np; i++)
        r[i] = v[i];
    return 0;
}

/* Every seat without a strategy gets the game's default bot, and the copy runs inline (no
 * coroutine yields any more) to its end, or, when the game has an evaluation hint and
 * s->depth is set, for s->depth more turns. 0, or -1 when the copy could not finish. */
static int search_playout(search *s, engine_match *c)
{
    int ref = LUA_NOREF;
    for (size_t j = 0; j < c->game->nbots; j++)
        if (!strcmp(c->game->bots[j].name, SEARCH_PLAYOUT) || ref == LUA_NOREF)
            ref = c->game->bots[j].ref;
    if (ref == LUA_NOREF)
        return -1;
    for (int i = 0; i < c->np; i++) {
        if (c->bot_ref[i] != LUA_NOREF)
            continue;
        c->bot_ref[i] = ref;
        c->bot_name[i] = strdup(SEARCH_PLAYOUT);
        if (!c->bot_name[i])
            return -1;
    }
    c->all_bots = 1;
    if (s->depth && c->game->evaluate_ref != LUA_NOREF)
        c->stop_turn = c->st.turn + s->depth;
    for (int guard = 0; !c->st.finished && guard < 4; guard++) {
        const engine_decision *d = engine_match_decision(c);
        if (!d)
            return c->stop_turn ? 0 : -1; /* stopped at s->depth */
        uint32_t ids[ENGINE_MAX_OPTIONS];
        size_t n = ENGINE_MAX_OPTIONS;
        if (engine_match_bot_answer(c, c->bot_name[d->seat], ids, &n, NULL) != ENGINE_OK ||
            engine_match_answer(c, d->seat, d->decision_id, ids, n, NULL) != ENGINE_OK)
            return -1;
        s->stats->decisions++;
    }
    return c->st.finished ? 0 : -1;
}

/* Each seat's result, 0..1: mostly its share of the win (1 / number of winners for a
 * winner, else 0), partly how its score compares with the best other score (a close loss
 * is better than a rout): the margin makes play-outs that all lose, or all win, still
 * tell good moves from bad ones. */
static void search_rewards(const engine_match *c, double *r)
{
    int winners = 0;
    for (int i = 0; i < c->np; i++)
        winners += c->st.results[i].rank == 1;
    for (int i = 0; i < c->np; i++) {
        const engine_result *me = &c->st.results[i];
        int best_other = INT32_MIN;
        for (int j = 0; j < c->np; j++)
            if (j != i && c->st.results[j].score > best_other)
                best_other = c->st.results[j].score;
        double margin = c->np > 1 ? (double)(me->score - best_other) / SEARCH_MARGIN_SCALE : 0;
        margin = margin > 1 ? 1 : margin < -1 ? -1 : margin;
        double win = me->rank == 1 && winners ? 1.0 / winners : 0;
        r[me->seat] = (1 - SEARCH_MARGIN_WEIGHT) * win + SEARCH_MARGIN_WEIGHT * (margin + 1) / 2;
    }
}

/* The root's children, one per candidate answer of the decision (the same in every
 * world: the decision is the searching seat's own), made from a copy in world 0. */
static int search_root(search *s, engine_error *err)
{
    engine_match *c = search_copy(s, 0, err);
    if (!c)
        return -1;
    const engine_decision *d = engine_match_decision(c);
    int rc = 0;
    if (d)
        search_candidates(s, c, d);
    for (size_t i = 0; d && i < s->ncand; i++) {
        int k = search_new_child(s, 0, &s->cand[i], d->seat);
        if (k < 0) {
            engine_error_set(err, ENGINE_INTERNAL, "out of memory");
            rc = -1;
            break;
        }
        s->nodes[k].slot = (uint32_t)i;
        if (s->nodes[k].key == s->bot_key)
            s->root_bot = (uint32_t)k;
    }
    engine_match_free(c);
    return rc;
}

/* The root answer to try next: each once, then UCB1 (every one is always available). */
static uint32_t search_root_pick(search *s)
{
    uint32_t best = 0, most = 0;
    double best_score = -1;
    for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling)
        most = s->nodes[k].tries > most ? s->nodes[k].tries : most;
    /* the bot's own answer is what the others are measured against: it is tried in every
       world any other answer is */
    if (s->root_bot && s->nodes[s->root_bot].tries < most)
        return s->root_bot;
    for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling) {
        search_node *nd = &s->nodes[k];
        nd->avail = s->nodes[0].visits + 1;
        if (!nd->tries)
            return k;
        double score = search_ucb(nd);
        if (score > best_score) {
            best_score = score;
            best = k;
        }
    }
    return best;
}

/* One iteration; 0, or -1 with err set. */
static int search_iterate(search *s, engine_error *err)
{
    uint32_t node = search_root_pick(s);
    if (!node)
        return 0;
    search_node *root_child = &s->nodes[node];
    uint32_t world = root_child->tries++;
    engine_match *c = search_copy(s, world, err);
    if (!c)
        return -1;
    uint64_t choices0 = c->choices;
    const engine_decision *d = engine_match_decision(c);
    int rc = 0;
    if (!d || engine_match_answer(c, d->seat, d->decision_id, s->ids + root_child->ids_off,
                                  root_child->nids, err) != ENGINE_OK) {
        rc = -1;
        goto done;
    }
    size_t depth = 0;
    s->path[depth++] = node;
    while (!c->st.finished && depth < sizeof s->path / sizeof *s->path &&
           s->nodes[node].visits >= SEARCH_EXPAND) {
        d = engine_match_decision(c);
        if (!d)
            break;
        search_candidates(s, c, d);
        if (!s->ncand)
            break;
        uint32_t child = 0;
        int expanded = 0, pick = search_select(s, node, d, &child, &expanded);
        if (pick < 0) {
            engine_error_set(err, ENGINE_INTERNAL, "out of memory");
            rc = -1;
            goto done;
        }
        const search_cand *cd = &s->cand[pick];
        if (engine_match_answer(c, d->seat, d->decision_id, s->cand_ids + cd->off, cd->n, err) !=
            ENGINE_OK) {
            rc = -1;
            goto done;
        }
        s->path[depth++] = node = child;
        if (expanded)
            break;
    }
    if (!c->st.finished && search_playout(s, c) < 0) {
        s->stats->failed++; /* a copy that overran or failed says nothing: not counted */
        goto done;
    }
    double r[SEARCH_MAX_SEATS];
    if (c->st.finished) {
        search_rewards(c, r);
    } else if (c->stop_turn && !engine_match_decision(c) && search_evaluate(c, r) == 0) {
        s->stats->evaluated++;
    } else {
        s->stats->failed++;
        goto done;
    }
    if (world < s->nworlds)
        s->world_r[(size_t)s->nodes[s->path[0]].slot * s->nworlds + world] = r[s->seat];
    s->nodes[0].visits++;
    for (size_t i = 0; i < depth; i++) {
        search_node *nd = &s->nodes[s->path[i]];
        nd->visits++;
        if (i)
            nd->tries++;
        nd->reward += r[nd->mover];
    }
    s->stats->decisions += depth;
    s->stats->choices += c->choices - choices0;
done:
    engine_match_free(c);
    return rc;
}

/* The z whose one-sided normal tail is p (bisection: once per decision). */
static double search_z_for(double p)
{
    double lo = 0, hi = 10;
    for (int i = 0; i < 50; i++) {
        double mid = (lo + hi) / 2;
        if (0.5 * erfc(mid / sqrt(2.0)) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* The answer: the play-out bot's own, unless another beat it in the same worlds by more
 * than z standard errors of the paired difference (common random numbers make that a fair
 * test with few tries), z such that with m other answers no better than the bot's one is
 * chosen with chance SEARCH_PAIRED_P at most (1.5 for one other answer, 2.4 for eight,
 * 2.6 for sixteen: with z = 1.5 for all, a search widened to every Dominion buy lost to
 * Big Money more often than its own bot, 64.5% against 81.5% on the same seeds);
 * without the bot's answer, the most visited. */
static uint32_t search_final(const search *s)
{
    uint32_t best = s->root_bot;
    if (!best) {
        for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling)
            if (!best || s->nodes[k].visits > s->nodes[best].visits)
                best = k;
        return best;
    }
    uint32_t others = 0;
    for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling)
        others += k != s->root_bot;
    double z = search_z_for(SEARCH_PAIRED_P / (others ? others : 1));
    double best_gain = 0;
    const double *rb = s->world_r + (size_t)s->nodes[s->root_bot].slot * s->nworlds;
    for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling) {
        if (k == s->root_bot)
            continue;
        const double *rk = s->world_r + (size_t)s->nodes[k].slot * s->nworlds;
        double sum = 0, sq = 0;
        uint32_t n = 0;
        for (uint32_t w = 0; w < s->nworlds; w++)
            if (!isnan(rk[w]) && !isnan(rb[w])) {
                double d = rk[w] - rb[w];
                sum += d;
                sq += d * d;
                n++;
            }
        if (n < SEARCH_PAIRED_MIN)
            continue;
        double mean = sum / n, var = (sq - sum * mean) / (n - 1);
        if (mean > best_gain && mean > z * sqrt(var / n)) {
            best_gain = mean;
            best = k;
        }
    }
    return best;
}

engine_code engine_search_answer(const engine_match *m, const engine_search_config *cfg,
                                 uint32_t *ids, size_t *n, engine_search_stats *stats,
                                 engine_error *err)
{
    engine_search_stats local = {0};
    search s = {.m = m, .stats = stats ? stats : &local};
    memset(s.stats, 0, sizeof *s.stats);
    const engine_decision *d = engine_match_decision(m);
    if (!d) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "no decision is pending");
        return ENGINE_BAD_REQUEST;
    }
    uint32_t iterations = cfg && cfg->iterations ? cfg->iterations : ENGINE_SEARCH_ITERATIONS;
    uint64_t t0 = dh_now_ns();
    uint64_t stop = cfg && cfg->budget_ns ? t0 + cfg->budget_ns : 0;
    s.seat = d->seat;
    s.iterations = iterations;
    s.depth = !cfg || !cfg->depth ? ENGINE_SEARCH_DEPTH : cfg->depth < 0 ? 0 : (uint32_t)cfg->depth;
    s.prior = iterations / SEARCH_PRIOR_SHARE > 2 ? iterations / SEARCH_PRIOR_SHARE : 2;
    /* Seeded from what names the decision, not from the state: the state's hash would
       carry the hidden cards into the search. */
    s.rng = dh_fnv1a_str(DH_FNV_START, m->match_id) ^ (d->decision_id * 0xd1342543de82ef95ULL) ^
            (uint64_t)d->seat;
    engine_code code = ENGINE_OK;
    if (search_config(&s) < 0 || dh_grow(&s.nodes, &s.nodes_cap, 1, sizeof *s.nodes, 256) < 0) {
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
        code = ENGINE_INTERNAL;
        goto done;
    }
    memset(&s.nodes[0], 0, sizeof s.nodes[0]);
    s.nnodes = 1;
    s.worlds = search_rand(&s);
    s.nworlds = iterations;
    s.world_r = malloc(sizeof *s.world_r * SEARCH_CANDIDATES * iterations);
    if (!s.world_r) {
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
        code = ENGINE_INTERNAL;
        goto done;
    }
    for (size_t i = 0; i < (size_t)SEARCH_CANDIDATES * iterations; i++)
        s.world_r[i] = NAN;
    if (search_root(&s, err) < 0) {
        code = err && err->code != ENGINE_OK ? err->code : ENGINE_SCRIPT_ERROR;
        goto done;
    }
    /* one candidate (every bot agrees, the budget does not widen): nothing to compare */
    size_t nroot = s.ncand;
    for (uint32_t i = 0; nroot > 1 && i < iterations; i++) {
        if (search_iterate(&s, err) < 0) {
            code = err && err->code != ENGINE_OK ? err->code : ENGINE_SCRIPT_ERROR;
            goto done;
        }
        s.stats->iterations++;
        if (stop && dh_now_ns() >= stop)
            break;
    }
    uint32_t best = search_final(&s);
    if (!best || s.nodes[best].nids > *n) {
        engine_error_set(err, ENGINE_BAD_REQUEST,
                         best ? "the answer does not fit in ids" : "the search found no answer");
        code = ENGINE_BAD_REQUEST;
        goto done;
    }
    memcpy(ids, s.ids + s.nodes[best].ids_off, s.nodes[best].nids * sizeof *ids);
    *n = s.nodes[best].nids;
    s.stats->nodes = s.nnodes;
    engine_error_ok(err);
done:
    s.stats->ns = dh_now_ns() - t0;
    free(s.options);
    free(s.log);
    free(s.nodes);
    free(s.ids);
    free(s.shuffle);
    free(s.names);
    free(s.world_r);
    return code;
}
