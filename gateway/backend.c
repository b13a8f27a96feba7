/*
 * backend.c: what the matchmaker and the workers tell the gateway (backend.h). It sits
 * above the session layer (it answers and informs players) and the modules that do the
 * work: queue requests in flight (inflight.c), match routes (route.c).
 *
 * Control messages are accepted from the matchmaker only: a worker cannot assign or move
 * matches, and a worker dealer's drain (inside a walk of g->dealers) must not add one.
 */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "inflight.h"
#include "mmreq.h"
#include "outwire.h"
#include "route.h"
#include "session.h"
#include "watch.h"

static void backend_on_queue_reply(gw *g, const Deckhand__Internal__QueueReply *r)
{
    inflight *p = r->player_id ? inflight_take(&g->pending, r->player_id, r->cmd_id) : NULL;
    bool waiting = p && !p->expired, client = p && mmreq_is_client(p->match_id);
    if (p)
        mmreq_answered(g, p->match_id, r); /* late or not: a code join's try is settled */
    free(p);
    if (!waiting) {
        dh_debug("unexpected or late QueueReply dropped");
        return;
    }
    gw_conn *c = session_find(g, r->player_id);
    if (!c)
        return;
    if (!r->ok && !client)
        c->queued[0] = '\0'; /* a refused join queued nothing */
    if (r->ok || !r->error)
        session_reply(c, r->cmd_id,
                      r->ok ? DECKHAND__ERROR_CODE__OK : DECKHAND__ERROR_CODE__INTERNAL,
                      r->ok ? NULL : "queue request failed");
    else
        session_reply(c, r->cmd_id, r->error->code, r->error->message);
}

static void backend_on_match_assigned(gw *g, const Deckhand__Internal__MatchAssigned *a)
{
    if (!a->match_id || !a->match_id[0] || !a->worker_endpoint || !a->worker_endpoint[0]) {
        dh_warn_every(DH_LOG_EVERY_MS, "MatchAssigned without match id or worker endpoint dropped");
        return;
    }
    gw_conn *c = session_find(g, a->player_id);
    if (c && route_conn_has_match(c, a->match_id)) {
        /* The assignment again, for a join sent twice (the first answered late: a
         * partition): this connection was told of the match and attached already, and a
         * second MatchFound would have the client attach again and re-answer. */
        dh_info("match %s: player %s knows it on this connection already: repeat dropped",
                a->match_id, a->player_id);
        return;
    }
    zsock *d = route_learn(g, a->match_id, a->worker_id, a->worker_endpoint);
    if (!d)
        return;
    dh_counter_inc(&g->stats.assignments);
    dh_info("match %s on %s (%s): player %s seat %u", a->match_id, a->worker_id, a->worker_endpoint,
            a->player_id, a->seat);

    if (c) {
        c->queued[0] = '\0';
        route_note_match(c, a->match_id);
        Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
        Deckhand__MatchFound f = DECKHAND__MATCH_FOUND__INIT;
        f.match_id = a->match_id;
        f.seat = a->seat;
        f.game = a->game;
        f.n_players = a->n_players;
        f.players = a->players;
        m.body_case = DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND;
        m.match_found = &f;
        session_send(c, &m);
    }
    /* Attach the player even when not connected here now: the worker learns the route
     * and a reconnecting client resyncs. One who left before the match formed (the
     * matchmaker had not heard of it yet) is reported away at once, so that the seat
     * gets its grace period and then its bot rather than stalling the match. */
    route_attach(g, a->match_id, a->player_id ? a->player_id : "");
    if (!c && a->player_id && a->player_id[0]) {
        dh_info("match %s: player %s is not connected here: reported away", a->match_id,
                a->player_id);
        route_away(g, a->match_id, a->player_id);
    }
}

/* The matchmaker moved a match to another worker (takeover): re-route it, refuse the
 * commands in flight for its players, and attach the players connected here to the new
 * worker, which answers each with a full View and the pending decision. */
static void backend_on_match_moved(gw *g, const Deckhand__Internal__MatchMoved *mv)
{
    if (!mv->match_id || !mv->match_id[0]) {
        dh_warn_every(DH_LOG_EVERY_MS, "MatchMoved without match id dropped");
        return;
    }
    size_t refused = route_move(g, mv);
    size_t attached = 0;
    for (size_t i = 0; i < mv->n_player_ids; i++) {
        if (!mv->player_ids[i] || !session_find(g, mv->player_ids[i]))
            continue;
        route_attach(g, mv->match_id, mv->player_ids[i]);
        attached++;
    }
    attached += watch_moved(g, mv->match_id);
    dh_info("match %s moved to %s (%s): %zu commands refused, %zu players and watchers re-attached",
            mv->match_id, mv->worker_id ? mv->worker_id : "?",
            mv->worker_endpoint ? mv->worker_endpoint : "", refused, attached);
}

/* True when a worker's Reply shows that it seats the player in the command's match: any
 * answer but UNKNOWN_MATCH (no such match, or not seated) and OVERLOADED (refused at its
 * inbox, before it looked). An UNAVAILABLE may come from a seat that a newer connection
 * took over; the away this leads to is then ignored by the worker. */
static bool backend_reply_seats(const Deckhand__Reply *r)
{
    Deckhand__ErrorCode code = r->ok || !r->error ? DECKHAND__ERROR_CODE__OK : r->error->code;
    return code != DECKHAND__ERROR_CODE__UNKNOWN_MATCH && code != DECKHAND__ERROR_CODE__OVERLOADED;
}

/* The worker seats player_id in match_id: remembered on the player's connection, where a
 * disconnect is reported; a player who left meanwhile is reported away at once. */
static void backend_seated(gw *g, const char *player_id, const char *match_id)
{
    gw_conn *c = session_find(g, player_id);
    if (c)
        route_note_match(c, match_id);
    else
        route_away(g, match_id, player_id);
}

/* A Reply closes its tracked command; one nobody waits for (a late answer, or the worker
 * answering the gateway's own attach) is dropped. A waited-for UNKNOWN_MATCH drops the
 * route it came through; any other answer confirms the player's seat in the match. */
static bool backend_on_reply(gw *g, zsock *from, const char *player_id, const Deckhand__Reply *r)
{
    inflight *p = inflight_take(&g->commands, player_id, r->cmd_id);
    bool wanted = p && !p->expired;
    if (wanted)
        dh_histogram_since(&g->stats.command_seconds, p->start_ns);
    if (wanted && !r->ok)
        dh_ops_count_code(g->stats.replies, r->error ? (int)r->error->code : 0);
    if (wanted && !r->ok && r->error && r->error->code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH &&
        p->match_id[0])
        route_forget(g, p->match_id, from);
    if (wanted && p->watch)
        watch_answered(session_find(g, player_id), p->match_id, r);
    else if (wanted && p->match_id[0] && backend_reply_seats(r))
        backend_seated(g, player_id, p->match_id);
    free(p);
    if (!wanted)
        dh_debug("unexpected or late worker Reply for %s dropped", player_id);
    return wanted;
}

/* Only outputs the worker marks as a Reply or a GameOver (PlayerOutput.kind) are read; an
 * ok Reply in place (outwire.h), the others unpacked; the rest pass through untouched. */
static bool backend_output_wanted(gw *g, zsock *from, const Deckhand__Internal__PlayerOutput *o)
{
    if (o->kind != DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY &&
        o->kind != DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__GAME_OVER)
        return true;
    const char *player_id = o->player_id;
    const ProtobufCBinaryData *msg = &o->message;
    Deckhand__Reply ok = DECKHAND__REPLY__INIT;
    if (o->kind == DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY &&
        outwire_reply_ok(msg->data, msg->len, &ok.cmd_id)) {
        ok.ok = true; /* the usual answer, read in place: no unpack, no allocation */
        return backend_on_reply(g, from, player_id, &ok);
    }
    Deckhand__ServerMessage *m = deckhand__server_message__unpack(NULL, msg->len, msg->data);
    if (!m)
        return false;
    bool wanted = true;
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY) {
        wanted = backend_on_reply(g, from, player_id, m->reply);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER) {
        gw_conn *c = session_find(g, player_id);
        if (c && m->game_over->match_id)
            route_drop_match(c, m->game_over->match_id); /* a disconnect concerns nobody */
        /* Over: its route goes too (a later command asks Redis, which says finished). */
        if (m->game_over->match_id)
            route_forget(g, m->game_over->match_id, from);
    }
    deckhand__server_message__free_unpacked(m, NULL);
    return wanted;
}

/* The lookups of one message's outputs, reused while they name the same players and match
 * (a worker's turn sends each seat several outputs, the seats in turn: about 8 outputs and
 * 15 hash lookups an answer before). Only an output that is passed on untouched may reuse
 * them: a Reply's or GameOver's bookkeeping and a watcher's frame may move a route or a
 * player, so those forget what was seen. The strings live as long as the message. */
#define BACKEND_SEEN_PLAYERS 4

typedef struct {
    const char *player_id[BACKEND_SEEN_PLAYERS];
    gw_conn *conn[BACKEND_SEEN_PLAYERS];
    unsigned next; /* the slot the next new player takes */
    const char *match_id;
    zsock *owner;
} backend_seen;

static gw_conn *backend_seen_conn(gw *g, backend_seen *s, const char *player_id)
{
    for (unsigned i = 0; i < BACKEND_SEEN_PLAYERS; i++)
        if (s->player_id[i] && strcmp(s->player_id[i], player_id) == 0)
            return s->conn[i];
    unsigned i = s->next++ % BACKEND_SEEN_PLAYERS;
    s->player_id[i] = player_id;
    s->conn[i] = session_find(g, player_id);
    return s->conn[i];
}

static zsock *backend_seen_owner(gw *g, backend_seen *s, const char *match_id)
{
    if (!s->match_id || strcmp(s->match_id, match_id) != 0) {
        s->owner = route_owner(g, match_id);
        s->match_id = match_id;
    }
    return s->owner;
}

static void backend_seen_forget(backend_seen *s)
{
    *s = (backend_seen){0};
}

static void backend_on_player_output(gw *g, zsock *from, const Deckhand__Internal__PlayerOutput *o,
                                     backend_seen *seen)
{
    if (!o->player_id)
        return;
    /* A worker that lost the match (it was frozen or cut off while the match moved) may
     * still speak of it: only the worker the match is routed to is heard. */
    zsock *owner = o->match_id && *o->match_id ? backend_seen_owner(g, seen, o->match_id) : NULL;
    if (owner && owner != from) {
        dh_debug("output for %s about match %s from a worker that lost it: dropped", o->player_id,
                 o->match_id);
        return;
    }
    gw_conn *c = backend_seen_conn(g, seen, o->player_id);
    if (watch_is_frame(&o->message)) {
        backend_seen_forget(seen);
        /* a watcher's frame reaches only a connection watching that match */
        if (watch_frame_wanted(from, c, o->player_id, o->match_id)) {
            conn_send(c, o->message.data, o->message.len);
            watch_frame_seen(g, from, c, o->match_id, &o->message);
        }
        return;
    }
    if (o->kind != DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER) {
        backend_seen_forget(seen);
        bool wanted = backend_output_wanted(g, from, o);
        backend_seen_forget(seen);
        if (!wanted)
            return;
        c = backend_seen_conn(g, seen, o->player_id); /* a Reply's bookkeeping may have moved it */
    }
    if (c)
        conn_send(c, o->message.data, o->message.len);
}

/* A state the matchmaker sends a player (PartyState, LobbyState, LobbyList, Games): to the
 * player's connection here. What it says of parties and lobbies is noted on the
 * connection: in one, its disconnect is reported; a party waiting in a line counts as
 * queued, for every member (only the leader sent the QueueJoin). */
static void backend_on_mm_output(gw *g, const Deckhand__Internal__PlayerOutput *o)
{
    gw_conn *c = o->player_id ? session_find(g, o->player_id) : NULL;
    if (!c)
        return;
    Deckhand__ServerMessage *m =
        deckhand__server_message__unpack(NULL, o->message.len, o->message.data);
    if (!m) {
        dh_warn_every(DH_LOG_EVERY_MS, "undecodable mm_output for %s dropped", o->player_id);
        return;
    }
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_PARTY) {
        c->in_party = !m->party->closed;
        snprintf(c->queued, sizeof c->queued, "%s",
                 c->in_party && m->party->queued_game ? m->party->queued_game : "");
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_LOBBY) {
        c->in_lobby = !m->lobby->closed;
    }
    deckhand__server_message__free_unpacked(m, NULL);
    conn_send(c, o->message.data, o->message.len);
}

/* A matchmaker of another incarnation (restarted, or a standby that took over) never got
 * the queue requests still waiting: they are answered now rather than after
 * GW_MM_PATIENCE. */
static void backend_on_matchmaker_beat(gw *g, const Deckhand__Internal__MatchmakerBeat *b)
{
    if (b->incarnation && g->mm_incarnation && b->incarnation != g->mm_incarnation) {
        size_t n = inflight_expire_all(g, &g->pending, DECKHAND__ERROR_CODE__UNAVAILABLE,
                                       "the matchmaker restarted; join again");
        dh_info("matchmaker %s restarted: %zu queue requests answered UNAVAILABLE",
                b->matchmaker_id ? b->matchmaker_id : "?", n);
    }
    if (b->incarnation)
        g->mm_incarnation = b->incarnation;
}

/* The matchmaker's messages of one loop turn (MatchmakerOutputs), each handled in order as
 * if it had come alone; a malformed entry, or one that is itself a batch, is dropped alone. */
static void backend_on_mm_outputs(gw *g, zsock *from,
                                  const Deckhand__Internal__MatchmakerOutputs *o)
{
    for (size_t i = 0; i < o->n_messages; i++) {
        Deckhand__Internal__Internal *m =
            deckhand__internal__internal__unpack(NULL, o->messages[i].len, o->messages[i].data);
        if (!m || m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUTS)
            dh_warn_every(DH_LOG_EVERY_MS, "a malformed entry of the matchmaker's batch dropped");
        else
            backend_on_internal(g, from, m);
        if (m)
            deckhand__internal__internal__free_unpacked(m, NULL);
    }
}

void backend_on_internal(gw *g, zsock *from, Deckhand__Internal__Internal *m)
{
    bool mm = from == g->mm;
    backend_seen seen = {0};
    if (mm)
        g->mm_heard = uv_now(g->loop); /* alive: its queue requests are waited for */
    switch (m->body_case) {
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCHMAKER_BEAT:
        if (mm)
            backend_on_matchmaker_beat(g, m->matchmaker_beat);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT:
        backend_on_player_output(g, from, m->player_output, &seen);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS: /* a worker's turn, in order */
        for (size_t i = 0; i < m->player_outputs->n_outputs; i++)
            backend_on_player_output(g, from, m->player_outputs->outputs[i], &seen);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY:
        if (mm)
            backend_on_queue_reply(g, m->queue_reply);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED:
        if (mm)
            backend_on_match_assigned(g, m->match_assigned);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED:
        if (mm)
            backend_on_match_moved(g, m->match_moved);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT:
        if (mm)
            backend_on_mm_output(g, m->mm_output);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUTS:
        if (mm)
            backend_on_mm_outputs(g, from, m->mm_outputs);
        break;
    default:
        dh_debug("unexpected internal message %d from %s dropped", (int)m->body_case,
                 from->endpoint);
        break;
    }
}
