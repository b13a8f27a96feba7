/*
 * rig_mm.h: a matchmaker under test, shared by the test_matchmaker_*.c programs. The rig
 * is the real process state (mm_state) on an inproc ROUTER, the workers wk-a, wk-b (and
 * wk-c) and the gateways gw-1 and gw-2 as DEALERs in the test process, and a clock the
 * test moves: rig_mm_pump hands what reached the ROUTER to control_handle, then ticks.
 * With a Redis URL (rig_redis.h) the matchmaker stores there and takes the lease; without
 * one it keeps everything in memory and always acts.
 *
 * The message builders send what a worker or gateway would; rig_mm_next and the readers
 * below take what the matchmaker sent, each with a bounded wait.
 */
#ifndef DECKHAND_RIG_MM_H
#define DECKHAND_RIG_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "dh_test.h"
#include "dh_zmq.h"
#include "lease.h"
#include "matchmaker.h"
#include "placement.h"
#include "takeover.h"

#define RIG_MM_WORKERS_MAX 3
#define RIG_MM_WALL0       1700000000000ULL /* the wall clock at the rigs' now 0 */
#define RIG_MM_WAIT_MS     100              /* the wait for a message that is due */

typedef struct {
    void *ctx;
    void *w[RIG_MM_WORKERS_MAX]; /* the workers rig_mm_worker_ids[i]; NULL past nworkers */
    int nworkers;
    void *gw, *gw2; /* gateways gw-1 and gw-2 */
    mm_state mm;
    char why[128]; /* the message of the last refusal rig_mm_joined read */
} rig_mm;

/* "wk-a", "wk-b", "wk-c"; worker i's endpoint is tcp://a:1, tcp://b:1, ... */
extern const char *const rig_mm_worker_ids[RIG_MM_WORKERS_MAX];

/* ---- the matchmaker and its peers ------------------------------------------------------ */

/* Matchmaker id (also the name of its inproc endpoint) on redis_url (NULL: memory only),
 * its wall clock at RIG_MM_WALL0, with nworkers (1 to RIG_MM_WORKERS_MAX) workers (each says hello:
 * dominion for 2 to 4 players, capacity 1000) and both gateways said hello, pumped at now. */
void rig_mm_open(rig_mm *r, const char *id, const char *redis_url, int nworkers, uint64_t now);
/* The same at now 0 on the program's Redis (rig_redis.h), emptied first. */
void rig_mm_open_fresh(rig_mm *r, const char *id, int nworkers);
/* Close without releasing the lease: as if the process died. */
void rig_mm_close(rig_mm *r);
/* Hand every message waiting at the matchmaker to control_handle, write the held joins
 * (tickets_flush), then tick at now. */
void rig_mm_pump(rig_mm *r, uint64_t now);
/* The lease lapses in Redis (the rigs' clocks are the tests', Redis's is real). */
void rig_mm_lease_lapses(void);

/* ---- what workers and gateways send ---------------------------------------------------- */

void rig_mm_send(void *sock, const Deckhand__Internal__Internal *m);
void rig_mm_beat(void *sock, uint32_t active, bool draining);
/* An idle beat from every worker whose bit is set in mask (bit 0: wk-a). */
void rig_mm_beats(rig_mm *r, unsigned mask);
/* A join for the dominion line of players, under the name pid. */
void rig_mm_join(void *gw, const char *pid, uint64_t cmd, uint32_t players);
void rig_mm_join_game(void *gw, const char *pid, const char *name, uint64_t cmd, const char *game,
                      uint32_t players);
void rig_mm_leave(void *gw, const char *pid, uint64_t cmd);
/* The gateway says the player's connection dropped, or came back. */
void rig_mm_away(void *gw, const char *pid);
void rig_mm_back(void *gw, const char *pid);
/* A worker's answer to StartMatch (not ok: "store unavailable"). */
void rig_mm_started(void *sock, const char *match_id, bool ok);

/* ---- what the matchmaker sends --------------------------------------------------------- */

/* The next message at sock within ms, or NULL, skipping the gateways' MatchmakerBeats.
 * The caller frees it. */
Deckhand__Internal__Internal *rig_mm_next(void *sock, long ms);
/* The next QueueReply at gw for cmd: 0 when ok, else its error code (its message in why,
 * unless why is NULL); -1 when none came. */
int rig_mm_reply_why(void *gw, uint64_t cmd, char *why, size_t cap);
int rig_mm_reply(void *gw, uint64_t cmd);
/* rig_mm_join at gw, pumped at now: the reply's code (see rig_mm_reply_why; its message
 * in r->why). */
int rig_mm_joined(rig_mm *r, void *gw, const char *pid, uint64_t cmd, uint32_t players,
                  uint64_t now);
/* p1 and p2 join a two-player line at gw-1 as commands cmd and cmd + 1, both accepted;
 * the StartMatch that follows (see rig_mm_next_start). */
Deckhand__Internal__Internal *rig_mm_place_two(rig_mm *r, uint64_t cmd, uint64_t now, int *worker);
/* The StartMatch the first worker with a message got (its index in *worker, unless
 * worker is NULL), or NULL. The caller frees it. */
Deckhand__Internal__Internal *rig_mm_next_start(rig_mm *r, int *worker);
/* The same for a StartMatch that is due: fatal when none came. */
Deckhand__Internal__Internal *rig_mm_expect_start(rig_mm *r, int *worker);

/* The StartMatch seats exactly players (comma-separated: "p1,p2"), in that order. */
void rig_mm_check_seats(const Deckhand__Internal__StartMatch *sm, const char *players);

/* ---- seated players -------------------------------------------------------------------- */

/* Seat pid in match_id (dominion, players ann and bob) on worker (endpoint tcp://a:1). */
void rig_mm_seat(seated_list *l, const char *pid, const char *match_id, uint32_t seat,
                 const char *worker);

#endif
