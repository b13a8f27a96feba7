/*
 * route.c: match routes and the player commands sent through them (route.h).
 *
 * A route goes with the match's first GameOver through it, and when a worker's
 * UNKNOWN_MATCH answer comes through it (backend.c): that worker lost the match (a fenced
 * write), and the next command asks Redis, which names the new owner. A command with no
 * route waits for that lookup as packed bytes; its Reply, when the gateway must give one,
 * goes out through g->answer (the session layer's, above this module).
 */
#include "route.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "dh_str.h"
#include "inflight.h"
#include "lookup.h"

/* A command packed on the stack when it fits (a Choose is about 60-100 bytes). */
#define ROUTE_STACK_BYTES 512

typedef struct {
    char worker_id[DH_ZMQ_ID_MAX + 1];
    zsock *dealer;
} route_match;

int route_init(gw *g)
{
    return dh_table_init(&g->matches);
}

void route_free(gw *g)
{
    if (g->matches.buckets)
        dh_table_free(&g->matches, free);
}

/* Fill m and pc as a PlayerCommand: a Choose, a Resync, or (both NULL) an Away. */
static void route_pack_command(const char *match_id, const char *player_id, uint64_t cmd_id,
                               Deckhand__Choose *choose, Deckhand__Resync *resync,
                               Deckhand__Internal__Internal *m,
                               Deckhand__Internal__PlayerCommand *pc)
{
    static Deckhand__Internal__Away away = DECKHAND__INTERNAL__AWAY__INIT;
    pc->match_id = (char *)match_id;
    pc->player_id = (char *)player_id;
    pc->cmd_id = cmd_id;
    if (choose) {
        pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
        pc->choose = choose;
    } else if (resync) {
        pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
        pc->resync = resync;
    } else {
        pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
        pc->away = &away;
    }
    m->body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m->player_command = pc;
}

/* Remember that match_id lives on worker_id at endpoint; returns its dealer or NULL. */
zsock *route_learn(gw *g, const char *match_id, const char *worker_id, const char *endpoint)
{
    zsock *d = zsock_dealer(g, endpoint);
    if (!d)
        return NULL;
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm) {
        rm = calloc(1, sizeof *rm);
        if (!rm || dh_table_set(&g->matches, match_id, rm) < 0) {
            free(rm);
            dh_error_every(DH_LOG_EVERY_MS, "out of memory recording match %s", match_id);
            return NULL;
        }
    }
    rm->dealer = d;
    snprintf(rm->worker_id, sizeof rm->worker_id, "%s", worker_id ? worker_id : "");
    return d;
}

void route_forget(gw *g, const char *match_id, const zsock *via)
{
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm || (via && rm->dealer != via))
        return;
    dh_info("match %s: route to %s dropped", match_id, rm->worker_id);
    free(dh_table_del(&g->matches, match_id));
}

zsock *route_owner(gw *g, const char *match_id)
{
    route_match *rm = dh_table_get(&g->matches, match_id);
    return rm ? rm->dealer : NULL;
}

typedef struct {
    const char **ids;
    size_t n, max;
} route_workers_state;

static void route_workers_add(const char *key, void *val, void *arg)
{
    route_workers_state *st = arg;
    const route_match *rm = val;
    if (st->n == st->max || !rm->worker_id[0])
        return;
    for (size_t i = 0; i < st->n; i++)
        if (!strcmp(st->ids[i], rm->worker_id))
            return;
    st->ids[st->n++] = rm->worker_id;
}

size_t route_workers(gw *g, const char **ids, size_t max)
{
    route_workers_state st = {ids, 0, max};
    dh_table_each(&g->matches, route_workers_add, &st);
    return st.n;
}

bool route_conn_has_match(const gw_conn *c, const char *match_id)
{
    for (size_t i = 0; match_id[0] && i < GW_CONN_MATCHES; i++)
        if (!strcmp(c->matches[i], match_id))
            return true;
    return false;
}

void route_note_match(gw_conn *c, const char *match_id)
{
    size_t n = strlen(match_id), free_slot = GW_CONN_MATCHES;
    if (n == 0 || n >= GW_MATCH_ID_MAX)
        return;
    for (size_t i = 0; i < GW_CONN_MATCHES; i++) {
        if (!strcmp(c->matches[i], match_id))
            return;
        if (!c->matches[i][0] && free_slot == GW_CONN_MATCHES)
            free_slot = i;
    }
    if (free_slot == GW_CONN_MATCHES) {
        /* More matches at once than a player can be placed in (one per queue join, and
         * the matchmaker hands an unfinished match back instead of a new one): the oldest
         * is most likely one that ended while the player was elsewhere. */
        free_slot = c->match_next++ % GW_CONN_MATCHES;
        dh_info_every(DH_LOG_EVERY_MS, "player %s: match %s replaces %s as a remembered match",
                      c->player_id, match_id, c->matches[free_slot]);
    }
    memcpy(c->matches[free_slot], match_id, n + 1);
}

void route_drop_match(gw_conn *c, const char *match_id)
{
    for (size_t i = 0; i < GW_CONN_MATCHES; i++)
        if (!strcmp(c->matches[i], match_id))
            c->matches[i][0] = '\0';
}

/* A command waiting for a Redis lookup: the packed Internal message and its owner.
 * cmd_id 0 is the gateway's own (an attach or an away): nobody waits for it. */
typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    uint64_t cmd_id;
    size_t len;
    uint8_t msg[];
} route_deferred;

/* The lookup answered: send the command, or give its one Reply now. */
static void route_on_lookup(gw *g, void *arg, lookup_result res, const char *worker_id,
                            const char *endpoint)
{
    route_deferred *d = arg;
    zsock *dealer = NULL;
    const char *match_id = NULL;
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__OK;
    Deckhand__Internal__Internal *m = deckhand__internal__internal__unpack(NULL, d->len, d->msg);
    if (!m)
        goto out;
    match_id = m->player_command->match_id;
    if (res == LOOKUP_FOUND) {
        dealer = route_learn(g, match_id, worker_id, endpoint);
        if (dealer)
            dh_info("match %s found in redis on %s (%s)", match_id, worker_id, endpoint);
    }
    if (d->cmd_id == 0) {
        if (!dealer || zsock_command_packed(dealer, d->msg, d->len, d->player_id, 0) < 0)
            dh_debug("match %s: command for %s dropped (no route)", match_id, d->player_id);
        goto out;
    }
    if (!inflight_waiting(&g->commands, d->player_id, d->cmd_id))
        goto out; /* timed out or refused meanwhile, or shutting down */
    if (res == LOOKUP_MISSING)
        code = DECKHAND__ERROR_CODE__UNKNOWN_MATCH;
    else if (res == LOOKUP_FAILED || !dealer)
        code = DECKHAND__ERROR_CODE__UNAVAILABLE;
    else if (zsock_command_packed(dealer, d->msg, d->len, d->player_id, d->cmd_id) < 0)
        code = DECKHAND__ERROR_CODE__INTERNAL;
    else
        dh_counter_inc(&g->stats.commands);
    if (code != DECKHAND__ERROR_CODE__OK) {
        inflight_untrack(&g->commands, d->player_id, d->cmd_id);
        g->answer(g, d->player_id, d->cmd_id, code,
                  code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH
                      ? "no such match, or it has ended"
                      : "cannot reach the match's worker, retry later");
    }
out:
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    free(d);
}

/* No route: ask Redis, holding the packed command msg[0..len) until it answers. */
static Deckhand__ErrorCode route_defer(gw *g, const char *player_id, uint64_t cmd_id,
                                       const uint8_t *msg, size_t len, const char *match_id)
{
    route_deferred *d = malloc(sizeof *d + len);
    if (!d)
        return DECKHAND__ERROR_CODE__INTERNAL;
    dh_str_copy(d->player_id, sizeof d->player_id, player_id);
    d->cmd_id = cmd_id;
    d->len = len;
    memcpy(d->msg, msg, len);
    lookup_match(g, match_id, route_on_lookup, d);
    return DECKHAND__ERROR_CODE__OK;
}

/* m packed: into stack (cap bytes) when it fits, else into memory of its own, which
 * route_packed_free frees; NULL when out of memory. */
static uint8_t *route_pack(const Deckhand__Internal__Internal *m, uint8_t *stack, size_t cap,
                           size_t *len)
{
    *len = deckhand__internal__internal__get_packed_size(m);
    uint8_t *buf = *len <= cap ? stack : malloc(*len);
    if (buf)
        deckhand__internal__internal__pack(m, buf);
    return buf;
}

static void route_packed_free(uint8_t *buf, const uint8_t *stack)
{
    if (buf != stack)
        free(buf);
}

void route_own_command(gw *g, Deckhand__Internal__PlayerCommand *pc, const char *what)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = pc;
    pc->cmd_id = 0;
    route_match *rm = dh_table_get(&g->matches, pc->match_id);
    if (!rm) {
        uint8_t stack[ROUTE_STACK_BYTES], *buf;
        size_t len;
        if (g->stopping || !lookup_enabled(g) || !(buf = route_pack(&m, stack, sizeof stack, &len)))
            return;
        route_defer(g, pc->player_id, 0, buf, len, pc->match_id);
        route_packed_free(buf, stack);
        return;
    }
    if (zsock_command(rm->dealer, &m, pc->player_id, 0) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "%s of %s to %s not sent: out of memory", what,
                      pc->player_id, pc->match_id);
}

/* Send one of the gateway's own commands (a Resync that attaches the player, or, with
 * resync NULL, an Away) to match_id's worker. */
static void route_send_own(gw *g, const char *match_id, const char *player_id,
                           Deckhand__Resync *resync)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    route_pack_command(match_id, player_id, 0, NULL, resync, &m, &pc);
    route_own_command(g, &pc, resync ? "attach" : "away");
}

void route_attach(gw *g, const char *match_id, const char *player_id)
{
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)match_id;
    route_send_own(g, match_id, player_id, &rs);
}

void route_away(gw *g, const char *match_id, const char *player_id)
{
    route_send_own(g, match_id, player_id, NULL);
}

void route_player_away(gw *g, gw_conn *c)
{
    for (size_t i = 0; i < GW_CONN_MATCHES; i++) {
        if (!c->matches[i][0])
            continue;
        route_away(g, c->matches[i], c->player_id);
        c->matches[i][0] = '\0';
    }
}

/* Forward a packed PlayerCommand msg[0..len) to match_id's worker, tracked for its Reply
 * (route_command says how). */
static Deckhand__ErrorCode route_command_packed(gw *g, const char *player_id, uint64_t cmd_id,
                                                const char *match_id, const uint8_t *msg,
                                                size_t len, bool watch)
{
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm && (!match_id[0] || !lookup_enabled(g)))
        return DECKHAND__ERROR_CODE__UNKNOWN_MATCH;
    /* Not noted as the player's match yet: the worker's answer says whether it seats
     * the player there (backend.c). */
    inflight *p = inflight_track(g, &g->commands, player_id, cmd_id, match_id, GW_WORKER_TIMEOUT);
    if (!p)
        return DECKHAND__ERROR_CODE__INTERNAL;
    p->watch = watch;
    if (!rm) {
        Deckhand__ErrorCode rc = route_defer(g, player_id, cmd_id, msg, len, match_id);
        if (rc != DECKHAND__ERROR_CODE__OK)
            inflight_untrack(&g->commands, player_id, cmd_id);
        return rc;
    }
    if (zsock_command_packed(rm->dealer, msg, len, player_id, cmd_id) < 0) {
        inflight_untrack(&g->commands, player_id, cmd_id);
        return DECKHAND__ERROR_CODE__INTERNAL;
    }
    dh_counter_inc(&g->stats.commands);
    return DECKHAND__ERROR_CODE__OK;
}

Deckhand__ErrorCode route_command(gw *g, Deckhand__Internal__PlayerCommand *pc, bool watch)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = pc;
    uint8_t stack[ROUTE_STACK_BYTES];
    size_t len;
    uint8_t *buf = route_pack(&m, stack, sizeof stack, &len);
    if (!buf)
        return DECKHAND__ERROR_CODE__INTERNAL;
    Deckhand__ErrorCode rc =
        route_command_packed(g, pc->player_id, pc->cmd_id, pc->match_id, buf, len, watch);
    route_packed_free(buf, stack);
    return rc;
}

Deckhand__ErrorCode route_choose(gw *g, gw_conn *c, const inwire_choose *ch)
{
    uint8_t stack[ROUTE_STACK_BYTES];
    size_t len = inwire_command_size(ch, c->player_id);
    uint8_t *buf = len <= sizeof stack ? stack : malloc(len);
    if (!buf)
        return DECKHAND__ERROR_CODE__INTERNAL;
    len = inwire_command_pack(ch, c->player_id, buf);
    Deckhand__ErrorCode rc =
        route_command_packed(g, c->player_id, ch->cmd_id, ch->match_id, buf, len, false);
    route_packed_free(buf, stack);
    return rc;
}

void route_unsent(gw *g, const char *player_id, uint64_t cmd_id, int err)
{
    if (cmd_id == 0) {
        dh_warn_every(DH_LOG_EVERY_MS, "a command of the gateway's own for %s not sent: %s",
                      player_id, zmq_strerror(err));
        return;
    }
    if (!inflight_waiting(&g->commands, player_id, cmd_id))
        return; /* refused meanwhile, or shutting down */
    inflight_untrack(&g->commands, player_id, cmd_id);
    bool full = err == EAGAIN;
    g->answer(g, player_id, cmd_id,
              full ? DECKHAND__ERROR_CODE__OVERLOADED : DECKHAND__ERROR_CODE__UNAVAILABLE,
              full ? "backend overloaded, retry later"
                   : "cannot reach the match's worker, retry later");
}

Deckhand__ErrorCode route_player_command(gw *g, gw_conn *c, uint64_t cmd_id, const char *match_id,
                                         Deckhand__Choose *choose, Deckhand__Resync *resync)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    route_pack_command(match_id, c->player_id, cmd_id, choose, resync, &m, &pc);
    return route_command(g, &pc, false);
}

/* ---- moves ---------------------------------------------------------------------------- */

typedef struct {
    gw *gw;
    const Deckhand__Internal__MatchMoved *mv;
    size_t refused;
} route_moved_state;

static bool route_moved_has(const Deckhand__Internal__MatchMoved *mv, const char *player_id)
{
    for (size_t i = 0; i < mv->n_player_ids; i++)
        if (mv->player_ids[i] && !strcmp(mv->player_ids[i], player_id))
            return true;
    return false;
}

/* A command of a moved match's player went to the old worker, which will not answer it:
 * UNAVAILABLE now instead of at the timeout, and a tombstone for a late answer. */
static void route_moved_refuse(const char *key, void *val, void *arg)
{
    route_moved_state *st = arg;
    inflight *p = val;
    if (p->expired || strcmp(p->match_id, st->mv->match_id) ||
        !route_moved_has(st->mv, p->player_id))
        return;
    inflight_expire(st->gw, p, DECKHAND__ERROR_CODE__UNAVAILABLE,
                    "match moved to another worker, resync");
    st->refused++;
}

size_t route_move(gw *g, const Deckhand__Internal__MatchMoved *mv)
{
    route_forget(g, mv->match_id, NULL);
    if (mv->worker_endpoint && mv->worker_endpoint[0])
        route_learn(g, mv->match_id, mv->worker_id, mv->worker_endpoint);
    route_moved_state st = {g, mv, 0};
    dh_table_each(&g->commands, route_moved_refuse, &st);
    return st.refused;
}
