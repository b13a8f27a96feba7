/*
 * dh_client_lean.h: decoding only what a bot reads of a ServerMessage.
 *
 * A load generator gets, per answer it sends, its Reply, the match's Events and a
 * ViewDelta (or a View) with the next DecisionRequest, and it reads of those only the
 * match id, the event sequence and the decision. Unpacking the rest (every zone of a
 * delta, every player and counter of a View, an Event's text) was the largest part of
 * `deckhand load`'s CPU per answer (docs/BENCHMARKS.md, issue 27). A connection in lean
 * mode (dh_client_set_lean) peeks at each message's kind on the wire and, for an Event, a
 * View or a ViewDelta, unpacks only those fields; a Catalog (card texts) is dropped
 * unread; every other kind is unpacked whole.
 *
 * The worker sends the decider its DecisionRequest twice: inside the ViewDelta (or View)
 * and on its own right after it (docs/PROTOCOL.md), and a bot answers the first. A lean
 * connection remembers the decision the View or ViewDelta it just decoded carried, and
 * drops the DecisionRequest that follows it at once for the same match, event sequence
 * and decision: a whole unpack of every option, for nothing, per answer.
 */
#ifndef DECKHAND_DH_CLIENT_LEAN_H
#define DECKHAND_DH_CLIENT_LEAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deckhand.pb-c.h"
#include "dh_client_arena.h"

/* What dh_client_lean_decode did with a message. */
typedef enum {
    DH_LEAN_WHOLE,   /* not a kind it thins (or not well formed): unpack it whole */
    DH_LEAN_DROPPED, /* a kind a bot never reads: nothing to hand out */
    DH_LEAN_DECODED, /* *out holds the thinned message (free it as any unpacked one) */
    DH_LEAN_FAILED,  /* out of memory, or the thinned fields did not unpack */
} dh_lean_result;

#define DH_LEAN_ID_MAX 128

/* The decision carried by the message decoded last on a connection, if that was a View or
 * a ViewDelta with one (valid); zero-initialised, nothing. */
typedef struct {
    bool valid;
    uint64_t event_seq, decision_id;
    size_t id_len;
    char match_id[DH_LEAN_ID_MAX];
} dh_lean_last;

/* Decode buf[0..len) keeping, of an Event, its match_id and event_seq; of a View or a
 * ViewDelta, its match_id, event_seq and decision. With last (the connection's, or NULL):
 * a DecisionRequest repeating the decision of the View or ViewDelta decoded just before
 * it is DH_LEAN_DROPPED, and last is updated for the next message. With arena (NULL:
 * malloc), *out lives in it (dh_arena_release), and an Event, a View, a ViewDelta or a
 * DecisionRequest is decoded straight from the wire into it, without protobuf-c's
 * table-driven unpack, and of the decision only what a bot reads: match_id, event_seq,
 * decision_id, seat, kind, min, max and each option's id, label and card (the rest stays
 * at its default); what that decoder cannot read is left to protobuf-c. */
dh_lean_result dh_client_lean_decode(const uint8_t *buf, size_t len, dh_lean_last *last,
                                     dh_arena *arena, Deckhand__ServerMessage **out);

#endif
