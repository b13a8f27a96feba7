/*
 * host_view.h: what each seat is shown of its match (host_view.c): a full View (with the
 * Catalog first when the seat has not had this bundle's), or a ViewDelta against the
 * View the seat was last sent. Private to the host's files.
 */
#ifndef DECKHAND_WORKER_HOST_VIEW_H
#define DECKHAND_WORKER_HOST_VIEW_H

#include "worker.h"

/* A full View of the match to seat (attach, Resync, a new bundle). */
void host_send_view(host *h, host_match *hm, int seat);
/* What changed for seat since its last View: a ViewDelta, or a full View when the seat has
 * none to build on or the match changed shape (zones or counters came or went). */
void host_send_update(host *h, host_match *hm, int seat);
/* Events, every attached seat's update, then the decider's request. */
void host_release_state(host *h, host_match *hm);
/* Forget what seat was shown (its connection changed): its next update is a full View,
 * with the Catalog before it. */
void host_view_forget(host_seat *s);

#endif
