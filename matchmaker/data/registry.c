/*
 * registry.c: workers and gateways known to the matchmaker (see registry.h).
 */
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "pb_copy.h"

void registry_init(registry *r)
{
    memset(r, 0, sizeof *r);
}

/* Forget the worker's games (their GameInfo copies). */
static void registry_games_free(registry_worker *w)
{
    for (size_t i = 0; i < w->ngames; i++)
        if (w->games[i].info)
            deckhand__internal__game_info__free_unpacked(w->games[i].info, NULL);
    w->ngames = 0;
}

void registry_free(registry *r)
{
    for (size_t i = 0; i < r->nworkers; i++) {
        registry_games_free(&r->workers[i]);
        free(r->workers[i].hello);
    }
    free(r->workers);
    free(r->gateways);
    memset(r, 0, sizeof *r);
}

/* Copy src into dst, truncating; ids longer than the field cannot reach us anyway
 * (identities are capped at DH_ZMQ_ID_MAX) and other fields are only informative. */
static void registry_copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

registry_worker *registry_find(registry *r, const char *identity)
{
    for (size_t i = 0; i < r->nworkers; i++)
        if (!strcmp(r->workers[i].id, identity))
            return &r->workers[i];
    return NULL;
}

/* What any hello says of its worker's state: a fresh start, alive. */
static void registry_hello_fresh(registry_worker *w, uint64_t now_ms)
{
    w->draining = false;
    w->stopped = false;
    w->lost = false;
    w->alive = true;
    w->last_seen_ms = now_ms;
}

registry_worker *registry_hello(registry *r, const char *identity,
                                const Deckhand__Internal__WorkerHello *h, uint64_t now_ms)
{
    registry_worker *w = registry_find(r, identity);
    if (!w) {
        if (dh_grow(&r->workers, &r->capworkers, r->nworkers + 1, sizeof *r->workers, 8) < 0)
            return NULL;
        w = &r->workers[r->nworkers++];
        memset(w, 0, sizeof *w);
        registry_copy(w->id, sizeof w->id, identity);
        w->redis_ok = true; /* healthy until its beat thread says otherwise; a hello, from
                             * the worker's loop, says nothing of its health */
    }
    if (h->worker_id && *h->worker_id && strcmp(h->worker_id, identity))
        dh_warn("worker identity %s says it is %s; routing by identity", identity, h->worker_id);
    bool was_alive = w->alive;
    registry_copy(w->endpoint, sizeof w->endpoint, h->endpoint);
    registry_copy(w->bundle, sizeof w->bundle, h->bundle);
    registry_games_free(w);
    for (size_t i = 0; i < h->n_games && w->ngames < REGISTRY_GAMES_MAX; i++) {
        const Deckhand__Internal__GameInfo *g = h->games[i];
        if (!g->name || !*g->name || strlen(g->name) >= QUEUE_NAME_MAX)
            continue;
        registry_game *rg = &w->games[w->ngames++];
        registry_copy(rg->name, sizeof rg->name, g->name);
        rg->min_players = g->min_players;
        rg->max_players = g->max_players < g->min_players ? g->min_players : g->max_players;
        rg->info = (Deckhand__Internal__GameInfo *)pb_copy(&g->base);
        if (!rg->info)
            dh_warn("worker %s: out of memory keeping the options of %s", w->id, rg->name);
    }
    w->capacity = h->capacity;
    w->hello_version = h->version;
    free(w->hello); /* registry_hello_keep keeps this one's bytes */
    w->hello = NULL;
    w->hello_len = 0;
    registry_hello_fresh(w, now_ms);
    if (!was_alive)
        dh_info("worker %s up endpoint=%s games=%zu capacity=%u bundle=%.12s", w->id, w->endpoint,
                w->ngames, w->capacity, w->bundle);
    return w;
}

void registry_hello_keep(registry *r, const char *identity, const void *packed, size_t len)
{
    registry_worker *w = registry_find(r, identity);
    if (!w)
        return;
    free(w->hello);
    w->hello = malloc(len ? len : 1);
    w->hello_len = w->hello ? len : 0;
    if (w->hello)
        memcpy(w->hello, packed, len);
}

registry_worker *registry_hello_again(registry *r, const char *identity, const void *packed,
                                      size_t len, uint64_t now_ms)
{
    registry_worker *w = registry_find(r, identity);
    if (!w || !w->alive || !w->hello || w->hello_len != len || memcmp(w->hello, packed, len))
        return NULL;
    registry_hello_fresh(w, now_ms);
    return w;
}

/* w died: it hosts nothing now, since its matches move to live workers (its pending
 * placements keep their count: each is answered, or times out, and gives it back). */
static void registry_dead(registry_worker *w)
{
    w->alive = false;
    w->active = 0;
}

registry_worker *registry_beat(registry *r, const char *identity, uint32_t active, bool draining,
                               uint64_t now_ms)
{
    registry_worker *w = registry_find(r, identity);
    if (!w)
        return NULL;
    if (!w->alive)
        dh_info("worker %s back", w->id);
    if (draining && !w->draining)
        dh_info("worker %s draining: no more placements on it", w->id);
    w->active = active;
    w->draining = draining;
    w->alive = true;
    w->lost = false;
    w->last_seen_ms = now_ms;
    return w;
}

/* True when identity is id's own route or its beat thread's ("<id>/beat"). */
static bool registry_route_of(const char *identity, const char *id)
{
    size_t n = strlen(id);
    return !strncmp(identity, id, n) &&
           (!identity[n] || !strcmp(identity + n, REGISTRY_BEAT_SUFFIX));
}

const char *registry_beat_id(const char *identity, const Deckhand__Internal__WorkerBeat *b)
{
    const char *id = b->worker_id && *b->worker_id ? b->worker_id : identity;
    return registry_route_of(identity, id) ? id : NULL;
}

registry_worker *registry_beat_row(registry *r, const char *identity,
                                   const Deckhand__Internal__WorkerBeat *b)
{
    const char *id = registry_beat_id(identity, b);
    if (!id) {
        dh_warn_every(DH_LOG_EVERY_MS,
                      "beat for worker %.64s from route %.64s ignored: a worker "
                      "beats from its own id or \"<id>" REGISTRY_BEAT_SUFFIX "\"",
                      b->worker_id, identity);
        return NULL;
    }
    return registry_find(r, id);
}

registry_hello_answer registry_hello_check(const registry_worker *w, uint64_t version)
{
    if (!version)
        return REGISTRY_HELLO_SILENT;
    if (w && w->alive && !w->lost && w->hello_version == version)
        return REGISTRY_HELLO_HELD;
    return REGISTRY_HELLO_WANTED;
}

bool registry_slow(const registry_worker *w)
{
    return w->stalled_ms >= REGISTRY_SLOW_MS || !w->redis_ok;
}

/* The health part of a beat from the beat thread: slow and back logged on change. */
static void registry_health(registry_worker *w, uint32_t stalled_ms, bool redis_ok)
{
    bool was_slow = registry_slow(w);
    w->stalled_ms = stalled_ms;
    w->redis_ok = redis_ok;
    if (registry_slow(w) != was_slow)
        dh_info("worker %s %s", w->id,
                registry_slow(w) ? (redis_ok ? "stalled: no new placements on it"
                                             : "without Redis: no new placements on it")
                                 : "healthy again");
}

void registry_beat_health(registry *r, registry_worker *w, const char *identity,
                          const Deckhand__Internal__WorkerBeat *b, uint64_t now_ms)
{
    bool threaded = strcmp(identity, w->id) != 0; /* "<id>/beat": it says how it does */
    if (threaded && w->lost)
        return; /* its control route is gone: back only through it */
    if (threaded && b->stalled_ms >= REGISTRY_STUCK_MS) {
        w->stalled_ms = b->stalled_ms;
        w->last_seen_ms = now_ms; /* not silent: stuck, which is judged here */
        if (!w->alive)
            return; /* declared dead already; it comes back once it turns again */
        registry_dead(w);
        r->gone++;
        dh_warn("worker %s stuck in one turn for %u ms: dead, its matches move", w->id,
                b->stalled_ms);
        return;
    }
    registry_beat(r, w->id, b->active_matches, b->draining, now_ms);
    if (threaded)
        registry_health(w, b->stalled_ms, b->redis_ok);
}

void registry_gone(registry *r, const char *identity)
{
    registry_worker *w = registry_find(r, identity);
    if (w)
        w->stopped = true;
    if (!w || !w->alive)
        return;
    registry_dead(w);
    r->gone++;
    dh_info("worker %s stopping: dead now, its matches move", w->id);
}

bool registry_lost(registry *r, const char *identity, const char *why)
{
    registry_worker *w = registry_find(r, identity);
    if (!w || !w->alive)
        return false;
    registry_dead(w);
    w->lost = true;
    r->gone++;
    dh_warn("worker %s %s: dead now, its matches move", w->id, why);
    return true;
}

size_t registry_take_gone(registry *r)
{
    size_t n = r->gone;
    r->gone = 0;
    return n;
}

size_t registry_expire(registry *r, uint64_t now_ms)
{
    size_t died = r->gone;
    r->gone = 0;
    for (size_t i = 0; i < r->nworkers; i++) {
        registry_worker *w = &r->workers[i];
        if (w->alive && now_ms - w->last_seen_ms > REGISTRY_DEAD_MS) {
            registry_dead(w);
            died++;
            dh_warn("worker %s silent for %llu ms: dead, no more placements on it", w->id,
                    (unsigned long long)(now_ms - w->last_seen_ms));
        }
    }
    return died;
}

static const registry_game *registry_worker_game(const registry_worker *w, const char *game)
{
    for (size_t i = 0; i < w->ngames; i++)
        if (!strcmp(w->games[i].name, game))
            return &w->games[i];
    return NULL;
}

const registry_game *registry_game_info(const registry *r, const char *game)
{
    for (size_t i = 0; i < r->nworkers; i++) {
        const registry_game *g;
        if (r->workers[i].alive && (g = registry_worker_game(&r->workers[i], game)))
            return g;
    }
    return NULL;
}

/* The least loaded worker that may take a match of game at this size; capped: at most
 * REGISTRY_PENDING_MAX StartMatches unanswered. */
static registry_worker *registry_best(registry *r, const char *game, uint32_t players,
                                      uint64_t now_ms, bool capped)
{
    registry_worker *best = NULL;
    uint64_t best_load = 0;
    for (size_t i = 0; i < r->nworkers; i++) {
        registry_worker *w = &r->workers[i];
        const registry_game *g = registry_worker_game(w, game);
        if (!w->alive || w->draining || registry_slow(w) || !g || players < g->min_players ||
            players > g->max_players || now_ms < w->avoid_until_ms)
            continue;
        uint64_t load = (uint64_t)w->active + w->pending + w->adopting;
        if ((w->capacity && load >= w->capacity) || (capped && w->pending >= REGISTRY_PENDING_MAX))
            continue;
        if (!best || load < best_load) {
            best = w;
            best_load = load;
        }
    }
    return best;
}

registry_worker *registry_pick(registry *r, const char *game, uint32_t players, uint64_t now_ms)
{
    return registry_best(r, game, players, now_ms, true);
}

registry_worker *registry_pick_adopter(registry *r, const char *game, uint32_t players,
                                       uint64_t now_ms)
{
    return registry_best(r, game, players, now_ms, false);
}

registry_gateway *registry_gateway_find(registry *r, const char *identity)
{
    for (size_t i = 0; i < r->ngateways; i++)
        if (!strcmp(r->gateways[i].id, identity))
            return &r->gateways[i];
    return NULL;
}

int registry_gateway_hello(registry *r, const char *identity, uint64_t now_ms)
{
    for (size_t i = 0; i < r->ngateways; i++) {
        if (!strcmp(r->gateways[i].id, identity)) {
            r->gateways[i].last_seen_ms = now_ms;
            return 0;
        }
    }
    if (dh_grow(&r->gateways, &r->capgateways, r->ngateways + 1, sizeof *r->gateways, 8) < 0)
        return -1;
    registry_gateway *g = &r->gateways[r->ngateways++];
    registry_copy(g->id, sizeof g->id, identity);
    g->last_seen_ms = now_ms;
    dh_info("gateway %s registered", g->id);
    return 0;
}
