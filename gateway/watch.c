/*
 * watch.c: a connection watching a match (watch.h). What a watcher may see is the
 * worker's business (worker/spectate.c); the gateway keeps frames and seats apart: a
 * SpectatorFrame reaches a connection only when it watches that very match, so that a
 * stale frame (a match the connection stopped watching, or another connection's) is
 * dropped, and the worker that sent it is told to stop.
 */
#include "watch.h"

#include <stdio.h>
#include <string.h>

#include "dh_log.h"
#include "dh_wire.h"
#include "route.h"

/* ServerMessage.spectator_frame: field 18, length-delimited (the message's only field). */
#define WATCH_FRAME_TAG_1     0x92
#define WATCH_FRAME_TAG_2     0x01
#define WATCH_FIELD_GAME_OVER 5 /* SpectatorFrame.game_over */

/* 1..GW_MATCH_ID_MAX-1 printable ASCII characters. */
static bool watch_id_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n >= GW_MATCH_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return false;
    return true;
}

/* *pc becomes PlayerCommand{spectate_stop} (*stop) for player_id's watching of match_id;
 * it points into the arguments, which must outlive it. */
static void watch_stop_command(Deckhand__Internal__PlayerCommand *pc, Deckhand__SpectateStop *stop,
                               const char *match_id, const char *player_id)
{
    deckhand__spectate_stop__init(stop);
    deckhand__internal__player_command__init(pc);
    pc->match_id = (char *)match_id;
    pc->player_id = (char *)player_id;
    pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE_STOP;
    pc->spectate_stop = stop;
}

/* The gateway's own stop of player_id's watching of match_id. */
static void watch_send_stop(gw *g, const char *match_id, const char *player_id)
{
    Deckhand__SpectateStop stop;
    Deckhand__Internal__PlayerCommand pc;
    watch_stop_command(&pc, &stop, match_id, player_id);
    route_own_command(g, &pc, "spectate stop");
}

Deckhand__ErrorCode watch_spectate(gw *g, gw_conn *c, uint64_t cmd_id, const Deckhand__Spectate *s)
{
    if (!watch_id_valid(s->match_id))
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    if (c->watching[0] && strcmp(c->watching, s->match_id))
        watch_stop(g, c);
    snprintf(c->watching, sizeof c->watching, "%s", s->match_id);
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = c->watching;
    pc.player_id = c->player_id;
    pc.cmd_id = cmd_id;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE;
    pc.spectate = (Deckhand__Spectate *)s;
    Deckhand__ErrorCode rc = route_command(g, &pc, true);
    if (rc != DECKHAND__ERROR_CODE__OK) {
        c->watching[0] = '\0';
        return rc;
    }
    c->watch_cmd = cmd_id;
    dh_debug("player %s asks to watch %s", c->player_id, c->watching);
    return rc;
}

void watch_stop(gw *g, gw_conn *c)
{
    if (!c->watching[0])
        return;
    /* A resumed connection of the same player that watches the same match keeps it. */
    gw_conn *now = c->authed ? NULL : dh_table_get(&g->players, c->player_id);
    if (!now || now == c || strcmp(now->watching, c->watching))
        watch_send_stop(g, c->watching, c->player_id);
    c->watching[0] = '\0';
}

void watch_refused(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code)
{
    if (!c->watch_cmd || c->watch_cmd != cmd_id)
        return;
    c->watch_cmd = 0;
    if (code != DECKHAND__ERROR_CODE__OK)
        c->watching[0] = '\0';
}

void watch_answered(gw_conn *c, const char *match_id, const Deckhand__Reply *r)
{
    if (c && c->watch_cmd == r->cmd_id)
        c->watch_cmd = 0;
    if (!c || r->ok || strcmp(c->watching, match_id))
        return;
    dh_debug("player %s may not watch %s: %s", c->player_id, match_id,
             r->error && r->error->message ? r->error->message : "refused");
    c->watching[0] = '\0';
}

bool watch_frame_is_last(const ProtobufCBinaryData *msg)
{
    const uint8_t *at = msg->data + 2, *end = msg->data + msg->len;
    uint64_t len, tag, v;
    if (!watch_is_frame(msg) || !dh_wire_varint(&at, end, &len) || len > (uint64_t)(end - at))
        return false;
    end = at + len;
    /* the frame's own fields: the View and the events are skipped by their length */
    while (at < end && dh_wire_varint(&at, end, &tag)) {
        if (tag >> 3 == WATCH_FIELD_GAME_OVER)
            return true;
        switch (tag & 7) {
        case 0:
            if (!dh_wire_varint(&at, end, &v))
                return false;
            break;
        case 2:
            if (!dh_wire_varint(&at, end, &v) || v > (uint64_t)(end - at))
                return false;
            at += v;
            break;
        default:
            return false; /* no other wire type in a SpectatorFrame */
        }
    }
    return false;
}

void watch_frame_seen(gw *g, zsock *from, gw_conn *c, const char *match_id,
                      const ProtobufCBinaryData *msg)
{
    if (!watch_frame_is_last(msg))
        return;
    /* the match is over: its watching ends, and its route (perhaps learnt for watching
     * alone, with no seat here whose GameOver would drop it) goes */
    c->watching[0] = '\0';
    route_forget(g, match_id, from);
}

bool watch_is_frame(const ProtobufCBinaryData *msg)
{
    return msg->len >= 2 && msg->data[0] == WATCH_FRAME_TAG_1 && msg->data[1] == WATCH_FRAME_TAG_2;
}

bool watch_frame_wanted(zsock *from, gw_conn *c, const char *player_id, const char *match_id)
{
    if (c && match_id && c->watching[0] && !strcmp(c->watching, match_id))
        return true;
    dh_debug("spectator frame of %s for %s, who does not watch it here: dropped",
             match_id ? match_id : "?", player_id);
    if (c || !match_id || !*match_id)
        return false; /* a connection here that watches something else: its stop went already */
    /* Nobody here: the worker still counts the watcher (its stop was lost). */
    Deckhand__SpectateStop stop;
    Deckhand__Internal__PlayerCommand pc;
    watch_stop_command(&pc, &stop, match_id, player_id);
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = &pc;
    if (zsock_send(from, &m) < 0)
        dh_debug("spectate stop of %s to %s not sent", player_id, from->endpoint);
    return false;
}

size_t watch_moved(gw *g, const char *match_id)
{
    size_t n = 0;
    for (gw_conn *c = g->conns; c; c = c->next) {
        if (!c->authed || strcmp(c->watching, match_id))
            continue;
        Deckhand__Spectate s = DECKHAND__SPECTATE__INIT;
        s.match_id = c->watching;
        Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
        pc.match_id = c->watching;
        pc.player_id = c->player_id;
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE;
        pc.spectate = &s;
        route_own_command(g, &pc, "spectate");
        n++;
    }
    return n;
}
