/*
 * control.c: what the matchmaker does with each message it receives (see control.h).
 */
#include "control.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dh_log.h"
#include "dh_zmq.h"
#include "mm_admin.h"
#include "mm_failover.h"
#include "mm_play.h"
#include "mm_social.h"

static void control_match_ended(mm_state *mm, const char *identity,
                                const Deckhand__Internal__MatchEnded *me)
{
    registry_worker *w = registry_find(&mm->reg, identity);
    if (w && w->active)
        w->active--;
    /* one line per match at debug level: the worker logs the end, and a line per match
     * here cost the matchmaker CPU on every match (docs/BENCHMARKS.md, issue 27) */
    char line[512];
    size_t at = 0;
    line[0] = '\0';
    for (size_t i = 0; dh_log_enabled(DH_LOG_DEBUG) && i < me->n_results && at < sizeof line; i++) {
        const Deckhand__PlayerResult *r = me->results[i];
        int n = snprintf(line + at, sizeof line - at, " %s=%d(#%u)", r->name, r->score, r->rank);
        if (n < 0)
            break;
        at += (size_t)n;
    }
    dh_debug("match %s ended on %s:%s", me->match_id, identity, line);
    if (me->match_id) {
        seated_end(&mm->seated, me->match_id);
        watch_end(&mm->watching, me->match_id);
    }
}

/* A beat that names its worker's hello version (a worker of this release) is answered on
 * the worker's control route: we hold that hello (it need not repeat it), or we want it
 * (docs/matchmaker.md, "Worker hellos"). A worker of an earlier release is told nothing. */
static void control_hello_answer(mm_state *mm, const char *identity,
                                 const Deckhand__Internal__WorkerBeat *b, const registry_worker *w)
{
    const char *id = registry_beat_id(identity, b);
    registry_hello_answer a = registry_hello_check(w, b->hello_version);
    if (!id || a == REGISTRY_HELLO_SILENT)
        return;
    Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    if (a == REGISTRY_HELLO_HELD)
        wp.hello_version = b->hello_version;
    else
        wp.hello_wanted = true;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
    m.worker_probe = &wp;
    /* not sent (its route is gone, say): the worker repeats its hello unasked */
    if (dh_zmq_send(mm->router, id, &m) < 0)
        dh_debug("hello answer to %s not sent: %s", id, strerror(errno));
}

/* A WorkerBeat, from the worker's beat thread ("<id>/beat") or its main route (the last
 * "stopping" one, or a worker without a beat thread): keyed by its worker_id. True when
 * the tick should run now (a worker just died: the sweep moves its matches). */
static bool control_beat(mm_state *mm, const char *identity,
                         const Deckhand__Internal__WorkerBeat *b, uint64_t now_ms)
{
    registry_worker *w = registry_beat_row(&mm->reg, identity, b);
    if (!w) {
        dh_debug("beat from unregistered worker %s; waiting for its hello", identity);
        control_hello_answer(mm, identity, b, NULL);
        return false;
    }
    size_t gone = mm->reg.gone;
    registry_beat_health(&mm->reg, w, identity, b, now_ms);
    if (b->stopping)
        registry_gone(&mm->reg, w->id);
    control_hello_answer(mm, identity, b, w);
    return mm->reg.gone > gone;
}

/* What a standby does with the messages only the acting matchmaker handles. */
static bool control_standby(mm_state *mm, const char *identity,
                            const Deckhand__Internal__Internal *msg)
{
    const char *why = "standby matchmaker";
    if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN) {
        const Deckhand__Internal__QueueJoin *j = msg->queue_join;
        tickets_reply(mm, identity, j->player_id ? j->player_id : "", j->cmd_id,
                      DECKHAND__ERROR_CODE__UNAVAILABLE, why);
    } else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST) {
        const Deckhand__Internal__ClientRequest *r = msg->client_request;
        tickets_reply(mm, identity, r->player_id ? r->player_id : "", r->cmd_id,
                      DECKHAND__ERROR_CODE__UNAVAILABLE, why);
    } else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE &&
               msg->queue_leave->cmd_id) {
        const Deckhand__Internal__QueueLeave *l = msg->queue_leave;
        tickets_reply(mm, identity, l->player_id ? l->player_id : "", l->cmd_id,
                      DECKHAND__ERROR_CODE__UNAVAILABLE, why);
    } else {
        dh_debug("standby: message %d from %s ignored", (int)msg->body_case, identity);
    }
    return false;
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
        return control_beat(mm, identity, msg->worker_beat, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED:
        control_match_ended(mm, identity, msg->match_ended);
        return true;
    case DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_INFO:
        admin_info(mm, msg->admin_info, now_ms);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO: {
        registry_gateway *g = NULL;
        if (registry_gateway_hello(&mm->reg, identity, now_ms) < 0)
            dh_error("out of memory registering gateway %s", identity);
        else if ((g = registry_gateway_find(&mm->reg, identity))) {
            g->connections = msg->gateway_hello->connections;
            g->players = msg->gateway_hello->players;
            g->batches = msg->gateway_hello->batches;
        }
        return false;
    }
    default:
        break;
    }
    if (!mm_acting(mm, now_ms))
        return control_standby(mm, identity, msg);
    switch (msg->body_case) {
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED:
        placement_started(mm, identity, msg->match_started, now_ms);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED:
        takeover_adopted(mm, identity, msg->match_adopted, now_ms);
        return false;
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN:
        return social_queue_join(mm, identity, msg->queue_join, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE:
        return social_queue_leave(mm, identity, msg->queue_leave, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY:
        return social_away(mm, identity, msg->player_away, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK:
        return social_back(mm, identity, msg->player_back, now_ms);
    case DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST:
        return social_request(mm, identity, msg->client_request, now_ms);
    default:
        dh_warn_every(DH_LOG_EVERY_MS, "unexpected message %d from %s", (int)msg->body_case,
                      identity);
        return false;
    }
}
