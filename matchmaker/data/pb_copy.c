/*
 * pb_copy.c: a deep copy of a protobuf-c message (see pb_copy.h).
 */
#include "pb_copy.h"

#include <stdint.h>
#include <stdlib.h>

ProtobufCMessage *pb_copy(const ProtobufCMessage *m)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return NULL;
    protobuf_c_message_pack(m, buf);
    ProtobufCMessage *c = protobuf_c_message_unpack(m->descriptor, NULL, len, buf);
    free(buf);
    return c;
}
