/*
 * pb_copy.h: an owned deep copy of a protobuf-c message, through its wire form (the
 * simplest exact copy protobuf-c offers): what the registry keeps of a worker's GameInfo
 * and the seated list of a MatchAssigned, both held after the message they came in is
 * freed.
 */
#ifndef DECKHAND_MM_PB_COPY_H
#define DECKHAND_MM_PB_COPY_H

#include <protobuf-c/protobuf-c.h>

/* A copy of m (free it with protobuf_c_message_free_unpacked, or the message's own
 * free_unpacked); NULL when memory ran out. */
ProtobufCMessage *pb_copy(const ProtobufCMessage *m);

#endif
