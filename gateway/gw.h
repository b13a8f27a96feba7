/*
 * gw.h: the gateway process state, one struct passed to every module (no globals).
 *
 * Modules, from the top down; each calls only modules below it:
 *   main.c     flags, set-up, the loop, shutdown; wires the callbacks below
 *   ops.c      what /metrics counts and what /readyz says
 *   drain.c    SIGTERM: stop accepting, tell every player to Reconnect elsewhere, wait
 *   strand.c   a worker link lost: its match players told to Reconnect elsewhere
 *   backend.c  messages from the matchmaker and the workers (QueueReply, MatchAssigned,
 *              MatchMoved, PlayerOutput)
 *   session.c  messages from clients: login, rate limits, dispatch, Replies
 *   inmatch.c  chat and undo from a seated player: checked, then to the match's worker
 *   boards.c   leaderboards and histories, read from Redis
 *   accounts.c Register and AccountLogin (passwords hashed on libuv's thread pool)
 *   mmreq.c    queue requests and player notices to the matchmaker
 *   replay.c   ReplayRequests sent to a live worker found through Redis
 *   watch.c    the match a connection watches: Spectate, its frames, stop, moves
 *   route.c    match routes and the player commands sent through them; moves
 *   lookup.c   Redis lookups of the routes this gateway did not learn itself
 *   rlink.c    the Redis connections (a cluster routed by common/dh_redis_async.h)
 *   inflight.c requests in flight and their timeouts
 *   zsock.c    the ZeroMQ sockets (matchmaker and worker dealers) in the libuv loop
 *   cmdbatch.c a loop turn's commands for one worker, gathered into one message
 *   outwire.c  a worker's PlayerOutputs read in place, without copying the outputs
 *   inwire.c   a client's Choose read in place, passed on as its own bytes (common/dh_wire.h:
 *              the wire format both read)
 *   wlink.c    is a worker dealer's link alive (ZeroMQ heartbeat, socket monitor)
 *   listen.c   the listening sockets: accept, --max-conns and flood-ban refusals, pausing
 *              on EMFILE
 *   flood.c    connections that flood past their rate limit: dropped, then banned
 *   guess.c    wrong party and lobby codes: counted, and made to wait (mmreq.c asks it)
 *   conn.c     client sockets: TCP framing and WebSocket transport, write queues
 *   static.c   the web client's files, answered to plain GETs on the WebSocket port
 *   static_gz.c their gzip copies, made at load, and what Accept-Encoding allows
 *   textguard.c no control byte in any string of a client's message (read from its frame)
 * Hash tables are common/dh_table.{c,h}. Where a lower module must tell a higher one,
 * it calls a function pointer of this struct that main.c sets: conn_events (conn.c ->
 * session.c), on_internal (zsock.c -> backend.c), command_unsent (zsock.c -> route.c), answer
 * (inflight.c, route.c -> session.c), account_done (accounts.c, boards.c -> session.c).
 */
#ifndef DECKHAND_GW_H
#define DECKHAND_GW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "deckhand.pb-c.h"
#include "dh_curve.h"
#include "dh_ops.h"
#include "dh_redis.h"
#include "dh_token.h"
#include "dh_zmq.h"
#include "dh_table.h"
#include "guess.h"
#include "static.h"

#define GW_ADDR_MAX    256
#define GW_READ_BUF    65536
#define GW_WRITE_CAP   (1u << 20) /* queued bytes past which a slow client is dropped */
#define GW_OUT_POOLED  4096       /* the size of a pooled output buffer (conn.c) */
#define GW_OUT_POOL    256        /* pooled output buffers kept at most: 1 MiB */
#define GW_CLOSE_GRACE 5000       /* ms a closing connection may take to flush */
#define GW_LOGIN_GRACE 30000      /* ms a connection may stay open without logging in */
#define GW_TOKEN_TTL   (24 * 3600)
/* A queue request is answered UNAVAILABLE once the matchmaker has been silent this long
 * (no MatchmakerBeat, no answer) and the request is at least this old: a matchmaker that
 * beats is busy, not gone, and its answer is waited for, up to GW_MM_PATIENCE. */
#define GW_MM_TIMEOUT     3000
#define GW_MM_PATIENCE    30000 /* ms a queue request waits at most, however alive the matchmaker */
#define GW_WORKER_TIMEOUT 5000  /* ms a worker has to answer a Choose or Resync */
#define GW_LATE_GRACE     30000 /* ms a late answer to a timed-out request is still dropped */
#define GW_HELLO_PERIOD   1000  /* ms between GatewayHellos */
#define GW_DRAIN_MS       3000  /* --drain-ms default: under scripts/lib's 5 s stop timeout */
#define GW_RATE_PER_SEC   50.0
#define GW_RATE_BURST     100.0
#define GW_MATCH_ID_MAX   128 /* a match id with its NUL; longer ids are refused (BAD_REQUEST) */
#define GW_CONN_MATCHES   4   /* matches a connection remembers its player is seated in */
/* Descriptors kept back from --max-conns's default for ZeroMQ, Redis and the operator
 * port: GW_FD_RESERVE plus one sixteenth of the limit. */
#define GW_FD_RESERVE 64

typedef struct gw_conn gw_conn;
typedef struct zsock zsock;
typedef struct gw gw;

/* What a connection reports to the session layer (conn.c calls, session.c answers). */
typedef struct {
    void (*open)(gw_conn *c);                                   /* ready for messages */
    void (*frame)(gw_conn *c, const uint8_t *data, size_t len); /* one message received */
    void (*bad_frame)(gw_conn *c, const char *why);             /* one refused: BAD_FRAME */
    void (*close)(gw_conn *c);                                  /* going away */
} gw_conn_events;

/* What /metrics shows (ops.c registers them; docs/OPERATIONS.md lists them). */
typedef struct {
    dh_gauge conns[2];                /* open connections by conn_kind: tcp, ws */
    dh_counter logins;                /* Hellos answered with a Welcome (new and resumed) */
    dh_counter frames_in, frames_out; /* client messages received / sent */
    dh_counter bad_frames;            /* frames refused with BAD_FRAME (the connection closes) */
    dh_counter commands;              /* Choose/Resync forwarded to a worker */
    dh_counter replies[DH_OPS_CODES]; /* error Replies to clients, by code (ours and workers') */
    dh_counter assignments;           /* MatchAssigned: a player of this gateway placed */
    dh_counter refused;               /* connections refused at --max-conns (OVERLOADED) */
    dh_counter floods;                /* connections dropped for flooding (flood.c) */
    dh_counter banned;                /* connections and logins refused during a flood ban */
    dh_counter rate_silent;           /* RATE_LIMITED refusals that got no Reply */
    dh_counter accept_pauses;         /* times accepting paused (out of descriptors) */
    dh_gauge routes;                  /* matches with a known worker */
    dh_histogram command_seconds;     /* Choose/Resync: forwarded to the worker's Reply relayed */
    dh_histogram redis_seconds;       /* lookup.c: a Redis command's round trip */
    dh_counter drains;                /* SIGTERM drains begun (drain.c) */
    dh_counter reconnects_sent;       /* players told to Reconnect elsewhere (drain.c, strand.c) */
    dh_counter worker_links_lost;     /* worker links found lost (strand.c), once per loss */
    dh_counter zmq_drains;            /* ZeroMQ sockets read until empty (zsock.c) */
} gw_stats;

struct gw {
    uv_loop_t *loop;
    char id[DH_ZMQ_ID_MAX + 1];
    char tcp_addr[GW_ADDR_MAX];
    char ws_addr[GW_ADDR_MAX];
    char mm_endpoint[GW_ADDR_MAX];
    size_t max_frame;
    dh_token_ring tokens; /* the token keys (main.c; dh_token.h) */

    /* listen.c: sockets of its own polled by libuv, so that accepting can pause */
    struct gw_listener {
        uv_poll_t poll;
        gw *gw;
        int fd;
        bool ws;
        bool paused; /* out of descriptors: resumed by listen_tick */
    } tcp_listener, ws_listener;
    bool tcp_listening, ws_listening;
    size_t max_conns;    /* --max-conns: more connections are refused */
    uint8_t refusal[64]; /* the framed Reply{OVERLOADED} a refused TCP client gets */
    size_t refusal_len;
    uint8_t ban_refusal[128]; /* the framed Reply{RATE_LIMITED} a banned TCP client gets */
    size_t ban_refusal_len;
    uint64_t flood_ban_ms; /* --flood-ban-ms: how long a flooder is refused (0: not) */
    gw_static web;         /* --web-dir: the web client's files (static.c) */
    dh_table bans;         /* flood.c: "a:ADDRESS" / "p:PLAYER" -> when the ban ends */
    guess_table guesses;   /* guess.h: wrong party and lobby codes, per address and player */
    uv_signal_t sigint, sigterm;
    uv_timer_t tick; /* hellos, request timeouts, stuck closes */
    bool stopping;
    bool draining;           /* drain.c: SIGTERM received, players told to Reconnect */
    uint64_t drain_ms;       /* --drain-ms: the most a drain waits for players to leave */
    uint64_t drain_deadline; /* uv_now past which the drain closes what is left */

    /* connections */
    gw_conn *conns; /* every open or closing connection, doubly linked */
    size_t nconns;
    uint64_t next_serial;
    dh_table players; /* player_id -> gw_conn* (authenticated, newest connection) */
    char readbuf[GW_READ_BUF];
    /* conn.c: connections with output appended this loop turn, written out once per turn
     * by flush_check; flush_idle keeps the poll from blocking while the list is not empty */
    gw_conn *flush_list;
    /* conn.c: output buffers of GW_OUT_POOLED bytes whose output was written, kept for the
     * next connection's output instead of a malloc and a free per connection per turn */
    uint8_t *out_pool[GW_OUT_POOL];
    size_t out_pool_n;
    uv_check_t flush_check;
    uv_idle_t flush_idle;
    bool flush_ready;

    /* ZeroMQ */
    void *zctx;
    dh_curve curve; /* the cluster's CURVE keys for every DEALER (main.c; dh_curve.h) */
    zsock *mm;
    dh_table dealers;  /* worker endpoint -> zsock* */
    dh_table matches;  /* match_id -> route_match* */
    dh_table pending;  /* "player_id/cmd_id" -> inflight*, queue requests in flight */
    dh_table commands; /* "player_id/cmd_id" -> inflight*, worker commands in flight */
    uv_prepare_t drain_prepare;
    uv_idle_t drain_idle;
    uv_check_t cmd_check; /* zsock.c: the turn's command batches sent (cmdbatch.h) */
    zsock *cmd_list;      /* dealers with commands waiting for the end of the turn */
    zsock *drain_list;    /* sockets touched since their last drain (zsock.dirty) */
    uint64_t last_hello;
    uint64_t mm_heard;       /* uv_now when the matchmaker last sent anything (backend.c) */
    uint64_t mm_incarnation; /* of the matchmaker's last beat; 0: none yet */

    /* Redis, for routes this gateway did not learn itself (lookup.c) */
    char redis_url[GW_ADDR_MAX];
    bool redis_enabled;
    dh_redis_addr redis_addr;
    struct redisAsyncContext *redis;    /* NULL while down (one Redis: rlink.c) */
    struct dh_redis_async *redis_nodes; /* a Redis Cluster's connections, or NULL */
    uint64_t redis_retry_at;
    size_t redis_waiting;       /* commands sent and not answered */
    uint64_t redis_progress_at; /* when Redis last connected or answered */

    gw_stats stats;
    dh_ops ops; /* the operator port (--http) */

    /* Upward calls, set by main.c (see the top of this file). */
    gw_conn_events conn_events;
    void (*on_internal)(gw *g, zsock *from, Deckhand__Internal__Internal *m);
    /* A command queued for a worker could not be sent (err: errno of the send). */
    void (*command_unsent)(gw *g, const char *player_id, uint64_t cmd_id, int err);
    /* Reply{cmd_id, code + message} to player_id, when connected here. */
    void (*answer)(gw *g, const char *player_id, uint64_t cmd_id, Deckhand__ErrorCode code,
                   const char *message);
    /* An account request of c ended (accounts.c): with code OK and a player_id, log c in as
     * that account (Welcome, then Reply); otherwise Reply{cmd_id, code + message}. */
    void (*account_done)(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code, const char *message,
                         const char *player_id, const char *name);
};

#endif
