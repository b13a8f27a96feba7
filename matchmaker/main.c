/*
 * main.c: deckhand-matchmaker, the control-path hub.
 *
 * One ROUTER socket, one zmq_poll loop. Gateways bring queue joins and leaves; workers
 * bring hellos, beats and match starts/ends. Every TICK_MS (and right after a join) the
 * loop expires silent workers and stalled placements and forms what the queues allow.
 * State lives in memory only: a restarted matchmaker relearns workers from their
 * periodic WorkerHello, and players re-queue (queues in Redis are a later issue).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "dh_config.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "matchmaker.h"

#define TICK_MS   50
#define HWM       10000
#define DRAIN_MAX 1000 /* messages handled per wake-up before the tick gets its turn */

static volatile sig_atomic_t mm_stop; /* set by SIGINT/SIGTERM; the only global */

static void mm_on_signal(int sig)
{
    (void)sig;
    mm_stop = 1;
}

static uint64_t mm_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void mm_queue_reply(mm_state *mm, const char *gateway, const char *player_id,
                           uint64_t cmd_id, Deckhand__ErrorCode code, const char *text)
{
    Deckhand__Internal__QueueReply qr = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    Deckhand__Error err = DECKHAND__ERROR__INIT;
    qr.player_id = (char *)player_id;
    qr.cmd_id = cmd_id;
    qr.ok = code == DECKHAND__ERROR_CODE__OK;
    if (!qr.ok) {
        err.code = code;
        err.message = (char *)text;
        qr.error = &err;
    }
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    msg.queue_reply = &qr;
    if (dh_zmq_send(mm->router, gateway, &msg) < 0)
        dh_warn("cannot reply to gateway %s: %s", gateway, strerror(errno));
}

/* Validate and queue one join; the answer goes back to the sending gateway. True when
 * the player now waits (the caller then tries formation at once). */
static bool mm_queue_join(mm_state *mm, const char *gateway, const Deckhand__Internal__QueueJoin *j,
                          uint64_t now_ms)
{
    const char *pid = j->player_id ? j->player_id : "";
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__OK;
    const char *why = NULL;
    char buf[160];
    queue_key key;
    queue_ticket t;
    const registry_game *g = registry_game_info(&mm->reg, j->game ? j->game : "");
    uint32_t players = j->players;
    if (!*pid) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "missing player id";
    } else if (!g) {
        code = DECKHAND__ERROR_CODE__UNKNOWN_GAME;
        snprintf(buf, sizeof buf, "no worker serves game '%.64s'", j->game ? j->game : "");
        why = buf;
    } else if ((players = players ? players : g->min_players) < g->min_players ||
               players > g->max_players) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        snprintf(buf, sizeof buf, "%s is for %u to %u players", g->name, g->min_players,
                 g->max_players);
        why = buf;
    } else if (queue_key_init(&key, j->game, j->mode, players) != QUEUE_OK ||
               queue_ticket_init(&t, pid, j->name, gateway, j->cmd_id, now_ms) != QUEUE_OK) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "a field is too long";
    } else if (placement_has_player(&mm->placements, pid)) {
        code = DECKHAND__ERROR_CODE__BAD_REQUEST;
        why = "already queued";
    } else {
        queue_status st = queue_join(mm->queues, &key, &t);
        if (st == QUEUE_DUPLICATE) {
            code = DECKHAND__ERROR_CODE__BAD_REQUEST;
            why = "already queued";
        } else if (st != QUEUE_OK) {
            code = DECKHAND__ERROR_CODE__OVERLOADED;
            why = "out of memory";
        }
    }
    if (code == DECKHAND__ERROR_CODE__OK)
        dh_info("queue join %s (%s) %s/%s/%u via %s", pid, t.name, key.game, key.mode, key.players,
                gateway);
    else
        dh_info("queue join %s refused: %s", pid, why);
    mm_queue_reply(mm, gateway, pid, j->cmd_id, code, why);
    return code == DECKHAND__ERROR_CODE__OK;
}

static void mm_match_ended(mm_state *mm, const char *identity,
                           const Deckhand__Internal__MatchEnded *me)
{
    registry_worker *w = registry_find(&mm->reg, identity);
    if (w && w->active)
        w->active--;
    char line[512];
    size_t at = 0;
    line[0] = '\0';
    for (size_t i = 0; i < me->n_results && at < sizeof line; i++) {
        const Deckhand__PlayerResult *r = me->results[i];
        int n = snprintf(line + at, sizeof line - at, " %s=%d(#%u)", r->name, r->score, r->rank);
        if (n < 0)
            break;
        at += (size_t)n;
    }
    dh_info("match %s ended on %s:%s", me->match_id, identity, line);
}

/* Handle one message; true when a join may allow a new match. */
static bool mm_handle(mm_state *mm, const char *identity, const Deckhand__Internal__Internal *msg,
                      uint64_t now_ms)
{
    switch (msg->body_case) {
    case DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO:
        if (!registry_hello(&mm->reg, identity, msg->worker_hello, now_ms))
            dh_error("out of memory registering worker %s", identity);
        return true;
    case DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT:
        if (!registry_beat(&mm->reg, identity, msg->worker_beat->active_matches,
                           msg->worker_beat->draining, now_ms))
            dh_debug("beat from unregistered worker %s; waiting for its hello", identity);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED:
        placement_started(mm, identity, msg->match_started, now_ms);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED:
        mm_match_ended(mm, identity, msg->match_ended);
        return true;
    case DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO:
        if (registry_gateway_hello(&mm->reg, identity, now_ms) < 0)
            dh_error("out of memory registering gateway %s", identity);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN:
        return mm_queue_join(mm, identity, msg->queue_join, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE: {
        const Deckhand__Internal__QueueLeave *l = msg->queue_leave;
        const char *pid = l->player_id ? l->player_id : "";
        bool left = queue_leave(mm->queues, pid, l->game);
        dh_info("queue leave %s %s", pid, left ? "done" : "(was not queued)");
        /* cmd_id 0 is the gateway's own leave for a player who disconnected */
        if (l->cmd_id)
            mm_queue_reply(mm, identity, pid, l->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
        return false;
    }
    default:
        dh_warn("unexpected message %d from %s", (int)msg->body_case, identity);
        return false;
    }
}

static int mm_run(mm_state *mm)
{
    uint64_t next_tick = mm_now_ms();
    while (!mm_stop) {
        uint64_t now = mm_now_ms();
        long timeout = next_tick > now ? (long)(next_tick - now) : 0;
        zmq_pollitem_t item = {.socket = mm->router, .events = ZMQ_POLLIN};
        if (zmq_poll(&item, 1, timeout) < 0) {
            if (errno == EINTR)
                continue;
            dh_error("zmq_poll: %s", zmq_strerror(errno));
            return -1;
        }
        bool form = false;
        char identity[DH_ZMQ_ID_MAX + 1];
        for (int i = 0; i < DRAIN_MAX; i++) {
            Deckhand__Internal__Internal *msg = NULL;
            int rc = dh_zmq_recv(mm->router, identity, &msg);
            if (rc == 0)
                break;
            if (rc < 0)
                continue;
            form |= mm_handle(mm, identity, msg, mm_now_ms());
            deckhand__internal__internal__free_unpacked(msg, NULL);
        }
        now = mm_now_ms();
        if (form || now >= next_tick) {
            registry_expire(&mm->reg, now);
            placement_expire(mm, now);
            placement_form(mm, now);
            if (now >= next_tick)
                next_tick = now + TICK_MS;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *bind =
        dh_config_str(argc, argv, "--bind", "DECKHAND_MATCHMAKER_BIND", "tcp://127.0.0.1:5560");
    dh_log_init("matchmaker");
    int rc = 1;
    mm_state mm;
    memset(&mm, 0, sizeof mm);
    registry_init(&mm.reg);
    placement_list_init(&mm.placements);
    void *ctx = zmq_ctx_new();
    if (!ctx)
        goto err;
    mm.queues = queue_set_new();
    if (!mm.queues)
        goto err;
    mm.router = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, HWM);
    if (!mm.router)
        goto err;
    if (zmq_bind(mm.router, bind) < 0) {
        dh_error("cannot bind %s: %s", bind, zmq_strerror(errno));
        goto err;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = mm_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    dh_info("listening %s", bind);
    if (mm_run(&mm) == 0) {
        dh_info("stopping: %zu players waiting, %zu placements pending", queue_total(mm.queues),
                mm.placements.n);
        rc = 0;
    }
err:
    if (rc)
        dh_error("matchmaker failed to start or crashed out of its loop");
    if (mm.router)
        zmq_close(mm.router);
    if (ctx)
        zmq_ctx_term(ctx);
    queue_set_free(mm.queues);
    placement_list_free(&mm.placements);
    registry_free(&mm.reg);
    return rc;
}
