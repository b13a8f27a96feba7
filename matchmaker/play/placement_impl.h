/*
 * placement_impl.h: the placement module's insides, shared by its two files and private to
 * the play wing: placement.c keeps the list, its storage and the StartMatch / MatchStarted
 * handshake; placement_form.c makes new placements (a formation pass over the lines, or a
 * lobby's players placed together) and hands them to the handshake through these calls.
 */
#ifndef DECKHAND_MM_PLACEMENT_IMPL_H
#define DECKHAND_MM_PLACEMENT_IMPL_H

#include "placement.h"

/* A new zeroed slot at the end of the list; NULL on allocation failure. */
placement *placement_add(placement_list *l);
/* Index p (by its match id, which must be set) and its players. -1 when memory ran out
 * (nothing of p stays indexed). */
int placement_index(placement_list *l, const placement *p);
/* Drop p (its tickets are freed); the last placement moves into its slot. */
void placement_remove(placement_list *l, placement *p);
/* Back to the front of their line: the players keep their place for the retry. */
void placement_requeue(mm_state *mm, placement *p);
/* Store the n placements from ps in one write. 0, or -1 when Redis did not take it. */
int placement_store_many(mm_state *mm, uint64_t now_ms, const placement *ps, size_t n);
/* Send p's StartMatch to its worker: dh_zmq_send's result. */
int placement_send_start(mm_state *mm, const placement *p);
/* The worker refused or ignored p (or could not be sent to): requeue its players and
 * steer the retry elsewhere. p is removed. */
void placement_fail(mm_state *mm, placement *p, const char *why, uint64_t now_ms);

#endif
