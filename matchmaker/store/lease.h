/*
 * lease.h: which matchmaker acts. Any number may run; the one whose id is in mm:lease
 * forms matches, answers queue joins and moves matches off dead workers, the others
 * wait (a standby answers joins UNAVAILABLE).
 *
 * A standby tries SET mm:lease ID NX PX 3000 every second (a matchmaker restarted under
 * the same id takes its own lease back at once); the holder renews it every second with
 * a compare-and-PEXPIRE script. A holder counts its lease from the moment it sent the
 * command, so it believes in it a little less long than Redis does: one that cannot
 * renew (Redis down, or the process stalled) stops acting when the lease may have passed
 * to another, and Redis's own writes are fenced by the lease too (state.c), so a holder
 * that was deposed without noticing changes nothing. lease_tick tells its caller
 * (mm_tick) what winning or losing means for the rest: losing drops the queues and
 * placements from memory; winning loads them from Redis (mm_load), then lease_loaded.
 */
#ifndef DECKHAND_MM_LEASE_H
#define DECKHAND_MM_LEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "mm.h"

#define LEASE_MS       3000
#define LEASE_RENEW_MS 1000

struct mm_state;

/* What lease_tick asks of its caller. */
typedef enum {
    LEASE_KEEP,      /* nothing to do */
    LEASE_DROP,      /* the lease is lost: forget the state held in memory */
    LEASE_MUST_LOAD, /* held and not loaded yet: reset, load, then call lease_loaded */
} lease_change;

/* Acquire, renew, or give up the lease as its timers say; logs every transition. */
lease_change lease_tick(struct mm_state *mm, uint64_t now_ms);
/* The state was loaded after winning the lease: acting starts now. */
void lease_loaded(struct mm_state *mm, uint64_t now_ms);
bool lease_acting(const struct mm_state *mm, uint64_t now_ms);
/* Another matchmaker holds the lease (a fenced write said so): stop acting at once;
 * the next lease_tick drops the state from memory. */
void lease_lost(struct mm_state *mm, const char *why);
/* Delete the lease if it is still ours, so a standby need not wait for it to expire. */
void lease_release(struct mm_state *mm, uint64_t now_ms);

#endif
