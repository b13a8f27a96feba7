/*
 * engine_search_world.c: the worlds the search bot plays in (engine_search.c grows the
 * tree over them). A world is a copy of the match that agrees with everything the
 * searching seat sees and with nothing it does not, played out to a result:
 *   1. copy: the match rebuilt from its last snapshot and the answers since
 *      (engine_match_restore_copy: a match lives partly in a suspended Lua coroutine,
 *      which cannot be copied, so the copy replays the turn so far; the snapshot is parsed
 *      once per search, each copy starts from a copy of the parsed state);
 *   2. determinize: for each player, the cards of that player's zones the seat cannot see
 *      (engine_zone_vis, the rule Views follow) swap names at random among themselves,
 *      and the cards of each hidden shared zone among themselves; the copy's generator
 *      gets a fresh seed. So the copy agrees with everything the seat sees (its hand, the
 *      piles, counts of every zone, each player's card totals) and with nothing it does
 *      not: no real deck order, no real opponent hand, no real future shuffle; and, where
 *      the game says so, the copy's later shuffles sort their cards by name first
 *      (engine_match_shuffle, engine_shuffle.c), so the order cards were discarded in
 *      does not part two answers' worlds;
 *   3. play out: every seat handed to its strategy (the game's play-out bot for searched
 *      or human seats: `search_playout`, else "default") and the copy run inline, like
 *      `deckhand sim`, to the end, or, when the game has an evaluation hint (`evaluate`,
 *      docs/SCRIPTING.md), to `depth` turns after the searched decision's and scored by
 *      the hint;
 *   4. result: mostly the share of the win, partly the score margin (search_rewards).
 * A world's number alone decides its deal and its generator (common random numbers), and
 * each hidden group is sorted by name before it is dealt: the world never depends on where
 * the real hidden cards are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "engine_search_impl.h"

#define SEARCH_MARGIN_WEIGHT 0.3  /* of a result: the score margin's part (the rest: winning) */
#define SEARCH_MARGIN_SCALE  20.0 /* a margin this large counts fully */
#define SEARCH_SOONER        0.99 /* a win's worth, each turn (any seat's) after the root */

/* What a win is worth `turns` turns after the root: a sooner win is worth more (without
 * it a search is as glad to win in ten turns as in five, and played slower wins than its
 * own policy: docs/BENCHMARKS.md, issue 17). */
static double search_sooner(uint32_t turns)
{
    return pow(SEARCH_SOONER, (double)turns);
}

/* ---- copies ---------------------------------------------------------------------------- */

/* The config a copy of s->m is restored with: its players, bots and options. */
int search_config(search *s)
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
    size_t len;
    const uint8_t *snap = engine_match_snapshot(m, &len);
    if (!s->log || !snap || engine_state_parse(&s->base, m->b, m->np, snap, len) < 0)
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

/* Notes ids[0..n) as a hidden group: its ids and its names sorted by their text, so a
 * deal depends only on which names the group holds, never on where the real ones are. */
static int search_group(search *s, const engine_match *c, const uint32_t *ids, size_t n)
{
    if (n < 2) /* nothing to deal */
        return 0;
    if (dh_grow(&s->gids, &s->gids_cap, s->ngids + n, sizeof *s->gids, 256) < 0 ||
        dh_grow(&s->gnames, &s->gnames_cap, s->ngids + n, sizeof *s->gnames, 256) < 0 ||
        dh_grow(&s->gsize, &s->gsize_cap, s->ngroups + 1, sizeof *s->gsize, 16) < 0)
        return -1;
    uint32_t *names = s->gnames + s->ngids;
    memcpy(s->gids + s->ngids, ids, n * sizeof *ids);
    for (size_t i = 0; i < n; i++)
        names[i] = c->st.ents[ids[i] - 1].name;
    qsort_r(names, n, sizeof *names, search_name_cmp, &c->b->names);
    s->ngids += n;
    s->gsize[s->ngroups++] = (uint32_t)n;
    return 0;
}

/* Appends the entities of zone z that s->seat cannot see to the shuffle scratch. */
static int search_hidden(search *s, const engine_match *c, const engine_zone *z, size_t *n)
{
    engine_vis vis = engine_zone_vis_id(c->game, &c->b->names, z->name);
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

/* The hidden groups of copy c: each player's cards the seat cannot see, then each hidden
 * shared zone's. */
static int search_groups(search *s, const engine_match *c)
{
    const engine_state *st = &c->st;
    for (int p = 1; p <= c->np; p++) {
        size_t n = 0;
        for (uint32_t zi = 0; zi < st->nzones; zi++)
            if (st->zones[zi].owner == p && search_hidden(s, c, &st->zones[zi], &n) < 0)
                return -1;
        if (search_group(s, c, s->shuffle, n) < 0)
            return -1;
    }
    for (uint32_t zi = 0; zi < st->nzones; zi++) {
        size_t n = 0;
        if (st->zones[zi].owner > 0)
            continue;
        if (search_hidden(s, c, &st->zones[zi], &n) < 0 || search_group(s, c, s->shuffle, n) < 0)
            return -1;
    }
    s->grouped = 1;
    return 0;
}

/* Everything the seat cannot see dealt again (see the top of the file): each hidden
 * group's sorted names shuffled among its entities; and a fresh generator: what the copy
 * holds from here on is one world the seat cannot tell from the real one. */
static int search_determinize(search *s, engine_match *c)
{
    engine_state *st = &c->st;
    if (!s->grouped && search_groups(s, c) < 0)
        return -1;
    if (s->ngids && dh_grow(&s->names, &s->names_cap, s->ngids, sizeof *s->names, 256) < 0)
        return -1;
    const uint32_t *ids = s->gids;
    if (s->ngids)
        memcpy(s->names, s->gnames, s->ngids * sizeof *s->names);
    uint32_t *names = s->names;
    for (size_t g = 0; g < s->ngroups; g++) {
        size_t n = s->gsize[g];
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)search_below(s, i);
            uint32_t a = names[i - 1];
            names[i - 1] = names[j];
            names[j] = a;
        }
        for (size_t i = 0; i < n; i++)
            st->ents[ids[i] - 1].name = names[i];
        ids += n;
        names += n;
    }
    for (int i = 0; i < 4; i++)
        st->rng[i] = search_rand(s) | (i == 0);
    return 0;
}

/* A copy of the match in world number w: the same w deals the hidden cards the same way
 * and seeds the copy's generator the same, so the n-th tries of two answers are played in
 * the same world and their difference is the answers' (common random numbers). */
engine_match *search_copy(search *s, uint32_t w, engine_error *err)
{
    engine_match *c =
        engine_match_restore_copy(s->m->b, &s->cfg, &s->base, s->log, s->m->log.n, err);
    if (!c)
        return NULL;
    c->replaying = 1; /* a copy's events go nowhere: do not record them */
    uint64_t own = s->rng;
    s->rng = s->worlds + (uint64_t)w * 0x2545f4914f6cdd1dULL;
    int rc = search_determinize(s, c);
    s->rng = own;
    c->canonical_shuffle = c->game->search_sorts;
    if (rc < 0) {
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
        engine_match_free(c);
        return NULL;
    }
    return c;
}

/* ---- play-outs ------------------------------------------------------------------------- */

/* The game's evaluation hint on copy c (at a turn boundary, turns after the root): each
 * seat's value, 0..1, into r, a chance of winning, so discounted like a win at this turn.
 * It runs like a bot asked for an answer: g refuses changes, the generator is put back. */
int search_evaluate(engine_match *c, uint32_t turns, double *r)
{
    double v[SEARCH_MAX_SEATS] = {0}; /* engine_turns_exec fills c->np of them */
    uint64_t rng[4];
    memcpy(rng, c->st.rng, sizeof rng);
    c->asking_bot = 1;
    engine_code code = engine_turns_exec(c, ENGINE_OP_EVAL, v, 0);
    c->asking_bot = 0;
    memcpy(c->st.rng, rng, sizeof rng);
    if (code != ENGINE_OK)
        return -1;
    for (int i = 0; i < c->np; i++)
        r[i] = v[i] * search_sooner(turns);
    return 0;
}

/* Every seat without a strategy gets the game's play-out bot (search_policy), and the
 * copy runs inline (no coroutine yields any more) to its end, or, when the game has an
 * evaluation hint and s->depth is set, to the end of the s->depth-th turn after the
 * searched decision's. That turn is counted from the searched match, not from the copy,
 * so every answer is scored at the same turn: counted from the copy, an answer that ends
 * the turn got a turn more of play before the hint (docs/BENCHMARKS.md, issue 28). 0, or
 * -1 when the copy could not finish. */
int search_playout(search *s, engine_match *c)
{
    int ref = LUA_NOREF;
    const char *policy = search_policy(c->game);
    for (size_t j = 0; j < c->game->nbots; j++)
        if (!strcmp(c->game->bots[j].name, policy) || ref == LUA_NOREF)
            ref = c->game->bots[j].ref;
    if (ref == LUA_NOREF)
        return -1;
    for (int i = 0; i < c->np; i++) {
        if (c->bot_ref[i] != LUA_NOREF)
            continue;
        c->bot_ref[i] = ref;
        c->bot_name[i] = strdup(policy);
        if (!c->bot_name[i])
            return -1;
    }
    c->all_bots = 1;
    if (s->depth && c->game->evaluate_ref != LUA_NOREF)
        c->stop_turn = s->m->st.turn + s->depth;
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
 * winner, else 0), worth less the more turns after the root it took (search_sooner),
 * partly how its score compares with the best other score (a close loss is better than a
 * rout): the margin makes play-outs that all lose, or all win, still tell good moves from
 * bad ones. */
void search_rewards(const engine_match *c, uint32_t turns, double *r)
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
        double win = me->rank == 1 && winners ? search_sooner(turns) / winners : 0;
        r[me->seat] = (1 - SEARCH_MARGIN_WEIGHT) * win + SEARCH_MARGIN_WEIGHT * (margin + 1) / 2;
    }
}
