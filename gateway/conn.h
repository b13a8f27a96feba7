/*
 * conn.h: client connections. A connection carries ServerMessages out and hands every
 * received ClientMessage payload up through g->conn_events, whatever the transport: TCP with
 * 4-byte length framing, or WebSocket (HTTP upgrade on /ws, then one binary frame per
 * message, via wslay).
 */
#ifndef DECKHAND_GW_CONN_H
#define DECKHAND_GW_CONN_H

#include <wslay/wslay.h>

#include "dh_frame.h"
#include "dh_ws.h"
#include "dh_token.h"
#include "gw.h"

typedef enum { CONN_TCP, CONN_WS } conn_kind;

typedef enum {
    CONN_HANDSHAKE, /* WebSocket: waiting for the Upgrade request */
    CONN_OPEN,
    CONN_CLOSING, /* flushing its last writes, reads stopped */
    CONN_CLOSED,  /* uv_close called, freed in its close callback */
} conn_state;

struct gw_conn {
    uv_tcp_t tcp;
    uv_shutdown_t shutdown;
    gw *gw;
    gw_conn *prev, *next;
    uint64_t serial;
    conn_kind kind;
    conn_state state;
    uint64_t opened_at;
    uint64_t closing_since;
    char peer[64];
    char addr[48];   /* the peer's address alone: what a flood ban names */
    size_t wq_bytes; /* bytes handed to libuv and not yet written */
    uint8_t *out;    /* bytes appended this loop turn, written by the flush; NULL when none */
    size_t out_len, out_cap;
    gw_conn *flush_next; /* on g->flush_list while flush_queued */
    bool flush_queued;

    dh_frame_decoder frames; /* TCP */
    char *hs;                /* WebSocket handshake bytes, freed once upgraded */
    size_t hs_len;
    wslay_event_context_ptr ws;
    const uint8_t *ws_in; /* bytes of the current read not yet given to wslay */
    size_t ws_in_len;
    dh_ws_guard ws_guard; /* refuses a message over the frame limit at its header */
    bool ws_busy;         /* inside wslay_event_recv: the context must not be freed */

    /* session (session.c) */
    bool authed;
    char player_id[DH_TOKEN_ID_MAX];
    char name[DH_TOKEN_NAME_MAX];
    struct acct_op *acct; /* the account or board request in flight (accounts.c), or NULL */
    double rate_tokens;
    uint64_t rate_ms;
    /* inmatch.c: the chat's own token bucket, tighter than the rate limit above */
    double chat_tokens;
    uint64_t chat_ms;
    /* flood.c: the debt of refused messages, draining at the rate limit */
    double flood_debt;
    uint64_t flood_ms;
    uint64_t rate_refused;      /* messages refused RATE_LIMITED */
    uint64_t rate_silent;       /* of those, without a Reply since the last one sent */
    uint64_t rate_silent_total; /* of those, without a Reply */
    char queued[64];            /* the game last joined and not yet left or matched, "" for none */
    /* in a party or a lobby, as the matchmaker last told the player (PartyState, LobbyState):
     * its disconnect is reported (PlayerAway), so the others see it gone */
    bool in_party, in_lobby;
    bool offered_rematch; /* sent a RematchOffer: its disconnect declines it (PlayerAway) */
    /* the matches the player is seated in, as far as this gateway knows: from MatchFound,
     * or a worker's answer to a Choose or Resync that shows the seat (never from what the
     * client names: a refused id must not hide the real match); "" slots are free; a
     * GameOver frees its slot. Where a disconnect is reported (PlayerCommand.away). */
    char matches[GW_CONN_MATCHES][GW_MATCH_ID_MAX];
    unsigned match_next; /* the slot a fifth match takes (the oldest) when all are used */
    /* the match this connection watches (watch.c), "" for none: set by a Spectate, cleared
     * by SpectateStop or its refusal; only SpectatorFrames of this match reach it */
    char watching[GW_MATCH_ID_MAX];
    uint64_t watch_cmd; /* the cmd_id of its Spectate waiting for a Reply, 0 for none */
};

/* Set up the once-per-loop-turn flush of connections' output. */
void conn_init(gw *g);
/* Take over an accepted socket fd (non-blocking) as a new connection; ws: WebSocket. On
 * failure the fd is closed. */
void conn_adopt(gw *g, int fd, bool ws);

/* Send one serialized ServerMessage: appended to the connection's output, which goes out
 * in one write at the end of the loop turn (in order, with whatever else was sent to it).
 * Returns 0, or -1 when the connection is closing or was dropped for exceeding its write
 * queue. */
int conn_send(gw_conn *c, const uint8_t *msg, size_t len);

/* Close: with flush, after the writes already queued (reads stop at once); without,
 * immediately. Safe to call more than once. */
void conn_close(gw_conn *c, bool flush);

/* Close connections that have been flushing for longer than GW_CLOSE_GRACE, and those
 * still not logged in (or not upgraded) after GW_LOGIN_GRACE. */
void conn_sweep(gw *g);
/* Close every connection and the flush handles (shutdown). */
void conn_stop(gw *g);
/* Free the pooled output buffers (after the loop has ended). */
void conn_free(gw *g);

#endif
