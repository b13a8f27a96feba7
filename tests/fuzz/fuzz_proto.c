/*
 * fuzz_proto.c: fuzz target `proto`, protobuf decoding (protobuf-c over the code generated
 * from proto/deckhand.proto and proto/internal.proto) of every message a process reads:
 * ClientMessage from players, Internal between processes, the ticket and placement records
 * in Redis, and each of their parts on its own.
 *
 * Input: byte 0 picks the message type (an index into proto_types.h, modulo its size), the rest is
 * the encoded message. Properties: a message that decodes is valid (protobuf_c_message_check), and
 * encoding it, decoding that and encoding again gives the same bytes (unknown fields included). One
 * exception: protobuf-c keeps an unknown field whose number is 0 (invalid) when its tag is written
 * in two bytes, and re-encodes it in one byte, which it then refuses; so a re-decode may fail, but
 * only for a message that carries unknown fields. protobuf-c itself is the system library, not
 * instrumented: the coverage guiding this target is the generated code's.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "proto_types.h"

/* Encode m into a new buffer (*len bytes; the caller frees it). */
static uint8_t *proto_pack(const ProtobufCMessage *m, size_t *len)
{
    *len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(*len ? *len : 1);
    FUZZ_CHECK(buf);
    FUZZ_CHECK(protobuf_c_message_pack(m, buf) == *len);
    return buf;
}

/* True when m or a message inside it holds unknown fields. */
static bool proto_has_unknown(const ProtobufCMessage *m)
{
    if (m->n_unknown_fields)
        return true;
    const char *base = (const char *)m;
    for (unsigned i = 0; i < m->descriptor->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &m->descriptor->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            ProtobufCMessage *const *v = *(ProtobufCMessage *const *const *)(base + f->offset);
            for (size_t j = 0; j < n; j++)
                if (proto_has_unknown(v[j]))
                    return true;
            continue;
        }
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
            *(const uint32_t *)(base + f->quantifier_offset) != f->id)
            continue;
        const ProtobufCMessage *sub = *(ProtobufCMessage *const *)(base + f->offset);
        if (sub && proto_has_unknown(sub))
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const ProtobufCMessageDescriptor *d = proto_types[data[0] % PROTO_NTYPES];
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, size - 1, data + 1);
    if (!m)
        return 0;
    FUZZ_CHECK(protobuf_c_message_check(m));
    size_t n1, n2;
    uint8_t *b1 = proto_pack(m, &n1);
    ProtobufCMessage *m2 = protobuf_c_message_unpack(d, NULL, n1, b1);
    if (!m2) {
        FUZZ_CHECK(proto_has_unknown(m));
        free(b1);
        protobuf_c_message_free_unpacked(m, NULL);
        return 0;
    }
    uint8_t *b2 = proto_pack(m2, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);
    protobuf_c_message_free_unpacked(m2, NULL);
    protobuf_c_message_free_unpacked(m, NULL);
    return 0;
}
