/*
 * rig_worker.h: a worker host (worker/host/include/host.h) under test, shared by the
 * test_worker_*.c programs. The host runs on the real engine and a real bundle, writes to a
 * redis-server the rig starts on a free port, and talks over ZeroMQ inproc sockets to a fake
 * matchmaker (a ROUTER) and a fake gateway "gw-t" (a DEALER). Time is a fake clock: every host call
 * the rig makes is given r->now, which only rig_worker_advance moves, so timers, grace
 * periods and Redis' reconnect backoff run without sleeping.
 */
#ifndef DECKHAND_RIG_WORKER_H
#define DECKHAND_RIG_WORKER_H

#include <hiredis/hiredis.h>

#include "dh_test.h"
#include "host.h"

/* How long a check that nothing came waits. The host is single-threaded and sends before it
 * returns, so whatever it sent is queued on the inproc pipe already. */
#define RIG_WORKER_QUIET_MS 20

typedef struct {
    void *ctx, *router, *dealer, *mm, *gw;
    engine_bundle *bundle;
    store st;
    host h;
    uint64_t now; /* the fake clock, in ms; never 0 */
} rig_worker;

/* The two seats of every rig match: player ids (names "ann" and "bob"). */
extern const char *const rig_worker_players[2];

/* ---- the program: Redis around dh_test_main -------------------------------------------- */

/* Start redis-server, run the cases as suite, stop it: main()'s whole body. */
int rig_worker_main(const char *suite, const dh_test_case *cases);
/* A benchmark's main (bench/bench_worker_*.c): up to two integer arguments into *a (> 0)
 * and *b (>= 0), each kept when absent, then fn as the program's one case; exit 2 with
 * usage on a bad argument. */
int rig_worker_bench(int argc, char **argv, const char *name, const char *usage, long *a, long *b,
                     void (*fn)(void));
/* A benchmark's worker: the source tree's bundle with a roomy script deadline (a profiler
 * slows it many times), a host for matches, and that many two-player Dominion matches
 * "m-000000".. started and both players attached, the outbox drained. */
void rig_worker_open_bench(rig_worker *r, long matches);
const char *rig_worker_redis_url(void);
/* An outage of a durable Redis: _down SAVEs and stops it, _up starts it again on the same
 * port (it loads what it held) and removes the save, so later restarts start clean. */
void rig_worker_redis_down(void);
void rig_worker_redis_up(void);
/* One command on a fresh connection: a string field (malloc'd, or NULL), an integer reply
 * (-1 when not one), or a command that must not fail. */
char *rig_worker_hget(const char *key, const char *field);
/* A string key's value, binary (malloc'd, *len its size), or NULL. */
char *rig_worker_redis_get(const char *key, size_t *len);
long long rig_worker_redis_int(const char *cmd, const char *key);
void rig_worker_redis_do(const char *fmt, const char *a, const char *b);

/* ---- the host and its sockets ---------------------------------------------------------- */

/* A host "wk-t" of capacity 10 on the bundle in bundle_dir (under the source tree), with
 * lim (NULL: the engine's defaults). */
void rig_worker_open(rig_worker *r, const char *bundle_dir, const engine_limits *lim);
void rig_worker_close(rig_worker *r);
/* Drop what gw-t received, then rig_worker_close. */
void rig_worker_close_drained(rig_worker *r);
void rig_worker_advance(rig_worker *r, uint64_t ms);
/* Another gateway with this identity, known to the worker's ROUTER. The caller closes it. */
void *rig_worker_gateway(rig_worker *r, const char *identity);

/* The next control message the matchmaker got within ms (NULL: none); _next waits 500 ms,
 * for a message that is due. The caller frees it. */
Deckhand__Internal__Internal *rig_worker_mm_wait(rig_worker *r, long ms);
Deckhand__Internal__Internal *rig_worker_mm_next(rig_worker *r);
/* Drop every control message the matchmaker has got. */
void rig_worker_mm_drain(rig_worker *r);
/* Drop whatever the matchmaker and gw-t got, undecoded and without waiting (benchmarks). */
void rig_worker_drop_all(rig_worker *r);

/* What a gateway received, decoded, in order. */
typedef struct {
    Deckhand__ServerMessage *msg[512];
    char player[512][HOST_ID_MAX];
    size_t n;
} rig_outbox;

/* What gateway received, up to 512 outputs, each PlayerOutput of a batch (PlayerOutputs)
 * one entry; the host's batches are flushed first (out_flush), as its loop does. */
void rig_worker_drain(rig_worker *r, void *gateway, rig_outbox *o);
/* The PlayerOutputs m carries (one, or a batch's), *n of them. */
Deckhand__Internal__PlayerOutput **rig_worker_outputs(Deckhand__Internal__Internal *m, size_t *n);
void rig_worker_gw_drain(rig_worker *r, rig_outbox *o); /* the rig's gateway, gw-t */
void rig_outbox_free(rig_outbox *o);
/* The first message of this body case to player, or NULL. */
const Deckhand__ServerMessage *rig_outbox_find(const rig_outbox *o, const char *player, int body);

/* ---- matches and commands -------------------------------------------------------------- */

/* A StartMatch of game for the two rig players, seed 42, with set (NULL: none). */
void rig_worker_start(rig_worker *r, const char *id, const char *game,
                      Deckhand__Internal__QueueSettings *set);
/* rig_worker_start, then check that MatchStarted ok comes only after the flush, and attach
 * both players through gw-t (their outputs drained). The hosted match. */
host_match *rig_worker_started(rig_worker *r, const char *id, const char *game,
                               Deckhand__Internal__QueueSettings *set);
/* rig_worker_started for a dominion match whose queue gives away seats grace_ms and then
 * abandon ("bot" or "forfeit"). */
host_match *rig_worker_started_away(rig_worker *r, const char *id, uint32_t grace_ms,
                                    const char *abandon);
/* The rig opened on scripts/ with its fake clock set to the real one (for tests of the
 * worker loop, which reads the real clock), then a started dominion match, the
 * matchmaker's messages drained. */
void rig_worker_open_real_clock(rig_worker *r, const char *match);
/* A Resync of player in match as the packed Internal a gateway sends, into buf (at least
 * RIG_WORKER_RESYNC_MAX bytes); its length. */
#define RIG_WORKER_RESYNC_MAX 256
size_t rig_worker_pack_resync(uint8_t *buf, const char *match, const char *player, uint64_t cmd_id);
/* A Choose (or, with choose NULL, a Resync) through the gateway whose identity is via. */
void rig_worker_command_via(rig_worker *r, const char *via, const char *match, const char *player,
                            uint64_t cmd_id, const Deckhand__Choose *choose);
/* The same through gw-t. */
void rig_worker_command(rig_worker *r, const char *match, const char *player, uint64_t cmd_id,
                        const Deckhand__Choose *choose);
/* The gateway via says the player's connection dropped. */
void rig_worker_away_via(rig_worker *r, const char *via, const char *match, const char *player);
/* A legal answer to d: its first max(min,1) options (or none); ids holds 64. */
void rig_worker_legal_choice(const engine_decision *d, Deckhand__Choose *c, uint32_t *ids);
/* Answer hm's pending decision legally (the decider's seat, through gw-t, not flushed);
 * false when nothing is pending. */
bool rig_worker_answer(rig_worker *r, host_match *hm, uint64_t cmd_id);
/* Answer n decisions of hm legally, each flushed, numbering commands from *cmd on. */
void rig_worker_play(rig_worker *r, host_match *hm, int n, uint64_t *cmd);
/* Answer hm's pending decision with the one option option_id (the decider's seat, through
 * gw-t), flush, and return the Reply's error code: 0 when ok, -1 when no Reply came. */
int rig_worker_choose(rig_worker *r, host_match *hm, uint64_t cmd_id, uint32_t option_id);

#endif
