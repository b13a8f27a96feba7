/*
 * control.c: what the matchmaker does with each message it receives (see control.h).
 */
#include "control.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dh_log.h"
#include "dh_zmq.h"

static void control_queue_reply(mm_state *mm, const char *gateway, const char *player_id,
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
static bool control_queue_join(mm_state *mm, const char *gateway,
                               const Deckhand__Internal__QueueJoin *j, uint64_t now_ms)
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
               players > g->max_players || players == 0) {
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
    control_queue_reply(mm, gateway, pid, j->cmd_id, code, why);
    return code == DECKHAND__ERROR_CODE__OK;
}

static void control_match_ended(mm_state *mm, const char *identity,
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

bool control_handle(mm_state *mm, const char *identity, const Deckhand__Internal__Internal *msg,
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
        control_match_ended(mm, identity, msg->match_ended);
        return true;
    case DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO:
        if (registry_gateway_hello(&mm->reg, identity, now_ms) < 0)
            dh_error("out of memory registering gateway %s", identity);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN:
        return control_queue_join(mm, identity, msg->queue_join, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE: {
        const Deckhand__Internal__QueueLeave *l = msg->queue_leave;
        const char *pid = l->player_id ? l->player_id : "";
        bool left = queue_leave(mm->queues, pid, l->game);
        dh_info("queue leave %s %s", pid, left ? "done" : "(was not queued)");
        /* cmd_id 0 is the gateway's own leave for a player who disconnected */
        if (l->cmd_id)
            control_queue_reply(mm, identity, pid, l->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
        return false;
    }
    default:
        dh_warn("unexpected message %d from %s", (int)msg->body_case, identity);
        return false;
    }
}
