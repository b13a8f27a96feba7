/*
 * engine_search.c: the search bot, one for every game. Information-set Monte Carlo tree
 * search (single observer, "SO-ISMCTS"): each iteration plays out one world, a copy of
 * the match in which everything the searching seat cannot see has been dealt again at
 * random (engine_search_world.c makes and plays the worlds; this file grows the tree over
 * them and picks the answer).
 *
 * An iteration:
 *   1. a world: a copy of the match, its hidden cards dealt again (search_copy);
 *   2. select: the root's answer as engine_search_root.c schedules them (sequential
 *      halving over the same worlds); then down the tree, but only below nodes of SEARCH_EXPAND
 * visits or more (a tree grown from a few visits chose the seat's later answers almost at random,
 *      and played worse than the bot: 56% against 69-71% of flat searches against
 *      big_money, docs/BENCHMARKS.md; none at all in a game whose table says
 *      `search_tree = false`), each decision's candidate answers (below) being
 *      the actions; a node's children are keyed by what the answer says (option labels
 *      and card names), so equal answers in different deals are one action; the bot's
 *      answer is expanded first, then the other untried ones, then the child with the
 *      best UCB1 score over the iterations in which it was available;
 *   3. play out the world to its end or to the game's evaluation hint (search_playout);
 *   4. back up: each node on the path gains the result of the seat that chose it (1 for a
 *      win, shared wins split, partly the score margin: search_rewards), or the hint's
 *      value for it.
 * The answer is the play-out bot's own unless another beat it in the same worlds
 * (search_final, engine_search_root.c).
 *
 * Candidate answers (progressive widening): the play-out bot's own answer, the answers of
 * the game's other bots (a few plausible answers, whatever the game); once the budget
 * affords SEARCH_WIDEN play-outs per option, also the empty answer and each single option
 * where allowed, and all options where allowed. A decision with one candidate is answered
 * without play-outs.
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
#include <time.h>

#include "dh_clock.h"
#include "dh_grow.h"
#include "engine_search_impl.h"

#define SEARCH_EXPLORE      0.7 /* UCB1's exploration constant (rewards are 0..1) */
#define SEARCH_PRIOR_SHARE  8   /* the play-out bot's own answer starts with 1/8 of the */
#define SEARCH_PRIOR_REWARD 0.6 /* iterations as visits, at this mean result */
#define SEARCH_WIDEN        8   /* every option is a candidate from this many play-outs each */
#define SEARCH_EXPAND       40  /* visits a node needs before the tree grows below it */

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
 * (not the engine's own: `random`, and `easy` and `normal`, the default bot again; only
 * those its `search_bots` names, when it has that list): a few plausible answers,
 * whatever the game; then, when the budget
 * affords SEARCH_WIDEN play-outs per option, every single option, none and all too,
 * unless the game's table says `search_widen = false`. */
static void search_candidates(search *s, engine_match *c, const engine_decision *d)
{
    s->ncand = s->ncand_ids = 0;
    s->bot_key = 0;
    uint32_t ids[SEARCH_CANDIDATES * 8];
    size_t n = sizeof ids / sizeof *ids;
    const char *bot = c->bot_name[d->seat] ? c->bot_name[d->seat] : search_policy(c->game);
    if (engine_match_bot_answer(c, bot, ids, &n, NULL) == ENGINE_OK) {
        s->bot_key = search_key(d, ids, n);
        search_add(s, d, ids, n);
    }
    for (size_t j = 0; j < c->game->nbots; j++) {
        const char *other = c->game->bots[j].name;
        n = sizeof ids / sizeof *ids;
        if (strcmp(other, bot) && !engine_bot_is_builtin(other) && !c->game->bots[j].unsearched &&
            engine_match_bot_answer(c, other, ids, &n, NULL) == ENGINE_OK)
            search_add(s, d, ids, n);
    }
    if (!c->game->search_widen || s->iterations < (uint64_t)SEARCH_WIDEN * d->noptions)
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

int search_iterate(search *s, uint32_t node, engine_error *err)
{
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
    while (!c->st.finished && depth < sizeof s->path / sizeof *s->path && s->m->game->search_tree &&
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
        search_rewards(c, c->st.turn - s->m->st.turn, r);
    } else if (c->stop_turn && !engine_match_decision(c) &&
               search_evaluate(c, c->st.turn - s->m->st.turn, r) == 0) {
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

uint64_t search_now(const search *s)
{
    if (!s->cpu_clock)
        return dh_now_ns();
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void engine_search_host_config(engine_search_config *cfg)
{
    *cfg = (engine_search_config){.iterations = ENGINE_SEARCH_HOST_ITERATIONS,
                                  .budget_ns = (ENGINE_SEARCH_BUDGET_MS - ENGINE_SEARCH_APPLY_MS) *
                                               1000000ULL};
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
    s.cpu_clock = cfg && cfg->cpu_clock;
    uint64_t wall0 = dh_now_ns();
    uint64_t t0 = search_now(&s);
    uint64_t stop = cfg && cfg->budget_ns ? t0 + cfg->budget_ns : 0;
    s.seat = d->seat;
    s.iterations = iterations;
    s.depth = !cfg || !cfg->depth ? (uint32_t)m->game->search_depth
              : cfg->depth < 0    ? 0
                                  : (uint32_t)cfg->depth;
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
    if (search_root(&s, err) < 0) {
        code = err && err->code != ENGINE_OK ? err->code : ENGINE_SCRIPT_ERROR;
        goto done;
    }
    /* a row of results per root candidate (their slots), made once they are known: a
       decision every bot agrees on (most of them) costs its bots' answers, not a table
       for SEARCH_CANDIDATES rows of the whole play-out count (1.5 MB at a host's 4,000) */
    size_t cells = (s.ncand ? s.ncand : 1) * (size_t)iterations;
    s.world_r = malloc(sizeof *s.world_r * cells);
    if (!s.world_r) {
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
        code = ENGINE_INTERNAL;
        goto done;
    }
    for (size_t i = 0; i < cells; i++)
        s.world_r[i] = NAN;
    /* one candidate (every bot agrees, the budget does not widen): nothing to compare */
    if (s.ncand > 1 && search_spend(&s, t0, stop, err) < 0) {
        code = err && err->code != ENGINE_OK ? err->code : ENGINE_SCRIPT_ERROR;
        goto done;
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
    s.stats->changed = s.root_bot && best != s.root_bot;
    s.stats->policy =
        m->bot_ref[d->seat] != LUA_NOREF ? m->bot_name[d->seat] : search_policy(m->game);
    engine_error_ok(err);
done:
    s.stats->ns = dh_now_ns() - wall0;
    free(s.options);
    free(s.log);
    free(s.nodes);
    free(s.ids);
    free(s.shuffle);
    free(s.names);
    free(s.gids);
    free(s.gnames);
    free(s.gsize);
    engine_state_free(&s.base);
    free(s.world_r);
    return code;
}
