/*
 * mm_store.h: the front door of the matchmaker's store wing (matchmaker/store/): the process
 * state and what the matchmaker keeps in Redis.
 *
 *   mm.h     the process state (mm_state), one struct handed to every module
 *   rconn.h  the Redis connection: commands, pipelines, scripts by hash
 *   lease.h  which matchmaker acts (mm:lease)
 *   state.h  the waiting tickets and unanswered placements as stored, fenced by the lease
 *
 * Why the process state lives here: every wing from this one up takes the whole state
 * (rconn needs its connection and scripts, lease its lease, state its deferred deletes), and
 * the state's fields are the data wing's structures plus small records of the wings above
 * (placements, takeovers, batched joins, admin waits) spelled in mm.h as plain data. Putting
 * mm.h in the lowest wing that needs it keeps every include pointing down; the data wing
 * below never sees it (options_check takes the registry, not the state).
 *
 * Library dh_mm_store; links the data wing only.
 */
#ifndef DECKHAND_MM_STORE_FRONT_H
#define DECKHAND_MM_STORE_FRONT_H

#include "../gwout.h"
#include "../lease.h"
#include "../mm.h"
#include "../rconn.h"
#include "../state.h"

#endif
