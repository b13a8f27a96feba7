/*
 * textguard.c: see textguard.h. A walk over the protobuf wire format (keys, varints,
 * length-delimited fields) beside the descriptors: only what a length-delimited field
 * is decides anything, a string (checked) or a message (walked in turn); scalars,
 * bytes, packed arrays and unknown fields are skipped over.
 */
#include "textguard.h"

#include <stdbool.h>
#include <stdio.h>

/* Deeper than any client message nests (ClientMessage, a body, a repeated option). */
#define TEXTGUARD_DEPTH 8

typedef struct {
    const uint8_t *p, *end;
} textguard_in;

/* A varint into *v; false at the end of the input or past ten bytes. */
static bool textguard_varint(textguard_in *in, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 70 && in->p < in->end; shift += 7) {
        uint8_t b = *in->p++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* Skip n bytes; false when fewer are left. */
static bool textguard_skip(textguard_in *in, uint64_t n)
{
    if (n > (uint64_t)(in->end - in->p))
        return false;
    in->p += n;
    return true;
}

static bool textguard_clean(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!TEXTGUARD_ALLOWED(s[i]))
            return false;
    return true;
}

static const char *textguard_walk(const ProtobufCMessageDescriptor *d, textguard_in in, int depth,
                                  char *why, size_t cap);

/* One length-delimited field of d (number num, bytes s[0..n)): NULL or the error. */
static const char *textguard_field(const ProtobufCMessageDescriptor *d, uint64_t num,
                                   const uint8_t *s, size_t n, int depth, char *why, size_t cap)
{
    const ProtobufCFieldDescriptor *f =
        num <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)num) : NULL;
    if (!f)
        return NULL; /* unknown: protobuf-c dropped it, nothing reads it */
    if (f->type == PROTOBUF_C_TYPE_STRING && !textguard_clean(s, n)) {
        snprintf(why, cap, "%s.%s must not hold control characters", d->short_name, f->name);
        return why;
    }
    if (f->type == PROTOBUF_C_TYPE_MESSAGE)
        return textguard_walk(f->descriptor, (textguard_in){s, s + n}, depth + 1, why, cap);
    return NULL;
}

static const char *textguard_walk(const ProtobufCMessageDescriptor *d, textguard_in in, int depth,
                                  char *why, size_t cap)
{
    static const char malformed[] = "undecodable message";
    if (depth > TEXTGUARD_DEPTH)
        return malformed;
    while (in.p < in.end) {
        uint64_t key, v;
        if (!textguard_varint(&in, &key))
            return malformed;
        switch (key & 7) {
        case 0: /* varint */
            if (!textguard_varint(&in, &v))
                return malformed;
            break;
        case 1: /* 64-bit */
            if (!textguard_skip(&in, 8))
                return malformed;
            break;
        case 5: /* 32-bit */
            if (!textguard_skip(&in, 4))
                return malformed;
            break;
        case 2: { /* length-delimited */
            if (!textguard_varint(&in, &v))
                return malformed;
            const uint8_t *s = in.p;
            if (!textguard_skip(&in, v))
                return malformed;
            const char *err = textguard_field(d, key >> 3, s, (size_t)v, depth, why, cap);
            if (err)
                return err;
            break;
        }
        default: /* groups: not in proto3, and protobuf-c refused them already */
            return malformed;
        }
    }
    return NULL;
}

const char *textguard_check(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t len,
                            char *why, size_t cap)
{
    return textguard_walk(d, (textguard_in){data, data + len}, 0, why, cap);
}
