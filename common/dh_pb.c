/*
 * dh_pb.c: a oneof set in one step (see dh_pb.h).
 */
#include "dh_pb.h"

#include <assert.h>
#include <stdint.h>

void *dh_pb_oneof(void *msg, unsigned field, void *body)
{
    const ProtobufCMessage *m = msg;
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field(m->descriptor, field);
    assert(f && (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && f->type == PROTOBUF_C_TYPE_MESSAGE);
    assert(body && f->descriptor == ((const ProtobufCMessage *)body)->descriptor);
    *(uint32_t *)((char *)msg + f->quantifier_offset) = field; /* the oneof's case */
    *(void **)((char *)msg + f->offset) = body;
    return msg;
}
