/*
 * dh_clock.h: the monotonic clock every process and the tests read for timeouts, budgets
 * and rates: one spelling of clock_gettime(CLOCK_MONOTONIC), in the two units the callers
 * count in. Not wall time (which a process reads itself where it stores or shows a date).
 */
#ifndef DECKHAND_DH_CLOCK_H
#define DECKHAND_DH_CLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point (boot); never goes back. Async-signal-safe. */
uint64_t dh_now_ns(void);
/* The same in milliseconds. */
uint64_t dh_now_ms(void);

#endif
