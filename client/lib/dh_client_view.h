/*
 * dh_client_view.h: keeping a match's View current from ViewDeltas (dh_client_view.c).
 *
 * The server sends a full View on attach, Resync and reconnect, and after that only
 * ViewDeltas: the zones and counters that changed, and the pending state. A client keeps
 * its last View and applies each delta to it; a delta that is not against that View
 * (its base_view_seq differs, or it names a zone or counter the View lacks) means
 * something was missed: send Resync, and the full View that answers replaces it.
 * Card texts are not in Views: they come in a Catalog, once per rules bundle.
 */
#ifndef DECKHAND_CLIENT_VIEW_H
#define DECKHAND_CLIENT_VIEW_H

#include "deckhand.pb-c.h"

typedef enum {
    DH_VIEW_APPLIED, /* v is now the state the delta describes */
    DH_VIEW_RESYNC,  /* not against v: v is unchanged; send Resync */
} dh_view_verdict;

/* Apply d to v, both unpacked by protobuf-c with the default allocator. What moves into
 * v is swapped out of d (v's old zones, counters and decision end up in d), so free d
 * afterwards as usual. A decision pointer taken from v before the call is stale after it. */
dh_view_verdict dh_view_apply(Deckhand__View *v, Deckhand__ViewDelta *d);

/* The catalog entry of the card called name (case-insensitive; a unique prefix will do),
 * or NULL. */
const Deckhand__CardInfo *dh_catalog_card(const Deckhand__Catalog *c, const char *name);

#endif
