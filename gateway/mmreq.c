/*
 * mmreq.c: the gateway's requests and notices to the matchmaker (mmreq.h). The answers
 * come back through backend.c.
 */
#include "mmreq.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "inflight.h"
#include "zsock.h"

static Deckhand__ErrorCode mmreq_send(gw *g, gw_conn *c, uint64_t cmd_id,
                                      const Deckhand__Internal__Internal *m, const char *mark)
{
    if (!inflight_track(g, &g->pending, c->player_id, cmd_id, mark, GW_MM_TIMEOUT))
        return DECKHAND__ERROR_CODE__INTERNAL;
    if (zsock_mm_send(g, m) < 0) {
        dh_warn_every(DH_LOG_EVERY_MS, "matchmaker unreachable: %s", zmq_strerror(errno));
        inflight_untrack(&g->pending, c->player_id, cmd_id);
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    return DECKHAND__ERROR_CODE__OK;
}

Deckhand__ErrorCode mmreq_join(gw *g, gw_conn *c, uint64_t cmd_id, const Deckhand__QueueJoin *q)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = c->player_id;
    j.name = c->name;
    j.gateway_id = g->id;
    j.cmd_id = cmd_id;
    j.game = q->game;
    j.mode = q->mode;
    j.players = q->players;
    j.n_options = q->n_options; /* checked by the matchmaker against the game's bundle */
    j.options = q->options;
    j.vs_ai = q->vs_ai; /* checked by the matchmaker against the game's difficulties */
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    return mmreq_send(g, c, cmd_id, &m, "");
}

Deckhand__ErrorCode mmreq_leave(gw *g, gw_conn *c, uint64_t cmd_id, const Deckhand__QueueLeave *q)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueLeave l = DECKHAND__INTERNAL__QUEUE_LEAVE__INIT;
    l.player_id = c->player_id;
    l.gateway_id = g->id;
    l.cmd_id = cmd_id;
    l.game = q->game;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE;
    m.queue_leave = &l;
    return mmreq_send(g, c, cmd_id, &m, "");
}

/* A code join from c may go (its mark written into mark); false when it was answered
 * RATE_LIMITED instead, its address or player waiting after wrong codes. */
static bool mmreq_code_may_go(gw *g, gw_conn *c, uint64_t cmd_id, char *mark, size_t cap)
{
    uint64_t wait = guess_try(&g->guesses, c->addr, c->player_id, uv_now(g->loop));
    if (!wait) {
        snprintf(mark, cap, MMREQ_CODE "%s", c->addr);
        return true;
    }
    char text[128];
    snprintf(text, sizeof text, "too many wrong party or lobby codes; try again in %llu s",
             (unsigned long long)(wait + 999) / 1000);
    dh_info_every(DH_LOG_EVERY_MS, "code join of %s from %s refused: %s", c->player_id, c->addr,
                  text);
    g->answer(g, c->player_id, cmd_id, DECKHAND__ERROR_CODE__RATE_LIMITED, text);
    return false;
}

Deckhand__ErrorCode mmreq_request(gw *g, gw_conn *c, uint64_t cmd_id,
                                  const Deckhand__ClientMessage *cm)
{
    char mark[GW_MATCH_ID_MAX] = MMREQ_CLIENT;
    if ((cm->body_case == DECKHAND__CLIENT_MESSAGE__BODY_PARTY_JOIN ||
         cm->body_case == DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN) &&
        !mmreq_code_may_go(g, c, cmd_id, mark, sizeof mark))
        return DECKHAND__ERROR_CODE__OK; /* answered */
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__ClientRequest r = DECKHAND__INTERNAL__CLIENT_REQUEST__INIT;
    r.player_id = c->player_id;
    r.name = c->name;
    r.gateway_id = g->id;
    r.cmd_id = cmd_id;
    r.message = (Deckhand__ClientMessage *)cm;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST;
    m.client_request = &r;
    Deckhand__ErrorCode rc = mmreq_send(g, c, cmd_id, &m, mark);
    if (rc != DECKHAND__ERROR_CODE__OK && strcmp(mark, MMREQ_CLIENT))
        guess_answered(&g->guesses, c->addr, c->player_id, false); /* never asked */
    return rc;
}

bool mmreq_is_client(const char *mark)
{
    return !strcmp(mark, MMREQ_CLIENT) || !strncmp(mark, MMREQ_CODE, strlen(MMREQ_CODE));
}

void mmreq_answered(gw *g, const char *mark, const Deckhand__Internal__QueueReply *r)
{
    if (strncmp(mark, MMREQ_CODE, strlen(MMREQ_CODE)) || !r->player_id)
        return;
    bool wrong = !r->ok && r->error && r->error->code == DECKHAND__ERROR_CODE__NOT_FOUND;
    guess_answered(&g->guesses, mark + strlen(MMREQ_CODE), r->player_id, wrong);
}

/* PlayerAway or PlayerBack, which carry the same two fields: best effort (the matchmaker
 * may be down; a lost notice is logged). */
static void mmreq_presence(gw *g, gw_conn *c, bool away)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerAway a = DECKHAND__INTERNAL__PLAYER_AWAY__INIT;
    Deckhand__Internal__PlayerBack b = DECKHAND__INTERNAL__PLAYER_BACK__INIT;
    a.player_id = b.player_id = c->player_id;
    a.gateway_id = b.gateway_id = g->id;
    if (away) {
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY;
        m.player_away = &a;
    } else {
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK;
        m.player_back = &b;
    }
    if (g->mm && zsock_mm_send(g, &m) < 0)
        dh_debug("%s for %s not sent: %s", away ? "PlayerAway" : "PlayerBack", c->player_id,
                 zmq_strerror(errno));
}

void mmreq_player_away(gw *g, gw_conn *c)
{
    if (!c->queued[0] && !c->in_party && !c->in_lobby && !c->offered_rematch)
        return;
    mmreq_presence(g, c, true);
    c->queued[0] = '\0';
}

void mmreq_player_back(gw *g, gw_conn *c)
{
    mmreq_presence(g, c, false);
}
