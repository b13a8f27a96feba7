/*
 * inbox.h: the worker's bounded queue of gateway commands, between the data socket and
 * the host.
 *
 * The loop reads the gateways' PlayerCommands into the inbox as fast as they come and the
 * host works them off in time-bounded batches, so bulk work never holds up the beat
 * (docs/ARCHITECTURE.md, "Liveness"). The inbox holds at most max commands (INBOX_MAX
 * unless --inbox-max says otherwise): one
 * that finds it full is answered OVERLOADED at once (the client retries later) instead of
 * waiting behind seconds of work. An Away (a dropped connection, no reply) is never
 * refused: it is kept whatever the length, so the host always learns of it.
 */
#ifndef DECKHAND_WORKER_INBOX_H
#define DECKHAND_WORKER_INBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "dh_zmq.h"
#include "internal.pb-c.h"

/* The default bound: about 0.15 s of work at the worker's ~150 us per command: the longest a
 * command waits here before the host looks at it. */
#define INBOX_MAX 1000

typedef struct {
    char route[DH_ZMQ_ID_MAX + 1];     /* the gateway it came through */
    Deckhand__Internal__Internal *msg; /* owned by the inbox until popped */
    uint64_t recv_ns;                  /* dh_now_ns when it was queued (command latency) */
} inbox_item;

typedef struct {
    inbox_item *v; /* v[head .. head+n) are queued, oldest first */
    size_t head, n, cap;
    size_t max; /* refuse commands beyond this many queued */
} inbox;

/* An empty inbox bounded at max commands (INBOX_MAX when 0). */
void inbox_init(inbox *q, size_t max);
/* Free every queued message and the array. */
void inbox_free(inbox *q);
/* Whether a command must be refused now: the inbox holds max (Aways are always
 * taken). */
bool inbox_full(const inbox *q, const Deckhand__Internal__Internal *msg);
/* Queue msg from route; the inbox owns msg from here. -1 when out of memory (msg is then
 * still the caller's). */
int inbox_push(inbox *q, const char *route, Deckhand__Internal__Internal *msg);
/* The oldest item, or NULL when empty; the caller owns item->msg then. The pointer stays
 * valid until the next push. */
inbox_item *inbox_pop(inbox *q);
size_t inbox_len(const inbox *q);

#endif
