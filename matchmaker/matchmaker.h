/*
 * matchmaker.h: the matchmaker process state, one struct handed to every module.
 */
#ifndef DECKHAND_MM_MATCHMAKER_H
#define DECKHAND_MM_MATCHMAKER_H

#include "placement.h"
#include "queue.h"
#include "registry.h"

typedef struct mm_state {
    void *router; /* bound at --bind; workers and gateways connect DEALERs */
    queue_set *queues;
    registry reg;
    placement_list placements;
} mm_state;

#endif
