/*
 * placement.c: the placements waiting for their worker (see placement.h): the list and its
 * indexes, each placement's PlacementRecord in Redis, and the StartMatch / MatchStarted
 * handshake with its timeout, resend and resume. New placements come from
 * placement_form.c.
 */
#include "placement_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "dh_random.h"
#include "dh_zmq.h"
#include "mm_data.h"
#include "mm_store.h"

void placement_list_init(placement_list *l)
{
    memset(l, 0, sizeof *l);
}

void placement_list_free(placement_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].tickets);
    free(l->items);
    if (l->players.buckets)
        dh_table_free(&l->players, NULL);
    if (l->by_match.buckets)
        dh_table_free(&l->by_match, NULL);
    memset(l, 0, sizeof *l);
}

placement *placement_find(placement_list *l, const char *match_id)
{
    uintptr_t at = l->by_match.buckets ? (uintptr_t)dh_table_get(&l->by_match, match_id) : 0;
    return at ? &l->items[at - 1] : NULL;
}

placement *placement_of_player(placement_list *l, const char *player_id, size_t *seat)
{
    if (!placement_has_player(l, player_id))
        return NULL;
    for (size_t i = 0; i < l->n; i++) {
        for (size_t j = 0; j < l->items[i].n; j++) {
            if (strcmp(l->items[i].tickets[j].player_id, player_id))
                continue;
            if (seat)
                *seat = j;
            return &l->items[i];
        }
    }
    return NULL;
}

bool placement_has_player(const placement_list *l, const char *player_id)
{
    return l->players.buckets && dh_table_get(&l->players, player_id);
}

/* The two indexes, made at first use. False when memory ran out. */
static bool placement_tables(placement_list *l)
{
    if (!l->players.buckets && dh_table_init(&l->players) < 0)
        return false;
    if (!l->by_match.buckets && dh_table_init(&l->by_match) < 0)
        return false;
    return true;
}

int placement_index(placement_list *l, const placement *p)
{
    if (!placement_tables(l) ||
        dh_table_set(&l->by_match, p->match_id, (void *)(uintptr_t)(p - l->items + 1)) < 0)
        return -1;
    for (size_t i = 0; i < p->n; i++) {
        if (dh_table_set(&l->players, p->tickets[i].player_id, l) < 0) {
            while (i-- > 0)
                dh_table_del(&l->players, p->tickets[i].player_id);
            dh_table_del(&l->by_match, p->match_id);
            return -1;
        }
    }
    return 0;
}

placement *placement_add(placement_list *l)
{
    if (dh_grow(&l->items, &l->cap, l->n + 1, sizeof *l->items, 16) < 0)
        return NULL;
    placement *p = &l->items[l->n++];
    memset(p, 0, sizeof *p);
    return p;
}

void placement_remove(placement_list *l, placement *p)
{
    if (l->players.buckets && l->by_match.buckets) {
        for (size_t i = 0; i < p->n; i++)
            dh_table_del(&l->players, p->tickets[i].player_id);
        if (dh_table_get(&l->by_match, p->match_id) == (void *)(uintptr_t)(p - l->items + 1))
            dh_table_del(&l->by_match, p->match_id);
    }
    free(p->tickets);
    *p = l->items[--l->n];
    if (p != &l->items[l->n] && l->by_match.buckets)
        /* the moved one's entry exists, so replacing its value cannot fail */
        dh_table_set(&l->by_match, p->match_id, (void *)(uintptr_t)(p - l->items + 1));
}

/* The kernel's random bytes, read PLACEMENT_RANDOM_POOL at a time: one getrandom every 32
 * matches instead of one each (issue 27). Each match's 16 bytes are handed out once and
 * wiped from the pool; the matchmaker does not fork, so no two processes share it. */
#define PLACEMENT_RANDOM_POOL 512

static int placement_random_take(uint8_t out[16])
{
    static _Thread_local uint8_t pool[PLACEMENT_RANDOM_POOL];
    static _Thread_local size_t left;
    if (left < 16) {
        if (dh_random_bytes(pool, sizeof pool) < 0)
            return -1;
        left = sizeof pool;
    }
    left -= 16;
    memcpy(out, pool + left, 16);
    memset(pool + left, 0, 16);
    return 0;
}

int placement_random(char id[PLACEMENT_ID_LEN + 1], uint64_t *seed)
{
    uint8_t b[16];
    if (placement_random_take(b) < 0)
        return -1;
    static const char hex[] = "0123456789abcdef";
    id[0] = 'm';
    id[1] = '-';
    for (int i = 0; i < 8; i++) {
        id[2 + 2 * i] = hex[b[i] >> 4];
        id[3 + 2 * i] = hex[b[i] & 15];
    }
    id[PLACEMENT_ID_LEN] = '\0';
    memcpy(seed, b + 8, sizeof *seed);
    return 0;
}

void placement_requeue(mm_state *mm, placement *p)
{
    size_t humans = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!p->tickets[i].bot)
            p->tickets[humans++] = p->tickets[i];
    p->n = humans; /* bot seats are made again by the next fill */
    if (queue_push_front(mm->queues, &p->key, p->tickets, p->n) != QUEUE_OK)
        dh_error("match %s: %zu players not put back in line (out of memory, or every line "
                 "full); their tickets stay stored for the next load",
                 p->match_id, p->n);
}

/* p's queue settings as the message both its record and its StartMatch carry (strings
 * point into p). */
static void placement_settings_msg(const placement *p, Deckhand__Internal__QueueSettings *qs)
{
    deckhand__internal__queue_settings__init(qs);
    qs->grace_ms = p->settings.grace_ms;
    qs->decision_ms = p->settings.decision_ms;
    qs->turn_ms = p->settings.turn_ms;
    qs->abandon = (char *)p->settings.abandon;
    qs->bot = (char *)p->settings.bot;
}

/* ---- storage: a placement as its PlacementRecord in Redis (state.c) --------------- */

/* p's PlacementRecord, packed into a malloc'd buffer (the caller frees); NULL when
 * memory ran out. */
static uint8_t *placement_pack(const placement *p, size_t *len)
{
    Deckhand__Internal__TicketRecord recs[p->n];
    Deckhand__Internal__TicketRecord *recp[p->n];
    options_list ol;
    for (size_t i = 0; i < p->n; i++) {
        state_ticket_to_record(&p->key, &p->tickets[i], &recs[i]);
        state_record_options(&recs[i], &ol, &p->key); /* the same list for every ticket */
        recp[i] = &recs[i];
    }
    Deckhand__Internal__QueueSettings qs;
    placement_settings_msg(p, &qs);
    Deckhand__Internal__PlacementRecord pr = DECKHAND__INTERNAL__PLACEMENT_RECORD__INIT;
    pr.match_id = (char *)p->match_id;
    pr.game = (char *)p->key.game;
    pr.mode = (char *)p->key.mode;
    pr.players = p->key.players;
    pr.seed = p->seed;
    pr.worker = (char *)p->worker;
    pr.n_tickets = p->n;
    pr.tickets = recp;
    pr.settings = &qs;
    options_list_of(&ol, p->key.options);
    pr.n_options = ol.n;
    pr.options = ol.p;
    pr.unrated = p->unrated;
    pr.vs_ai = (char *)p->key.vs_ai;
    *len = deckhand__internal__placement_record__get_packed_size(&pr);
    uint8_t *buf = malloc(*len ? *len : 1);
    if (buf)
        deckhand__internal__placement_record__pack(&pr, buf);
    return buf;
}

int placement_store(mm_state *mm, uint64_t now_ms, const placement *p)
{
    if (!mm->redis_on)
        return 0;
    size_t len;
    uint8_t *buf = placement_pack(p, &len);
    if (!buf)
        return -1;
    int rc = state_placement_put(mm, now_ms, p->match_id, buf, len);
    free(buf);
    return rc;
}

int placement_store_many(mm_state *mm, uint64_t now_ms, const placement *ps, size_t n)
{
    if (!mm->redis_on || n == 0)
        return 0;
    const char **ids = calloc(n, sizeof *ids);
    uint8_t **bufs = calloc(n, sizeof *bufs);
    size_t *lens = calloc(n, sizeof *lens);
    int rc = -1;
    size_t i = 0;
    for (; ids && bufs && lens && i < n; i++) {
        ids[i] = ps[i].match_id;
        if (!(bufs[i] = placement_pack(&ps[i], &lens[i])))
            break;
    }
    if (ids && bufs && lens && i == n)
        rc = state_placements_put(mm, now_ms, ids, (const uint8_t *const *)bufs, lens, n);
    for (size_t j = 0; bufs && j < n; j++)
        free(bufs[j]);
    free(ids);
    free(bufs);
    free(lens);
    return rc;
}

/* Forget the stored placement; when its match started, its players' tickets too. */
static int placement_unstore(mm_state *mm, uint64_t now_ms, const placement *p, bool started)
{
    size_t n = started ? p->n : 0;
    const char *ids[n + 1];
    for (size_t i = 0; i < n; i++)
        ids[i] = p->tickets[i].player_id;
    return state_placement_del(mm, now_ms, p->match_id, ids, n);
}

int placement_from_record(const mm_state *mm, const Deckhand__Internal__PlacementRecord *pr,
                          placement *p)
{
    memset(p, 0, sizeof *p);
    if (!pr->match_id || strlen(pr->match_id) != PLACEMENT_ID_LEN || !pr->worker || !*pr->worker ||
        strlen(pr->worker) >= sizeof p->worker || pr->n_tickets == 0 ||
        queue_key_init(&p->key, pr->game, pr->mode, pr->players) != QUEUE_OK ||
        queue_key_vs_ai(&p->key, pr->vs_ai) != QUEUE_OK)
        return -1;
    p->tickets = calloc(pr->n_tickets, sizeof *p->tickets);
    if (!p->tickets)
        return -1;
    for (size_t i = 0; i < pr->n_tickets; i++) {
        queue_key k;
        if (state_ticket_from_record(pr->tickets[i], &k, &p->tickets[i]) < 0) {
            free(p->tickets);
            p->tickets = NULL;
            return -1;
        }
    }
    char canon[QUEUE_OPTIONS_MAX];
    if (options_from_records(pr->options, pr->n_options, canon, sizeof canon) < 0 ||
        queue_key_options(&p->key, canon) != QUEUE_OK) {
        free(p->tickets);
        p->tickets = NULL;
        return -1;
    }
    p->unrated = pr->unrated;
    memcpy(p->match_id, pr->match_id, PLACEMENT_ID_LEN + 1);
    snprintf(p->worker, sizeof p->worker, "%s", pr->worker);
    p->n = pr->n_tickets;
    p->seed = pr->seed;
    p->settings = *settings_for(&mm->settings, p->key.game, p->key.mode);
    if (pr->settings) {
        p->settings.grace_ms = pr->settings->grace_ms;
        p->settings.decision_ms = pr->settings->decision_ms;
        p->settings.turn_ms = pr->settings->turn_ms;
        if (pr->settings->abandon && *pr->settings->abandon)
            snprintf(p->settings.abandon, sizeof p->settings.abandon, "%s", pr->settings->abandon);
        if (pr->settings->bot && *pr->settings->bot)
            snprintf(p->settings.bot, sizeof p->settings.bot, "%s", pr->settings->bot);
    }
    return 0;
}

/* ---- the handshake ---------------------------------------------------------------- */

/* The worker refused or ignored p: requeue its players and steer the retry elsewhere.
 * Their tickets stayed in Redis all along; only the placement record goes (if Redis is
 * down it stays, and a later load sends its StartMatch once more). */
void placement_fail(mm_state *mm, placement *p, const char *why, uint64_t now_ms)
{
    registry_worker *w = registry_find(&mm->reg, p->worker);
    if (w) {
        if (w->pending)
            w->pending--;
        w->avoid_until_ms = now_ms + REGISTRY_AVOID_MS;
    }
    dh_warn_every(DH_LOG_EVERY_MS, "match %s on %s failed (%s): %zu players back in line %s/%s/%u",
                  p->match_id, p->worker, why, p->n, p->key.game, p->key.mode, p->key.players);
    if (placement_unstore(mm, now_ms, p, false) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: placement record not deleted (redis unavailable)",
                      p->match_id);
    placement_requeue(mm, p);
    placement_remove(&mm->placements, p);
}

int placement_send_start(mm_state *mm, const placement *p)
{
    Deckhand__Internal__QueueSettings qs;
    placement_settings_msg(p, &qs);
    Deckhand__Internal__Seat seats[p->n];
    Deckhand__Internal__Seat *seatp[p->n];
    for (size_t i = 0; i < p->n; i++) {
        deckhand__internal__seat__init(&seats[i]);
        seats[i].player_id = (char *)p->tickets[i].player_id;
        seats[i].name = (char *)p->tickets[i].name;
        seats[i].gateway_id = (char *)p->tickets[i].gateway;
        seats[i].bot = !p->tickets[i].bot   ? (char *)""
                       : p->key.vs_ai[0]    ? (char *)p->key.vs_ai
                       : p->settings.bot[0] ? (char *)p->settings.bot
                                            : (char *)STATE_BOT;
        seatp[i] = &seats[i];
    }
    options_list ol;
    options_list_of(&ol, p->key.options);
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)p->match_id;
    sm.game = (char *)p->key.game;
    sm.mode = (char *)p->key.mode;
    sm.seed = p->seed;
    sm.n_seats = p->n;
    sm.seats = seatp;
    sm.settings = &qs;
    sm.n_options = ol.n;
    sm.options = ol.p;
    sm.unrated = p->unrated;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH;
    msg.start_match = &sm;
    return dh_zmq_send(mm->router, p->worker, &msg);
}

static void placement_assign(mm_state *mm, const placement *p, const registry_worker *w)
{
    char *names[p->n];
    for (size_t i = 0; i < p->n; i++)
        names[i] = (char *)p->tickets[i].name;
    for (size_t i = 0; i < p->n; i++) {
        if (p->tickets[i].bot)
            continue; /* played by the worker: no gateway to tell */
        Deckhand__Internal__MatchAssigned ma = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
        ma.player_id = (char *)p->tickets[i].player_id;
        ma.match_id = (char *)p->match_id;
        ma.seat = (uint32_t)i;
        ma.game = (char *)p->key.game;
        ma.n_players = p->n;
        ma.players = names;
        ma.worker_id = (char *)w->id;
        ma.worker_endpoint = (char *)w->endpoint;
        Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
        msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
        msg.match_assigned = &ma;
        if (gwout_send(mm, p->tickets[i].gateway, &msg) < 0)
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: cannot tell gateway %s about player %s: %s",
                          p->match_id, p->tickets[i].gateway, p->tickets[i].player_id,
                          strerror(errno));
        if (seated_add(&mm->seated, &ma) < 0)
            dh_warn_every(DH_LOG_EVERY_MS,
                          "match %s: player %s not remembered as seated (out of memory)",
                          p->match_id, p->tickets[i].player_id);
    }
    for (size_t i = 0; i < p->n && mm->on_seated; i++) /* after every MatchAssigned */
        if (!p->tickets[i].bot)
            mm->on_seated(mm, p->tickets[i].player_id);
}

/* The match exists on w: tell the players, forget the placement. */
static void placement_done(mm_state *mm, placement *p, const registry_worker *w, uint64_t now_ms)
{
    const char *ids[p->n];
    for (size_t i = 0; i < p->n; i++)
        ids[i] = p->tickets[i].player_id;
    /* the deletes ride with the next write (state.h); at once only when that fails */
    if (state_placement_del_later(mm, now_ms, p->match_id, ids, p->n) < 0 &&
        placement_unstore(mm, now_ms, p, true) < 0)
        dh_warn_every(DH_LOG_EVERY_MS,
                      "match %s: placement and tickets not deleted (redis unavailable); a later "
                      "load sends its StartMatch again",
                      p->match_id);
    placement_assign(mm, p, w);
    const char *names[p->n];
    for (size_t i = 0; i < p->n; i++)
        names[i] = p->tickets[i].name;
    if (watch_add(&mm->watching, p->match_id, p->key.game, p->key.mode, names, p->n,
                  mm_wall_ms(mm, now_ms)) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: not in the watch list (out of memory)",
                      p->match_id);
    placement_remove(&mm->placements, p);
}

void placement_started(mm_state *mm, const char *identity,
                       const Deckhand__Internal__MatchStarted *ms, uint64_t now_ms)
{
    placement *p = placement_find(&mm->placements, ms->match_id ? ms->match_id : "");
    if (!p) {
        dh_warn_every(DH_LOG_EVERY_MS,
                      "MatchStarted for unknown or timed-out match %s from %s (ok=%d)",
                      ms->match_id, identity, ms->ok);
        return;
    }
    if (strcmp(p->worker, identity)) {
        dh_warn_every(DH_LOG_EVERY_MS,
                      "MatchStarted for %s from %s, but it was sent to %s; ignored", p->match_id,
                      identity, p->worker);
        return;
    }
    if (!ms->ok) {
        placement_fail(mm, p, ms->error && *ms->error ? ms->error : "refused", now_ms);
        return;
    }
    registry_worker *w = registry_find(&mm->reg, identity);
    if (!w) {
        placement_fail(mm, p, "worker unknown", now_ms);
        return;
    }
    if (w->pending)
        w->pending--;
    w->active++;
    dh_counter_inc(&mm->stats.matches_started);
    dh_debug("match %s started on %s", p->match_id, w->id); /* formed: logged at info */
    placement_done(mm, p, w, now_ms);
}

bool placement_adopted(mm_state *mm, const char *match_id, const registry_worker *w,
                       uint64_t now_ms)
{
    placement *p = placement_find(&mm->placements, match_id);
    if (!p)
        return false;
    registry_worker *first = registry_find(&mm->reg, p->worker);
    if (first && first->pending)
        first->pending--;
    dh_info("match %s: created by %s, which died before answering; adopted by %s", match_id,
            p->worker, w->id);
    placement_done(mm, p, w, now_ms);
    return true;
}

/* Send a resumed placement's StartMatch once its worker can be reached. */
static void placement_resend(mm_state *mm, placement *p)
{
    const registry_worker *w = registry_find(&mm->reg, p->worker);
    if (!w || !w->alive || placement_send_start(mm, p) < 0)
        return;
    p->unsent = false;
    dh_info("match %s: StartMatch sent again to %s", p->match_id, p->worker);
}

void placement_expire(mm_state *mm, uint64_t now_ms)
{
    for (size_t i = 0; i < mm->placements.n;) {
        placement *p = &mm->placements.items[i];
        if (now_ms < p->deadline_ms) {
            if (p->unsent)
                placement_resend(mm, p);
            i++;
            continue;
        }
        placement_fail(mm, p, "no MatchStarted in time", now_ms);
    }
}

void placement_hold(mm_state *mm, const char *match_id, uint64_t now_ms)
{
    placement *p = placement_find(&mm->placements, match_id);
    if (p)
        p->deadline_ms = now_ms + PLACEMENT_TIMEOUT_MS;
}

int placement_resume(mm_state *mm, placement *src, uint64_t now_ms)
{
    placement *p = placement_add(&mm->placements);
    if (!p) {
        free(src->tickets);
        return -1;
    }
    *p = *src;
    if (placement_index(&mm->placements, p) < 0) {
        dh_error("match %s: out of memory indexing its resumed placement", p->match_id);
        free(p->tickets);
        mm->placements.n--;
        return -1;
    }
    p->deadline_ms = now_ms + PLACEMENT_TIMEOUT_MS;
    registry_worker *w = registry_find(&mm->reg, p->worker);
    if (w)
        w->pending++;
    p->unsent = placement_send_start(mm, p) < 0;
    dh_info("match %s: resumed placement of %zu players on %s%s", p->match_id, p->n, p->worker,
            p->unsent ? " (worker not reachable yet)" : ", StartMatch sent again");
    return 0;
}
