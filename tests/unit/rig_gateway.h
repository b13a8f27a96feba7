/*
 * rig_gateway.h: the rig of the gateway unit tests (tests/unit/test_gateway_*.c): the
 * real deckhand-gateway binary, started on free ports of 127.0.0.1 with a throwaway
 * redis-server, and, inside the test process, a fake matchmaker ROUTER, two fake worker
 * ROUTERs and a minimal blocking client (TCP or WebSocket). Message builders send what
 * a client, the matchmaker or a worker would send; the expect_ helpers check what
 * arrives, each with a bounded wait.
 *
 * A test program lists its cases, ends them with rg_test_sigterm_exits_zero (which stops
 * the gateway), and calls rg_main.
 */
#ifndef DECKHAND_RIG_GATEWAY_H
#define DECKHAND_RIG_GATEWAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "deckhand.pb-c.h"
#include "dh_frame.h"
#include "dh_test.h"
#include "dh_token.h"
#include "dh_zmq.h"
#include "internal.pb-c.h"

#define RG_GW_ID     "gw-test"
#define RG_GW2_ID    "gw-test2"
#define RG_WORKER_ID "wk-test"
#define RG_TOKEN_KEY "test-key-0123456789abcdef"
/* How long rg_expect_internal waits: roomy, since a loaded machine running sanitized
 * binaries in parallel once took more than 3 s to pass one message on. */
#define RG_EXPECT_MS 10000
#define RG_MAX_FRAME 4096

/* The rig's one state: eight consecutive free ports from port_base (the gateway's tcp and
 * ws, the fake matchmaker and workers, Redis, and the second gateway's tcp and ws), the
 * processes, and the fake peers' sockets. */
typedef struct {
    int port_base;
    int tcp_port, ws_port, redis_port, gw2_port; /* the second gateway's ws: gw2_port + 1 */
    char mm_ep[64], worker_ep[64], worker2_ep[64];
    pid_t gw_pid, redis_pid; /* redis_pid <= 0: no redis-server, the Redis tests skip */
    void *zctx, *mm, *worker, *worker2;
} rg_rig;

extern rg_rig rg;

/* Pick the ports, start Redis and the gateway, run the cases as suite, stop everything.
 * The process exit code. */
int rg_main(const char *suite, const dh_test_case *cases);
/* The last case of every program: SIGTERM stops the gateway, which exits 0. */
void rg_test_sigterm_exits_zero(void);
/* A second gateway (RG_GW2_ID) with the same token key and matchmaker, on gw2_port: its
 * pid once it accepts connections, or -1. */
pid_t rg_start_gateway2(const char *redis_url);
/* The same as id, signing with token_key, with the gateway flags of extra (NULL or
 * NULL-terminated) added. */
pid_t rg_start_gateway2_with(const char *id, const char *redis_url, const char *token_key,
                             const char *const *extra);

/* ---- the client ---- */

typedef struct {
    int fd;
    bool ws;
    dh_frame_decoder dec;  /* TCP frames */
    uint8_t wbuf[1 << 16]; /* WebSocket bytes received */
    size_t wlen;
} rg_client;

int rg_tcp_connect(int port);
void rg_send_all(int fd, const void *p, size_t n);
/* Read what is available within timeout into buf; returns bytes, 0 on timeout, -1 EOF. */
ssize_t rg_read_some(int fd, void *buf, size_t n, int timeout_ms);

rg_client *rg_open(void); /* TCP, to the gateway */
rg_client *rg_open_port(int port);
rg_client *rg_ws_open(void); /* WebSocket, upgraded */
void rg_close(rg_client *c);
/* A masked client WebSocket frame (RFC 6455 §5.2) with the given opcode. */
void rg_ws_send_frame(rg_client *c, int opcode, const uint8_t *p, size_t n);
void rg_send(rg_client *c, const Deckhand__ClientMessage *m);
/* The next ServerMessage: 1 with *out (the caller frees it), 0 timeout, -1 closed. */
int rg_recv(rg_client *c, int timeout_ms, Deckhand__ServerMessage **out);

/* Client messages. */
void rg_send_hello(rg_client *c, uint64_t cmd_id, const char *name, const char *token);
void rg_send_ping(rg_client *c, uint64_t cmd_id, uint64_t nonce);
void rg_send_queue_join(rg_client *c, uint64_t cmd_id, const char *game, uint32_t players);
void rg_send_queue_leave(rg_client *c, uint64_t cmd_id, const char *game);
void rg_send_choose(rg_client *c, uint64_t cmd_id, const char *match_id, uint64_t decision_id);
void rg_send_resync(rg_client *c, uint64_t cmd_id, const char *match_id);

/* Guest login; copies the player id and token (either may be NULL). */
void rg_login(rg_client *c, const char *name, char *pid, char *token);

/* What the client receives next. */
void rg_expect_reply(rg_client *c, uint64_t cmd_id, Deckhand__ErrorCode code); /* OK = ok */
void rg_expect_closed(rg_client *c);
void rg_expect_pong(rg_client *c, uint64_t cmd_id, uint64_t nonce); /* then its Reply */
/* A Welcome for player pid (and name, unless NULL). */
void rg_expect_welcome(rg_client *c, const char *pid, const char *name);
void rg_expect_match_found(rg_client *c, const char *match_id);

/* ---- the fake matchmaker and workers ---- */

bool rg_is_away(const Deckhand__Internal__Internal *m);
/* The next message on a fake ROUTER that is not a GatewayHello, nor an away (a test that
 * closes a client in a match leaves one behind for the fake worker); NULL on timeout. */
Deckhand__Internal__Internal *rg_router_recv(void *sock, char *from, int timeout_ms);
/* The batches of commands (Internal.player_commands) the fake workers received so far;
 * rg_router_recv hands out their commands one by one, as if each had come alone. */
extern size_t rg_batches_seen;
/* The same, keeping aways unless skip_away. */
Deckhand__Internal__Internal *rg_router_recv_filtered(void *sock, char *from, int timeout_ms,
                                                      bool skip_away);
/* The next message on sock (as rg_router_recv), asserted (fatally) to be there and to be
 * a body; the sender's id into from. The caller frees it. */
Deckhand__Internal__Internal *rg_expect_internal(void *sock, char *from,
                                                 Deckhand__Internal__Internal__BodyCase body);
/* The next PlayerCommand on sock, checked for match, player, cmd_id, body and sender. */
void rg_expect_command(void *sock, const char *match_id, const char *pid, uint64_t cmd_id,
                       Deckhand__Internal__PlayerCommand__BodyCase body);
/* A command the client c has sent: it reaches the fake worker sock (rg_expect_command), the
 * worker answers it with code, and c receives that Reply. */
void rg_expect_round_trip(rg_client *c, void *sock, const char *match_id, const char *pid,
                          uint64_t cmd_id, Deckhand__Internal__PlayerCommand__BodyCase body,
                          Deckhand__ErrorCode code);
/* The next away on sock for (match_id, pid) from gw_id, skipping others; false when none
 * came in time. */
bool rg_await_away_from(void *sock, const char *gw_id, const char *match_id, const char *pid,
                        int timeout_ms);
bool rg_await_away(void *sock, const char *match_id, const char *pid, int timeout_ms);

/* The matchmaker says: a QueueReply (code OK: ok; otherwise the error with message). */
void rg_mm_queue_reply(const char *pid, uint64_t cmd_id, Deckhand__ErrorCode code,
                       const char *message);
/* The matchmaker says: pid plays match_id (seat 0, dominion) on the fake worker. */
void rg_mm_assign(const char *pid, const char *match_id, char **players, size_t n_players);
/* The matchmaker says: match_id moved to worker_id at endpoint. */
void rg_mm_match_moved(const char *match_id, const char *worker_id, const char *endpoint,
                       char **player_ids, size_t n_player_ids);
/* rg_mm_assign without players, and the attach it causes swallowed. */
void rg_assign_match(const char *pid, const char *match_id);

/* A client logged in as a guest called name (its player id into pid, which may be NULL). */
rg_client *rg_open_as(const char *name, char *pid);
/* The same, then assigned match_id (rg_assign_match) and told so (MatchFound). */
rg_client *rg_open_in_match(const char *name, char *pid, const char *match_id);

/* A worker (sock) sends pid the ServerMessage sm through gateway gw_id, labelled with
 * match_id (NULL: unlabelled) and, as a worker does, with the kind its body is
 * (PlayerOutput.kind). */
void rg_worker_output(void *sock, const char *gw_id, const char *pid, const char *match_id,
                      const Deckhand__ServerMessage *sm);
/* The same, with the kind the PlayerOutput says it carries, whatever sm is. */
void rg_worker_output_kind(void *sock, const char *gw_id, const char *pid, const char *match_id,
                           const Deckhand__ServerMessage *sm,
                           Deckhand__Internal__PlayerOutput__Kind kind);
/* A Reply{code} for pid's cmd_id from the worker sock. */
void rg_worker_answer_via(void *sock, const char *gw_id, const char *pid, uint64_t cmd_id,
                          Deckhand__ErrorCode code);
void rg_worker_answer(void *sock, const char *pid, uint64_t cmd_id, Deckhand__ErrorCode code);
/* A View of match_id at event_seq. */
void rg_worker_view(void *sock, const char *pid, const char *match_id, uint64_t seq);
/* The fake worker sends pid (connected as c) the GameOver of match_id; c receives it. */
void rg_worker_game_over(rg_client *c, const char *pid, const char *match_id);

/* Write into the test Redis that match_id lives on worker_id at endpoint; false (and
 * nothing written) when there is no redis-server, and the calling test skips. */
bool rg_redis_route(const char *match_id, const char *worker_id, const char *endpoint);

#endif
