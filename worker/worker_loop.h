/*
 * worker_loop.h: one turn of the worker's loop, and when the next one is due; main.c
 * polls the two sockets and calls worker_loop_turn after every wake-up.
 *
 * A turn reads what waits (StartMatch and AdoptMatch from the matchmaker, PlayerCommands
 * from gateways into the inbox, inbox.h), lets the host work the inbox for at most
 * WORKER_BATCH_MS, flushes (every Redis write of the batch goes out as one pipeline and
 * only then are the outputs released, host.h), and runs what is due: the beat, the hello,
 * adoption, timers, the bundle poll, the rating sweep (rater_sweep, store.h), and last the replays
 * sent to players (replay.h), a bounded share of them per turn. The beat is checked before and
 * after the batch, so under any backlog it leaves at most about one batch late: a busy worker is
 * never silent long enough (REGISTRY_DEAD_MS) to be taken for dead. What stays queued is worked in
 * the next turns, which poll without waiting.
 */
#ifndef DECKHAND_WORKER_WORKER_LOOP_H
#define DECKHAND_WORKER_WORKER_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host.h"
#include "inbox.h"
#include "store.h"

#define WORKER_BEAT_MS  500
#define WORKER_HELLO_MS 500 /* a restarted matchmaker knows us within one beat */
#define WORKER_BATCH_MS 50  /* the host works the inbox this long per turn, at most */
#define WORKER_RATE_MS  250 /* matches:unrated is swept this often */
#define WORKER_RATE_MAX 16  /* jobs one sweep takes, at most */

typedef struct {
    inbox in;
    unsigned batch_ms; /* WORKER_BATCH_MS; 0: one command per turn (tests) */
    uint64_t next_beat, next_hello, next_poll, next_adopt, next_owned, next_rate, last_wake;
    rater rater;
    size_t due;     /* default answers made last turn: more may be due at once */
    bool beaten;    /* a beat went out (readiness) */
    bool replaying; /* replays have work left (replay_work): the next turn comes soon */
} worker_loop;

/* A loop whose inbox refuses commands beyond inbox_max queued (INBOX_MAX when 0). */
void worker_loop_init(worker_loop *l, uint64_t now_ms, size_t inbox_max);
void worker_loop_free(worker_loop *l);
/* How long the poll before the next turn may wait, in ms (0: work is queued). */
long worker_loop_timeout(const worker_loop *l, uint64_t now_ms);
/* One turn, on the real clock (dh_now_ms). */
void worker_loop_turn(worker_loop *l, host *h);
/* The last word as the worker stops: flush, and a stopping beat, so the matchmaker moves
 * our matches now rather than after REGISTRY_DEAD_MS of silence. */
void worker_loop_stop(worker_loop *l, host *h);

#endif
