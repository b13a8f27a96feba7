/*
 * control.h: the matchmaker's message handlers, apart from the loop in main.c so the
 * whole control path (joins, hellos, beats, starts, ends) is testable over inproc
 * sockets (tests/unit/test_matchmaker_control.c).
 *
 * QueueJoin is validated here: the game must be served by a live worker
 * (UNKNOWN_GAME), players 0 means the game's minimum and must fit min..max
 * (BAD_REQUEST), and a player waits in one line at a time, placements included
 * (BAD_REQUEST). The QueueReply goes back to the sending gateway's identity.
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
