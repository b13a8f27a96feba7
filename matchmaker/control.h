/*
 * control.h: the matchmaker's message handlers, apart from the loop in main.c so the
 * whole control path (joins, hellos, beats, starts, ends, adoptions) is testable over
 * inproc sockets (tests/unit/test_matchmaker_*.c).
 *
 * Hellos, beats and match ends feed the registry whether or not this matchmaker acts, so
 * a standby knows the workers when it takes over. Everything else is for the acting one
 * (tickets.c, placement.c, takeover.c); a standby answers joins and leaves UNAVAILABLE
 * "standby matchmaker" and ignores the rest.
 */
#ifndef DECKHAND_MM_CONTROL_H
#define DECKHAND_MM_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.pb-c.h"
#include "matchmaker.h"

/* Handle one message from identity; true when it may let a new match form now. */
bool control_handle(mm_state *mm, const char *identity, const Deckhand__Internal__Internal *msg,
                    uint64_t now_ms);

#endif
