/*
 * matchmaker.c: the process state's life cycle and its periodic work (see matchmaker.h).
 */
#include "matchmaker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "mm_failover.h"
#include "mm_play.h"
#include "mm_social.h"
#include "mm_store.h"

static uint64_t mm_clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The histograms' bucket bounds (docs/matchmaker.md, "Matchmaking"). */
static const double mm_spread_bounds[] = {0.25, 0.5, 1, 2, 3, 5, 8, 12, 20, 35, 50};
static const double mm_wait_bounds[] = {0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120};

int mm_init(mm_state *mm, const char *id, const char *redis_url, int redis_timeout_ms)
{
    memset(mm, 0, sizeof *mm);
    dh_arena_init(&mm->arena);
    /* not secret, only distinct per process start: the wall clock in ns and the pid */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    mm->incarnation =
        ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^ ((uint64_t)getpid() << 44);
    registry_init(&mm->reg);
    placement_list_init(&mm->placements);
    settings_init(&mm->settings);
    takeover_init(&mm->takeover);
    dh_script_init(&mm->scripts.takeover, dh_script_takeover);
    dh_script_init(&mm->scripts.lease_renew, dh_script_lease_renew);
    dh_script_init(&mm->scripts.lease_release, dh_script_lease_release);
    dh_script_init(&mm->scripts.state, dh_script_mm_state);
    dh_histogram_init(&mm->stats.match_spread, mm_spread_bounds,
                      sizeof mm_spread_bounds / sizeof *mm_spread_bounds);
    dh_histogram_init(&mm->stats.match_wait, mm_wait_bounds,
                      sizeof mm_wait_bounds / sizeof *mm_wait_bounds);
    dh_family_init(&mm->stats.game_formed, "game", DH_METRIC_COUNTER, NULL, 0);
    dh_family_init(&mm->stats.game_spread, "game", DH_METRIC_HISTOGRAM, mm_spread_bounds,
                   sizeof mm_spread_bounds / sizeof *mm_spread_bounds);
    dh_family_init(&mm->stats.game_wait, "game", DH_METRIC_HISTOGRAM, mm_wait_bounds,
                   sizeof mm_wait_bounds / sizeof *mm_wait_bounds);
    dh_histogram_init(&mm->stats.redis_seconds, dh_metrics_latency_bounds, dh_metrics_latency_n);
    if (seated_init(&mm->seated) < 0)
        return -1;
    snprintf(mm->id, sizeof mm->id, "%s", id);
    mm->wall_base_ms = mm_clock_ms(CLOCK_REALTIME) - mm_clock_ms(CLOCK_MONOTONIC);
    mm->next_seq = 1;
    mm->queues = queue_set_new();
    if (!mm->queues)
        return -1;
    if (redis_url && strcmp(redis_url, "none")) {
        if (dh_redis_init(&mm->redis, redis_url, redis_timeout_ms) < 0)
            return -1;
        mm->redis_on = true;
    }
    return 0;
}

void mm_free(mm_state *mm)
{
    queue_set_free(mm->queues);
    mm->queues = NULL;
    placement_list_free(&mm->placements);
    registry_free(&mm->reg);
    settings_free(&mm->settings);
    takeover_free(&mm->takeover);
    seated_free(&mm->seated);
    watch_list_free(&mm->watching);
    free(mm->joins.v);
    mm->joins = (tickets_batch){0};
    free(mm->later.v);
    state_staged_free(mm);
    gwout_free(mm);
    dh_arena_free(&mm->arena);
    mm->later = (state_deferred){0};
    if (mm->redis_on)
        dh_redis_close(&mm->redis);
}

void mm_reset(mm_state *mm)
{
    state_forget(mm);
    queue_clear(mm->queues);
    placement_list_free(&mm->placements);
    takeover_free(&mm->takeover);
    takeover_init(&mm->takeover);
    watch_list_free(&mm->watching); /* the MatchEnded of a lease not held went elsewhere */
    for (size_t i = 0; i < mm->reg.nworkers; i++) {
        mm->reg.workers[i].pending = 0;
        mm->reg.workers[i].adopting = 0;
    }
}

bool mm_acting(const mm_state *mm, uint64_t now_ms)
{
    return lease_acting(mm, now_ms);
}

static bool mm_in_placements(const placement *ps, size_t n, const char *player_id)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < ps[i].n; j++)
            if (!strcmp(ps[i].tickets[j].player_id, player_id))
                return true;
    return false;
}

/* Queue the stored tickets again in their order, minus the players of stored
 * placements; consecutive tickets with one seq (a party) become one ticket again. Their
 * ratings are asked again (the records do not hold them): the rating source's, then the
 * stored ones, in one round trip (ratings_refresh). -1 when memory ran out. */
static int mm_requeue(mm_state *mm, const state_stored *st, const placement *ps, size_t nps,
                      uint64_t *max_seq, uint64_t now_ms)
{
    const char **ids = calloc(st->ntickets ? st->ntickets : 1, sizeof *ids);
    size_t nids = 0;
    if (!ids) {
        dh_error("out of memory loading the queues");
        return -1;
    }
    for (size_t i = 0; i < st->ntickets;) {
        queue_ticket party[QUEUE_PARTY_MAX];
        size_t n = 0, j = i;
        for (; j < st->ntickets && st->tickets[j].t.seq == st->tickets[i].t.seq &&
               !memcmp(&st->tickets[j].key, &st->tickets[i].key, sizeof st->tickets[i].key);
             j++) {
            state_ticket t = st->tickets[j];
            if (t.t.seq > *max_seq)
                *max_seq = t.t.seq;
            if (n == QUEUE_PARTY_MAX || mm_in_placements(ps, nps, t.t.player_id))
                continue;
            rating_fill(&mm->ratings, &t.key, &t.t);
            party[n++] = t.t;
            ids[nids++] = st->tickets[j].t.player_id;
        }
        queue_status qs =
            n ? queue_join_party(mm->queues, &st->tickets[i].key, party, n) : QUEUE_OK;
        if (qs == QUEUE_NOMEM) {
            dh_error("out of memory loading the queues");
            free(ids);
            return -1;
        }
        if (qs == QUEUE_TOO_MANY)
            dh_error("ticket of %s not loaded: more than %d queues hold tickets",
                     party[0].player_id, QUEUE_LINES_MAX);
        i = j;
    }
    ratings_refresh(mm, now_ms, ids, nids);
    free(ids);
    return 0;
}

/* Rebuild the lines and placements from st (see state.h): the tickets (mm_requeue),
 * then each placement resumed (the list takes its tickets, even on failure). -1 when
 * memory ran out. */
static int mm_resume(mm_state *mm, const state_stored *st, placement *ps, size_t nps,
                     uint64_t now_ms)
{
    uint64_t max_seq = 0;
    int rc = mm_requeue(mm, st, ps, nps, &max_seq, now_ms);
    for (size_t i = 0; i < nps; i++) {
        for (size_t j = 0; j < ps[i].n; j++)
            if (ps[i].tickets[j].seq > max_seq)
                max_seq = ps[i].tickets[j].seq;
        if (rc == 0 && placement_resume(mm, &ps[i], now_ms) < 0) {
            dh_error("out of memory resuming placements");
            rc = -1;
        } else if (rc < 0) {
            free(ps[i].tickets);
        }
    }
    if (mm->next_seq <= max_seq)
        mm->next_seq = max_seq + 1;
    return rc;
}

int mm_load(mm_state *mm, uint64_t now_ms)
{
    if (!mm->redis_on)
        return 0;
    state_stored st;
    if (state_read(mm, now_ms, &st) < 0)
        return -1;
    int rc = -1;
    size_t nps = 0;
    placement *ps = calloc(st.nplacements + 1, sizeof *ps);
    if (ps) {
        for (size_t i = 0; i < st.nplacements; i++) {
            if (placement_from_record(mm, st.placements[i], &ps[nps]) == 0)
                nps++;
            else
                dh_warn("skipping an unreadable placement record %.64s",
                        st.placements[i]->match_id ? st.placements[i]->match_id : "?");
        }
        rc = mm_resume(mm, &st, ps, nps, now_ms);
    }
    if (rc == 0 && mm->on_loaded)
        mm->on_loaded(mm, now_ms);
    if (rc < 0)
        mm_reset(mm);
    state_stored_free(&st);
    free(ps);
    return rc;
}

/* Tell every gateway heard from lately that this matchmaker's loop turns. Best effort: a
 * gateway that went away costs a refused send (ZMQ_ROUTER_MANDATORY). */
static void mm_beat_gateways(mm_state *mm, uint64_t now_ms)
{
    if (now_ms < mm->next_gateway_beat_ms)
        return;
    mm->next_gateway_beat_ms = now_ms + MM_GATEWAY_BEAT_MS;
    Deckhand__Internal__MatchmakerBeat b = DECKHAND__INTERNAL__MATCHMAKER_BEAT__INIT;
    b.matchmaker_id = mm->id;
    b.acting = mm_acting(mm, now_ms);
    b.incarnation = mm->incarnation;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCHMAKER_BEAT;
    msg.matchmaker_beat = &b;
    for (size_t i = 0; i < mm->reg.ngateways; i++) {
        const registry_gateway *g = &mm->reg.gateways[i];
        if (now_ms - g->last_seen_ms < MM_GATEWAY_SEEN_MS && mm->router &&
            gwout_send(mm, g->id, &msg) < 0)
            dh_debug("MatchmakerBeat not sent to gateway %s: %s", g->id, strerror(errno));
    }
}

/* Up to when silence may be judged: when the last drain found the socket empty (a tick
 * after a drain that blocked on Redis must not count the time its beats waited unread),
 * or now while the loop has been behind too long to wait (the drains never empty it) or
 * before any drain. */
static uint64_t mm_listened_ms(const mm_state *mm, uint64_t now_ms)
{
    if (mm->behind_since_ms || !mm->heard_ms || mm->heard_ms > now_ms)
        return now_ms;
    return mm->heard_ms;
}

void mm_tick(mm_state *mm, uint64_t now_ms)
{
    if (!mm->first_tick_ms)
        mm->first_tick_ms = now_ms ? now_ms : 1;
    lease_change change = lease_tick(mm, now_ms);
    if (change != LEASE_KEEP)
        mm_reset(mm);
    if (change == LEASE_MUST_LOAD && mm_load(mm, now_ms) == 0) {
        lease_loaded(mm, now_ms);
        watch_load_begin(mm); /* the matches placed before: listed a step at a time */
    }
    /* Unread messages may hold the beats of workers that look silent: while the loop is
     * behind (for at most REGISTRY_DEAD_MS more), silence is not taken for death; caught
     * up, it is judged up to the last time the socket was found empty (loop.h). */
    mm_beat_gateways(mm, now_ms);
    bool behind = mm->behind_since_ms && now_ms - mm->behind_since_ms < REGISTRY_DEAD_MS;
    size_t died = behind ? registry_take_gone(&mm->reg)
                         : registry_expire(&mm->reg, mm_listened_ms(mm, now_ms));
    dh_counter_add(&mm->stats.workers_dead, died);
    if (!mm_acting(mm, now_ms))
        return;
    /* a worker just declared dead has its matches moved now, not at the next sweep */
    takeover_tick(mm, now_ms, died > 0);
    placement_expire(mm, now_ms);
    tickets_expire(mm, now_ms);
    social_tick(mm, now_ms);
    placement_form(mm, now_ms);
    watch_load_step(mm, now_ms);
}

/* Whether the tick has work in hand that it does at a fine grain (see mm_next_tick). */
static bool mm_busy(const mm_state *mm)
{
    return !mm->first_tick_ms || queue_total(mm->queues) || mm->placements.n || mm->takeover.n ||
           mm->joins.n || mm->later.n || mm->staged.n || mm->admin.n || mm->watching.rebuilding ||
           mm->behind_since_ms || (mm->lease.held && !mm->lease.loaded);
}

static uint64_t mm_sooner(uint64_t a, uint64_t b)
{
    return b && b < a ? b : a;
}

uint64_t mm_next_tick(const mm_state *mm, uint64_t now_ms)
{
    uint64_t soonest = now_ms + MM_TICK_MS;
    if (mm_busy(mm))
        return soonest;
    uint64_t at = mm_sooner(now_ms + MM_TICK_IDLE_MS, mm->next_gateway_beat_ms);
    if (mm->redis_on) {
        at = mm_sooner(at, mm->lease.next_ms);
        if (mm->lease.held)
            at = mm_sooner(at, mm->lease.until_ms);
    }
    if (mm_acting(mm, now_ms))
        at = mm_sooner(at, mm->takeover.next_sweep_ms);
    for (size_t i = 0; i < mm->reg.nworkers; i++)
        if (mm->reg.workers[i].alive)
            at = mm_sooner(at, mm->reg.workers[i].last_seen_ms + REGISTRY_DEAD_MS + 1);
    return at < soonest ? soonest : at;
}
