/*
 * engine_undo.h: what engine_undo.c notes before an answer runs, to judge after it
 * whether its seat may take it back (engine.h, engine_match_can_take_back), kept in
 * engine_match.undo. Private to the engine, like engine_internal.h, which includes it.
 */
#ifndef DECKHAND_ENGINE_UNDO_H
#define DECKHAND_ENGINE_UNDO_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

typedef struct {
    int seat;            /* whose last answer may be taken back; -1: nobody's */
    uint64_t rng[4];     /* the generator before the answer */
    uint32_t turn;       /* the turn before it */
    uint64_t *hidden;    /* zone index << 32 | id of every card hidden from its seat (owned) */
    size_t nhidden, cap; /* entries of hidden (one per card), its capacity */
} engine_undo_note;

/* Before seat's answer runs: note what judges it (0, or -1 out of memory: then it may not
 * be taken back); after it ran: the judgement, into m->undo.seat. */
int engine_undo_begin(engine_match *m, int seat);
void engine_undo_end(engine_match *m, int seat);

#endif
