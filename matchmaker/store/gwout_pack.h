/*
 * gwout_pack.h: the two messages a match sends each gateway per player, a QueueReply and a
 * MatchAssigned, packed by hand (issue 27): protobuf-c's get_packed_size and pack walk
 * each field's descriptor, about 2,700 instructions a message and 11,000 a match. The
 * bytes are protobuf-c's exactly (proto3: a string, number or flag at its default is left
 * out; every element of a repeated string is written), which test_matchmaker_gwout pins
 * against protobuf-c for every field set and unset.
 */
#ifndef DECKHAND_MM_GWOUT_PACK_H
#define DECKHAND_MM_GWOUT_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "internal.pb-c.h"

/* msg packed into a new malloc'd buffer *out of *len bytes: 1; 0 when msg is not one this
 * packs (another kind, a QueueReply with an error, unknown fields: the caller packs it
 * with protobuf-c); -1 when memory ran out. */
int gwout_pack(const Deckhand__Internal__Internal *msg, uint8_t **out, size_t *len);

#endif
