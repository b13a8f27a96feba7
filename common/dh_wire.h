/*
 * dh_wire.h: the few pieces of the protobuf wire format read and written by hand on the
 * data paths: the gateway's (outwire.c: a worker's PlayerOutputs read in place; inwire.c: a
 * client's Choose forwarded as its own bytes; cmdbatch.c: the batch's head; watch.c: a
 * watch frame's last flag), the clients' (dh_client_lean.c: what a bot reads of a
 * message; dh_client_msg.c: a Choose packed by hand), the worker's (worker/out/: every
 * output packed by hand), the matchmaker's (store/gwout_pack.c: a gateway's QueueReply and
 * MatchAssigned packed by hand) and the engine's answer log (engine_log.c, the same varints in a
 * format of its own). A key is a
 * varint (field << 3 | wire type); a varint field's value follows it, a length-delimited
 * field's length and bytes do.
 */
#ifndef DECKHAND_DH_WIRE_H
#define DECKHAND_DH_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DH_WIRE_LEN(field)    ((uint64_t)(field) << 3 | 2)
#define DH_WIRE_VARINT(field) ((uint64_t)(field) << 3)
#define DH_WIRE_VARINT_MAX    10 /* bytes of the longest varint */

typedef struct {
    const uint8_t *data;
    size_t len;
} dh_wire_span;

/* Read a varint at *p (before end) into *v; false when it runs past end or past 64 bits. */
static inline bool dh_wire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    if (*p < end && !(**p & 0x80)) { /* one byte: most keys, lengths and ids */
        *v = *(*p)++;
        return true;
    }
    uint64_t x = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

/* Read a length and that many bytes at *p into *s; false when they run past end. */
static inline bool dh_wire_bytes(const uint8_t **p, const uint8_t *end, dh_wire_span *s)
{
    uint64_t n;
    if (!dh_wire_varint(p, end, &n) || n > (uint64_t)(end - *p))
        return false;
    s->data = *p;
    s->len = (size_t)n;
    *p += n;
    return true;
}

/* Write v as a varint at p: the bytes written (at most DH_WIRE_VARINT_MAX). */
static inline size_t dh_wire_put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* The bytes of v as a varint. */
static inline size_t dh_wire_varint_size(uint64_t v)
{
    size_t n = 1;
    while (v >>= 7)
        n++;
    return n;
}

#endif
