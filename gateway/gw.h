/*
 * gw.h: the gateway process state, one struct passed to every module (no globals).
 *
 * Modules: main.c (flags, loop, shutdown), conn.c (client sockets: TCP framing and
 * WebSocket transport, write queues), session.c (login, rate limits, dispatch of client
 * messages), route.c (ZeroMQ: matchmaker and worker dealers, match routes), table.c.
 */
#ifndef DECKHAND_GW_H
#define DECKHAND_GW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "dh_ops.h"
#include "dh_redis.h"
#include "dh_token.h"
#include "dh_zmq.h"
#include "dh_table.h"

#define GW_ADDR_MAX       256
#define GW_READ_BUF       65536
#define GW_WRITE_CAP      (1u << 20) /* queued bytes past which a slow client is dropped */
#define GW_CLOSE_GRACE    5000       /* ms a closing connection may take to flush */
#define GW_LOGIN_GRACE    30000      /* ms a connection may stay open without logging in */
#define GW_TOKEN_TTL      (24 * 3600)
#define GW_MM_TIMEOUT     3000  /* ms the matchmaker has to answer a queue request */
#define GW_WORKER_TIMEOUT 5000  /* ms a worker has to answer a Choose or Resync */
#define GW_LATE_GRACE     30000 /* ms a late answer to a timed-out request is still dropped */
#define GW_HELLO_PERIOD   1000  /* ms between GatewayHellos */
#define GW_RATE_PER_SEC   50.0
#define GW_RATE_BURST     100.0
#define GW_MATCH_ID_MAX   128 /* a match id with its NUL; longer ids are routed but not tracked */

typedef struct gw_conn gw_conn;
typedef struct route_sock route_sock;

/* What /metrics shows (main.c registers them; docs/OPERATIONS.md lists them). */
typedef struct {
    dh_gauge conns[2];                /* open connections by conn_kind: tcp, ws */
    dh_counter logins;                /* Hellos answered with a Welcome (new and resumed) */
    dh_counter frames_in, frames_out; /* client messages received / sent */
    dh_counter bad_frames;            /* frames refused with BAD_FRAME (the connection closes) */
    dh_counter commands;              /* Choose/Resync forwarded to a worker */
    dh_counter replies[DH_OPS_CODES]; /* error Replies to clients, by code (ours and workers') */
    dh_counter assignments;           /* MatchAssigned: a player of this gateway placed */
    dh_gauge routes;                  /* matches with a known worker */
} gw_stats;

typedef struct gw {
    uv_loop_t *loop;
    char id[DH_ZMQ_ID_MAX + 1];
    char tcp_addr[GW_ADDR_MAX];
    char ws_addr[GW_ADDR_MAX];
    char mm_endpoint[GW_ADDR_MAX];
    size_t max_frame;
    uint8_t key[256];
    size_t keylen;

    uv_tcp_t tcp_listener, ws_listener;
    bool tcp_listening, ws_listening;
    uv_signal_t sigint, sigterm;
    uv_timer_t tick; /* hellos, request timeouts, stuck closes */
    bool stopping;

    /* connections */
    gw_conn *conns; /* every open or closing connection, doubly linked */
    size_t nconns;
    uint64_t next_serial;
    dh_table players; /* player_id -> gw_conn* (authenticated, newest connection) */
    char readbuf[GW_READ_BUF];

    /* ZeroMQ */
    void *zctx;
    route_sock *mm;
    dh_table dealers;  /* worker endpoint -> route_sock* */
    dh_table matches;  /* match_id -> route_match* */
    dh_table pending;  /* "player_id/cmd_id" -> route_pending*, queue requests in flight */
    dh_table commands; /* "player_id/cmd_id" -> route_pending*, worker commands in flight */
    uv_prepare_t drain_prepare;
    uv_idle_t drain_idle;
    uint64_t last_hello;

    /* Redis, for routes this gateway did not learn itself (lookup.c) */
    char redis_url[GW_ADDR_MAX];
    bool redis_enabled;
    dh_redis_addr redis_addr;
    struct redisAsyncContext *redis; /* NULL while down */
    uint64_t redis_retry_at;
    size_t redis_waiting;       /* commands sent and not answered */
    uint64_t redis_progress_at; /* when Redis last connected or answered */

    gw_stats stats;
    dh_ops ops; /* the operator port (--http) */
} gw;

#endif
